"""systemd integration: readiness and watchdog notifications (sd_notify), no extra library,
and which screen a service gets here (:func:`find_screen`: the console's or a desktop's).

Under systemd (``Type=notify``) ``NOTIFY_SOCKET`` names a datagram socket; elsewhere
every call here does nothing.
"""

from __future__ import annotations

import configparser
import os
import re
import socket
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path


class Notifier:
    def __init__(self, environ: dict[str, str] | None = None) -> None:
        env = os.environ if environ is None else environ
        self.address = env.get("NOTIFY_SOCKET", "")
        usec = env.get("WATCHDOG_USEC", "")
        self.interval = int(usec) / 2e6 if usec.isdigit() and int(usec) > 0 else 0.0
        self._last = 0.0

    @property
    def active(self) -> bool:
        return bool(self.address)

    def send(self, message: str) -> bool:
        if not self.address:
            return False
        address = "\0" + self.address[1:] if self.address.startswith("@") else self.address
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as s:
                s.sendto(message.encode(), address)
        except OSError:
            return False
        return True

    def ready(self, status: str = "") -> None:
        self.send("READY=1" + (f"\nSTATUS={status}" if status else ""))

    def watchdog(self, now: float | None = None) -> None:
        """Call from the render loop: pings systemd at half its watchdog interval."""
        if not self.interval:
            return
        now = time.monotonic() if now is None else now
        if now - self._last >= self.interval:
            self._last = now
            self.send("WATCHDOG=1")

    def status(self, text: str) -> None:
        self.send(f"STATUS={text}")


WAYLAND_COMPOSITORS = frozenset(
    ("labwc", "wayfire", "sway", "weston", "gnome-shell", "kwin_wayland", "mutter", "cage")
)
"""Processes (``/proc/PID/comm``) that hold the display as a Wayland desktop."""
X_SERVERS = frozenset(("Xorg", "X"))
"""Processes that hold it as an X11 desktop (Xwayland is a Wayland desktop's helper)."""


@dataclass(frozen=True)
class Machine:
    """What :func:`find_screen` judges by, as read from this machine by :func:`look_around`
    (tests give their own)."""

    environ: Mapping[str, str]
    running: frozenset[str] = frozenset()
    """The names of the running processes."""
    default_target: str | None = None
    """systemd's default target (``graphical.target`` or ``multi-user.target``)."""
    display_manager: str | None = None
    """The display manager enabled (``lightdm``), None where none is."""
    session: str | None = None
    """The desktop session the display manager starts (``LXDE-pi-labwc``), None unknown."""
    session_driver: str | None = None
    """That session's kind: ``wayland`` or ``x11`` (from where its entry lies)."""
    console_screen: bool = False
    """Whether a screen SDL's KMSDRM driver can take is here (``/dev/dri/card*``)."""


@dataclass(frozen=True)
class Screen:
    """Where the service shows the table: ``console`` (a system service, SDL's ``kmsdrm``)
    or ``desktop`` (the desktop session, SDL's ``wayland`` or ``x11``), and why, in words."""

    kind: str
    driver: str
    why: str


def look_around(root: Path = Path("/"), environ: Mapping[str, str] | None = None) -> Machine:
    """This machine as :func:`find_screen` judges it (``root``: a fake tree in tests)."""
    env = dict(os.environ if environ is None else environ)
    running = set()
    for comm in (root / "proc").glob("[0-9]*/comm"):
        try:
            running.add(comm.read_text().strip())
        except OSError:  # the process ended, or is not ours to read
            continue
    session = _lightdm_session(root)
    session_driver = None
    if session:
        for folder, driver in (("wayland-sessions", "wayland"), ("xsessions", "x11")):
            if (root / "usr/share" / folder / f"{session}.desktop").is_file():
                session_driver = driver
                break
        else:
            if re.search(r"labwc|wayfire|wayland", session, re.IGNORECASE):
                session_driver = "wayland"
    return Machine(
        environ=env,
        running=frozenset(running),
        default_target=_link_name(root, "default.target"),
        display_manager=(_link_name(root, "display-manager.service") or "").removesuffix(".service")
        or None,
        session=session,
        session_driver=session_driver,
        console_screen=any((root / "dev/dri").glob("card*")),
    )


def _link_name(root: Path, unit: str) -> str | None:
    """The unit ``unit`` is an alias of (its link's target's name), the admin's first."""
    for folder in ("etc/systemd/system", "lib/systemd/system", "usr/lib/systemd/system"):
        path = root / folder / unit
        if path.is_symlink():
            return Path(os.readlink(path)).name
    return None


def _lightdm_session(root: Path) -> str | None:
    """The session lightdm starts (``autologin-session``, else ``user-session``); the last
    file that says wins, as lightdm reads them."""
    found: dict[str, str] = {}
    files = [root / "usr/share/lightdm/lightdm.conf.d", root / "etc/lightdm/lightdm.conf.d"]
    paths = [p for d in files for p in sorted(d.glob("*.conf"))]
    paths.append(root / "etc/lightdm/lightdm.conf")
    for path in paths:
        parser = configparser.ConfigParser(strict=False, interpolation=None)
        try:
            parser.read_string(path.read_text("utf-8", "replace"))
        except (OSError, configparser.Error):
            continue
        for section in parser.sections():
            if section.startswith("Seat") or section == "SeatDefaults":
                for key in ("user-session", "autologin-session"):
                    if parser.get(section, key, fallback=""):
                        found[key] = parser.get(section, key)
    return found.get("autologin-session") or found.get("user-session")


def find_screen(machine: Machine, asked: str | None = None, driver: str | None = None) -> Screen:
    """Where a service shows the table on ``machine``: the desktop where one runs or starts
    at boot, else the console's screen. ``asked`` (``console`` or ``desktop``) overrides,
    ``driver`` names a desktop's. ValueError, in one line, where neither fits."""
    desktop = _desktop_driver(machine)
    if asked == "console":
        return Screen("console", "kmsdrm", "asked for the console")
    if asked == "desktop":
        chosen = driver or (desktop[0] if desktop else None)
        if chosen is None:
            raise ValueError(
                "which display server the desktop runs cannot be told here: give "
                "--desktop wayland or --desktop x11"
            )
        return Screen("desktop", chosen, "asked for the desktop")
    if desktop is not None:
        return Screen("desktop", *desktop)
    if machine.display_manager and machine.default_target == "graphical.target":
        raise ValueError(
            f"a desktop starts at boot ({machine.display_manager}), but which display server "
            "it runs cannot be told here: run this in the desktop's terminal, or give "
            "--desktop wayland or --desktop x11"
        )
    if machine.console_screen:
        target = machine.default_target or "no graphical.target"
        return Screen(
            "console",
            "kmsdrm",
            f"no desktop runs or starts at boot here ({target}): the console's screen",
        )
    raise ValueError(
        "no screen for the table here: no desktop runs or starts at boot, and no console "
        "screen (/dev/dri/card*) is there; give --console or --desktop to install anyway"
    )


def _desktop_driver(machine: Machine) -> tuple[str, str] | None:
    """(driver, why) of the desktop that runs here, or that starts at boot; None: none."""
    running = sorted(machine.running & WAYLAND_COMPOSITORS)
    if running:
        return "wayland", f"{running[0]} (a Wayland desktop) is running"
    if machine.running & X_SERVERS:
        return "x11", "an X11 desktop (Xorg) is running"
    env = machine.environ
    if env.get("WAYLAND_DISPLAY"):
        return "wayland", f"a Wayland desktop is in use (WAYLAND_DISPLAY={env['WAYLAND_DISPLAY']})"
    if re.match(r"(unix)?:\d", env.get("DISPLAY", "")):  # not an ssh session's forwarded X
        return "x11", f"an X11 desktop is in use (DISPLAY={env['DISPLAY']})"
    if (
        machine.display_manager
        and machine.default_target == "graphical.target"
        and machine.session_driver
    ):
        kind = "Wayland" if machine.session_driver == "wayland" else "X11"
        return machine.session_driver, (
            f"{machine.display_manager} starts the {kind} desktop {machine.session} at boot"
        )
    return None
