"""A game as a list of accepted actions, with undo.

:class:`Game` validates each action against the rules, keeps the actions that were
accepted (the events) and the resulting state. Undo drops the last event and goes back to
the state before it, rebuilt from the nearest checkpoint (a state kept every
``CHECKPOINT_EVERY`` events), so undo costs the same at any point of a long game.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable

from zonkcam.game import actions as A
from zonkcam.game.engine import apply, new_game, options_for, step
from zonkcam.game.errors import TableError, TurnError
from zonkcam.game.rules import RuleSet
from zonkcam.game.state import GameState

CHECKPOINT_EVERY = 32
"""Keep the state after every this many events; an undo re-applies at most this many."""


def _shown_by(*states: GameState) -> Callable[[str], str]:
    """A player's name as the first of ``states`` that knows the player shows it."""

    def shown(name: str) -> str:
        for state in states:
            p = state.find(name)
            if p is not None:
                return state.shown_name(p)
        return name

    return shown


class FoldError(TableError):
    """An action of :meth:`Game.fold` the rules refuse: ``index`` counts from 0, ``cause``
    is the rules' own error."""

    def __init__(self, index: int, cause: TableError) -> None:
        super().__init__(str(cause))
        self.index, self.cause = index, cause


class Game:
    def __init__(self, rules: RuleSet, actions: Iterable[A.Action] = ()) -> None:
        self.rules = rules
        self.events: list[A.Action] = []
        """Accepted actions, undos already applied (what the state is a fold of)."""
        self.state: GameState = new_game(rules)
        self._kept: list[int] = [0]
        """Event counts with a kept state, ascending, and the states themselves."""
        self._states: list[GameState] = [self.state]
        try:
            self.fold(actions)
        except FoldError as exc:
            raise exc.cause from None

    def fold(self, actions: Iterable[A.Action]) -> None:
        """Play many actions at once (a resume): the same as :meth:`play` for each, but no
        state in between is kept except the checkpoints, so no state is copied but those.
        A refused action raises FoldError; the game is then not to be used."""
        state = self.state.fork()  # the state handed out so far stays as it was
        for i, action in enumerate(actions):
            try:
                if isinstance(action, A.Undo):
                    self.state = state
                    state = self._undone()  # as stored, even of a seating
                    self.accept(action, state)
                    continue
                if state is self._states[-1]:
                    state = state.fork()  # a kept state is never changed
                state.banners = []
                step(state, action, options=False)
            except TableError as exc:
                raise FoldError(i, exc) from None
            self.events.append(action)
            if len(self.events) % CHECKPOINT_EVERY == 0:
                state.options = options_for(state)
                self._kept.append(len(self.events))
                self._states.append(state)
        state.options = options_for(state)
        self.state = state

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
        if self.events and isinstance(self.events[-1], A.Players):
            raise TurnError(
                "nothing to undo: the game starts with its players seated "
                "(join NAME or leave NAME changes them)"
            )
        return self._undone()

    def _undone(self) -> GameState:
        """The state before the last event, its log saying what was taken back."""
        if not self.events:
            raise TurnError("nothing to undo")
        state = self.state_after(len(self.events) - 1).fork()
        state.log.append(f"UNDO: {A.describe(self.events[-1], _shown_by(state, self.state))}")
        state.banners = ["UNDO"]
        return state

    def state_after(self, n: int) -> GameState:
        """The state after the first ``n`` events, as the game reached it."""
        if n == len(self.events):
            return self.state
        i = bisect.bisect_right(self._kept, n) - 1
        state = self._states[i]
        events = self.events[self._kept[i] : n]
        if not events:
            return state
        state = state.fork()
        for action in events:  # as fold plays them: the options worked out once, at the end
            state.banners = []
            step(state, action, options=False)
        state.options = options_for(state)
        return state

    def accept(self, action: A.Action, state: GameState) -> None:
        """Record ``action`` with the state :meth:`preview` returned for it."""
        if isinstance(action, A.Undo):
            self.events.pop()
            # states kept from here on no longer follow from the events: the undo's own
            # state (its log says UNDO) is where the game goes on from
            keep = bisect.bisect_left(self._kept, len(self.events))
            del self._kept[keep:], self._states[keep:]
            self._kept.append(len(self.events))
            self._states.append(state)
        else:
            self.events.append(action)
            if len(self.events) % CHECKPOINT_EVERY == 0:
                self._kept.append(len(self.events))
                self._states.append(state)
        self.state = state
