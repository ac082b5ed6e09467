"""`zonkcam install-service`: render systemd/zonkcam.service and install it."""

from __future__ import annotations

import grp
import os
import pwd
import shlex
import shutil
import sys
from importlib import resources
from pathlib import Path

from zonkcam.errors import UserError

UNIT_PATH = Path("/etc/systemd/system/zonkcam.service")


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "install-service", help="install zonkcam as a systemd service (start at boot)",
        description="Renders zonkcam's systemd unit for this user and this installation and "
        "installs it (needs sudo), or prints it with --print.")
    p.add_argument("--user", default=None, help="run as this user (default: the invoking "
                   "user, or $SUDO_USER under sudo)")
    p.add_argument("--print", action="store_true", help="print the unit instead of installing")
    p.add_argument("--out", help="write the unit here instead of " + str(UNIT_PATH))
    p.add_argument("play_args", nargs="*", metavar="PLAY-ARG",
                   help="arguments for zonkcam play (e.g. -- --rules drinking --players A B)")
    p.set_defaults(func=run)


def render(user: str, play_args: list[str], exe: str | None = None) -> str:
    try:
        pw = pwd.getpwnam(user)
    except KeyError:
        raise UserError(f"no user called {user!r}") from None
    exe = exe or shutil.which("zonkcam") or str(Path(sys.executable).with_name("zonkcam"))
    home = Path(pw.pw_dir)
    template = resources.files("zonkcam.systemd").joinpath("zonkcam.service").read_text()
    return template.format(
        user=user, group=grp.getgrgid(pw.pw_gid).gr_name, exe=exe,
        args=" ".join(shlex.quote(a) for a in (play_args or ["--source", "auto"])),
        data_home=home / ".local" / "share", config_home=home / ".config")


def run(args) -> int:
    user = args.user or os.environ.get("SUDO_USER") or pwd.getpwuid(os.getuid()).pw_name
    unit = render(user, args.play_args)
    if args.print:
        print(unit, end="")
        return 0
    target = Path(args.out) if args.out else UNIT_PATH
    try:
        target.write_text(unit)
    except PermissionError:
        raise UserError(f"cannot write {target}: run with sudo (sudo $(which zonkcam) "
                        "install-service), or see the unit with --print") from None
    except OSError as exc:
        raise UserError(f"cannot write {target}: {exc.strerror}") from None
    print(f"wrote {target} (runs as {user})")
    if not args.out:
        print("now: sudo systemctl daemon-reload && sudo systemctl enable --now zonkcam")
        print("logs: journalctl -u zonkcam -f")
    return 0
