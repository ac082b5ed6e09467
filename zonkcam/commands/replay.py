"""`zonkcam replay --rules NAME FILE`: play a JSON Lines file of table actions."""

from __future__ import annotations

import json
import sys

from zonkcam.errors import UserError
from zonkcam.game.actions import action_from_json
from zonkcam.game.errors import TableError
from zonkcam.game.game import Game
from zonkcam.game.rules import load_rules


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "replay",
        help="replay a JSON Lines file of table actions and print the final state",
        description='Each line is one action: {"players": [...]}, {"roll": [1, 2, 4, 6, 6]}, '
        '{"keep": [1]}, {"bank": true}, {"reroll": true}, {"pass": true}, '
        '{"go_for_1000": true}, {"piggyback": true}, {"penalty": "spaced"|"sloppy", '
        '"player": NAME}, {"land": "left"|"right"|"choose"|"social"}, {"join": NAME}, '
        '{"leave": NAME}, {"zonk_name": NAME, "player": NAME, "by": NAME}, {"undo": true}. '
        "An illegal action stops the replay with exit code 2.",
    )
    p.add_argument("--rules", default="classic-10000", help="preset name or TOML file")
    p.add_argument("file", metavar="FILE", help="JSON Lines file, or - for standard input")
    p.set_defaults(func=run)


def run(args) -> int:
    rules = load_rules(args.rules)
    lines = _read_lines(args.file)
    game = Game(rules)
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            print(f"zonkcam replay: {args.file} line {number}: not JSON ({exc.msg})",
                  file=sys.stderr)
            return 2
        try:
            game.play(action_from_json(obj))
        except TableError as exc:
            print(f"zonkcam replay: {args.file} line {number}: {exc}", file=sys.stderr)
            return 2
    print(json.dumps(game.state.to_json()))
    return 0


def _read_lines(path: str) -> list[str]:
    if path == "-":
        return sys.stdin.read().splitlines()
    try:
        with open(path, encoding="utf-8") as f:
            return f.read().splitlines()
    except FileNotFoundError:
        raise UserError(f"no such file: {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"cannot read {path}: {exc}") from None
