"""The demo game's automatic players: they play what the advisor says is best.

Pure: a decision from the game state alone, read off :class:`~zonkcam.advisor.advice.Advisor`
(expected points, the chance to win with two players and a solved table, and on a last
turn of the final round the chance to beat the leader).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from zonkcam.advisor.advice import Advice, Advisor, Best
from zonkcam.game import actions as A
from zonkcam.game.dice import Die
from zonkcam.game.game import Game
from zonkcam.game.rules import RuleSet
from zonkcam.game.scoring import LegalKeep
from zonkcam.game.state import GameState, Phase


@dataclass
class AutoPlayer:
    advisor: Advisor = field(default_factory=Advisor)

    def advice(self, state: GameState) -> Advice | None:
        return self.advisor.advise(state)

    def choose_keep(self, state: GameState) -> LegalKeep:
        """The keep to set aside from the roll on the table (phase DECIDE)."""
        assert state.phase is Phase.DECIDE and state.turn.score is not None
        advice = self.advice(state)
        if advice is not None and advice.best_keep is not None:
            return state.turn.score.keep_for(advice.best_keep)
        return state.turn.score.keeps[0]

    def wants_go_for_1000(self, state: GameState) -> bool:
        advice = self.advice(state)
        return advice is not None and advice.best is Best.GO_FOR_1000 and state.options.go_for_1000

    def wants_piggyback(self, state: GameState) -> bool:
        """At the start of a turn: take over the last bank's dice and total."""
        advice = self.advice(state)
        return advice is not None and advice.best is Best.PIGGYBACK and state.options.piggyback

    def wants_to_bank(self, state: GameState) -> bool:
        """After a keep (phase ROLL with bank allowed), or straight after a roll."""
        advice = self.advice(state)
        return advice is not None and advice.best is Best.BANK and state.options.bank

    def next_action(self, state: GameState, rng: random.Random) -> A.Action:
        """What this player does next at a table where the dice fall as ``rng`` says."""
        t = state.turn
        if state.phase is Phase.ROLL:
            if t.bank_ok and self.wants_to_bank(state):
                return A.Bank()
            if self.wants_piggyback(state):
                return A.Piggyback()
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


def scripted_game(
    rules: RuleSet, players: tuple[str, ...], actions: int, seed: int = 0
) -> list[A.Action]:
    """A game of automatic players with seeded dice: its first ``actions`` actions, fewer
    if it ends before (the seating counts as one)."""
    rng, player = random.Random(seed), AutoPlayer()
    game = Game(rules, [A.Players(players)])
    while len(game.events) < actions and not game.state.finished:
        game.play(player.next_action(game.state, rng))
    return game.events
