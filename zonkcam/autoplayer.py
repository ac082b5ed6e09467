"""Simple automatic players for the demo game: which keep to take, when to bank.

Pure: a decision from the game state alone. Good enough to look like a sensible player;
not an optimal strategy.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from zonkcam.game import actions as A
from zonkcam.game.dice import Die
from zonkcam.game.engine import allowed
from zonkcam.game.game import Game
from zonkcam.game.rules import RuleSet
from zonkcam.game.scoring import Keep
from zonkcam.game.state import GameState, Phase


@dataclass(frozen=True)
class AutoPlayer:
    bank_at: int = 400
    """Bank once the turn total reaches this (and the rules allow it)..."""
    bank_with_dice: int = 2
    """...or with this many dice or fewer left to throw and anything worth banking."""

    def choose_keep(self, state: GameState) -> Keep:
        """The keep to set aside from the roll on the table (phase DECIDE)."""
        assert state.phase is Phase.DECIDE and state.turn.score is not None
        keeps = state.turn.score.keeps
        best = keeps[0]
        # With nothing better than singles, keep one single and throw more dice.
        if all(name.startswith("single") for name in best.combos) and \
                len(best.dice) < state.turn.dice_to_roll:
            singles = [k for k in keeps if len(k.dice) == 1]
            return max(singles, key=lambda k: k.points)
        return best

    def wants_go_for_1000(self, state: GameState) -> bool:
        return allowed(state, A.GoFor1000()) and state.turn.score is not None and \
            state.turn.score.best is not None and state.turn.score.best.points < 300

    def wants_to_bank(self, state: GameState) -> bool:
        """After a keep (phase ROLL with bank allowed), or straight after a roll."""
        if not allowed(state, A.Bank()):
            return False
        t = state.turn
        total = t.total
        left = t.dice_to_roll
        if state.phase is Phase.DECIDE:  # taking the points: the best keep is added
            best = t.score.best if t.score else None
            total += best.points if best else 0
            left -= len(best.dice) if best else 0
            if state.rules.bank_after_keep:
                return False  # keep first, then decide
        return total >= self.bank_at or (0 < left <= self.bank_with_dice and total >= 200)

    def next_action(self, state: GameState, rng: random.Random) -> A.Action:
        """What this player does next at a table where the dice fall as ``rng`` says."""
        t = state.turn
        if state.phase is Phase.ROLL:
            if t.bank_ok and self.wants_to_bank(state):
                return A.Bank()
            return A.Roll(tuple(Die(rng.randint(1, 6)) for _ in range(t.dice_to_roll)))
        if state.phase is Phase.DECIDE:
            if self.wants_to_bank(state):
                return A.Bank()
            if self.wants_go_for_1000(state):
                return A.GoFor1000()
            return A.Keep(self.choose_keep(state).dice)
        if state.phase is Phase.PAIR:
            return A.Reroll()
        return A.Roll((Die(rng.randint(1, 6)),))  # going for 1000


def scripted_game(rules: RuleSet, players: tuple[str, ...], actions: int,
                  seed: int = 0) -> list[A.Action]:
    """A game of automatic players with seeded dice: its first ``actions`` actions, fewer
    if it ends before (the seating counts as one)."""
    rng, player = random.Random(seed), AutoPlayer()
    game = Game(rules, [A.Players(players)])
    while len(game.events) < actions and not game.state.finished:
        game.play(player.next_action(game.state, rng))
    return game.events
