"""A throw's life at the table: its states and the steps between them, a correction as a
step of it, and the table taught from the report's own sights of the dice (the app driving
a throw: tests/table/test_table_teaching.py)."""

from __future__ import annotations

import numpy as np
import pytest

from zonkcam.app.throw import STEPS, Throw, ThrowState, correction
from zonkcam.game import actions as A
from zonkcam.game.dice import Die
from zonkcam.table.observe import TableEvent, TableReport
from zonkcam.table.teaching import Teacher
from zonkcam.table.tracking import Change
from zonkcam.table.zones import TableDie, Zone
from zonkcam.vision.die import Reading, Sight


def _die(value: int, x: float, zone: Zone = Zone.ROLLING, *, unread: bool = False) -> TableDie:
    sight = Sight(np.full(4, x, np.float32), np.zeros((64, 64, 3), np.uint8))
    box = (x, 10.0, x + 20.0, 30.0)
    return TableDie(Reading(Die(value), 0.9, box, sight), (x, 20.0), zone, unread=unread)


def _report(*dice: TableDie) -> TableReport:
    return TableReport(TableEvent.SETTLED, 1, 0.0, dice, Change.ROLL)


def _fix(report: TableReport, index: int, value: int):
    """The correction of die ``index`` of ``report``, its roll the game's last action."""
    read = A.Roll(tuple(d.die for d in report.rolled))
    return correction(report, index, value, [A.Players(("Ann",)), read], detroit=False)


class _Reader:
    """Stands in for the table's reader's teaching side: what it was taught, in order."""

    taught = None
    asking = True

    def __init__(self) -> None:
        self.lessons: list[tuple[list[Sight], list[int]]] = []

    def teach(self, seen, values, colours=None, turns=False) -> int:
        self.lessons.append((list(seen), list(values)))
        return len(seen)


def _teacher() -> tuple[Teacher, _Reader]:
    reader = _Reader()
    return Teacher(reader, None, "fp"), reader  # type: ignore[arg-type]


# -- its states and steps -----------------------------------------------------------------


def test_a_throw_goes_seen_played_corrected_confirmed_taught():
    teacher, reader = _teacher()
    two, three = _die(2, 0), _die(3, 40)
    throw = Throw(_report(two, three))
    assert throw.state is ThrowState.SEEN and throw.missing == 0
    assert throw.played(5) is throw and throw.state is ThrowState.PLAYED
    assert throw.is_last(5) and not throw.is_last(6)
    assert throw.built_on(A.Keep((2,)), 5) and not throw.built_on(A.Undo(), 5)
    throw.correct(_fix(throw.report, 0, 1), 5, teacher)
    assert throw.state is ThrowState.CORRECTED and throw.is_last(5)
    assert [d.value for d in throw.report.dice] == [1, 3] and throw.report.dice[0].confidence == 1
    # the corrected die is taught at once, with the sight the report gave it
    assert reader.lessons == [([two.sight], [1])]
    throw.confirm()
    assert throw.state is ThrowState.CONFIRMED and not throw.is_last(5)
    assert throw.teach(teacher) == 1 and throw.state is ThrowState.TAUGHT
    assert reader.lessons[-1] == ([three.sight], [3])  # the rest; the corrected one once


def test_a_throw_held_for_a_value_is_played_once_given():
    unread = _die(1, 40, unread=True)
    throw = Throw(_report(_die(5, 0), unread, _die(4, 80, Zone.KEEP))).hold()
    assert throw.state is ThrowState.HELD and throw.missing == 1
    assert throw.first_unread() == 1
    assert throw.give(2, 6) is None  # a die of the keep strip is none of the throw's
    assert throw.give(1, 3) is unread
    assert throw.missing == 0 and throw.report.unread == 0
    assert [d.value for d in throw.report.rolled] == [5, 3]
    throw.played(3)
    assert throw.state is ThrowState.PLAYED


def test_a_later_look_fills_in_the_held_die_with_its_own_sight():
    throw = Throw(_report(_die(5, 0), _die(1, 40, unread=True))).hold()
    read = _die(6, 42)  # the same place, a couple of px off
    throw.read_late([_die(2, 200), read])
    assert throw.missing == 0 and throw.report.dice[1] is read
    assert throw.report.dice[1].sight is read.sight


@pytest.mark.parametrize("state", list(ThrowState))
def test_every_step_a_state_does_not_allow_is_refused(state):
    steps = {
        ThrowState.HELD: lambda t: t.hold(),
        ThrowState.PLAYED: lambda t: t.played(1),
        ThrowState.CORRECTED: lambda t: t.correct(_fix(t.report, 0, 6), 1, None),
        ThrowState.CONFIRMED: lambda t: t.confirm(),
        ThrowState.TAUGHT: lambda t: t.teach(None),
    }
    for to, step in steps.items():
        throw = Throw(_report(_die(2, 0), _die(3, 40)), state)
        if to in STEPS[state]:
            step(throw)
            assert throw.state is to
        else:
            with pytest.raises(ValueError, match=f"a throw {state} cannot be {to}"):
                step(throw)
            assert throw.state is state


def test_a_correction_is_of_a_die_of_the_last_roll_as_it_lies():
    two, kept = _die(2, 0), _die(5, 80, Zone.KEEP)
    report = _report(two, _die(3, 40), kept)
    fix = _fix(report, 0, 1)
    assert fix.read.dice == (Die(2), Die(3)) and fix.roll.dice == (Die(1), Die(3))
    assert fix.fixed.dice[0].value == 1 and fix.fixed.dice[1:] == report.dice[1:]
    assert fix.fixed.dice[0].sight is two.sight  # the die as it was seen, its value given
    tap = "tap a die of the roll on the table to correct it"
    assert _fix(report, 2, 1) == tap and _fix(report, 3, 1) == tap
    assert correction(None, 0, 1, [], detroit=False) == tap
    kept_last = [A.Roll((Die(2), Die(3))), A.Keep((3,))]
    assert "only the last roll" in correction(report, 0, 1, kept_last, detroit=False)


def test_only_a_held_throw_takes_values():
    throw = Throw(_report(_die(2, 0, unread=True))).played(1)
    with pytest.raises(ValueError, match="not held"):
        throw.give(0, 4)
    with pytest.raises(ValueError, match="not held"):
        throw.read_late([])


def test_a_throw_with_no_teacher_goes_through_its_life_and_teaches_nothing():
    throw = Throw(_report(_die(2, 0))).played(1)
    throw.confirm()
    assert throw.teach(None) == 0 and throw.state is ThrowState.TAUGHT
