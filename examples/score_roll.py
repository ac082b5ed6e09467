"""Score one roll under a table's rules: every legal keep, best first.

python examples/score_roll.py 1 1 1 5 2
python examples/score_roll.py --rules all-johnnys 2 2 4 4 6 6
"""

from __future__ import annotations

import argparse

from zonkcam.game import RulesError, TableError, load_rules, parse_dice, score_roll


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("dice", nargs="+", help="face values (a colour letter may follow: 5r)")
    p.add_argument("--rules", default="classic-10000", help="a preset name or a TOML file")
    args = p.parse_args(argv)
    try:
        rules = load_rules(args.rules)
        score = score_roll(rules, parse_dice(args.dice))
    except (RulesError, TableError) as exc:  # a rules file or a roll that cannot be
        print(f"score_roll: {exc}")
        return 2
    if score.zonk:
        print("zonk: nothing in this roll scores")
        return 0
    for keep in score.keeps:
        print(
            f"keep {' '.join(map(str, keep.dice)):<12} {keep.points:>5} points  "
            f"({', '.join(keep.combos)})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
