"""`zonkcam replay [--rules NAME] FILE`: play a JSON Lines file of table actions."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from typing import BinaryIO

from zonkcam.errors import UserError
from zonkcam.fileio import open_to_read
from zonkcam.game.actions import action_from_json
from zonkcam.game.errors import RulesError, TableError
from zonkcam.game.game import Game
from zonkcam.game.names import escaped
from zonkcam.game.rules import PRESETS, RuleSet, load_rules, rules_from_dict


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "replay",
        help="replay a JSON Lines file of table actions and print the final state",
        description='Each line is one action: {"players": [...]}, {"roll": [1, 2, 4, 6, 6]}, '
        '{"keep": [1]}, {"bank": true}, {"reroll": true}, {"pass": true}, '
        '{"go_for_1000": true}, {"piggyback": true}, {"penalty": "spaced"|"sloppy", '
        '"player": NAME}, {"land": "left"|"right"|"choose"|"social"}, {"join": NAME}, '
        '{"leave": NAME}, {"zonk_name": NAME, "player": NAME, "by": NAME}, '
        '{"drunk": NAME|true}, {"handed": NAME|true}, {"ruled": NAME|true}, '
        '{"undo": true}. A first line {"rules": {...}} (as `zonkcam '
        "games export` writes) gives the table's rules. An illegal action stops the replay "
        "with exit code 2.",
    )
    p.add_argument(
        "--rules",
        help="preset name or TOML file (default: the file's own rules line, else classic-10000)",
    )
    p.add_argument("file", metavar="FILE", help="JSON Lines file, or - for standard input")
    p.set_defaults(func=run)


MAX_LINE = 65_536
"""Characters in one line of a replay file (an action is a few dozen)."""


def run(args: argparse.Namespace) -> int:
    given = load_rules(args.rules) if args.rules else None
    try:
        game = read_replay(args.file, given)
    except ReplayError as exc:
        print(f"zonkcam replay: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(game.state.to_json()))
    return 0


class ReplayError(UserError):
    """A line of a replay file that cannot be played: the file, the line and why."""


def read_replay(path: str, given: RuleSet | None = None, *, played: list | None = None) -> Game:
    """The game a replay file plays (`given` rules, else its own rules line, else
    classic-10000); ReplayError names the first line that cannot be played, UserError a
    file that cannot be read. `played`, where given, gets every action the file played,
    in order, undos included (the game's events are what they left)."""
    game: Game | None = None
    for number, line in _lines(path):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise _refused(path, number, f"not JSON ({exc.msg})") from None
        except (ValueError, RecursionError) as exc:  # a number too long, nesting too deep
            why = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)
            raise _refused(path, number, f"not JSON zonkcam can read ({why})") from None
        if game is None:
            if isinstance(obj, dict) and set(obj) == {"rules"}:  # the file's own rules
                if not isinstance(obj["rules"], dict):
                    raise _refused(
                        path,
                        number,
                        "the rules line holds an object of "
                        'rules, e.g. {"rules": {"base": "chicago"}}',
                    )
                try:
                    rules = given or rules_from_dict(obj["rules"], where="its rules")
                except RulesError as exc:
                    raise _refused(path, number, str(exc)) from None
                game = Game(rules)
                continue
            game = Game(given or PRESETS["classic-10000"])
        try:
            action = action_from_json(obj)
            game.play(action)
            if played is not None:
                played.append(action)
        except TableError as exc:
            raise _refused(path, number, str(exc)) from None
    return game or Game(given or PRESETS["classic-10000"])


def _refused(path: str, number: int, why: str) -> ReplayError:
    return ReplayError(f"{escaped(path)} line {number}: {escaped(why)}")


def _lines(path: str) -> Iterator[tuple[int, str]]:
    """(number, text) of each line, read as it is needed; one line for any problem."""
    if path == "-":
        yield from _numbered(sys.stdin.buffer, path)
        return
    try:
        with open_to_read(path, pipes=True) as f:
            yield from _numbered(f, path)
    except FileNotFoundError:
        raise UserError(f"no such file: {escaped(path)}") from None
    except IsADirectoryError:
        raise UserError(f"{escaped(path)} is a folder, not a file") from None
    except OSError as exc:
        raise UserError(f"cannot read {escaped(path)}: {exc.strerror or exc}") from None


def _numbered(f: BinaryIO, path: str) -> Iterator[tuple[int, str]]:
    number = 0
    while True:
        number += 1
        raw = f.readline(MAX_LINE + 1)
        if not raw:
            return
        if len(raw) > MAX_LINE:
            raise UserError(
                f"{escaped(path)} line {number}: longer than {MAX_LINE} "
                "bytes; one action is one line"
            )
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise UserError(f"{escaped(path)} line {number}: not UTF-8 text") from None
        yield number, line
