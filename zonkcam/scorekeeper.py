"""A game bound to the event log: the object the text scorekeeper and the app drive.

``Scorekeeper.play(action)`` checks the action against the rules, writes it to the log
and commits, and only then updates the game, so whatever it reports as accepted
survives a crash or power cut.
"""

from __future__ import annotations

from zonkcam.game.actions import Action
from zonkcam.game.game import Game
from zonkcam.game.rules import RuleSet
from zonkcam.game.state import GameState
from zonkcam.store import EventLog


class Scorekeeper:
    def __init__(self, log: EventLog, game_id: int, game: Game) -> None:
        self.log = log
        self.game_id = game_id
        self.game = game
        self.last_seq = 0
        """The place in the log of the last action this scorekeeper wrote."""

    @classmethod
    def new(cls, log: EventLog, rules: RuleSet) -> Scorekeeper:
        return cls(log, log.new_game(rules), Game(rules))

    @classmethod
    def resume(cls, log: EventLog, game_id: int) -> Scorekeeper:
        rules = log.rules(game_id)
        return cls(log, game_id, Game(rules, log.actions(game_id)))

    @property
    def state(self) -> GameState:
        return self.game.state

    def play(self, action: Action) -> GameState:
        """Accept ``action`` (raises TableError and writes nothing if it is illegal)."""
        was_finished = self.game.state.finished
        state = self.game.preview(action)
        self.last_seq = self.log.append(self.game_id, action)
        self.game.accept(action, state)
        if state.finished != was_finished:  # a win, or an undo of the winning action
            self.log.set_finished(self.game_id, state.finished)
        return state
