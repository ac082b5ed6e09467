"""The table app: one roll from camera frame to score on screen.

Each frame goes ``camera -> TableWatcher (settled roll?) -> TableFlow (which action?)
-> LoggedGame (rules + event log) -> GameScreen (what everyone sees)``; button presses
and keys go ``GameScreen.commands() -> action_for -> LoggedGame``. Each throw the table
reports lives as a :class:`~zonkcam.app.throw.Throw` (seen, held for a value, played,
corrected, confirmed, taught), which the app drives. In the demo, a
:class:`~zonkcam.app.demo.DemoDriver` plays the automatic players at the demo table.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from zonkcam.app.announce import Announcer, turns_played
from zonkcam.app.demo import DemoDriver
from zonkcam.app.flow import AskValues, Question, TableFlow, unread_words
from zonkcam.app.games import finished_charts
from zonkcam.app.keys import Answer, DieValue, Keys
from zonkcam.app.throw import Throw, ThrowState, correction
from zonkcam.controls import Control, Press, action_for
from zonkcam.display.game_screen import Charts, GameScreen, turn_in_play
from zonkcam.display.view import CameraView
from zonkcam.game import actions as A
from zonkcam.game.errors import TableError
from zonkcam.game.state import GameState
from zonkcam.record.logged_game import LoggedGame
from zonkcam.record.photos import RollPhotos
from zonkcam.record.store import StoreError
from zonkcam.sources import CameraProblem, Frame
from zonkcam.table.observe import TableEvent, TableReport, TableWatcher
from zonkcam.table.teaching import Teacher
from zonkcam.table.tracking import Change
from zonkcam.table.zones import TableDie

CAMERA_TROUBLE = (TableEvent.CAMERA_MOVED, TableEvent.CAMERA_PROBLEM)
"""Table reports whose message is news for the log as well as the screen."""


@dataclass
class Shown:
    """What the camera view shows: the last frame, and the dice the table last settled on
    (None while they move)."""

    frame: Frame | None = None
    settled: TableReport | None = None
    settled_in: tuple | None = None
    """The turn (:func:`~zonkcam.display.game_screen.turn_in_play`) in which ``settled``
    was thrown (None: before any throw of the turn it was seen in): once it is over, the
    screen shows those dice without their values."""

    def lies(self, report: TableReport, state: GameState, *, thrown: bool = False) -> None:
        """``report`` is what lies on the table now: a throw (``thrown``: one waiting for
        values), or dice of the turn in play (moved, kept, picked up); before the turn's
        first throw, what lies there is the last turn's (a bank's dice, a zonk's), shown
        without values."""
        ours = thrown or report.change is Change.ROLL or state.turn.rolls > 0
        self.settled = report
        self.settled_in = turn_in_play(state) if ours else None

    def read_late(self, report: TableReport) -> None:
        """A later look read dice left unread: shown (nothing is played)."""
        if self.settled is not None:
            self.settled = replace(self.settled, dice=report.dice, unread=report.unread)

    def view(self, state: GameState) -> CameraView:
        """The camera view in ``state``: the dice of a turn that is over without values."""
        seen = self.settled.dice if self.settled is not None else ()
        frame = self.frame.image if self.frame is not None else None
        passed = bool(seen) and self.settled_in != turn_in_play(state)
        return CameraView(frame, seen, earlier_turn=passed)


@dataclass
class TableApp:
    logged: LoggedGame
    watcher: TableWatcher
    screen: GameScreen | None = None
    driver: DemoDriver | None = None
    say: Callable[[str], None] = print
    """Where the game log goes line by line (the terminal, or the journal)."""
    flow: TableFlow = field(default_factory=TableFlow)
    quit: bool = False
    shown: Shown = field(default_factory=Shown)
    """What the camera view shows: the last frame, the dice the table last settled on."""
    new_game_wanted: bool = False
    """ROLL was pressed on the game-over screen: the table wants a new game, same players."""
    players_wanted: bool = False
    """BANK was pressed on the game-over screen: the table wants a new game, with the
    players seated anew (the set-up screen, :class:`~zonkcam.display.setup.SeatPlayers`)."""
    keys: Keys = field(default_factory=Keys)
    """The question the scorekeeper's last key asked (which player? which value?)."""
    throw: Throw | None = None
    """The latest throw: held for values, or played (until it is built on, undone or
    thrown over; a throw nobody confirmed teaches nothing)."""
    photos: RollPhotos | None = None
    """Where each roll's settled frame is kept (None: nowhere)."""
    unwatched: bool = False
    """Nobody watches the screen (no display): draw only the frames that are saved."""
    teacher: Teacher | None = None
    """Where the rolls the scorekeeper confirms are taught (None: the table learns nothing,
    as in the demo, whose automatic players confirm nothing)."""

    def __post_init__(self) -> None:
        self.out = Announcer.of(self.logged.state, self.say, self.screen)
        """What the table says, and the turns played."""
        if self.screen is not None and self.screen.charts_of is None:
            self.screen.charts_of = self.charts

    @property
    def last_settled(self) -> TableReport | None:
        """The dice the table last settled on, as shown (None while they move)."""
        return self.shown.settled

    @property
    def turns(self) -> int:
        """Turns played in this game (resumed ones counted)."""
        return self.out.turns

    @property
    def waiting(self) -> TableReport | None:
        """The throw held for the values of its unread dice (None: none is held)."""
        held = self._held()
        return held.report if held is not None else None

    def charts(self, state: GameState) -> Charts | None:
        """The finished game's charts (None, said, if the log cannot be read)."""
        try:
            return finished_charts(self.logged, state)
        except (StoreError, TableError) as exc:
            self.out.message(f"no charts: {exc}")
            return None

    def next_game(self, logged: LoggedGame) -> None:
        """Carry on at the same table with a new game (the demo's next game)."""
        self.logged, self.flow, self.shown = logged, TableFlow(), Shown(self.shown.frame)
        self.new_game_wanted = self.players_wanted = False
        self.out.new_game(logged.state)

    def tick(self, item: Frame | CameraProblem) -> None:
        """Handle one frame (or camera problem): observe, play, take input, draw."""
        self.out.camera(item)
        if isinstance(item, Frame):
            self.shown.frame = item
            for report in self.watcher.process(item):
                self._observe(report)
        commands = self.screen.commands() if self.screen is not None else []
        if self.driver is not None:
            commands += self.driver.step(self.logged.state)
        for command in commands:
            self.handle(command)
        if self.screen is not None and (
            not self.unwatched or self.out.turn_shot or self.screen.window.due()
        ):
            self._draw(self.screen)

    def _draw(self, screen: GameScreen) -> None:
        screen.draw(self.logged.state, self.shown.view(self.logged.state))
        if self.out.turn_shot and screen.window.headless:  # with its banner
            screen.window.screenshot(self.out.turn_shot_name(self.logged.game_id))
        self.out.turn_shot = False

    def play(self, action: A.Action) -> bool:
        """Play ``action`` in the game: a keep or bank of the throw in play confirms it (and
        the table learns it); an undo withdraws it. Whether the game took it."""
        throw, events = self.throw, len(self.logged.game.events)
        confirms = throw is not None and throw.built_on(action, events)
        if not self._accept(action):
            return False
        if confirms:
            throw.confirm()
            throw.teach(self.teacher)
        elif isinstance(action, A.Undo):
            self.throw = self._held()  # a throw in the game withdrawn: it teaches nothing
        return True

    def _accept(self, action: A.Action) -> bool:
        """``action`` into the game and its log, said and shown: whether it was taken."""
        turns_before = turns_played(self.logged.state)
        try:
            state = self.logged.play(action)
        except TableError as exc:  # refused: nothing changed
            self.out.message(str(exc))
            return False
        except StoreError as exc:  # not saved: nothing changed; tried again by the next
            self.out.not_saved(str(exc))
            return False
        self.out.played(state, turns_before)
        return True

    def _observe(self, report: TableReport) -> None:
        if report.event is TableEvent.BLOCKED and self.screen is not None:
            self.screen.message = report.message  # on screen only: it is not news for the log
        elif report.event in CAMERA_TROUBLE and report.message:
            self.out.message(report.message)
        if report.event in (TableEvent.ROLLING, TableEvent.SPINNING):
            self.shown.settled = None  # the marks would sit where the dice were
        if report.event is not TableEvent.SETTLED:
            return
        if report.change is Change.READ:
            self._read_late(report)
            return
        self.shown.lies(report, self.logged.state)
        self._act_on(report)

    def _act_on(self, report: TableReport, held: Throw | None = None) -> None:
        """Play what a settled report stands for (or ask what it leaves open); ``held``:
        the held throw the report is, its values all given now."""
        if report.change in (Change.ROLL, Change.MOVED) and self._held() is not None:
            self.throw = None  # thrown again: a throw waiting for values is dropped
        for outcome in self.flow.on_report(report, self.logged.state):
            if isinstance(outcome, AskValues):
                self.throw = (held or Throw(report)).hold()
            if isinstance(outcome, Question):
                self.out.message(outcome.text)
            elif self.play(outcome) and isinstance(outcome, A.Roll):
                self._keep_photo(report.dice)
                self.throw = (held or Throw(report)).played(len(self.logged.game.events))

    def _held(self) -> Throw | None:
        throw = self.throw
        return throw if throw is not None and throw.state is ThrowState.HELD else None

    def _read_late(self, report: TableReport) -> None:
        """A later look read dice the last report left unread. A throw still waiting for
        them takes their values and is played; otherwise (answered already, or thrown
        again) the screen shows them and nothing is played."""
        held = self._held()
        if held is None:
            self.shown.read_late(report)
            return
        held.read_late(report.dice)
        self._update_held(held)

    def _update_held(self, held: Throw) -> None:
        """The held throw with some of its values given: played once none is missing."""
        self.shown.lies(held.report, self.logged.state, thrown=True)
        if held.missing:
            who = self.logged.state.player
            name = self.logged.state.shown_name(who) if who is not None else "the player"
            self.out.message(unread_words(held.missing, name))
            return
        self.throw = None
        self._act_on(replace(held.report, change=Change.ROLL), held)

    def _give_value(self, index: int, value: int) -> bool:
        """The scorekeeper gave die ``index`` of the held throw its value: True when that
        die is one of the held throw's."""
        held = self._held()
        die = held.give(index, value) if held is not None else None
        if held is None or die is None:
            return False
        self.watcher.confirm(die.bbox, value)
        self._update_held(held)
        return True

    def _correct(self, index: int, value: int) -> None:
        """The scorekeeper fixes a misread die of the last roll, as the dice lie on the
        table: the game takes the corrected roll (its log says: the roll undone, the
        corrected roll played), and the throw in play takes the step."""
        events, rules = self.logged.game.events, self.logged.state.rules
        fix = correction(self.shown.settled, index, value, events, rules.points.colour_pairs > 0)
        if isinstance(fix, str):
            return self.out.message(fix)
        throw = self.throw
        in_play = throw is not None and throw.is_last(len(events))
        self.shown.settled = fix.fixed
        if not self._accept(A.Undo()):
            return None
        if not self._accept(fix.roll):
            self._accept(fix.read)  # put the read roll back if the corrected one is refused
            self.shown.settled = fix.shown
            self.throw = None if in_play else throw  # a roll nobody confirmed
            return None
        self.watcher.confirm(fix.shown.dice[index].bbox, value)  # a keep of it is this value
        self._keep_photo(fix.fixed.dice)
        if in_play:
            throw.correct(fix, len(self.logged.game.events), self.teacher)
        return None

    def _keep_photo(self, dice: Sequence[TableDie]) -> None:
        """The frame the roll was read from, with what was read, beside the roll's event."""
        if self.photos is not None and self.shown.frame is not None:
            self.photos.save(
                self.logged.game_id, self.logged.last_seq, self.shown.frame.image, dice
            )

    def handle(self, command: Press) -> None:
        """One command from the buttons, the keyboard or the demo players, as the app acts on it."""
        kind, finished = command.kind, self.logged.state.finished
        if kind is Control.QUIT:
            self.quit = True
        elif kind is Control.PHOTO and self.screen is not None:
            photo = None if self.screen.photo else last_photo(self.photos, self.logged.game_id)
            if photo is None and self.screen.photo is None:
                self.out.message("no photo of a roll in this game yet")
            self.screen.photo = photo
        elif kind is Control.DIGIT and (self.keys.asking or self._held() is not None):
            self._answer(self.keys.answer(int(command.value), self.logged.state))
        elif (question := self.keys.ask(command)) is not None:
            self.out.message(question)
        elif kind is Control.ROLL and finished:
            self.new_game_wanted = True
        elif kind is Control.BANK and finished:
            self.players_wanted = True
        elif kind is not Control.PHOTO:
            selected = self.screen.selected_keep if self.screen is not None else 0
            action = action_for(command, self.logged.state, selected)
            if action is not None:
                self.play(action)

    def _answer(self, answer: Answer) -> None:
        """A digit's answer: a die's value (of the die tapped, or of the held throw's first
        unread die), an action, or what to say instead."""
        if isinstance(answer, str):
            self.out.message(answer)
        elif not isinstance(answer, DieValue):
            self.play(answer)
        elif answer.index is not None:
            if not self._give_value(answer.index, answer.value):
                self._correct(answer.index, answer.value)
        elif (held := self._held()) is not None and (first := held.first_unread()) is not None:
            self._give_value(first, answer.value)


def last_photo(photos: RollPhotos | None, game: int | None) -> tuple[np.ndarray, str] | None:
    """The photo of the game's last roll read, with its caption; None when there is none."""
    shots = photos.of_game(game) if photos is not None else []
    image = cv2.imread(str(shots[-1][1])) if shots else None
    if image is None:
        return None
    where = f"action {shots[-1][0]} of game {game}"
    return image, f"the last roll as the camera saw it ({where}); v: back"
