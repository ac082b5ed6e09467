"""The table's three arcade buttons on GPIO, as a stream of commands
(:class:`~zonkcam.controls.Press`, as the keyboard gives them too):

* BANK: bank the turn total. Holding BANK shows or hides the odds panel (and no BANK).
* ROLL: take the selected keep and roll on (in set-up screens: confirm). Holding ROLL
  settles what the drinking table owes (and no ROLL): every drink due is drunk; with
  none due, every hand-out given; then every drinking rule made.
* SELECT: cycle through the legal keeps. Holding SELECT is UNDO (and no SELECT).

Each button tells a press from a hold by how long it is held, so a press counts when it
is released.

gpiozero is imported only when :class:`ArcadeButtons` is built, so the rest of zonkcam runs
where it is missing; tests drive it with gpiozero's ``MockFactory``. A contact bounces on
both edges, and gpiozero's ``bounce_time`` (not simulated by mock pins) can drop the edge
that matters, so each button is debounced here (:class:`Contact`): a press counts once,
and the button counts again only after it has lain released for ``settle`` seconds,
however its press and its release bounce; a hold is one hold.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from zonkcam.controls import BANK, DRUNK, ODDS, ROLL, SELECT, UNDO, Press

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ButtonPins:
    """BCM GPIO numbers of the three buttons (each wired between the pin and ground)."""

    bank: int = 17
    roll: int = 27
    select: int = 22


class PressGate:
    """Accepts a button's press at most once per ``lockout`` seconds."""

    def __init__(self, lockout: float = 0.25, clock: Callable[[], float] = time.monotonic) -> None:
        self.lockout = lockout
        self.clock = clock
        self._last: dict[str, float] = {}

    def accept(self, button: str, now: float | None = None) -> bool:
        now = self.clock() if now is None else now
        last = self._last.get(button)
        if last is not None and now - last < self.lockout:
            return False
        self._last[button] = now
        return True


class Contact:
    """One button's contact, debounced on both edges.

    ``edge(down, now)`` takes every raw change the pin reports; ``poll(down, now)`` is
    called every frame with the pin's level as read then (an edge can be lost). A press is
    accepted when the contact closes after lying open for ``settle`` seconds: the closings
    of a bouncing release come too soon after the last opening and are ignored.

    A button with a ``hold`` command gives its ``press`` command when released (after
    ``settle`` seconds open), or its hold command once held ``hold_time`` seconds; a
    button without one gives its press command at once, when it closes.
    """

    def __init__(
        self,
        name: str,
        press: Press,
        hold: Press | None = None,
        *,
        settle: float = 0.05,
        hold_time: float = 0.8,
        gate: PressGate | None = None,
    ) -> None:
        self.name, self.press, self.hold = name, press, hold
        self.settle, self.hold_time = settle, hold_time
        self.gate = gate or PressGate(0.0)
        self.down = False
        """The raw level: closed (pressed) or open."""
        self.changed_at = float("-inf")
        self.armed = True
        """Open long enough that the next closing is a new press."""
        self.pressed_at: float | None = None
        """When the accepted press began, while its command is still to come."""
        self.released_at: float | None = None

    def edge(self, down: bool, now: float) -> list[Press]:
        if down == self.down:
            return []
        out: list[Press] = []
        if down and now - self.changed_at >= self.settle:
            out = self._released()  # it lay open long enough: the last press is over
            self.armed = True
        self.down, self.changed_at = down, now
        if not down:
            self.released_at = now
            return out
        if not self.armed:
            return out  # a bounce of the last press or its release
        self.armed = False
        if not self.gate.accept(self.name, now):
            return out
        if self.hold is None:
            return [*out, self.press]
        self.pressed_at, self.released_at = now, None
        return out

    def _released(self) -> list[Press]:
        """The command of a press (with a hold command) whose release has settled."""
        if self.pressed_at is None or self.hold is None:
            return []
        held = (self.released_at or self.changed_at) - self.pressed_at >= self.hold_time
        self.pressed_at = None
        return [self.hold if held else self.press]

    def poll(self, down: bool, now: float) -> list[Press]:
        out = self.edge(down, now)
        if (
            self.pressed_at is not None
            and self.hold is not None
            and self.down
            and now - self.pressed_at >= self.hold_time
        ):
            self.pressed_at = None
            return [*out, self.hold]
        if not self.down and now - self.changed_at >= self.settle:
            out += self._released()
            self.armed = True
        return out


class ArcadeButtons:
    """BANK, ROLL and SELECT on GPIO, as a stream of :class:`Press`.

    Each button waits for its release to tell a press (BANK, ROLL, SELECT) from a hold
    (ODDS, DRUNK, UNDO): the hold gives its command once ``hold_time`` has passed, and its
    release gives nothing, so a held BANK never banks. Edges may come from gpiozero's threads;
    :meth:`commands` (called every frame) takes them in order and looks at the pins' levels
    too.
    """

    def __init__(
        self,
        pins: ButtonPins = ButtonPins(),
        *,
        settle: float = 0.05,
        hold_time: float = 0.8,
        lockout: float = 0.25,
        clock: Callable[[], float] = time.monotonic,
        pin_factory: Any = None,
    ) -> None:
        from gpiozero import Button  # lazily: zonkcam runs where gpiozero is missing

        self.pins = pins
        self.clock = clock
        gate = PressGate(lockout, clock)
        self._contacts = {
            "bank": Contact("bank", BANK, ODDS, settle=settle, hold_time=hold_time, gate=gate),
            "roll": Contact("roll", ROLL, DRUNK, settle=settle, hold_time=hold_time, gate=gate),
            "select": Contact(
                "select", SELECT, UNDO, settle=settle, hold_time=hold_time, gate=gate
            ),
        }
        self._queue: queue.SimpleQueue[Press] = queue.SimpleQueue()
        self._lock = threading.Lock()
        # every edge comes to us: the debouncing is Contact's
        kwargs: dict[str, Any] = dict(pull_up=True, bounce_time=None)
        if pin_factory is not None:
            kwargs["pin_factory"] = pin_factory
        self.bank = Button(pins.bank, **kwargs)
        self.roll = Button(pins.roll, **kwargs)
        self.select = Button(pins.select, **kwargs)
        self._buttons = {"bank": self.bank, "roll": self.roll, "select": self.select}
        for name, button in self._buttons.items():
            button.when_pressed = lambda name=name: self._edge(name, True)
            button.when_released = lambda name=name: self._edge(name, False)

    def commands(self) -> list[Press]:
        """Every command since the last call, oldest first."""
        with self._lock:
            now = self.clock()
            for name, contact in self._contacts.items():
                for command in contact.poll(self._buttons[name].is_pressed, now):
                    self._queue.put(command)
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

    def _edge(self, name: str, down: bool) -> None:
        with self._lock:
            for command in self._contacts[name].edge(down, self.clock()):
                self._queue.put(command)


def open_buttons(pins: ButtonPins = ButtonPins(), **options: Any) -> ArcadeButtons | None:
    """The arcade buttons, or None (logged) where there is no GPIO: a desktop, a laptop."""
    try:
        return ArcadeButtons(pins, **options)
    except Exception as exc:  # ImportError, gpiozero's BadPinFactory, pin in use, ...
        log.info("no arcade buttons: %s", exc)
        return None
