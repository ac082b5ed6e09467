"""`zonkcam bench advisor`: the advisor's single-turn solve per table, and advice per
decision.

For each preset and each rules file given (the two published tables are
tests/data/zilch.toml and farkle.toml): the cold single-turn solve (the turn model from
the engine's scoring, then the expected-points table for every problem the advisor keeps:
on the board or not, zonks in a row), and the time of one piece of advice for random
states of random games, the first (which solves) and the median and worst of the rest,
and a last turn of a final round at a new lead (a small solve of its own). With --race
TABLE.npz... instead, the two-player tables built by `zonkcam solve`: size on disk, load
time, the per-score turn values advice reads from them, and two-player advice with the
table loaded.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

from zonkcam.advisor.advice import Advisor
from zonkcam.game import actions as A
from zonkcam.game.dice import DETROIT_DICE, Die
from zonkcam.game.game import Game
from zonkcam.game.rules import PRESETS, RuleSet, load_rules
from zonkcam.game.scoring import clear_keep_cache
from zonkcam.game.state import GameState, Phase
from zonkcam.record.win_tables import read_table


def states(
    rules: RuleSet, n: int, seed: int = 1, players: tuple[str, ...] = ("Ann", "Bob", "Cy")
) -> list[GameState]:
    """``n`` states met in random games of ``rules`` (three players unless ``players``)."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        game = Game(rules, [A.Players(players)])
        for _ in range(200):
            s = game.state
            if s.finished or len(out) >= n:
                break
            out.append(s)
            t = s.turn
            if s.phase is Phase.DECIDE:
                if rng.random() < 0.2 and _try(game, A.Bank()):
                    continue
                game.play(A.Keep(rng.choice(t.score.keeps).dice))
            elif s.phase is Phase.PAIR:
                game.play(A.Reroll())
            elif (
                s.phase is Phase.ROLL and t.bank_ok and rng.random() < 0.3 and _try(game, A.Bank())
            ):
                continue
            else:
                k = 1 if s.phase is Phase.GO_FOR_1000 else t.dice_to_roll
                faces = [rng.randint(1, 6) for _ in range(k)]
                if rules.points.colour_pairs and k == 6:
                    game.play(A.Roll(tuple(map(Die, faces, DETROIT_DICE))))
                else:
                    game.play(A.Roll(tuple(map(Die, faces))))
    return out


def _try(game: Game, action: A.Action) -> bool:
    try:
        game.play(action)
    except ValueError:
        return False
    return True


def bench(name: str, rules: RuleSet, n: int) -> None:
    """One row: the cold solve, then advice for ``n`` states of random games."""
    clear_keep_cache()
    advisor = Advisor()
    start = time.perf_counter()
    advisor.points(rules)
    solve = time.perf_counter() - start
    sample = states(rules, n)
    advisor = Advisor()
    times = []
    for s in sample:
        t0 = time.perf_counter()
        advisor.advise(s)
        times.append(time.perf_counter() - t0)
    first, rest = times[0], times[1:] or times
    start = time.perf_counter()
    advisor.final_turn(rules, 3000, True)  # a final round's last turn, 3,000 behind
    last = time.perf_counter() - start
    print(
        f"| {name} | {solve * 1000:.0f} | {first * 1000:.0f} | "
        f"{statistics.median(rest) * 1000:.2f} | {max(rest) * 1000:.1f} | "
        f"{last * 1000:.1f} |"
    )


def race(path: Path, n: int) -> None:
    """A two-player table: its size and load time, the per-score turn values, and advice
    for ``n`` states of random two-player games with the table loaded."""
    start = time.perf_counter()
    table = read_table(path)
    load = time.perf_counter() - start
    start = time.perf_counter()
    table.turn_values(0, 0)
    t = time.perf_counter() - start
    advisor = Advisor(win_tables={table.rules: table})
    times, firsts, seen = [], [], set()
    for s in states(table.rules, n, players=("Ann", "Bob")):
        t0 = time.perf_counter()
        advisor.advise(s)
        took = time.perf_counter() - t0
        times.append(took)
        scores = tuple(p.score for p in s.players)
        if s.player is not None and (s.current, scores) not in seen:
            seen.add((s.current, scores))
            firsts.append(took)  # the first advice at these scores: a turn's first
    times.sort()
    print(
        f"{table.rules.name}: {path.stat().st_size / 1e6:.1f} MB on disk, loaded in "
        f"{load * 1000:.0f} ms; turn values at (0, 0) in {t * 1000:.0f} ms; two-player "
        f"advice, {len(times)} states: median {statistics.median(times) * 1000:.2f} ms, "
        f"p95 {times[int(len(times) * 0.95)] * 1000:.1f} ms, max {times[-1] * 1000:.1f} ms; "
        f"a turn's first ({len(firsts)}): median {statistics.median(firsts) * 1000:.1f} ms"
    )


def run(args: argparse.Namespace) -> int:
    if args.race:
        for path in args.race:
            race(path, args.states)
        return 0
    tables = [(name, PRESETS[name]) for name in args.rules]
    tables += [(path.name, load_rules(str(path))) for path in args.files]
    print(
        "| rules | single-turn solve ms | first advice ms | advice median ms | "
        "advice max ms | last turn, new lead ms |"
    )
    print("|---|---|---|---|---|---|")
    for name, rules in tables:
        bench(name, rules, args.states)
    return 0
