"""Where the screen goes: full screen on a Pi console, a window on a desktop, or PNG files.

:meth:`Window.open` tries SDL video drivers in turn and keeps the first that works:

* ``SDL_VIDEODRIVER`` from the environment, if set (a list, ``wayland,x11``, in turn);
* otherwise, with a desktop (``DISPLAY`` or ``WAYLAND_DISPLAY``), SDL's own choice in a
  window sized to the desktop (:func:`window_size`); without one, ``kmsdrm`` (a Pi with
  no desktop), full screen, then SDL's own choice where a Wayland desktop could still be
  found (a valid ``XDG_RUNTIME_DIR``: without one, SDL's Wayland try only prints
  "XDG_RUNTIME_DIR is invalid");
* last, ``dummy``: nothing is shown and :meth:`Window.show` saves screenshots to a folder.

"No display" is never an error: it is the dummy driver. SDL's ``offscreen`` driver shows
nothing either, and is headless like ``dummy``.

A window on a desktop can be resized (every screen is laid out afresh from the surface's
size at each frame) and ``F11`` switches it to full screen and back: :meth:`Window.events`
handles both before anyone else sees the events.
"""

from __future__ import annotations

import logging
import os
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pygame

log = logging.getLogger(__name__)

DEFAULT_WINDOW = (800, 480)
"""The screen's size without a display (the screenshots), and the smallest window a
desktop gets unless its own screen is smaller."""
MIN_WINDOW = (480, 288)
"""A window is never resized smaller than this (3/5 of 800x480): below it the screen's
figures could not be read at all."""
DESKTOP_SHARE = (0.9, 0.85)
"""The share of the desktop's width and height a window opens at: room left for the
desktop's panels and the window's title bar."""
ASPECTS = (4 / 3, 16 / 9)
"""The narrowest and the widest window opened (width / height)."""
HEADLESS = ("dummy", "offscreen")
"""SDL video drivers that show nothing: the app plays as if nobody watched."""


class Window:
    """An open pygame display (or an off-screen surface) to draw on."""

    def __init__(
        self,
        surface: pygame.Surface,
        driver: str,
        *,
        fullscreen: bool = False,
        screenshots: Path | None = None,
        screenshot_every: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.surface = surface
        self.driver = driver
        self.fullscreen = fullscreen
        self.screenshots = screenshots
        """Folder for screenshots when there is no display (dummy driver)."""
        self.screenshot_every = screenshot_every
        self.clock = clock
        self._last_shot: float | None = None
        self.shots = 0
        self._windowed: tuple[int, int] | None = None if fullscreen else surface.get_size()
        """The window's size to go back to when F11 leaves full screen."""
        self._sigterm_set, self._sigterm_was = _quit_on_sigterm()

    @property
    def headless(self) -> bool:
        return self.driver in HEADLESS

    @property
    def size(self) -> tuple[int, int]:
        return self.surface.get_size()

    @classmethod
    def open(
        cls,
        size: tuple[int, int] | None = None,
        *,
        fullscreen: bool | None = None,
        screenshots: str | Path | None = None,
        title: str = "zonkcam",
    ) -> Window:
        """Open the display; ``size`` None = the whole screen (or a window fitted to the
        desktop, :func:`window_size`; 800x480 without a display)."""
        shots = Path(screenshots) if screenshots else Path("screenshots")
        for driver in candidate_drivers(os.environ):
            surface = _try_driver(driver, size, fullscreen, title)
            if surface is not None:
                full = bool(surface.get_flags() & pygame.FULLSCREEN)
                log.info(
                    "display: %s %s%s", driver, surface.get_size(), " full screen" if full else ""
                )
                return cls(
                    surface,
                    driver,
                    fullscreen=full,
                    screenshots=shots if driver in HEADLESS else None,
                )
        raise RuntimeError("not even SDL's dummy video driver works")  # pragma: no cover

    @property
    def resizable(self) -> bool:
        """A window on a desktop: it can be resized and F11 makes it full screen (not a
        Pi's console, where the screen is all there is, nor no display at all)."""
        return not self.headless and self.driver != "kmsdrm"

    def events(self) -> list[pygame.event.Event]:
        """Every event since the last call, less F11 (full screen and back, done here);
        a resized window's new surface is :attr:`surface` from here on."""
        out = []
        for event in pygame.event.get():
            if event.type == pygame.KEYDOWN and event.key == pygame.K_F11:
                self.toggle_fullscreen()
                continue
            if event.type == pygame.VIDEORESIZE:
                self._resized(event.size)
            elif event.type == pygame.WINDOWSIZECHANGED:
                self._resized((event.x, event.y))
            out.append(event)
        return out

    def toggle_fullscreen(self) -> None:
        """Full screen (the desktop's whole screen) and back to the window as it was."""
        if not self.resizable:
            return
        try:
            if self.fullscreen:
                size = self._windowed or window_size(desktop_size())
                self.surface = pygame.display.set_mode(size, pygame.RESIZABLE)
                if self.surface.get_size() != size:  # SDL 2.28 keeps the full screen's size
                    self.surface = pygame.display.set_mode(size, pygame.RESIZABLE)
            else:
                self._windowed = self.size
                self.surface = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
        except pygame.error as exc:
            log.warning("cannot switch full screen: %s", exc)
            return
        self.fullscreen = bool(self.surface.get_flags() & pygame.FULLSCREEN)
        log.info("display: %s%s", self.size, " full screen" if self.fullscreen else "")

    def _resized(self, size: tuple[int, int]) -> None:
        """The window was resized (by the user or the desktop) to ``size``: draw on its
        new surface from here on, never smaller than :data:`MIN_WINDOW`. SDL resizes the
        surface with the window; where it has not (a driver that only reports the
        event, or a window made smaller than the least), it is asked to."""
        current = pygame.display.get_surface()
        if not self.resizable or self.fullscreen or current is None:
            return
        size = (max(MIN_WINDOW[0], size[0]), max(MIN_WINDOW[1], size[1]))
        if current.get_size() != size:
            try:
                current = pygame.display.set_mode(size, pygame.RESIZABLE)
            except pygame.error as exc:
                log.warning("cannot resize the window to %s: %s", size, exc)
        self.surface = current

    def due(self) -> bool:
        """Whether a frame shown now would be seen: always on a display; without one, when
        the next ``screen.png`` is due."""
        return (
            not self.headless
            or self._last_shot is None
            or self.clock() - self._last_shot >= self.screenshot_every
        )

    def show(self) -> None:
        """Put what was drawn on the screen; without a display, save it now and then."""
        if not self.headless:
            pygame.display.flip()
            return
        now = self.clock()
        if self._last_shot is None or now - self._last_shot >= self.screenshot_every:
            self._last_shot = now
            self.screenshot("screen.png")

    def screenshot(self, name: str) -> Path | None:
        """Save the surface as ``name`` (a path in it: ``game-0001/turn-0001.png``) in the
        screenshots folder (headless) or None."""
        if self.screenshots is None:
            return None
        try:
            path = self.screenshots / name
            path.parent.mkdir(parents=True, exist_ok=True)
            pygame.image.save(self.surface, str(path))
        except (OSError, pygame.error) as exc:
            log.warning("cannot save screenshot %s: %s", name, exc)
            return None
        self.shots += 1
        return path

    def close(self) -> None:
        pygame.display.quit()
        if self._sigterm_set:  # the handler before ours (None: not Python's; the default)
            signal.signal(signal.SIGTERM, self._sigterm_was or signal.SIG_DFL)
            self._sigterm_set = False

    def __enter__(self) -> Window:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _quit_on_sigterm() -> tuple[bool, object]:
    """SIGTERM (systemd stopping the service) becomes a quit event, so the app leaves its
    loop, prints the scores and exits cleanly. SDL does the same by itself once a display
    is up, but not with ``SDL_NO_SIGNAL_HANDLERS`` set, nor if it is ever changed: this
    does not depend on it. Returns (whether it was set: not off the main thread, where
    Python cannot set one; the handler it replaced)."""
    if threading.current_thread() is not threading.main_thread():
        return False, None
    return True, signal.signal(signal.SIGTERM, _post_quit)


def _post_quit(_signum: int, _frame: object) -> None:
    pygame.event.post(pygame.event.Event(pygame.QUIT))


def candidate_drivers(env: os._Environ[str] | dict[str, str]) -> list[str | None]:
    """SDL video drivers to try in order; None means SDL's own choice."""
    wanted = env.get("SDL_VIDEODRIVER", "").strip()
    if wanted:
        order: list[str | None] = [d.strip() for d in wanted.split(",") if d.strip()]
    elif env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"):
        order = [None, "kmsdrm"]
    else:
        runtime = env.get("XDG_RUNTIME_DIR", "")
        order = ["kmsdrm", None] if runtime and os.path.isdir(runtime) else ["kmsdrm"]
    if "dummy" not in order:
        order.append("dummy")
    return order


def _try_driver(
    driver: str | None, size: tuple[int, int] | None, fullscreen: bool | None, title: str
) -> pygame.Surface | None:
    saved = os.environ.get("SDL_VIDEODRIVER")
    if driver is None:
        os.environ.pop("SDL_VIDEODRIVER", None)
    else:
        os.environ["SDL_VIDEODRIVER"] = driver
    try:
        pygame.display.quit()  # an earlier window's display would make init() keep its driver
        pygame.display.init()
        actual = pygame.display.get_driver().lower()
        if driver is None and actual in ("offscreen", "dummy"):
            raise pygame.error("no real display")  # leave the dummy to the last try
        if driver is not None and actual != driver.lower():
            raise pygame.error(f"SDL runs {actual} instead")
        full = fullscreen if fullscreen is not None else actual == "kmsdrm"
        if actual in HEADLESS:
            surface = pygame.display.set_mode(size or DEFAULT_WINDOW)
        elif full:
            surface = pygame.display.set_mode(size or (0, 0), pygame.FULLSCREEN)
            pygame.mouse.set_visible(False)
        else:
            surface = pygame.display.set_mode(size or window_size(desktop_size()), pygame.RESIZABLE)
        pygame.display.set_caption(title)
        return surface
    except pygame.error as exc:
        log.info("video driver %s: %s", driver or "(SDL's choice)", exc)
        pygame.display.quit()
        if saved is None:
            os.environ.pop("SDL_VIDEODRIVER", None)
        else:
            os.environ["SDL_VIDEODRIVER"] = saved
        return None


def desktop_size() -> tuple[int, int]:
    """The size of the (first) desktop's screen, once the display is initialised."""
    sizes = pygame.display.get_desktop_sizes()
    return sizes[0] if sizes else DEFAULT_WINDOW


def window_size(desktop: tuple[int, int]) -> tuple[int, int]:
    """The size a window opens at on a desktop of size ``desktop``: as large as
    :data:`DESKTOP_SHARE` of it, between 4:3 and 16:9 (:data:`ASPECTS`), and not under
    800x480 unless the desktop itself is smaller (then the whole desktop).

    >>> window_size((1280, 800)), window_size((1920, 1080)), window_size((800, 480))
    ((1152, 680), (1632, 918), (800, 480))
    """
    dw, dh = desktop
    w, h = round(dw * DESKTOP_SHARE[0]), round(dh * DESKTOP_SHARE[1])
    narrow, wide = ASPECTS
    w = max(round(h * narrow), min(w, round(h * wide)))
    if w > dw * DESKTOP_SHARE[0]:  # too narrow a desktop for 4:3 at that height
        w = round(dw * DESKTOP_SHARE[0])
        h = min(h, round(w / narrow))
    return min(dw, max(w, DEFAULT_WINDOW[0])), min(dh, max(h, DEFAULT_WINDOW[1]))
