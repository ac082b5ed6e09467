"""A game bound to the event log: the object the terminal scorekeeper and the app drive.

``LoggedGame.play(action)`` checks the action against the rules, writes it to the log
and commits, and only then updates the game, so whatever it reports as accepted
survives a crash or power cut. A new game reaches the log with its players, in one
transaction: a game without players is never stored.

A save that fails (a full disk, a card turned read-only, a lock) changes nothing, and
the next action tries again; once :data:`SAVE_TRIES` saves in a row have failed over at
least :data:`SAVE_PATIENCE_S` seconds, :meth:`LoggedGame.cannot_save` says so in one
line, for the session to stop: the demo, the table and the text mode end there.
"""

from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from zonkcam.fileio import write_whole
from zonkcam.game import actions as A
from zonkcam.game.game import FoldError, Game
from zonkcam.game.names import counted
from zonkcam.game.rules import RuleSet
from zonkcam.game.state import GameState
from zonkcam.record.clock import duration_words
from zonkcam.record.store import EventLog, LogGoneError, StoreError

SAVE_TRIES = 5
"""Saves failed in a row (each one action tried) before a session gives up..."""
SAVE_PATIENCE_S = 10.0
"""...over at least this many seconds: a disk that is full for that long stays full
until someone frees it, and a table that retries every frame would say so for ever."""


class LoggedGame:
    clock: Callable[[], float] = staticmethod(time.monotonic)
    """Seconds, for how long saves have been failing (a fake one in tests)."""

    def __init__(self, log: EventLog, game_id: int | None, game: Game, stored: int = 0) -> None:
        self.log = log
        self.game_id = game_id
        """None until the game is stored (with its first action)."""
        self.game = game
        self._stored = stored
        """Actions of this game in the log, undos included."""
        self.demo = False
        """The demo game's: only its automatic players play it."""
        self._failed = 0
        """Saves failed in a row (0 once one goes through)."""
        self._failing_since = 0.0
        self._failure = ""
        """Why the last save failed."""

    @classmethod
    def new(
        cls, log: EventLog, rules: RuleSet, actions: Sequence[A.Action] = (), *, demo: bool = False
    ) -> LoggedGame:
        """A new game; with ``actions`` (the seating, zonk names) it is stored with them in
        one transaction, else with the first action played. ``demo``: the demo game's."""
        game = Game(rules, actions)  # a refused action raises here, before anything is saved
        logged = cls(log, None, game)
        logged.demo = demo
        if actions:
            logged.game_id = log.new_game(rules, actions, game.state.finished, demo=demo)
            logged._stored = len(actions)
        return logged

    @property
    def last_seq(self) -> int:
        """The place in the log of the last action stored (undos count)."""
        return self._stored

    @classmethod
    def resume(cls, log: EventLog, game_id: int) -> LoggedGame:
        """The saved game, claimed for this log (refused while another zonkcam plays it)."""
        log.claim(game_id)
        game, stored = saved_game(log, game_id)
        logged = cls(log, game_id, game, stored)
        logged.demo = log.is_demo(game_id)
        return logged

    @property
    def state(self) -> GameState:
        return self.game.state

    def play(self, action: A.Action) -> GameState:
        """Accept ``action`` (raises TableError, or StoreError when it cannot be saved, and
        then changes nothing)."""
        was_finished = self.game.state.finished
        state = self.game.preview(action)
        finished = state.finished if state.finished != was_finished else None
        try:
            if self.game_id is None:
                self.game_id = self.log.new_game(
                    self.game.rules, [action], state.finished, demo=self.demo
                )
            else:
                self.log.append(self.game_id, action, self._stored + 1, finished)
        except LogGoneError as exc:
            raise StoreError(f"{exc}: nothing was saved; {self.rescue()}") from None
        except StoreError as exc:
            if not self._failed:
                self._failing_since = self.clock()
            self._failed += 1
            self._failure = str(exc)
            raise
        self._failed = 0
        self._stored += 1
        self.game.accept(action, state)
        return state

    @property
    def saves_stuck(self) -> bool:
        """Whether saving has failed for a while: :data:`SAVE_TRIES` saves in a row, the
        first at least :data:`SAVE_PATIENCE_S` seconds ago."""
        return self._failed >= SAVE_TRIES and self.clock() - self._failing_since >= SAVE_PATIENCE_S

    def cannot_save(self, resume: str) -> str | None:
        """Why this game can no longer be saved and where it is kept (one line), once
        saves have failed for a while (:attr:`saves_stuck`); None before. Every action
        shown as accepted is in the log (a failed save changes nothing): `resume` is the
        command that goes on from there."""
        if not self.saves_stuck:
            return None
        why = self._failure.removesuffix("; nothing was saved")
        tries = (
            f"{self._failed} saves in a row failed over "
            f"{duration_words(self.clock() - self._failing_since)}"
        )
        if self.game_id is None or not self.game.events:
            return f"{why} ({tries}): nothing of this game was saved"
        return (
            f"{why} ({tries}); this game's {counted(len(self.game.events), 'action')} "
            f"are kept in {self.log.path}: go on with {resume} once it can be written"
        )

    def log_is_gone(self) -> str | None:
        """Where the log's file went and where this game is kept instead (one line), when
        it was deleted or replaced while this game was on; None while it is the file."""
        gone = self.log.missing()
        if gone is None or not self.game.events:
            return None
        return f"the game log {self.log.path} {gone} while it was open; {self.rescue()}"

    def rescue(self) -> str:
        """Write this game's rules and accepted actions as a replay file beside the log (or
        in the temporary folder where that cannot be written); says where, and how to
        bring it back."""
        lines = [json.dumps({"rules": self.game.rules.to_dict()})]
        lines += [json.dumps(A.action_to_json(a)) for a in self.game.events]
        text = "".join(line + "\n" for line in lines)
        name = f"{self.log.path.stem}-game{self.game_id or 'new'}-rescued.jsonl"
        problems = []
        for folder in (self.log.path.parent, Path(tempfile.gettempdir())):
            path = folder / name
            try:
                write_whole(path, text)
            except OSError as exc:
                problems.append(f"{path}: {exc.strerror or exc}")
                continue
            return (
                f"this game's {counted(len(self.game.events), 'action')} are kept in {path}: "
                f"bring it back with zonkcam games import {path}"
            )
        return (
            f"this game could not be written anywhere ({'; '.join(problems)}): it is only "
            "in this zonkcam, keep it running"
        )


def saved_game(log: EventLog, game_id: int) -> tuple[Game, int]:
    """A saved game played back from the log, and how many actions it has stored (undos
    included); a StoreError names the stored action the rules refuse."""
    rules = log.rules(game_id)
    actions = log.actions(game_id)
    game = Game(rules)
    try:
        game.fold(actions)
    except FoldError as exc:
        raise StoreError(
            f"game {game_id}: stored action {exc.index + 1} is refused by the "
            f"rules ({exc}); its actions are in: zonkcam games export "
            f"{game_id}"
        ) from None
    return game, len(actions)
