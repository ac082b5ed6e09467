"""`zonkcam rules list|show|check`: the preset tables and custom TOML tables."""

from __future__ import annotations

import argparse

from zonkcam.game.names import escaped
from zonkcam.game.rules import PRESETS, End, load_rules, rules_to_toml


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "rules",
        help="list, show or check rule sets",
        description="Show a preset as TOML to start a custom table "
        "(zonkcam rules show chicago > ours.toml), or check a TOML file.",
    )
    sub = p.add_subparsers(dest="rules_command", metavar="ACTION", required=True)
    sub.add_parser("list", help="the preset tables").set_defaults(func=_list)
    show = sub.add_parser("show", help="print a rule set as TOML")
    show.add_argument("name", help="preset name or TOML file")
    show.set_defaults(func=_show)
    check = sub.add_parser("check", help="validate a TOML rules file")
    check.add_argument("name", help="TOML file")
    check.set_defaults(func=_check)


def _list(args: argparse.Namespace) -> int:
    for name, r in PRESETS.items():
        end = f"{r.turns} turns each" if r.end is End.TURNS else f"to {r.target} ({r.end})"
        print(f"{name:15} {r.dice} dice, {end}")
    return 0


def _show(args: argparse.Namespace) -> int:
    print(rules_to_toml(load_rules(args.name)), end="")
    return 0


def _check(args: argparse.Namespace) -> int:
    rules = load_rules(args.name)
    print(f"{escaped(args.name)}: OK ({rules.name}, {rules.dice} dice)")
    return 0
