"""The `zonkcam` command: a thin dispatcher over zonkcam/commands/<name>.py."""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from zonkcam import __version__
from zonkcam.errors import UserError, WriteFailed
from zonkcam.game.errors import RulesError, TableError

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
    "zonkcam.commands.install_service",
    "zonkcam.commands.read",
    "zonkcam.commands.eval",
    "zonkcam.commands.bench",
    "zonkcam.commands.train",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="zonkcam",
        description="Dice-table companion: reads dice, keeps score for Zonk.",
    )
    parser.add_argument("--version", action="version", version=f"zonkcam {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):  # `zonkcam` alone: what it can do
        parser.print_help()
        return 0
    try:
        code = int(args.func(args) or 0)
        sys.stdout.flush()
        return code
    except BrokenPipeError:
        # whatever read our output stopped reading (`zonkcam eval ... | head`): stop
        # quietly, and keep Python from complaining as it flushes stdout at exit
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except (UserError, RulesError, TableError) as exc:
        print(f"zonkcam {args.command}: {exc}", file=sys.stderr)
        return 2
    except WriteFailed as exc:  # a full disk, a read-only card: the old file is as it was
        print(f"zonkcam {args.command}: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
