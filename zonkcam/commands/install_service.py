"""`zonkcam install-service`: render zonkcam's systemd unit and install it, for the screen
this machine has. On a console (Raspberry Pi OS Lite) the system service
systemd/zonkcam.service, full screen through SDL's KMSDRM driver; where a desktop holds the
screen (Raspberry Pi OS with desktop: labwc, wayfire or X11) a unit of the user's own
systemd, systemd/zonkcam-desktop.service, full screen in the desktop session through
SDL's Wayland or X11 driver, started at login by an XDG autostart entry,
systemd/zonkcam.desktop (:func:`zonkcam.hardware.service.find_screen` tells which)."""

from __future__ import annotations

import argparse
import errno
import grp
import os
import pwd
import re
import sys
from pathlib import Path

from zonkcam.data import SYSTEMD
from zonkcam.errors import UserError, WriteFailed
from zonkcam.fileio import write_whole
from zonkcam.game.names import cut, escaped
from zonkcam.game.rules import PRESETS
from zonkcam.hardware.service import Machine, Screen, find_screen, look_around

UNIT_PATH = Path("/etc/systemd/system/zonkcam.service")
USER_UNIT = Path(".config/systemd/user/zonkcam.service")
"""The desktop's unit, in the user's home."""
AUTOSTART = Path(".config/autostart/zonkcam.desktop")
"""The desktop's start at login, in the user's home."""
DESKTOP_DRIVERS = {"wayland": "wayland,x11", "x11": "x11"}
"""SDL_VIDEODRIVER for each desktop: on a Wayland desktop X11 is tried second (Xwayland),
should this SDL have no Wayland driver."""


def machine() -> Machine:
    """This machine, as install-service judges its screen (tests give their own)."""
    return look_around()


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "install-service",
        help="install zonkcam as a systemd service (start at boot)",
        description="Renders zonkcam's systemd unit for this user and this installation (the "
        "Python running this command) and installs it, or prints it with --print. On a "
        "console (Raspberry Pi OS Lite) a system service, full screen through SDL's KMSDRM "
        "driver (needs sudo); where a desktop holds the screen (labwc, wayfire, X11) a unit "
        "of the user's own systemd, full screen in the desktop session, started at login "
        "by an autostart entry. Which one is told from what runs and starts at boot here.",
    )
    where = p.add_mutually_exclusive_group()
    where.add_argument(
        "--desktop",
        nargs="?",
        const="",
        metavar="wayland|x11",
        help="install for the desktop session (its display server as found, or as given)",
    )
    where.add_argument(
        "--console",
        action="store_true",
        help="install the console's system service (SDL's KMSDRM driver)",
    )
    p.add_argument(
        "--user",
        default=None,
        help="run as this user (default: the invoking user, or $SUDO_USER under sudo)",
    )
    p.add_argument(
        "--allow-root", action="store_true", help="let the service run as root (refused otherwise)"
    )
    p.add_argument("--print", action="store_true", help="print the unit instead of installing")
    p.add_argument("--out", help="the console's unit: write it here instead of " + str(UNIT_PATH))
    p.add_argument(
        "play_args",
        nargs="*",
        metavar="PLAY-ARG",
        help="arguments for zonkcam play (e.g. -- --rules drinking --players A B)",
    )
    p.set_defaults(func=run)


_C_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r"}


def unit_quoted(text: str) -> str:
    """``text`` as one double-quoted word of a unit file: C escapes for backslash, quote and
    control characters, and ``%%`` so that systemd expands no specifier (``%h``, ...)."""
    out = []
    for c in text:
        if c in _C_ESCAPES:
            out.append(_C_ESCAPES[c])
        elif ord(c) < 0x20 or ord(c) == 0x7F:
            out.append(f"\\x{ord(c):02x}")
        elif c == "%":
            out.append("%%")
        else:
            out.append(c)
    return '"' + "".join(out) + '"'


def exec_word(arg: str) -> str:
    """One argument of ``ExecStart=``: quoted as :func:`unit_quoted`, and ``$$`` so that
    systemd substitutes no environment variable (``$HOME``, ``${X}``)."""
    if "\x00" in arg:
        raise UserError("an argument for the service cannot hold a NUL character")
    if arg == ";":
        return "\\;"  # a lone semicolon would separate two commands
    return unit_quoted(arg).replace("$", "$$")


def _unit_path(path: str) -> str:
    """A path for ``ReadWritePaths=`` (quoted, ``-``: no error while it does not exist)."""
    if any(c in path for c in '"\\') or any(ord(c) < 0x20 or ord(c) == 0x7F for c in path):
        raise UserError(
            f"the service cannot be given the path {escaped(repr(path))}: "
            "choose one without quotes, backslashes or control characters"
        )
    return unit_quoted("-" + path)


_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,31}")


def _unit_name(name: str, what: str) -> str:
    """A user or group name as ``User=`` and ``Group=`` take it (unquoted)."""
    if not _NAME.fullmatch(name):
        raise UserError(f"the {what} {escaped(repr(name))} is not a name systemd takes")
    return name


def _parsed_play(play_args: list[str]) -> argparse.Namespace:
    """The play arguments as `zonkcam play` itself parses them (abbreviations included);
    UserError for any it would refuse."""
    from zonkcam.commands import play

    holder = argparse.ArgumentParser(add_help=False)
    play.register(holder.add_subparsers())
    parser = holder._subparsers._group_actions[0].choices["play"]  # type: ignore[union-attr]

    def refuse(message: str) -> None:
        raise UserError(f"the service's arguments for zonkcam play: {cut(message, 300)}")

    parser.error = refuse  # type: ignore[method-assign]
    try:
        return parser.parse_args(play_args)
    except SystemExit:  # --help
        raise UserError("the service's arguments cannot ask for help") from None


def _play_paths(
    play_args: list[str], home: Path
) -> tuple[argparse.Namespace, list[str], list[str]]:
    """(the play arguments as play parses them, the same with each file or folder made
    absolute, the folders the service writes to). A relative path is taken from the
    folder install-service runs in (the service itself runs in /var/lib/zonkcam), so the
    service opens what ReadWritePaths lets it write: the game log's folder (its photos
    beside it), the screenshots, the calibration's folder (the taught dice beside it);
    ``~`` is `home`."""
    parsed = _parsed_play(play_args)
    args = list(play_args)

    def absolute(value: str) -> Path:  # ~ is the service user's home
        if value == "~" or value.startswith("~/"):
            value = str(home) + value[1:]
        return Path(os.path.abspath(_expanded(value)))

    writes = [home / ".local" / "share" / "zonkcam", home / ".config" / "zonkcam"]
    for option, is_folder in (("db", False), ("screenshots", True), ("calibration", False)):
        value = getattr(parsed, option)
        if not value:
            continue
        path = absolute(value)
        if str(path) != value:
            args += [f"--{option}", str(path)]
        folder = path if is_folder else path.parent
        _refuse_system_folder(option, folder, home)
        writes.append(folder)
    if parsed.model_dir and str(absolute(str(parsed.model_dir))) != str(parsed.model_dir):
        args += ["--model-dir", str(absolute(str(parsed.model_dir)))]
    if parsed.rules and parsed.rules not in PRESETS and _expanded(parsed.rules).is_file():
        if str(absolute(parsed.rules)) != parsed.rules:
            args += ["--rules", str(absolute(parsed.rules))]
    unique = list(dict.fromkeys(str(p) for p in writes))
    return parsed, args, unique


def _expanded(value: str) -> Path:
    """``~user/...`` as that user's home; UserError where there is no such user."""
    try:
        return Path(value).expanduser()
    except RuntimeError:  # ~nobody-by-that-name
        raise UserError(
            f"the service's arguments name {escaped(repr(value.split('/')[0]))}: "
            "no user by that name to find the home folder of"
        ) from None


SYSTEM_TREES = re.compile(r"/(etc|usr|bin|sbin|lib[^/]*|boot|proc|sys|dev)(/.*)?")
"""The system's own folders: nothing in them is the service's to write."""
SYSTEM_FOLDERS = frozenset(
    ("/", "/var", "/var/lib", "/var/cache", "/var/log", "/run", "/home", "/root", "/opt")
    + ("/srv", "/mnt", "/media")
)
"""Folders that hold everyone's files: a folder in them may be the service's, not they."""


def _refuse_system_folder(option: str, folder: Path, home: Path) -> None:
    """UserError where the service would be let write `folder` for `option` and that would
    undo its sandbox (ProtectSystem=strict, ProtectHome=read-only): a system folder or
    anything in one, a folder that holds everyone's files, the home itself or a folder
    above it. A link is judged by where it leads too."""
    homes = {str(home), os.path.realpath(home)}
    for path in dict.fromkeys((str(folder), os.path.realpath(folder))):
        above_home = any(h == path or h.startswith(path.rstrip("/") + "/") for h in homes)
        if SYSTEM_TREES.fullmatch(path) or path in SYSTEM_FOLDERS or above_home:
            what = (
                "the home folder itself"
                if path in homes
                else "a system folder or one in it"
                if SYSTEM_TREES.fullmatch(path)
                else "a folder that holds everyone's files"
                if path in SYSTEM_FOLDERS
                else "a folder above the home folder"
            )
            example = {
                "db": "~/zonkcam/games.sqlite3",
                "screenshots": "~/zonkcam/screenshots",
                "calibration": "~/zonkcam/calibration.json",
            }[option]
            raise UserError(
                f"the service cannot be let write to {escaped(path)} for --{option} ({what}: "
                f"it would undo the sandbox): give a folder of its own, such as {example}"
            )


def render(
    user: str,
    play_args: list[str],
    python: str | None = None,
    allow_root: bool = False,
    desktop: str | None = None,
) -> str:
    """The unit for ``user``, starting ``python -m zonkcam play PLAY-ARGS`` (by default
    the Python running this, so the service runs this installation of zonkcam): the
    console's system service, or with ``desktop`` (``wayland`` or ``x11``) the unit of the
    user's own systemd for that desktop, full screen."""
    try:
        pw = pwd.getpwnam(user)
    except (KeyError, ValueError):
        raise UserError(f"no user called {escaped(repr(user))}") from None
    if pw.pw_uid == 0 and not allow_root:
        raise UserError(
            "the service would run as root: give the user who plays "
            "(sudo zonkcam install-service --user NAME), or --allow-root"
        )
    python = python or os.path.abspath(sys.executable)
    home = Path(pw.pw_dir)
    data_home, config_home = home / ".local" / "share", home / ".config"
    parsed, args, write = _play_paths(list(play_args), home)
    if parsed.source == "auto" and not any(a.startswith("--so") for a in args):
        # at the table a missing camera is a problem to show and retry, never the demo game
        # playing on the real game log
        args = ["--source", "pi", *args]
    fields = {
        "data_home_env": unit_quoted(f"XDG_DATA_HOME={data_home}"),
        "config_home_env": unit_quoted(f"XDG_CONFIG_HOME={config_home}"),
        "write_paths": " ".join(_unit_path(p) for p in write),
    }
    command = [python, "-m", "zonkcam", "play", *args]
    if desktop is None:
        template = (SYSTEMD / "zonkcam.service").read_text()
        return template.format(
            user=_unit_name(user, "user"),
            group=_unit_name(_group_name(user, pw.pw_gid), "group"),
            exec_start=" ".join(exec_word(w) for w in command),
            **fields,
        )
    if not parsed.fullscreen:  # a desktop opens a window unless asked
        command.insert(4, "--fullscreen")
    template = (SYSTEMD / "zonkcam-desktop.service").read_text()
    return template.format(
        driver=DESKTOP_DRIVERS[desktop],
        exec_start=" ".join(exec_word(w) for w in command),
        # X11's socket lies in /tmp/.X11-unix, which a private /tmp would hide
        private_tmp="PrivateTmp=yes"
        if desktop == "wayland"
        else "# no PrivateTmp: X11's socket lies in /tmp/.X11-unix",
        **fields,
    )


def autostart_entry() -> str:
    """The desktop's start at login (~/.config/autostart/zonkcam.desktop)."""
    return (SYSTEMD / "zonkcam.desktop").read_text()


def run(args: argparse.Namespace) -> int:
    user = args.user or os.environ.get("SUDO_USER") or _invoking_user()
    unit = render(user, args.play_args, allow_root=args.allow_root)  # the arguments checked
    screen = _screen(args)
    if screen.kind == "desktop":
        return _install_desktop(args, user, screen)
    if args.print:
        print(unit, end="")
        return 0
    target = Path(args.out) if args.out else UNIT_PATH
    try:  # whole or not at all: systemd never finds half a unit
        write_whole(target, unit)
    except WriteFailed as exc:
        if exc.errno not in (errno.EACCES, errno.EPERM):
            raise
        raise UserError(
            f"the console's service ({screen.why}): cannot write {target}: run with sudo "
            "(sudo $(which zonkcam) install-service), or see the unit with --print"
        ) from None
    print(f"the console's service, full screen through SDL's KMSDRM driver ({screen.why})")
    print(f"wrote {target} (runs as {escaped(user)})")
    if not args.out:
        _make_data_folder(user)
        print("now: sudo systemctl daemon-reload && sudo systemctl enable --now zonkcam")
        print("logs: journalctl -u zonkcam -f")
    return 0


def _screen(args: argparse.Namespace) -> Screen:
    """Where the service shows the table: as asked, else as this machine tells."""
    if args.desktop not in (None, "", "wayland", "x11"):
        raise UserError(f"--desktop takes wayland or x11, not {escaped(repr(args.desktop))}")
    if args.out and args.desktop is not None:
        raise UserError("--out writes the console's unit: --print shows the desktop's files")
    asked = (
        "console"
        if args.console or args.out  # --out: the console's unit, written elsewhere
        else "desktop"
        if args.desktop is not None
        else None
    )
    if asked == "console" or args.desktop:  # nothing to find out
        return find_screen(Machine(environ={}), asked, args.desktop or None)
    try:
        return find_screen(machine(), asked)
    except ValueError as exc:
        raise UserError(str(exc)) from None


def _install_desktop(args: argparse.Namespace, user: str, screen: Screen) -> int:
    """The desktop's unit and autostart entry in the user's home (printed with --print)."""
    unit = render(user, args.play_args, allow_root=args.allow_root, desktop=screen.driver)
    home = Path(pwd.getpwnam(user).pw_dir)
    files = [(home / USER_UNIT, unit), (home / AUTOSTART, autostart_entry())]
    if args.print:
        for path, text in files:
            print(f"# ---- {path}")
            print(text, end="")
        return 0
    for path, text in files:
        _write_for(user, path, text)
    _make_data_folder(user)
    driver = "Wayland" if screen.driver == "wayland" else "X11"
    print(f"the desktop session, full screen through SDL's {driver} driver ({screen.why})")
    print(f"wrote {home / USER_UNIT} (a unit of {escaped(user)}'s own systemd)")
    print(f"wrote {home / AUTOSTART} (starts it at each login, resuming the game)")
    if UNIT_PATH.exists():
        print(
            f"{UNIT_PATH} is installed too and would want the camera: "
            "sudo systemctl disable --now zonkcam"
        )
    print(f"now: log in to the desktop as {escaped(user)} (or reboot); it starts by itself")
    print("logs: journalctl --user -u zonkcam -f")
    return 0


def _write_for(user: str, path: Path, text: str) -> None:
    """``text`` into ``path`` in the user's home, whole; the file and any folder made for it
    the user's (under sudo they would be root's)."""
    pw = pwd.getpwnam(user)
    missing = [p for p in reversed(path.parents) if not p.exists()]
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_whole(path, text)
        if os.geteuid() == 0:
            for made in [*missing, path]:
                os.chown(made, pw.pw_uid, pw.pw_gid)
    except WriteFailed as exc:
        raise UserError(str(exc)) from None
    except OSError as exc:
        raise UserError(f"cannot write {path}: {exc.strerror}") from None


def _group_name(user: str, gid: int) -> str:
    try:
        return grp.getgrgid(gid).gr_name
    except KeyError:
        raise UserError(
            f"the group of {escaped(repr(user))} (group id {gid}) has no name: "
            "systemd needs one for Group="
        ) from None


def _invoking_user() -> str:
    """The name of the user running this; UserError for a user id with no account."""
    try:
        return pwd.getpwuid(os.getuid()).pw_name
    except KeyError:
        raise UserError(
            f"user id {os.getuid()} has no account to run the service as: "
            "give the user who plays (--user NAME)"
        ) from None


def _make_data_folder(user: str) -> None:
    """The game log's folder, owned by the user: the service may write only there (and in
    /var/lib/zonkcam), so it must exist before the service starts."""
    pw = pwd.getpwnam(user)
    folder = Path(pw.pw_dir) / ".local" / "share" / "zonkcam"
    missing = [p for p in (folder.parent.parent, folder.parent, folder) if not p.exists()]
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for path in missing:
            os.chown(path, pw.pw_uid, pw.pw_gid)
    except OSError as exc:
        raise UserError(f"cannot make {folder} for the game log: {exc.strerror}") from None
