"""`zonkcam bench scoring`: list every legal keep for all 46,656 six-dice rolls under each
preset.

Reports microseconds per roll on one core: cold (caches cleared before the pass, so
each distinct sorted roll is partitioned once), warm (a second pass), and uncached
(the cache cleared before each distinct roll).
"""

from __future__ import annotations

import argparse
import itertools
import time
from collections.abc import Iterator

from zonkcam.game.dice import DETROIT_DICE, Die
from zonkcam.game.rules import PRESETS, RuleSet
from zonkcam.game.scoring import clear_keep_cache, score_roll


def rolls(n: int, coloured: bool) -> Iterator[tuple[Die, ...]]:
    """Every roll of ``n`` dice (coloured as detroit's six when ``coloured``)."""
    for values in itertools.product(range(1, 7), repeat=n):
        if coloured:
            yield tuple(Die(v, c) for v, c in zip(values, DETROIT_DICE, strict=True))
        else:
            yield tuple(Die(v) for v in values)


def bench(rules: RuleSet) -> tuple[float, float, float, int, int]:
    """(cold, warm, uncached µs a roll, distinct sorted rolls, keeps listed in one pass)."""
    all_rolls = list(rolls(6, coloured=rules.points.colour_pairs > 0))
    if rules.dice < 6:  # a five-dice table: score the first five dice of each roll
        all_rolls = [r[:5] for r in all_rolls]
    timings = []
    keeps = 0
    for cold in (True, False):
        if cold:
            clear_keep_cache()
        start = time.perf_counter()
        for roll in all_rolls:
            keeps += len(score_roll(rules, roll).keeps)
        timings.append((time.perf_counter() - start) / len(all_rolls) * 1e6)
    distinct = list({tuple(sorted(r)): r for r in all_rolls}.values())
    start = time.perf_counter()
    for roll in distinct:
        clear_keep_cache()
        score_roll(rules, roll)
    uncached = (time.perf_counter() - start) / len(distinct) * 1e6
    return timings[0], timings[1], uncached, len(distinct), keeps // 2


def run(args: argparse.Namespace) -> int:
    print(
        f"{'rules':15} {'cold µs/roll':>13} {'warm µs/roll':>13} "
        f"{'uncached µs/distinct roll':>26} {'keeps listed':>13}"
    )
    for name in args.rules:
        cold, warm, uncached, n, keeps = bench(PRESETS[name])
        print(f"{name:15} {cold:13.1f} {warm:13.1f} {uncached:18.1f} ({n:>4}) {keeps:13d}")
    print("46,656 rolls per table (six dice; five-dice tables score the first five).")
    print("cold: caches cleared before the pass; warm: second pass; uncached: the cache")
    print("cleared before every distinct sorted roll (the worst case for one roll).")
    return 0
