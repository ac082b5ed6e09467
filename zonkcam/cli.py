"""The `zonkcam` command: a thin dispatcher over zonkcam/commands/<name>.py."""

from __future__ import annotations

import argparse
import errno
import importlib
import os
import sys
from typing import NoReturn

from zonkcam import __version__, streams
from zonkcam.errors import WriteFailed, ZonkcamError
from zonkcam.game.names import cut, escaped
from zonkcam.streams import StreamError

# Each module adds its own sub-command(s); the file name is the command name.
COMMAND_MODULES: tuple[str, ...] = (
    "zonkcam.commands.score",
    "zonkcam.commands.replay",
    "zonkcam.commands.play",
    "zonkcam.commands.games",
    "zonkcam.commands.rules",
    "zonkcam.commands.advise",
    "zonkcam.commands.solve",
    "zonkcam.commands.mat",
    "zonkcam.commands.calibrate",
    "zonkcam.commands.watch",
    "zonkcam.commands.check",
    "zonkcam.commands.install_service",
    "zonkcam.commands.read",
    "zonkcam.commands.eval",
    "zonkcam.commands.bench",
    "zonkcam.commands.train",
)


ECHOED = 300
"""Characters of a refused argument line or path echoed back in a message (what is
typed can be 100,000 characters long)."""

BAD_PATH = frozenset(
    (errno.ENAMETOOLONG, errno.ENOENT, errno.ENOTDIR, errno.EISDIR, errno.ELOOP, errno.EINVAL)
)
"""What a file name given on the command line can be wrong in (exit status 2); any
other failure to open a file is the machine's (1: permissions, a full disk, a device)."""


class _Parser(argparse.ArgumentParser):
    """argparse's parser, its refusals cut to a line (``unrecognized arguments: 1111...``
    echoes what was typed)."""

    def error(self, message: str) -> NoReturn:
        super().error(cut(message, ECHOED))


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="zonkcam",
        description="Dice-table companion: reads dice, keeps score for Zonk.",
    )
    parser.add_argument("--version", action="version", version=f"zonkcam {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one command. Everything it writes to stdout and reads from stdin goes through
    :mod:`zonkcam.streams`: a full or closed stream is one line on stderr and exit
    status 1, as is a file that cannot be opened (2 where its name is wrong)."""
    streams.keep_descriptors_taken()
    streams.escape_what_cannot_be_encoded()
    real_stdout = sys.stdout is not None and sys.stdout is sys.__stdout__
    name = "zonkcam"
    with streams.guarded():
        try:
            parser = build_parser()
            try:
                args = parser.parse_args(argv)
            except SystemExit:  # --help, --version, a refused argument
                sys.stdout.flush()
                raise
            if args.command:
                name = f"zonkcam {args.command}"
            code = _run(parser, args, name)
            sys.stdout.flush()
            return code
        except StreamError as exc:
            if exc.stream == streams.OUTPUT and real_stdout:
                streams.silence_output()
            if not exc.quiet:
                print(f"{name}: {exc}", file=sys.stderr)
            return 1


def _run(parser: argparse.ArgumentParser, args: argparse.Namespace, name: str) -> int:
    if not getattr(args, "func", None):  # `zonkcam` alone: what it can do
        parser.print_help()
        return 0
    try:
        return int(args.func(args) or 0)
    except StreamError:  # main says it, as it does for one met while parsing
        raise
    except WriteFailed as exc:  # a full disk, a read-only card: the old file is as it was
        print(f"{name}: {exc}", file=sys.stderr)
        return 2 if exc.errno in BAD_PATH else 1
    except ZonkcamError as exc:  # bad input, an illegal action, a file that is no image
        print(f"{name}: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        if exc.filename is None:  # not about a file it was given: a traceback tells more
            raise
        print(f"{name}: cannot open {_path(exc.filename)}: {exc.strerror or exc}", file=sys.stderr)
        return 2 if exc.errno in BAD_PATH else 1
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130


def _path(filename: object) -> str:
    """A file name as a message shows it: printable, and cut where it is very long."""
    text = os.fsdecode(filename) if isinstance(filename, (str, bytes)) else str(filename)
    return escaped(cut(text, ECHOED)) if text else "''"


if __name__ == "__main__":
    sys.exit(main())
