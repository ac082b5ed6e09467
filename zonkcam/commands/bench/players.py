"""`zonkcam bench players`: whole games of the demo's automatic players, straight through
the engine.

Plays ``--games`` games per table (three players, random dice from ``--seed`` on) with
:class:`~zonkcam.app.players.AutoPlayer` asking as in the demo game, and reports the
rolls a game takes (the demo game's length: each roll is a throw on the demo table) and
the time of the players' decisions per roll.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from zonkcam.app.players import AutoPlayer
from zonkcam.game import actions as A
from zonkcam.game.dice import DETROIT_DICE, Die
from zonkcam.game.game import Game
from zonkcam.game.rules import PRESETS, RuleSet
from zonkcam.game.state import Phase


def play(player: AutoPlayer, rules: RuleSet, seed: int) -> tuple[int, float]:
    """One game: (rolls, seconds spent asking)."""
    rng = random.Random(seed)
    game = Game(rules, [A.Players(("Ann", "Bob", "Cy"))])
    rolls, asking = 0, 0.0
    while not game.state.finished:
        s, t = game.state, game.state.turn
        start = time.perf_counter()
        action = None
        if s.phase is Phase.ROLL:
            if t.bank_ok and player.wants_to_bank(s):
                action = A.Bank()
            elif player.wants_piggyback(s):
                action = A.Piggyback()
        elif s.phase is Phase.DECIDE:
            if player.wants_to_bank(s):
                action = A.Bank()
            elif player.wants_go_for_1000(s):
                action = A.GoFor1000()
            else:
                action = A.Keep(player.choose_keep(s).dice)
        elif s.phase is Phase.PAIR:
            action = A.Reroll()
        asking += time.perf_counter() - start
        if action is None:
            n = 1 if s.phase is Phase.GO_FOR_1000 else t.dice_to_roll
            faces = [rng.randint(1, 6) for _ in range(n)]
            if rules.points.colour_pairs and n == 6:
                action = A.Roll(tuple(map(Die, faces, DETROIT_DICE)))
            else:
                action = A.Roll(tuple(map(Die, faces)))
            rolls += 1
        game.play(action)
    return rolls, asking


def run(args: argparse.Namespace) -> int:
    player = AutoPlayer()
    for name in args.rules:
        results = [play(player, PRESETS[name], args.seed + g) for g in range(args.games)]
        rolls = [r for r, _ in results]
        per_roll = sum(d for _, d in results) / sum(rolls)
        spread = f"sd {statistics.stdev(rolls):.0f}, " if len(rolls) > 1 else ""
        print(
            f"{name}: {statistics.mean(rolls):.0f} rolls a game ({spread}{args.games} games), "
            f"decisions {per_roll * 1000:.2f} ms a roll"
        )
    return 0
