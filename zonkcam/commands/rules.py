"""`zonkcam rules list|show|check`: the preset tables and custom TOML tables."""

from __future__ import annotations

import argparse
import textwrap

from zonkcam.game.names import counted, escaped
from zonkcam.game.rules import PRESETS, End, HotDice, RuleSet, WinnerBy, load_rules, rules_to_toml


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "rules",
        help="list, show or check rule sets",
        description="List the presets, show a rule set in words (or as TOML to start a "
        "custom table: zonkcam rules show --toml chicago > ours.toml), or check a TOML file.",
    )
    sub = p.add_subparsers(dest="rules_command", metavar="ACTION", required=True)
    sub.add_parser("list", help="the preset tables").set_defaults(func=_list)
    show = sub.add_parser(
        "show",
        help="a rule set in words (--toml: as TOML)",
        description="The rules of a preset or TOML table in words: the end of the game, "
        "getting on the board, hot dice, what scores, the table's extras and its drinking "
        "rules. --toml prints every option with its value instead, the start of a table of "
        "your own.",
    )
    show.add_argument("name", help="preset name or TOML file")
    show.add_argument("--toml", action="store_true", help="every option as TOML")
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
    rules = load_rules(args.name)
    print(rules_to_toml(rules) if args.toml else rules_in_words(rules), end="")
    return 0


def _check(args: argparse.Namespace) -> int:
    rules = load_rules(args.name)
    print(f"{escaped(args.name)}: OK ({rules.name}, {rules.dice} dice)")
    return 0


_ANY_ROLL = (
    ("single_one", "a single 1", "{:,}"),
    ("single_five", "a single 5", "{:,}"),
    ("three_ones", "three 1s", "{:,}"),
    ("three_of_a_kind", "three of a kind, 2 to 6", "the face x {:,}"),
)
"""The scores a roll of any number of dice may make, in words: the field of the rules'
points (zonkcam.game.rules.Points), what scores, and its worth (the field's value in
braces). A field at 0 is left out."""
_ALL_ROLLED = (
    ("full_house", "full house (three of a kind and a pair)", "{:,}"),
    ("three_pairs", "three pairs", "{:,}"),
    ("six_of_a_kind", "six of a kind, 2 to 6", "the face x {:,}"),
    ("six_ones", "six 1s", "{:,}"),
    ("colour_pairs", "colour pairs (each colour's two dice show one number)", "{:,}"),
    ("nothing", "nothing scores (instead of a zonk; hot dice)", "{:,}"),
)
"""Likewise the combinations that need all of the table's dice rolled (after the
straights)."""


def _worths(r: RuleSet, table: tuple[tuple[str, str, str], ...]) -> list[tuple[str, str]]:
    """(what, worth) of each score of ``table`` (:data:`_ANY_ROLL`) that ``r`` has."""
    p = r.points
    return [
        (what, worth.format(getattr(p, name))) for name, what, worth in table if getattr(p, name)
    ]


def rules_in_words(r: RuleSet) -> str:
    """The rule set as a player reads it: the game, the scoring table, the extras."""
    p, d = r.points, r.drinking
    n = r.dice
    lines = [f"{escaped(r.name)}: {n} dice", "", "The game"]
    if r.end is End.TURNS:
        lines.append(f"  {counted(r.turns, 'turn')} each")
    elif r.end is End.INSTANT:
        lines.append(f"  the game ends as soon as a player reaches {r.target:,}")
    else:
        lines.append(
            f"  the first player to reach {r.target:,} ends their turn, then every other "
            "player has one last turn"
        )
    if r.winner_by is WinnerBy.BEES:
        lines.append("  the most B's wins (equal B's: more points)")
    else:
        lines.append("  the highest total wins")
    if r.entry_minimum:
        lines.append(f"  getting on the board: the first bank needs {r.entry_minimum:,} or more")
    if r.bank_minimum:
        lines.append(f"  no bank under {r.bank_minimum:,} turn points")
    if r.hot_dice is HotDice.MUST:
        lines.append(f"  hot dice (every die set aside): roll all {n} again")
    else:
        lines.append(f"  hot dice (every die set aside): bank, or roll all {n} again")
    if not r.bank_after_keep:
        lines.append(
            "  taking the points: bank right after a roll (its best keep); once a die is "
            "set aside, roll again before banking"
        )
    lines += ["", "Scoring (dice from one roll)"]
    rows = _worths(r, _ANY_ROLL)
    if p.extra_die_doubles:
        rows.append(("each die past three of a kind", "doubles it"))
    elif p.extra_die:
        rows.append(("each die past three of a kind", f"+{p.extra_die:,}"))
    full = [(f"straight {s.label}", f"{s.points:,}") for s in p.straights]
    full += _worths(r, _ALL_ROLLED)
    if full:
        rows.append((f"with all {n} dice rolled:", ""))
        rows += [("  " + what, worth) for what, worth in full]
    width = max(len(what) for what, _ in rows)
    lines += [f"  {what:<{width}}  {worth}".rstrip() for what, worth in rows]
    if not p.extra_die and not p.extra_die_doubles:
        lines.append(
            "  a fourth die of a kind scores only as a single 1 or 5; six of a kind is two triples"
        )
    if p.colour_pairs:
        lines.append(
            "  colour pairs need each die's colour: type 2w 2w 3r 3r 4g 4g "
            "(w white, r red, g green)"
        )
    extras = []
    if r.carry_over_extras:
        extras.append(
            "carried extras: while a three of a kind stays set aside, each later die of "
            f"its face scores {p.extra_die:,}"
        )
    if r.straight_completion:
        extras.append(
            "the straight across rolls: set-aside dice and a new roll that make 1-2-3-4-5-6 "
            f"score {r.straight_completion:,} in all, and it is hot dice"
        )
    if r.go_for_1000:
        extras.append(
            "go for 1000: a first roll one die short of 1-2-3-4-5-6 may roll one die "
            f"alone; the missing face scores {r.go_for_1000:,} and it is hot dice, "
            "anything else is a zonk"
        )
    if r.two_dice_pair_reroll:
        extras.append(
            "a pair on the last two dice that scores nothing (2-2, 3-3, 4-4, 6-6) may be "
            "thrown again instead of a zonk"
        )
    if r.piggyback:
        extras.append(
            "piggyback: after a bank with dice left, the next player may take over that "
            "turn total and those dice"
        )
    if r.bees:
        extras.append("B's: +1 for each 1,000 the game total passes on a bank")
    if r.newbie:
        extras.append("newbie: nothing scores on a turn's first roll: a zonk, and +1 B")
    if r.frames:
        extras.append("frames: every third zonk closes a frame, +1 B if a 1,000 was passed in it")
    if r.three_zonk_penalty:
        extras.append(f"three zonks in a row: {r.three_zonk_penalty:,} off the game total")
    if extras:
        lines += ["", "Extras"] + [f"  {e}" for e in extras]
    drinking = []
    if d.penalties:
        drinking.append(
            "spaced (touching dice out of turn, a real name): lose the next turn and drink; "
            "sloppy (a die off the table): the turn ends with nothing, and drink"
        )
    if d.board_images:
        drinking.append(
            "a scoring die touching a board image passes a drink: left, right, choose, social"
        )
    if d.barrier_handouts:
        drinking.append("each 1,000 a total passes: hand out one drink per player")
    rule_for = []
    if d.rule_turn_over:
        rule_for.append(f"a turn of more than {d.rule_turn_over:,}")
    if d.rule_first_to:
        firsts = ", ".join(f"{t:,}" for t in d.rule_first_to)
        rule_for.append(f"being the first to reach {firsts}")
    if d.rule_exact:
        rule_for.append("a total of exactly " + " or ".join(f"{t:,}" for t in d.rule_exact))
    if rule_for:
        drinking.append("make a drinking rule for " + "; ".join(rule_for))
    if d.zonk_names:
        drinking.append("zonk names: each player is named by another; only zonk names are shown")
    if drinking:
        lines += ["", "Drinking"] + [f"  {x}" for x in drinking]
    return "\n".join(_wrapped(line) for line in lines) + "\n"


WIDTH = 88
"""Characters in a line of `rules show` (longer lines go on, indented, on the next)."""


def _wrapped(line: str) -> str:
    indent = len(line) - len(line.lstrip())
    return textwrap.fill(line, WIDTH, subsequent_indent=" " * (indent + 2)) if line else line
