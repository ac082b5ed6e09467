"""The table's arcade buttons (BANK, ROLL, SELECT) and the one command stream the app reads.

Three GPIO buttons and a desktop keyboard (:mod:`zonkcam.display.keyboard`) both turn into
:class:`Command` values:

* BANK: bank the turn total. Holding BANK shows or hides the odds panel (and no BANK).
* ROLL: take the selected keep and roll on (in set-up screens: confirm).
* SELECT: cycle through the legal keeps. Holding SELECT is UNDO (and no SELECT).

gpiozero is imported only when :class:`ArcadeButtons` is built, so the rest of zonkcam runs
where it is missing; tests drive it with gpiozero's ``MockFactory``. gpiozero's own
``bounce_time`` is not simulated by mock pins and is not trusted alone: :class:`PressGate`
ignores a press that comes within ``lockout`` seconds of the last accepted press of the
same button, so one bouncing or held button can never give two commands.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from zonkcam.game import actions as A
from zonkcam.game.engine import allowed
from zonkcam.game.state import GameState, Phase

log = logging.getLogger(__name__)


class InputCommand(StrEnum):
    BANK = "bank"
    ROLL = "roll"
    """Take the selected keep and roll on; in set-up screens, confirm."""
    SELECT = "select"
    """Next keep (next item in set-up screens)."""
    BACK = "back"
    """Previous keep or item (keyboard only)."""
    UNDO = "undo"
    QUIT = "quit"
    MUTE = "mute"
    DIGIT = "digit"
    """A typed digit 1-6 (``value``): the corrected value for the die being confirmed."""
    TAP_DIE = "tap-die"
    """The touch screen was tapped on die number ``value`` (an index into the dice seen)."""
    CHAR = "char"
    """A typed character (``value``) while a set-up screen wants text."""
    ERASE = "erase"
    """Backspace while a set-up screen wants text."""
    GO_FOR_1000 = "go-for-1000"
    """Keyboard: go for 1000 (with the buttons: SELECT it after the keeps, then ROLL)."""
    PIGGYBACK = "piggyback"
    """Keyboard: piggyback (with the buttons: ROLL at the start of the turn)."""
    SPACED = "spaced"
    """Keyboard: the next digit names the player (scoreboard order) who is spaced."""
    CHOOSE = "choose"
    """Keyboard: the next digit names who drinks for a scoring die on CHOOSE."""
    ODDS = "odds"
    """Show or hide the odds panel (keyboard o; BANK held)."""


@dataclass(frozen=True)
class Command:
    kind: InputCommand
    value: Any = None

    def __str__(self) -> str:
        return self.kind.value if self.value is None else f"{self.kind.value} {self.value}"


BANK, ROLL, SELECT, UNDO = (Command(InputCommand.BANK), Command(InputCommand.ROLL),
                            Command(InputCommand.SELECT), Command(InputCommand.UNDO))
ODDS = Command(InputCommand.ODDS)


@dataclass(frozen=True)
class ButtonPins:
    """BCM GPIO numbers of the three buttons (each wired between the pin and ground)."""

    bank: int = 17
    roll: int = 27
    select: int = 22


class PressGate:
    """Accepts a button's press at most once per ``lockout`` seconds (debounce in our code)."""

    def __init__(self, lockout: float = 0.25,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.lockout = lockout
        self.clock = clock
        self._last: dict[str, float] = {}

    def accept(self, button: str) -> bool:
        now = self.clock()
        last = self._last.get(button)
        if last is not None and now - last < self.lockout:
            return False
        self._last[button] = now
        return True


class ArcadeButtons:
    """BANK, ROLL and SELECT on GPIO, as a stream of :class:`Command`.

    ROLL gives its command when pressed (never on release, never repeated while held).
    SELECT and BANK wait for their release to tell a press (SELECT, BANK) from a hold (UNDO,
    ODDS): the hold gives its command as soon as ``hold_time`` has passed, and its release
    gives nothing, so a held BANK never banks.
    Callbacks may come from gpiozero's threads; :meth:`commands` drains them in order.
    """

    def __init__(self, pins: ButtonPins = ButtonPins(), *, bounce_time: float | None = 0.02,
                 hold_time: float = 0.8, lockout: float = 0.25,
                 clock: Callable[[], float] = time.monotonic, pin_factory: Any = None) -> None:
        from gpiozero import Button  # lazily: zonkcam runs where gpiozero is missing

        self.pins = pins
        self.hold_time = hold_time
        self.clock = clock
        self.gate = PressGate(lockout, clock)
        self._queue: queue.SimpleQueue[Command] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._select_down: float | None = None
        """When the accepted SELECT press began, until its release or hold is handled."""
        self._bank_down: float | None = None
        """The same for BANK."""
        kwargs = dict(pull_up=True, bounce_time=bounce_time, hold_time=hold_time)
        if pin_factory is not None:
            kwargs["pin_factory"] = pin_factory
        self.bank = Button(pins.bank, **kwargs)
        self.roll = Button(pins.roll, **kwargs)
        self.select = Button(pins.select, **kwargs)
        self.bank.when_pressed = self._bank_pressed
        self.bank.when_held = self._bank_held
        self.bank.when_released = self._bank_released
        self.roll.when_pressed = lambda: self._press("roll", ROLL)
        self.select.when_pressed = self._select_pressed
        self.select.when_held = self._select_held
        self.select.when_released = self._select_released

    def commands(self) -> list[Command]:
        """Every command since the last call, oldest first."""
        out = []
        while True:
            try:
                out.append(self._queue.get_nowait())
            except queue.Empty:
                return out

    def close(self) -> None:
        for button in (self.bank, self.roll, self.select):
            button.close()

    def __enter__(self) -> ArcadeButtons:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _press(self, name: str, command: Command) -> None:
        with self._lock:
            if self.gate.accept(name):
                self._queue.put(command)

    def _select_pressed(self) -> None:
        with self._lock:
            if self._select_down is None and self.gate.accept("select"):
                self._select_down = self.clock()

    def _select_held(self) -> None:
        with self._lock:
            if self._select_down is not None:
                self._select_down = None
                self._queue.put(UNDO)

    def _select_released(self) -> None:
        with self._lock:
            if self._select_down is None:
                return  # a bounce, or the release after a hold
            # gpiozero's hold thread may not have run yet: the press's length decides too
            held = self.clock() - self._select_down >= self.hold_time
            self._select_down = None
            self._queue.put(UNDO if held else SELECT)

    def _bank_pressed(self) -> None:
        with self._lock:
            if self._bank_down is None and self.gate.accept("bank"):
                self._bank_down = self.clock()

    def _bank_held(self) -> None:
        with self._lock:
            if self._bank_down is not None:
                self._bank_down = None
                self._queue.put(ODDS)

    def _bank_released(self) -> None:
        with self._lock:
            if self._bank_down is None:
                return  # a bounce, or the release after a hold
            held = self.clock() - self._bank_down >= self.hold_time
            self._bank_down = None
            self._queue.put(ODDS if held else BANK)


def open_buttons(pins: ButtonPins = ButtonPins(), **options: Any) -> ArcadeButtons | None:
    """The arcade buttons, or None (logged) where there is no GPIO: a desktop, a laptop."""
    try:
        return ArcadeButtons(pins, **options)
    except Exception as exc:  # ImportError, gpiozero's BadPinFactory, pin in use, ...
        log.info("no arcade buttons: %s", exc)
        return None


def action_for(command: Command, state: GameState, selected_keep: int = 0) -> A.Action | None:
    """The table action a button press stands for in ``state``, or None if it is no action.

    BANK banks; ROLL takes the selected keep (after a roll) or throws the pair again; UNDO
    undoes. SELECT only moves the selection; rolls themselves come from the camera.
    """
    kind = command.kind
    if kind is InputCommand.UNDO:
        return A.Undo()
    if kind is InputCommand.GO_FOR_1000:
        return A.GoFor1000()
    if kind is InputCommand.PIGGYBACK:
        return A.Piggyback()
    phase = state.phase
    if kind is InputCommand.BANK:
        return A.Pass() if phase is Phase.PAIR else A.Bank()
    if kind is InputCommand.ROLL:
        if phase is Phase.DECIDE and state.turn.score is not None and state.turn.score.keeps:
            choices = decide_choices(state)
            return choices[selected_keep % len(choices)]
        if phase is Phase.ROLL and allowed(state, A.Piggyback()):
            return A.Piggyback()  # a fresh start needs no button: just throw
        if phase is Phase.PAIR:
            return A.Reroll()
    return None


def decide_choices(state: GameState) -> list[A.Action]:
    """What SELECT cycles through after a roll: the legal keeps, best first, then go for
    1000 where the table has it and the roll allows it."""
    assert state.turn.score is not None
    choices: list[A.Action] = [A.Keep(k.dice) for k in state.turn.score.keeps]
    if allowed(state, A.GoFor1000()):
        choices.append(A.GoFor1000())
    return choices
