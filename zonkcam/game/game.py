"""A game as a list of accepted actions, with undo.

:class:`Game` validates each action against the rules, keeps the actions that were
accepted (the events) and the resulting state. Undo drops the last event and re-folds
the rest, so any game can be replayed from its events alone.
"""

from __future__ import annotations

import json
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
        state = self.preview(action)
        self.accept(action, state)
        return state

    def undo(self) -> GameState:
        return self.play(A.Undo())

    def preview(self, action: A.Action) -> GameState:
        """The state ``action`` would lead to; raises TableError if it is refused.

        Nothing changes until :meth:`accept` (the event log writes in between)."""
        if not isinstance(action, A.Undo):
            return apply(self.state, action)
        if not self.events:
            raise TurnError("nothing to undo")
        state = replay(self.rules, self.events[:-1])
        state.log.append(f"UNDO: {json.dumps(A.action_to_json(self.events[-1]))}")
        state.banners.append("UNDO")
        return state

    def accept(self, action: A.Action, state: GameState) -> None:
        """Record ``action`` with the state :meth:`preview` returned for it."""
        if isinstance(action, A.Undo):
            self.events.pop()
        else:
            self.events.append(action)
        self.state = state
