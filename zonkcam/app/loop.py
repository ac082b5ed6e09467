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

from zonkcam.app.demo import DemoDriver
from zonkcam.app.flow import AskValues, Question, TableFlow, roll_of, unread_words
from zonkcam.app.games import finished_charts
from zonkcam.app.throw import Throw, ThrowState, with_value
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
from zonkcam.table.zones import TableDie, Zone

EVERYONE = {Control.DRANK: A.Drunk, Control.HANDED: A.HandedOut, Control.RULED: A.RuleMade}
"""Keys whose digit 0 names everyone: what each settles."""
NAMING = (Control.SPACED, Control.CHOOSE, *EVERYONE)
"""Keys whose next digit names a player (scoreboard order)."""


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
    turns: int = 0
    """Turns played in this game (resumed ones counted): the number of its last turn's
    screenshot, ``game-NNNN/turn-NNNN.png`` (headless)."""
    camera_ok: bool = True
    last_frame: Frame | None = None
    last_settled: TableReport | None = None
    settled_in: tuple | None = None
    """The turn (:func:`~zonkcam.display.game_screen.turn_in_play`) in which
    :attr:`last_settled` was thrown (None: before any throw of the turn it was seen in):
    once it is over, the screen shows those dice without their values."""
    naming: Control | None = None
    """SPACED or CHOOSE: waiting for the player's number."""
    new_game_wanted: bool = False
    """ROLL was pressed on the game-over screen: the table wants a new game, same players."""
    players_wanted: bool = False
    """BANK was pressed on the game-over screen: the table wants a new game, with the
    players seated anew (the set-up screen, :class:`~zonkcam.display.setup.SeatPlayers`)."""
    correcting: int | None = None
    """The die (index in the last settled report) the scorekeeper tapped to correct."""
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
        self._unsaved: str | None = None
        """Why the last action could not be saved, said once while saves go on failing."""
        self._printed = len(self.logged.state.log)
        self.turns = _turns_played(self.logged.state)
        self._turn_shot = False
        if self.screen is not None and self.screen.charts_of is None:
            self.screen.charts_of = self.charts

    @property
    def waiting(self) -> TableReport | None:
        """The throw held until the values of its unread dice are given (typed, tapped, or
        read by a later look of the camera), then played; None when none is held."""
        held = self._held()
        return held.report if held is not None else None

    def charts(self, state: GameState) -> Charts | None:
        """The finished game's charts (:func:`~zonkcam.app.games.finished_charts`); None,
        with a message, if the log cannot be read."""
        try:
            return finished_charts(self.logged, state)
        except (StoreError, TableError) as exc:
            self._message(f"no charts: {exc}")
            return None

    def next_game(self, logged: LoggedGame) -> None:
        """Carry on at the same table with a new game (the demo's next game)."""
        self.logged, self.flow, self.last_settled = logged, TableFlow(), None
        self.settled_in = None
        self.new_game_wanted = self.players_wanted = False
        self._printed = 0
        self.turns = _turns_played(logged.state)
        self._print_log(logged.state)

    def tick(self, item: Frame | CameraProblem) -> None:
        """Handle one frame (or camera problem): observe, play, take input, draw."""
        if isinstance(item, CameraProblem):
            self.camera_ok = False
            if not item.repeat:
                self._message(_camera_words(item))
        else:
            if not self.camera_ok:
                self.camera_ok = True
                self._message("camera is back")
            self.last_frame = item
            for report in self.watcher.process(item):
                self._observe(report)
        commands = self.screen.commands() if self.screen is not None else []
        if self.driver is not None:
            commands += self.driver.step(self.logged.state)
        for command in commands:
            self.handle(command)
        if self.screen is not None and (
            not self.unwatched or self._turn_shot or self.screen.window.due()
        ):
            self._draw(self.screen)

    def _draw(self, screen: GameScreen) -> None:
        seen = self.last_settled.dice if self.last_settled is not None else ()
        frame = self.last_frame.image if self.last_frame is not None else None
        passed = bool(seen) and self.settled_in != turn_in_play(self.logged.state)
        screen.draw(self.logged.state, CameraView(frame, seen, earlier_turn=passed))
        if self._turn_shot and screen.window.headless:
            screen.window.screenshot(self.turn_shot_name())  # with its banner
        self._turn_shot = False

    def turn_shot_name(self) -> str:
        """Where the screenshot of the turn just played goes, in the screenshots folder:
        each game's turns in a folder of its own (``game-0013/turn-0001.png``)."""
        game = self.logged.game_id
        folder = f"game-{game:04d}/" if game is not None else ""
        return f"{folder}turn-{self.turns:04d}.png"

    def play(self, action: A.Action) -> bool:
        """Play ``action`` in the game: a keep or bank of the throw in play confirms it (and
        the table learns it); an undo withdraws it. Whether the game took it."""
        throw = self.throw
        confirms = isinstance(action, A.Keep | A.Bank) and (
            throw is not None and throw.is_last(len(self.logged.game.events))
        )
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
        turns_before = _turns_played(self.logged.state)
        try:
            state = self.logged.play(action)
        except TableError as exc:  # refused: nothing changed
            self._message(str(exc))
            return False
        except StoreError as exc:  # not saved: nothing changed; tried again by the next
            if str(exc) != self._unsaved:  # said once, not at every frame that retries
                self._message(str(exc))
            self._unsaved = str(exc)
            return False
        self._unsaved = None
        if self.screen is not None:
            self.screen.played(state)
        self._print_log(state)
        if _turns_played(state) != turns_before or state.finished:
            self.turns += 1
            self._turn_shot = True
        return True

    # -- the table's reports --------------------------------------------------------------

    def _observe(self, report: TableReport) -> None:
        if report.event is TableEvent.BLOCKED and self.screen is not None:
            self.screen.message = report.message  # on screen only: it is not news for the log
        elif (
            report.event in (TableEvent.CAMERA_MOVED, TableEvent.CAMERA_PROBLEM) and report.message
        ):
            self._message(report.message)
        if report.event in (TableEvent.ROLLING, TableEvent.SPINNING):
            self.last_settled = None  # the marks would sit where the dice were
        if report.event is not TableEvent.SETTLED:
            return
        if report.change is Change.READ:
            self._read_late(report)
            return
        self._settled(report)
        self._act_on(report)

    def _settled(self, report: TableReport, *, thrown: bool = False) -> None:
        """``report`` is what lies on the table now: a throw (``thrown``: one waiting for
        values), or dice of the turn in play (moved, kept, picked up); before the turn's
        first throw, what lies there is the last turn's (a bank's dice, a zonk's), shown
        without values."""
        state = self.logged.state
        ours = thrown or report.change is Change.ROLL or state.turn.rolls > 0
        self.last_settled = report
        self.settled_in = turn_in_play(state) if ours else None

    def _act_on(self, report: TableReport, held: Throw | None = None) -> None:
        """Play what a settled report stands for (or ask what it leaves open); ``held``:
        the held throw the report is, its values all given now."""
        if report.change in (Change.ROLL, Change.MOVED) and self._held() is not None:
            self.throw = None  # thrown again: a throw waiting for values is dropped
        for outcome in self.flow.on_report(report, self.logged.state):
            if isinstance(outcome, AskValues):
                self.throw = (held or Throw(report)).hold()
            if isinstance(outcome, Question):
                self._message(outcome.text)
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
            if self.last_settled is not None:
                self.last_settled = replace(
                    self.last_settled, dice=report.dice, unread=report.unread
                )
            return
        held.read_late(report.dice)
        self._update_held(held)

    def _update_held(self, held: Throw) -> None:
        """The held throw with some of its values given: played once none is missing."""
        self._settled(held.report, thrown=True)
        if held.missing:
            who = self.logged.state.player
            name = self.logged.state.shown_name(who) if who is not None else "the player"
            self._message(unread_words(held.missing, name))
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
        """The scorekeeper fixes a misread die of the last roll, as it lies on the table: the
        game takes the corrected roll (its log says: the roll undone, the corrected roll
        played), and the throw takes the step (:meth:`~zonkcam.app.throw.Throw.correct`)."""
        shown, events = self.last_settled, self.logged.game.events
        if shown is None or not 0 <= index < len(shown.dice):
            return self._message("tap a die of the roll on the table to correct it")
        if shown.dice[index].zone is not Zone.ROLLING:
            return self._message("tap a die of the roll on the table to correct it")
        if not events or not isinstance(events[-1], A.Roll):
            return self._message("only the last roll can be corrected (undo back to it first)")
        read_roll, throw = events[-1], self.throw
        in_play = throw is not None and throw.is_last(len(events))
        self.last_settled = with_value(shown, index, value)
        rules = self.logged.state.rules
        corrected = roll_of(list(self.last_settled.rolled), detroit=rules.points.colour_pairs > 0)
        if not self._accept(A.Undo()):
            return None
        if not self._accept(corrected):
            self._accept(read_roll)  # put the read roll back if the corrected one is refused
            self.last_settled = shown
            if in_play:
                self.throw = None  # the read roll played again: a roll nobody confirmed
            return None
        self.watcher.confirm(shown.dice[index].bbox, value)  # a keep of it is of this value
        self._keep_photo(self.last_settled.dice)
        if in_play:
            throw.correct(shown, index, value, len(self.logged.game.events), self.teacher)
        return None

    def _keep_photo(self, dice: Sequence[TableDie]) -> None:
        """The frame the roll was read from, with what was read, beside the roll's event."""
        if self.photos is not None and self.last_frame is not None:
            self.photos.save(self.logged.game_id, self.logged.last_seq, self.last_frame.image, dice)

    # -- commands ---------------------------------------------------------------------------

    def handle(self, command: Press) -> None:
        """One command from the buttons, the keyboard or the demo players, as the app acts on it."""
        kind, finished = command.kind, self.logged.state.finished
        if kind is Control.QUIT:
            self.quit = True
        elif kind is Control.PHOTO:
            if self.screen is not None:
                self.screen.photo = None if self.screen.photo is not None else self._last_photo()
        elif kind is Control.TAP_DIE:
            self.correcting = command.value
            self._message("type the die's value (1-6) to correct it")
        elif kind in NAMING:
            self.naming = kind
            everyone = ", 0 for everyone" if kind in EVERYONE else ""
            self._message(f"which player? type their number on the scoreboard{everyone}")
        elif kind is Control.DIGIT and (
            self.naming is not None or self.correcting is not None or self._held() is not None
        ):
            self._digit(int(command.value))
        elif kind is Control.ROLL and finished:
            self.new_game_wanted = True
        elif kind is Control.BANK and finished:
            self.players_wanted = True
        else:
            selected = self.screen.selected_keep if self.screen is not None else 0
            action = action_for(command, self.logged.state, selected)
            if action is not None:
                self.play(action)

    def _digit(self, value: int) -> None:
        """A digit typed: the player named, or the value of the die tapped (or of the held
        throw's first unread die)."""
        if self.naming is not None:
            kind, self.naming = self.naming, None
            named = naming_action(kind, value, self.logged.state)
            if isinstance(named, str):
                return self._message(named)
            self.play(named)
            return None
        index, self.correcting = self.correcting, None
        if not 1 <= value <= 6:
            return self._message(f"a die shows 1 to 6, not {value}")
        if index is None:  # no die tapped: the held throw's first unread die
            held = self._held()
            first = held.first_unread() if held is not None else None
            if first is not None:
                self._give_value(first, value)
        elif not self._give_value(index, value):
            self._correct(index, value)
        return None

    def _last_photo(self) -> tuple[np.ndarray, str] | None:
        """The last roll's photo in this game, with its caption (None, said, when none)."""
        game = self.logged.game_id
        shots = self.photos.of_game(game) if self.photos is not None else []
        image = cv2.imread(str(shots[-1][1])) if shots else None
        if image is None:
            self._message("no photo of a roll in this game yet")
            return None
        return (
            image,
            f"the last roll as the camera saw it (action {shots[-1][0]} of game {game}); v: back",
        )

    def _message(self, text: str) -> None:
        if self.screen is not None:
            self.screen.message = text
        self.say(f"  ({text})")

    def _print_log(self, state: GameState) -> None:
        if len(state.log) < self._printed:  # an undo re-folded the log
            self._printed = len(state.log) - 1
        for line in state.log[self._printed :]:
            self.say(line)
        self._printed = len(state.log)


def naming_action(kind: Control, number: int, state: GameState) -> A.Action | str:
    """The action a naming key (:data:`NAMING`) and the player's number on the scoreboard
    stand for (0: everyone, where the key allows it); or why there is none."""
    if kind in EVERYONE and number == 0:
        return EVERYONE[kind](None)
    if not 1 <= number <= len(state.players):
        return f"no player {number}"
    name = state.players[number - 1].name
    return {
        Control.SPACED: A.Penalty(A.PenaltyKind.SPACED, name),
        Control.CHOOSE: A.Land(A.Landing.CHOOSE, name),
        Control.DRANK: A.Drunk(name),
        Control.HANDED: A.HandedOut(name),
        Control.RULED: A.RuleMade(name),
    }[kind]


def _camera_words(problem: CameraProblem) -> str:
    """What the screen and the log say of a camera problem."""
    again = (
        ""
        if problem.final
        else (
            f" (trying again in {problem.retry_in_s:g} s)" if problem.retry_in_s else " (skipped)"
        )
    )
    lost = "camera lost" if problem.lost else "camera"
    return f"{lost}: {problem.message}{again}"


def _turns_played(state: GameState) -> int:
    return sum(p.turns for p in state.players)
