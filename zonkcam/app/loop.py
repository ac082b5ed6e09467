"""The table app: one roll from camera frame to score on screen.

Each frame goes ``camera -> TableWatcher (settled roll?) -> TableFlow (which action?)
-> LoggedGame (rules + event log) -> GameScreen (what everyone sees)``; button presses
and keys go ``GameScreen.commands() -> action_for -> LoggedGame``. In the demo, a
:class:`~zonkcam.app.demo.DemoDriver` plays the automatic players at the demo table.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

import cv2

from zonkcam.app.demo import DemoDriver
from zonkcam.app.flow import AskValues, Question, TableFlow, roll_of, unread_words
from zonkcam.controls import Control, Press, action_for
from zonkcam.display.game_screen import Charts, GameScreen, turn_in_play
from zonkcam.display.view import CameraView
from zonkcam.game import actions as A
from zonkcam.game.errors import TableError
from zonkcam.game.state import GameState
from zonkcam.record.logged_game import LoggedGame, saved_game
from zonkcam.record.photos import RollPhotos
from zonkcam.record.store import StoreError, local_time
from zonkcam.review.dice import pools
from zonkcam.review.night import review_game
from zonkcam.sources import CameraProblem, Frame
from zonkcam.table.observe import TableEvent, TableReport, TableWatcher
from zonkcam.table.reading import SeenDie
from zonkcam.table.teaching import Teacher
from zonkcam.table.tracking import Change
from zonkcam.table.zones import TableDie, Zone
from zonkcam.vision.geometry import die_at_box

EVERYONE = {Control.DRANK: A.Drunk, Control.HANDED: A.HandedOut, Control.RULED: A.RuleMade}
"""Keys whose digit 0 names everyone: what each settles."""
NAMING = (Control.SPACED, Control.CHOOSE, *EVERYONE)
"""Keys whose next digit names a player (scoreboard order)."""


@dataclass
class _ReadRoll:
    """The last roll played from the camera, as read: its dice and the reader's features
    of them, waiting for the scorekeeper to confirm it (A confirmation is an action on
    that very roll: a keep taken from it or a bank of it, from the buttons, keys or the
    dice slid into the keep strip - the players building on the values on the screen; or
    a die corrected. The passage of time confirms nothing: a roll undone, re-thrown or
    zonked with nobody's say teaches nothing.)"""

    events: int
    """The game's event count right after the roll: it is still the last action."""
    dice: list[TableDie]
    seen: list[SeenDie | None]
    taught: set[int] = field(default_factory=set)
    """The dice (indexes) already taught at a correction."""


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
    waiting: TableReport | None = None
    """A throw reported with dice no read could read, held until their values are given
    (typed, tapped, or read by a later look of the camera), then played; a new throw
    takes its place."""
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
        self._roll: _ReadRoll | None = None
        if self.screen is not None and self.screen.charts_of is None:
            self.screen.charts_of = self.charts

    def charts(self, state: GameState) -> Charts | None:
        """The finished game's charts (SELECT on the game-over screen): the game played
        back from the log, and the dice of the night's games (those that began on the day
        this one began, the demo's with the demo's) on tables that throw as many dice;
        None, with a message, if the log cannot be read."""
        logged = self.logged
        if logged.game_id is None or not state.finished:
            return None
        log, game_id = logged.log, logged.game_id
        try:
            with log.snapshot():  # one moment of the log (another zonkcam may play on)
                review = review_game(
                    game_id, state.rules, log.actions(game_id), log.action_times(game_id)
                )
                night = local_time(log.began().get(game_id), "%Y-%m-%d")  # this game's
                tonight = log.games_of(night, logged.demo)
                # only tables that throw as many dice: five are never pooled with six
                others = [
                    n for n in tonight if n != game_id and log.rules(n).dice == state.rules.dice
                ]
                actions = [a for n in others for a in saved_game(log, n)[0].events]
        except (StoreError, TableError) as exc:
            self._message(f"no charts: {exc}")
            return None
        return review, pools(actions + review.actions)

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
                again = (
                    ""
                    if item.final
                    else (
                        f" (trying again in {item.retry_in_s:g} s)"
                        if item.retry_in_s
                        else " (skipped)"
                    )
                )
                lost = "camera lost" if item.lost else "camera"
                self._message(f"{lost}: {item.message}{again}")
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
            seen = self.last_settled.dice if self.last_settled is not None else ()
            frame = self.last_frame.image if self.last_frame is not None else None
            passed = bool(seen) and self.settled_in != turn_in_play(self.logged.state)
            self.screen.draw(self.logged.state, CameraView(frame, seen, earlier_turn=passed))
            if self._turn_shot and self.screen.window.headless:
                self.screen.window.screenshot(self.turn_shot_name())  # with its banner
            self._turn_shot = False

    def turn_shot_name(self) -> str:
        """Where the screenshot of the turn just played goes, in the screenshots folder:
        each game's turns in a folder of its own (``game-0013/turn-0001.png``)."""
        game = self.logged.game_id
        folder = f"game-{game:04d}/" if game is not None else ""
        return f"{folder}turn-{self.turns:04d}.png"

    def play(self, action: A.Action) -> bool:
        turns_before = sum(p.turns for p in self.logged.state.players)
        confirms = isinstance(action, A.Keep | A.Bank) and self._roll_is_last()
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
        if confirms:
            self._learn_roll()
        elif isinstance(action, A.Undo):
            self._roll = None  # the roll withdrawn (a correction remembers it again)
        if self.screen is not None:
            self.screen.played(state)
        self._print_log(state)
        if sum(p.turns for p in state.players) != turns_before or state.finished:
            self.turns += 1
            self._turn_shot = True
        return True

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

    def _act_on(self, report: TableReport) -> None:
        """Play what a settled report stands for (or ask what it leaves open)."""
        if report.change in (Change.ROLL, Change.MOVED):
            self.waiting = None  # thrown again: a throw waiting for values is dropped
        for outcome in self.flow.on_report(report, self.logged.state):
            if isinstance(outcome, AskValues):
                self.waiting = report
            if isinstance(outcome, Question):
                self._message(outcome.text)
            elif self.play(outcome) and isinstance(outcome, A.Roll):
                self._keep_photo(report.dice)
                self._remember_roll(report.rolled)

    def _read_late(self, report: TableReport) -> None:
        """A later look read dice the last report left unread. A throw still waiting for
        them takes their values and is played; otherwise (answered already, or thrown
        again) the screen shows them and nothing is played."""
        held = self.waiting
        if held is None:
            if self.last_settled is not None:
                self.last_settled = replace(
                    self.last_settled, dice=report.dice, unread=report.unread
                )
            return
        now = list(held.dice)
        for k, d in enumerate(now):
            if d.unread:
                match = _same_place(d, report.dice)
                if match is not None and match.known:
                    now[k] = match
        self._update_waiting(replace(held, dice=tuple(now)))

    def _update_waiting(self, held: TableReport) -> None:
        """The held throw with some of its values given: played once none is missing."""
        left = sum(d.unread and d.zone is Zone.ROLLING for d in held.dice)
        held = replace(held, unread=left)
        self._settled(held, thrown=True)
        if left:
            self.waiting = held
            who = self.logged.state.player
            name = self.logged.state.shown_name(who) if who is not None else "the player"
            self._message(unread_words(left, name))
            return
        self.waiting = None
        self._act_on(replace(held, change=Change.ROLL))

    def _give_value(self, index: int, value: int) -> bool:
        """The scorekeeper gave die ``index`` of the held throw its value: True when that
        die is one of the held throw's."""
        held = self.waiting
        if held is None or not 0 <= index < len(held.dice):
            return False
        die = held.dice[index]
        if die.zone is not Zone.ROLLING:
            return False
        self.watcher.confirm(die.bbox, value)
        dice = list(held.dice)
        dice[index] = die.confirmed(value)
        self._update_waiting(replace(held, dice=tuple(dice)))
        return True

    def _remember_roll(self, rolled: Sequence[TableDie]) -> None:
        """Keep the features the reader read this roll's dice with, for the scorekeeper's
        confirmation (a later read of other dice must not stand in for them)."""
        if self.teacher is None:
            return
        seen = [self.teacher.reader.recall(d.bbox) for d in rolled]
        self._roll = _ReadRoll(len(self.logged.game.events), list(rolled), seen)

    def _roll_is_last(self) -> bool:
        return self._roll is not None and self._roll.events == len(self.logged.game.events)

    def _learn_roll(self) -> None:
        """The scorekeeper built on the roll as shown (kept from it, or banked it): its dice
        are confirmed, the corrected ones already taught at their correction."""
        roll, self._roll = self._roll, None
        if roll is None or self.teacher is None:
            return
        todo = [
            (s, d)
            for k, (s, d) in enumerate(zip(roll.seen, roll.dice, strict=True))
            if s is not None and not d.cocked and k not in roll.taught
        ]
        if todo:
            self.teacher.teach(
                [s for s, _ in todo], [d.value for _, d in todo], [d.color for _, d in todo]
            )

    def _learn_fix(self, k: int, value: int) -> None:
        """A die the scorekeeper corrected: taught at once with its right value."""
        roll = self._roll
        if roll is None or self.teacher is None or not 0 <= k < len(roll.seen):
            return
        seen = roll.seen[k]
        if seen is not None:
            self.teacher.teach([seen], [value], [roll.dice[k].color])
            roll.taught.add(k)

    def _keep_photo(self, dice: Sequence[TableDie]) -> None:
        """The frame the roll was read from, with what was read, beside the roll's event."""
        if self.photos is not None and self.last_frame is not None:
            self.photos.save(self.logged.game_id, self.logged.last_seq, self.last_frame.image, dice)

    def _toggle_photo(self) -> None:
        if self.screen is None:
            return
        if self.screen.photo is not None:
            self.screen.photo = None
            return
        shots = self.photos.of_game(self.logged.game_id) if self.photos is not None else []
        image = cv2.imread(str(shots[-1][1])) if shots else None
        if image is None:
            self._message("no photo of a roll in this game yet")
            return
        self.screen.photo = (
            image,
            f"the last roll as the camera saw it (action "
            f"{shots[-1][0]} of game {self.logged.game_id}); v: back",
        )

    def handle(self, command: Press) -> None:
        """One command from the buttons, the keyboard or the demo players, as the app acts on it."""
        if command.kind is Control.QUIT:
            self.quit = True
            return
        if command.kind is Control.PHOTO:
            self._toggle_photo()
            return
        if command.kind is Control.TAP_DIE:
            self.correcting = command.value
            self._message("type the die's value (1-6) to correct it")
            return
        if command.kind in NAMING:
            self.naming = command.kind
            everyone = ", 0 for everyone" if command.kind in EVERYONE else ""
            self._message(f"which player? type their number on the scoreboard{everyone}")
            return
        if command.kind is Control.DIGIT and self.naming is not None:
            kind, self.naming = self.naming, None
            players = self.logged.state.players
            if kind in EVERYONE and command.value == 0:
                self.play(EVERYONE[kind](None))
                return
            if not 1 <= command.value <= len(players):
                self._message(f"no player {command.value}")
                return
            name = players[command.value - 1].name
            self.play(
                {
                    Control.SPACED: A.Penalty(A.PenaltyKind.SPACED, name),
                    Control.CHOOSE: A.Land(A.Landing.CHOOSE, name),
                    Control.DRANK: A.Drunk(name),
                    Control.HANDED: A.HandedOut(name),
                    Control.RULED: A.RuleMade(name),
                }[kind]
            )
            return
        if command.kind is Control.DIGIT and self.correcting is not None:
            index, self.correcting = self.correcting, None
            if not 1 <= command.value <= 6:
                self._message(f"a die shows 1 to 6, not {command.value}")
                return
            if not self._give_value(index, int(command.value)):
                self._correct(index, int(command.value))
            return
        if command.kind is Control.DIGIT and self.waiting is not None:
            if not 1 <= command.value <= 6:
                self._message(f"a die shows 1 to 6, not {command.value}")
                return
            first = next(k for k, d in enumerate(self.waiting.dice) if d.unread)
            self._give_value(first, int(command.value))
            return
        if command.kind is Control.ROLL and self.logged.state.finished:
            self.new_game_wanted = True
            return
        if command.kind is Control.BANK and self.logged.state.finished:
            self.players_wanted = True
            return
        selected = self.screen.selected_keep if self.screen is not None else 0
        action = action_for(command, self.logged.state, selected)
        if action is not None:
            self.play(action)

    def _correct(self, index: int, value: int) -> None:
        """The scorekeeper fixes a misread die: the roll is undone and entered again with the
        right value (both are events in the game's log)."""
        report = self.last_settled
        events = self.logged.game.events
        if (
            report is None
            or not 0 <= index < len(report.dice)
            or report.dice[index].zone is not Zone.ROLLING
        ):
            self._message("tap a die of the roll on the table to correct it")
            return
        if not events or not isinstance(events[-1], A.Roll):
            self._message("only the last roll can be corrected (undo back to it first)")
            return
        read_roll = events[-1]
        rolled = [d for d in report.dice if d.zone is Zone.ROLLING]
        target = report.dice[index]
        fixed = [d.confirmed(value) if d is target else d for d in rolled]
        corrected = roll_of(fixed, detroit=self.logged.state.rules.points.colour_pairs > 0)
        self.last_settled = replace(
            report,
            dice=tuple(d.confirmed(value) if d is target else d for d in report.dice),
        )
        roll = self._roll
        if self.play(A.Undo()):
            if self.play(corrected):
                self.watcher.confirm(target.bbox, value)  # a keep of it is of this value
                self._keep_photo(self.last_settled.dice)
                if roll is not None:  # the same dice, read again by the scorekeeper
                    k = rolled.index(target)
                    roll.dice[k] = fixed[k]
                    roll.events = len(self.logged.game.events)
                    self._roll = roll
                    self._learn_fix(k, value)
            else:
                self.play(read_roll)  # put the read roll back if the corrected one is refused
                self.last_settled = report

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


def _same_place(die: TableDie, dice: Sequence[TableDie]) -> TableDie | None:
    """The die of ``dice`` lying where ``die`` lies (geometry.die_at_box), or None."""
    k = die_at_box([d.bbox for d in dice], die.bbox)
    return None if k is None else dice[k]


def _turns_played(state: GameState) -> int:
    return sum(p.turns for p in state.players)
