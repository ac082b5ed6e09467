"""`zonkcam score --rules NAME DIE...`: every legal keep of one roll, as JSON."""

from __future__ import annotations

import argparse
import json

from zonkcam.errors import UserError
from zonkcam.game.dice import parse_typed_dice
from zonkcam.game.rules import load_rules
from zonkcam.game.scoring import colours_needed, score_roll


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "score",
        help="list the legal keeps of one roll",
        description="Score one roll with all dice rolled: every legal keep with its points "
        "and combinations, the best keep, and whether it is a zonk.",
    )
    p.add_argument(
        "--rules", default="classic-10000", help="preset name or TOML file (default: classic-10000)"
    )
    p.add_argument(
        "dice",
        nargs="+",
        metavar="DIE",
        help="die values such as 1 5 5 6 6 or 15566, or with detroit colours 2w 2w 3r 3r 4g 4g",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    rules = load_rules(args.rules)
    dice = parse_typed_dice(" ".join(args.dice))
    question = colours_needed(rules, dice)
    if question:
        raise UserError(question)
    result = score_roll(rules, dice)
    best = result.best
    print(
        json.dumps(
            {
                "rules": args.rules,
                "dice": [str(d) if d.color else d.value for d in dice],
                "zonk": result.zonk,
                "best": {"keep": list(best.dice), "points": best.points} if best else None,
                "keeps": [k.to_json() for k in result.keeps],
            }
        )
    )
    return 0
