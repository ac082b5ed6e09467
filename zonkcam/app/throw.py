"""A throw's life at the table, from the dice settling to the table learning them.

The watcher reports a settled throw (:class:`~zonkcam.table.observe.TableReport`), each
die with its reading and what teaching it needs (its sight: the crop the value net read
and that crop's feature). A :class:`Throw` carries that report through its life:

* ``seen``: reported, every die of it read; the flow plays its roll;
* ``held`` for a value: a die no read could read waits for its value (typed, tapped, or
  read by a later look of the camera); once none is missing its roll is played;
* ``played``: its roll is the game's last action;
* ``corrected``: the scorekeeper fixed a misread die; the die is taught its right value at
  once and the throw stays in play (the game's log records the correction as the roll
  undone and the corrected roll played: the rules know no correction);
* ``confirmed``: the scorekeeper built on the throw as shown (a keep from it, a bank of
  it): its values are right;
* ``taught``: its dice are taught to the table (those corrected were taught already).

The passage of time confirms nothing: a throw undone, thrown over or zonked with nobody's
say teaches nothing. :class:`~zonkcam.app.loop.TableApp` drives a throw through these
steps; a step the throw's state does not allow is a mistake in the caller (ValueError).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum

from zonkcam.app.flow import roll_of
from zonkcam.game import actions as A
from zonkcam.table.observe import TableReport
from zonkcam.table.teaching import Teacher
from zonkcam.table.zones import TableDie, Zone
from zonkcam.vision.geometry import die_at_box


class ThrowState(StrEnum):
    """Where a throw is in its life at the table."""

    SEEN = "seen"
    """Reported settled: not in the game yet."""
    HELD = "held"
    """Held for the values of dice no read could read."""
    PLAYED = "played"
    """Its roll is in the game."""
    CORRECTED = "corrected"
    """Its roll is in the game, a die of it fixed by the scorekeeper (and taught)."""
    CONFIRMED = "confirmed"
    """The scorekeeper built on it: its values are right."""
    TAUGHT = "taught"
    """Its confirmed dice taught to the table: its life is over."""


STEPS: dict[ThrowState, frozenset[ThrowState]] = {
    ThrowState.SEEN: frozenset({ThrowState.HELD, ThrowState.PLAYED}),
    ThrowState.HELD: frozenset({ThrowState.HELD, ThrowState.PLAYED}),
    ThrowState.PLAYED: frozenset({ThrowState.CORRECTED, ThrowState.CONFIRMED}),
    ThrowState.CORRECTED: frozenset({ThrowState.CORRECTED, ThrowState.CONFIRMED}),
    ThrowState.CONFIRMED: frozenset({ThrowState.TAUGHT}),
    ThrowState.TAUGHT: frozenset(),
}
"""The states a throw may go to from each."""
IN_GAME = (ThrowState.PLAYED, ThrowState.CORRECTED)
"""The states in which a throw's roll is in the game and not yet built on."""


def with_value(report: TableReport, index: int, value: int) -> TableReport:
    """``report`` with its die ``index`` as the scorekeeper gave it: ``value``, sure."""
    dice = list(report.dice)
    dice[index] = dice[index].confirmed(value)
    return replace(report, dice=tuple(dice))


@dataclass(frozen=True)
class Correction:
    """A die of the game's last roll fixed by the scorekeeper, as the dice lie on the table."""

    shown: TableReport
    """The dice as they lay when the die was tapped."""
    index: int
    """The die fixed (index in ``shown.dice``)."""
    value: int
    read: A.Roll
    """The roll as read: the game's last action."""
    roll: A.Roll
    """The roll with the die fixed."""

    @property
    def fixed(self) -> TableReport:
        """The dice as they lie, the die fixed."""
        return with_value(self.shown, self.index, self.value)


def correction(
    shown: TableReport | None, index: int, value: int, events: Sequence[A.Action], detroit: bool
) -> Correction | str:
    """Die ``index`` of ``shown`` (the dice on the camera view) fixed to ``value``, where it
    is a die of the game's last roll (``events``: the game's actions; ``detroit``: colours
    count); else what the scorekeeper is told instead."""
    if shown is None or not 0 <= index < len(shown.dice):
        return "tap a die of the roll on the table to correct it"
    if shown.dice[index].zone is not Zone.ROLLING:
        return "tap a die of the roll on the table to correct it"
    if not events or not isinstance(events[-1], A.Roll):
        return "only the last roll can be corrected (undo back to it first)"
    fixed = with_value(shown, index, value)
    return Correction(shown, index, value, events[-1], roll_of(list(fixed.rolled), detroit=detroit))


@dataclass
class Throw:
    """One throw at the table, its report and where it is in its life (:class:`ThrowState`)."""

    report: TableReport
    """The throw as the table reported it, with the values given or corrected since."""
    state: ThrowState = ThrowState.SEEN
    events: int = 0
    """The game's event count right after its roll was played (or corrected): its roll
    is the game's last action while the count stays the same."""
    taught: set[int] = field(default_factory=set)
    """Its dice (index in the report's dice) taught at their correction."""

    def _step(self, to: ThrowState) -> None:
        if to not in STEPS[self.state]:
            raise ValueError(f"a throw {self.state} cannot be {to}")
        self.state = to

    @property
    def missing(self) -> int:
        """Its dice in the rolling area whose values are not known."""
        return sum(d.unread and d.zone is Zone.ROLLING for d in self.report.dice)

    def is_last(self, events: int) -> bool:
        """Whether its roll is in the game, not built on yet, and still the last of the
        game's ``events`` actions."""
        return self.state in IN_GAME and self.events == events

    def built_on(self, action: A.Action, events: int) -> bool:
        """Whether ``action``, played after the game's ``events`` actions, builds on the
        throw as shown: a keep from it or a bank of it while its roll is the last action."""
        return isinstance(action, A.Keep | A.Bank) and self.is_last(events)

    # -- held for a value -----------------------------------------------------------------

    def hold(self) -> Throw:
        """Hold it for the values of its unread dice."""
        self._step(ThrowState.HELD)
        return self

    def give(self, index: int, value: int) -> TableDie | None:
        """The scorekeeper gave die ``index`` (of the report's dice) its value: the die as
        it was, or None when it is not a die of the throw (none such, or not in the
        rolling area)."""
        self._must_be(ThrowState.HELD)
        dice = self.report.dice
        if not 0 <= index < len(dice) or dice[index].zone is not Zone.ROLLING:
            return None
        self._now(with_value(self.report, index, value))
        return dice[index]

    def read_late(self, read: Sequence[TableDie]) -> None:
        """A later look read dice: each unread die of the throw lying where a die it read
        lies takes that die's value (and its sight)."""
        self._must_be(ThrowState.HELD)
        dice = list(self.report.dice)
        for k, d in enumerate(dice):
            if d.unread:
                match = _same_place(d, read)
                if match is not None and match.known:
                    dice[k] = match
        self._now(replace(self.report, dice=tuple(dice)))

    def first_unread(self) -> int | None:
        """The first of its dice whose value is not known (index in the report's dice)."""
        return next((k for k, d in enumerate(self.report.dice) if d.unread), None)

    def _now(self, report: TableReport) -> None:
        left = sum(d.unread and d.zone is Zone.ROLLING for d in report.dice)
        self.report = replace(report, unread=left)

    # -- in the game ----------------------------------------------------------------------

    def played(self, events: int) -> Throw:
        """Its roll was played: the game has ``events`` actions now."""
        self._step(ThrowState.PLAYED)
        self.events = events
        return self

    def correct(self, fix: Correction, events: int, teacher: Teacher | None) -> None:
        """The game took the corrected roll (it has ``events`` actions now): the throw is
        the dice as they lie, the die fixed, and that die is taught its value at once."""
        self._step(ThrowState.CORRECTED)
        self.report, self.events = fix.fixed, events
        die = self.report.dice[fix.index]
        if teacher is not None and die.sight is not None:
            teacher.teach([die.sight], [fix.value], [die.color])
            self.taught.add(fix.index)

    def confirm(self) -> None:
        """The scorekeeper built on it as shown (kept from it, or banked it)."""
        self._step(ThrowState.CONFIRMED)

    def teach(self, teacher: Teacher | None) -> int:
        """Teach ``teacher`` (None: a table that learns nothing, as the demo's) its dice
        with their confirmed values: those in the rolling area lying flat whose read kept
        a sight, the corrected ones aside (taught already). Returns the dice taught."""
        self._step(ThrowState.TAUGHT)
        todo = [
            d
            for k, d in enumerate(self.report.dice)
            if d.zone is Zone.ROLLING
            and d.sight is not None
            and not d.cocked
            and k not in self.taught
        ]
        if teacher is None or not todo:
            return 0
        teacher.teach([d.sight for d in todo], [d.value for d in todo], [d.color for d in todo])
        return len(todo)

    def _must_be(self, state: ThrowState) -> None:
        if self.state is not state:
            raise ValueError(f"a throw {self.state} is not {state}")


def _same_place(die: TableDie, dice: Sequence[TableDie]) -> TableDie | None:
    """The die of ``dice`` lying where ``die`` lies (geometry.die_at_box), or None."""
    k = die_at_box([d.bbox for d in dice], die.bbox)
    return None if k is None else dice[k]
