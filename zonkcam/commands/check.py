"""`zonkcam check`: try the camera, the three buttons and the screen before installing the
service, as gpiozero's ``pinout`` shows a Pi's pins.

It saves a camera frame with the mat's markers found drawn on it and says which mat they
are (as ``calibrate`` knows it), shows the screen's size and SDL driver as the table app
opens them, shows each button press as it happens, and ends with one line: what is
missing, or that all is ready (exit status 1 where something is missing). Off a Pi,
missing hardware is the normal answer, never an error.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

from zonkcam.commands import options
from zonkcam.controls import BANK, DRUNK, ODDS, ROLL, SELECT, UNDO, Control
from zonkcam.errors import UserError
from zonkcam.fileio import image_target_problem
from zonkcam.game.names import cut, escaped

BUTTONS = ("BANK", "ROLL", "SELECT")
"""The three buttons, in the order --pins names their GPIO pins."""
PRESSED: dict[Control, tuple[str, str]] = {
    BANK.kind: ("BANK", "pressed"),
    ODDS.kind: ("BANK", "held (the odds)"),
    ROLL.kind: ("ROLL", "pressed"),
    DRUNK.kind: ("ROLL", "held (drinks settled)"),
    SELECT.kind: ("SELECT", "pressed"),
    UNDO.kind: ("SELECT", "held (undo)"),
}
"""Each command the buttons give: the button and what was done to it."""
SECONDS = 30
"""How long the check waits for the three buttons to be pressed, at most (--seconds)."""
POLL = 0.02
"""How often the buttons are read while the check waits (s), as the app reads them."""
SHORT = 60
"""The most characters of a reason in the closing line."""

Say = Callable[[str], None]


def default_out() -> Path:
    """Where the camera frame is saved unless --out says: ``zonkcam-check.png`` in the
    temporary folder (``$TMPDIR``, else /tmp), each check's over the last's."""
    return Path(tempfile.gettempdir()) / "zonkcam-check.png"


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "check",
        help="try the camera, the three buttons and the screen (before install-service)",
        description="Tries what the table needs before the service is installed: saves a "
        "camera frame with the mat's markers found drawn on it and says which mat they are, "
        "shows the screen's size and SDL driver as play opens it, shows each button press as "
        "it happens, and ends with one line: what is missing (exit status 1), or that all is "
        "ready (0). Off a Pi, missing hardware is its normal answer, never an error.",
    )
    options.add_source(p)
    p.add_argument(
        "--out",
        metavar="FILE",
        help="where the camera frame with the markers found is saved (.png or .jpg; "
        "default: zonkcam-check.png in the temporary folder, $TMPDIR or else /tmp)",
    )
    p.add_argument(
        "--warmup",
        type=int,
        metavar="N",
        default=10,
        help="frames to skip while the camera settles (default 10)",
    )
    p.add_argument(
        "--seconds",
        type=float,
        metavar="N",
        default=SECONDS,
        help=f"how long to wait for the button presses (default {SECONDS}); it ends sooner "
        "once all three were pressed, at Escape on the screen, or at Ctrl-C",
    )
    options.add_pins(p)
    p.add_argument(
        "--size", metavar="WxH", help="window size, as for play (default: as play opens it)"
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from zonkcam.commands.play import parse_pins, parse_size

    pins, size = parse_pins(args.pins), parse_size(args.size)
    if not 0 <= args.seconds <= 3600:
        raise UserError("--seconds takes 0 to 3600")
    out = Path(args.out) if args.out else default_out()
    problem = image_target_problem(out)
    if problem:
        raise UserError(f"--out {escaped(str(out))}: {problem}")
    missing, mat = check_camera(args.source, out, args.warmup)
    window, no_screen = open_screen(size)
    try:
        missing += check_buttons(pins, args.seconds, window)
    finally:
        if window is not None:
            window.close()
    missing += no_screen
    print(closing_line(missing, mat))
    return 1 if missing else 0


def closing_line(missing: list[str], mat: str | None) -> str:
    """The check's last line: what is missing, or that all is ready."""
    if missing:
        return f"missing: {', '.join(missing)}"
    return f"ready: camera, {mat} mat, buttons and screen; next: zonkcam calibrate"


def _note(text: str) -> None:
    print(f"zonkcam check: {text}", file=sys.stderr, flush=True)


def _short(text: str) -> str:
    """A reason cut for the closing line: up to its first aside or clause."""
    return cut(re.split(r" \(|; |: ", text, maxsplit=1)[0], SHORT)


# -- the camera and the mat ------------------------------------------------------------------


def check_camera(
    spec: str, out: Path, warmup: int = 10, say: Say = print
) -> tuple[list[str], str | None]:
    """Grab a frame from the source `spec` names (as calibrate does), save it to `out` with
    the markers found drawn on it, and say which mat they are. Returns what is missing
    (``camera (...)``, ``mat (...)``) and the name of the mat found."""
    from zonkcam import sources
    from zonkcam.app import camera
    from zonkcam.commands.calibrate import found_line
    from zonkcam.fileio import write_image
    from zonkcam.mat.calibrate import CalibrationError, draw_markers, find_mat, markers_in_view
    from zonkcam.sources import CameraError

    if spec == "auto" and not sources.picamera2_available():
        say(
            "camera: none (picamera2 is not installed: not a Raspberry Pi?); "
            "--source usb tries a USB camera"
        )
        return ["camera (no picamera2: not a Raspberry Pi?)"], None
    try:
        image, name = camera.grab_frame(spec, warmup, say=_note)
    except CameraError as exc:
        say(f"camera: none ({exc})")
        return [f"camera ({_short(str(exc))})"], None
    seen = markers_in_view(image)
    geo = None
    try:
        geo = find_mat(image, seen)
        headline = found_line(geo)
    except CalibrationError as exc:
        headline = str(exc)
    try:
        write_image(out, draw_markers(image, seen, headline))
        saved = f"saved with the markers found drawn on it: {escaped(str(out))}"
    except OSError as exc:  # WriteFailed: a full disk, a folder this user may not write
        saved = f"not saved ({exc.strerror or exc}: {escaped(str(out))})"
    say(f"camera: {name}, {image.shape[1]}x{image.shape[0]} frames; a frame {saved}")
    say(f"mat: {headline}")
    if geo is None:
        return [f"mat ({_short(headline)})"], None
    return [], geo.name


# -- the screen -------------------------------------------------------------------------------


def open_screen(size: tuple[int, int] | None, say: Say = print) -> tuple[Any, list[str]]:
    """The screen as the table app opens it (zonkcam.display.window.Window), and what is
    missing: ``screen (...)`` where there is no display to show on (SDL's dummy driver)."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    from zonkcam.display.window import Window

    try:
        window = Window.open(size)
    except (RuntimeError, pygame.error) as exc:  # not even SDL's dummy driver
        say(f"screen: none ({exc})")
        return None, [f"screen ({_short(str(exc))})"]
    driver = window.driver or pygame.display.get_driver()  # None: SDL's own choice
    w, h = window.size
    if window.headless:
        say(f"screen: none (no display to show on: SDL's {driver} driver)")
        return window, [f"screen (no display: SDL {driver} driver)"]
    how = "full screen" if window.fullscreen else "in a window"
    say(f"screen: {w}x{h} {how}, SDL video driver {driver}")
    return window, []


def draw_page(surface: Any, pen: Any, pressed: dict[str, str], driver: str) -> None:
    """The check's page on the screen: its size and driver, and the three buttons, each
    lit once pressed with what was done to it."""
    import pygame

    from zonkcam.display.draw import ACCENT, BACKGROUND, DIM, PANEL, TEXT, figure_size

    w, h = surface.get_size()
    size = figure_size(surface)
    surface.fill(BACKGROUND)
    pen.text(surface, "zonkcam check", size, (w // 2, h // 12), anchor="midtop", label=True)
    pen.text(
        surface,
        f"screen {w}x{h}, SDL {driver}",
        size * 2 // 3,
        (w // 2, h // 12 + size * 3 // 2),
        color=DIM,
        anchor="midtop",
        label=True,
    )
    box_w, box_h, gap = w // 4, h // 3, w // 16
    left = (w - 3 * box_w - 2 * gap) // 2
    for k, name in enumerate(BUTTONS):
        rect = (left + k * (box_w + gap), h // 2 - box_h // 4, box_w, box_h)
        lit = name in pressed
        ground = ACCENT if lit else PANEL
        pygame.draw.rect(surface, ground, rect, border_radius=max(2, box_h // 10))
        colour = BACKGROUND if lit else TEXT
        centre = (rect[0] + box_w // 2, rect[1] + box_h // 3)
        pen.text(surface, name, size, centre, color=colour, background=ground, anchor="center")
        said = pressed.get(name, "press me")
        below = (rect[0] + box_w // 2, rect[1] + box_h * 2 // 3)
        pen.text(
            surface,
            said,
            size // 2,
            below,
            color=colour,
            background=ground,
            anchor="center",
            width=box_w - 8,
            label=True,
        )


# -- the buttons ------------------------------------------------------------------------------


def open_check_buttons(
    pins: tuple[int, int, int], clock: Callable[[], float], say: Say = print, **options: Any
) -> tuple[Any, list[str]]:
    """The arcade buttons (zonkcam.hardware.buttons) as the app reads them, and what is
    missing: ``buttons (no GPIO)`` off a Pi."""
    from zonkcam.hardware.buttons import ArcadeButtons, ButtonPins

    try:
        with warnings.catch_warnings():  # gpiozero warns of each pin library it cannot load
            warnings.simplefilter("ignore")
            return ArcadeButtons(ButtonPins(*pins), clock=clock, **options), []
    except ModuleNotFoundError as exc:
        if exc.name != "gpiozero":
            raise
        say("buttons: none (gpiozero is not installed)")
        return None, ["buttons (gpiozero is not installed)"]
    except Exception as exc:  # gpiozero's BadPinFactory, a pin in use, no permission
        if type(exc).__name__ == "BadPinFactory":
            say(f"buttons: none (no GPIO to read them on: {exc})")
            return None, ["buttons (no GPIO)"]
        say(f"buttons: none ({exc})")
        return None, [f"buttons ({_short(str(exc))})"]


def check_buttons(
    pins: tuple[int, int, int],
    seconds: float,
    window: Any = None,
    *,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
    say: Say = print,
    **options: Any,
) -> list[str]:
    """Show each button press as it happens, on the terminal and on the screen, until all
    three were pressed, `seconds` pass, Escape (or the window closed) or Ctrl-C. Returns
    what is missing: ``buttons (...)`` where there are none or one was never pressed.
    `options`: ArcadeButtons' (a pin factory, for tests)."""
    buttons, missing = open_check_buttons(pins, clock, say, **options)
    shown = window is not None and not window.headless
    if buttons is None and not shown:
        return missing
    gpio = dict(zip(BUTTONS, pins, strict=True))
    pressed: dict[str, str] = {}
    if buttons is not None:
        say(
            f"buttons: press BANK, ROLL and SELECT (GPIO {', '.join(map(str, pins))}), and "
            f"hold one if you like; waiting up to {seconds:g} s (Ctrl-C ends sooner)"
        )
    else:
        say(f"screen: showing the check's page for {seconds:g} s (Escape or Ctrl-C ends it)")
    pen = None
    if shown:
        import pygame

        from zonkcam.display.draw import Pen

        pen = Pen()
    end = clock() + seconds
    try:
        while clock() < end and len(pressed) < len(BUTTONS):
            for press in buttons.commands() if buttons is not None else []:
                if press.kind not in PRESSED:
                    continue
                name, how = PRESSED[press.kind]
                pressed[name] = how
                say(f"button: {name} {how} (GPIO {gpio[name]})")
            if shown:
                if any(
                    e.type == pygame.QUIT or (e.type == pygame.KEYDOWN and e.key == pygame.K_ESCAPE)
                    for e in window.events()
                ):
                    break
                draw_page(window.surface, pen, pressed, window.driver or "(SDL's choice)")
                window.show()
            sleep(POLL)
    except KeyboardInterrupt:
        say("")  # the ^C the terminal echoed ends its own line
    finally:
        if buttons is not None:
            buttons.close()
    if buttons is None:
        return missing
    not_pressed = [name for name in BUTTONS if name not in pressed]
    if not_pressed:
        return [f"buttons ({', '.join(not_pressed)} not pressed)"]
    return []
