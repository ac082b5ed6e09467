"""`zonkcam solve --rules NAME|FILE`: the table's odds, and its two-player win table.

Prints the single-turn optimum (expected points of a turn, zonk chances per number of
dice; the long-run average where the table has the three-zonk penalty), then solves the
two-player race (the chance to win from every pair of scores, :mod:`zonkcam.advisor.race`)
and stores it in ``$XDG_CACHE_HOME/zonkcam/`` where ``zonkcam advise``, ``zonkcam play``
and the demo game find it (:mod:`zonkcam.record.win_tables`).
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from zonkcam.advisor.advice import Advisor
from zonkcam.advisor.points import solve_points
from zonkcam.advisor.race import WinTable, build, unsupported
from zonkcam.errors import UserError
from zonkcam.game.rules import load_rules
from zonkcam.record.win_tables import read_table, save_table, table_path


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "solve",
        help="the table's odds; build its two-player win table",
        description="Print the expected points of an optimally played turn and the zonk "
        "chances for the table's rules, then build the two-player win table "
        "(the chance to win from every pair of scores) that the advisor uses.",
    )
    p.add_argument(
        "--rules", default="classic-10000", help="preset name or TOML file (default: classic-10000)"
    )
    p.add_argument("--out", help="table file (default: $XDG_CACHE_HOME/zonkcam/win-...npz)")
    p.add_argument("--force", action="store_true", help="build again even if stored")
    p.add_argument("--single-turn", action="store_true", help="print the single-turn figures only")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    rules = load_rules(args.rules)
    advisor = Advisor()
    start = time.perf_counter()
    solver = advisor.solver(rules)
    boards = [True, False] if rules.entry_minimum else [True]
    values = solve_points(solver, boards, [0.0] * len(boards))
    model = solver.model
    print(
        f"{rules.name}: an optimally played turn scores {values.roll(model.start, 0):.3f} "
        f"on average ({time.perf_counter() - start:.2f} s)"
    )
    if rules.entry_minimum:
        print(
            f"  not yet on the board ({rules.entry_minimum} to get on): "
            f"{values.roll(model.start, 0, 1):.3f}"
        )
    if rules.three_zonk_penalty:
        print(
            f"  over many turns, with {rules.three_zonk_penalty} off for three zonks in a "
            f"row: {advisor.long_run(rules).average:.3f} a turn"
        )
    chances = ", ".join(
        f"{n} {'die' if n == 1 else 'dice'} {c} ({float(c):.2%})"
        for n, c in model.zonk_chances().items()
    )
    print(f"  nothing scores: {chances}")
    if rules.two_dice_pair_reroll:
        print("  (of the two dice, 1/9 is a pair thrown again)")
    if args.single_turn:
        return 0
    reason = unsupported(rules)
    if reason:
        print(f"no two-player table: {reason}")
        return 0
    path = Path(args.out) if args.out else table_path(rules)
    if path.exists() and not args.force:
        try:
            stored = read_table(path)
        except UserError:
            stored = None
        if stored is not None and stored.rules == rules:
            print(
                f"two-player table: {path} (stored: built before, nothing to solve; "
                "--force builds it again)"
            )
            _summary(stored)
            return 0
    print(
        f"solving the two-player race to {rules.target:,}: this takes minutes (the presets "
        f"about 2 to 9 on a desktop, a Raspberry Pi longer), once: the table is stored in "
        f"{path} for advise, play and the demo game",
        file=sys.stderr,
        flush=True,
    )
    start = time.perf_counter()
    table = build(rules, progress=Progress(start, sys.stderr))
    took = time.perf_counter() - start
    save_table(table, path)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"two-player table: {path} ({path.stat().st_size / 1e6:.1f} MB, built in "
        f"{took:.0f} s, peak memory {peak:.0f} MB)"
    )
    _summary(table)
    return 0


def _summary(table: WinTable) -> None:
    print(f"  the first player wins {table.chance(0, 0):.2%} of games between two optimal players")


class Progress:
    """How far a build is, with the time taken and a guess at the time left: at a terminal
    one line written over (at most once a second), elsewhere a line every 10%."""

    def __init__(
        self, start: float, out: TextIO, clock: Callable[[], float] = time.perf_counter
    ) -> None:
        self.start = start
        self.out = out
        self.clock = clock
        self.tty = out.isatty()
        self.shown = -1
        self.at = float("-inf")

    def __call__(self, done: int, total: int) -> None:
        percent = 100 * done // total
        now = self.clock()
        finished = done == total
        if self.tty:
            due = percent != self.shown and now - self.at >= 1
        else:
            due = percent // 10 != self.shown // 10
        if not (due or finished) or percent == self.shown:
            return
        self.shown, self.at = percent, now
        elapsed = now - self.start
        text = f"  {percent:3d}%  {_duration(elapsed)}"
        if 5 <= percent < 100:
            left = elapsed * (total - done) / done
            text += f", about {_duration(left)} left"
        if self.tty:
            self.out.write(f"\r{text:<40}" + ("\n" if finished else ""))
        else:
            self.out.write(text + "\n")
        self.out.flush()


def _duration(seconds: float) -> str:
    minutes, s = divmod(round(seconds), 60)
    return f"{minutes} min {s} s" if minutes else f"{s} s"
