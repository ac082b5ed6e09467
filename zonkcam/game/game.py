"""A game as a list of accepted actions, with undo.

:class:`Game` validates each action against the rules, keeps the actions that were
accepted (the events) and the resulting state. Undo drops the last event and re-folds
the rest, so any game can be replayed from its events alone.
"""

from __future__ import annotations

from collections.abc import Iterable

from zonkcam.game import actions as A
from zonkcam.game.engine import apply, new_game, replay
from zonkcam.game.errors import TurnError
from zonkcam.game.rules import RuleSet
from zonkcam.game.state import GameState


class Game:
    def __init__(self, rules: RuleSet, actions: Iterable[A.Action] = ()) -> None:
        self.rules = rules
        self.events: list[A.Action] = []
        """Accepted actions, undos already applied (what the state is a fold of)."""
        self.state: GameState = new_game(rules)
        for action in actions:
            self.play(action)

    def play(self, action: A.Action) -> GameState:
        """Accept ``action`` or raise TableError leaving the game unchanged."""
        if isinstance(action, A.Undo):
            return self.undo()
        self.state = apply(self.state, action)
        self.events.append(action)
        return self.state

    def undo(self) -> GameState:
        if not self.events:
            raise TurnError("nothing to undo")
        undone = self.events.pop()
        self.state = replay(self.rules, self.events)
        self.state.log.append(f"UNDO: {A.action_to_json(undone)}")
        return self.state

    def check(self, action: A.Action) -> None:
        """Raise TableError if ``action`` would be refused; changes nothing."""
        if isinstance(action, A.Undo):
            if not self.events:
                raise TurnError("nothing to undo")
        else:
            apply(self.state, action)
