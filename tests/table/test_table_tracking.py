"""Tracking the dice from one settled state to the next: votes over reads, and what changed."""

from __future__ import annotations

import typing

import pytest

from zonkcam.game import Die
from zonkcam.table.tracking import Ballot, Change, compare
from zonkcam.table.zones import TableDie, Zone
from zonkcam.vision import Reading

DIE = 16.0


def die(value, x, y=100.0, zone=Zone.ROLLING, confidence=0.95, cocked=False):
    read = Reading(Die(value, "white"), confidence, (x, y, x + 10, y + 10))
    return TableDie(read, (x, y), zone, cocked=cocked)


def compared(before, voted, changed, **kw):
    """compare() with what a `changed` test says of each die, before and now."""
    return compare(
        before,
        voted,
        DIE,
        changed_before=[changed(d) for d in before],
        changed_now=[changed(v) for v in voted],
        **kw,
    )


def moved(*places):
    """A `changed` test: the picture changed at these x positions (and nowhere else)."""
    return lambda d: any(abs(d.center_mm[0] - x) < 1 for x in places)


def test_two_agreeing_reads_decide():
    ballot = Ballot(DIE)
    ballot.add([die(1, 10), die(5, 50)])
    assert not ballot.decided  # one read is never enough
    ballot.add([die(1, 11), die(5, 50)])
    assert ballot.decided
    assert [(d.value, round(d.confidence, 2)) for d in ballot.dice()] == [(1, 0.95), (5, 0.95)]


def test_a_die_missed_in_a_read_is_read_again_and_kept():
    ballot = Ballot(DIE)
    ballot.add([die(1, 10), die(5, 50)])
    ballot.add([die(5, 50)])
    assert not ballot.decided  # seen once in two: read again
    ballot.add([die(1, 10), die(5, 50)])
    ballot.add([die(1, 10), die(5, 50)])
    assert ballot.decided
    assert [d.value for d in ballot.dice()] == [1, 5]


def test_values_the_reads_disagree_on_come_out_unsure():
    ballot = Ballot(DIE, max_reads=5)
    for value in (3, 5, 3, 5, 3):
        ballot.add([die(value, 10)])
    assert ballot.decided and ballot.reads == 5
    (d,) = ballot.dice()
    assert d.value == 3 and 0.5 < d.confidence < 0.6  # three reads in five


def test_something_seen_once_in_many_reads_is_not_a_die():
    ballot = Ballot(DIE)
    ballot.add([die(2, 10), die(1, 200, confidence=0.5)])
    for _ in range(4):
        ballot.add([die(2, 10)])
    assert [d.value for d in ballot.dice()] == [2]


def test_a_throw_a_keep_a_push_and_a_pick_up():
    before = [die(1, 10), die(5, 50), die(3, 90)]
    # every die went and others came: a throw
    thrown = [die(2, 20, 150), die(2, 60, 150), die(6, 130, 150)]
    got = compared(before, thrown, lambda d: True)
    assert got.change is Change.ROLL and len(got.new) == 3
    # the 5 left for the strip; the 1 and the 3 lie as they lay (read or not)
    strip = die(5, 60, 280, Zone.KEEP, confidence=0.4)
    got = compared(before, [die(1, 10), strip], moved(50, 60))
    assert got.change is Change.KEEP
    assert [d.value for d in got.keep] == [5] and got.keep[0].confidence == 0.95
    assert sorted(d.value for d in got.dice) == [1, 3, 5]
    # the 3 pushed along with the same face up, the others where they were
    got = compared(before, [die(1, 10), die(5, 50), die(3, 105)], moved(90, 105))
    assert got.change is Change.MOVED
    # the last die left, pushed a little: not a throw either
    got = compared([die(3, 90)], [die(3, 120)], moved(90, 120))
    assert got.change is Change.MOVED
    # thrown across the mat, or showing another face: a throw
    assert compared([die(3, 90)], [die(3, 300)], moved(90, 300)).change is Change.ROLL
    assert compared([die(3, 90)], [die(4, 100)], moved(90, 100)).change is Change.ROLL
    # picked up, none thrown yet; then all gone
    got = compared(before, [die(1, 10)], moved(50, 90))
    assert got.change is Change.PICKUP and [d.value for d in got.gone] == [5, 3]
    assert compared(before, [], lambda d: True).change is Change.CLEAR


def test_nothing_changed_where_the_picture_did_not():
    before = [die(1, 10), die(5, 50)]
    # the 5 unread this time, a 4 found where none was read before (missed then)
    got = compared(before, [die(1, 10), die(4, 130)], lambda d: False)
    assert got.change is None
    assert sorted(d.value for d in got.dice) == [1, 4, 5]


def test_a_die_set_down_in_the_strip_after_a_pick_up_is_a_keep():
    picked = [die(5, 50)]
    got = compared(
        [die(1, 10)], [die(1, 10), die(2, 60, 280, Zone.KEEP)], moved(60), picked_up=picked
    )
    # one die came to the strip, one was picked up from the rolling area: that one
    assert got.change is Change.KEEP and [d.value for d in got.keep] == [5]
    # a die the reader cannot read came to the strip as the 5 left the rolling area
    got = compared([die(1, 10), die(5, 50)], [die(1, 10)], moved(50), unread_in_strip=1)
    assert got.change is Change.KEEP and [d.value for d in got.keep] == [5]


def test_a_die_read_twice_beside_itself_is_one_die():
    """A side face of a die that lies as it lay, read as a die of its own (11 mm away),
    is that die, not a new one."""
    before = [die(5, 235, 142), die(3, 213, 111)]
    strip = die(3, 80, 256, Zone.KEEP)
    got = compared(
        before, [die(5, 235, 142), die(2, 234, 131, confidence=0.79), strip], moved(213, 80)
    )
    assert got.change is Change.KEEP
    assert sorted((str(d.zone), d.value) for d in got.dice) == [("keep", 3), ("rolling", 5)]


def test_compare_takes_what_changed_as_plain_values():
    """The watcher hands compare() what its pictures say of each die, worked out before:
    plain values, no function that calls back into the watcher."""
    hints = typing.get_type_hints(compare)
    assert not [name for name, hint in hints.items() if "Callable" in str(hint)]
    before = [die(1, 10), die(5, 50)]
    thrown = [die(2, 20, 150), die(6, 130, 150)]
    got = compare(before, thrown, DIE, changed_before=[True, True], changed_now=[True, True])
    assert got.change is Change.ROLL and [d.value for d in got.new] == [2, 6]
    assert [d.value for d in got.gone] == [1, 5]
    # the same dice where the pictures say nothing changed: dice missed before, no change
    got = compare(before, thrown, DIE, changed_before=[False, False], changed_now=[False, False])
    assert got.change is None and sorted(d.value for d in got.dice) == [1, 2, 5, 6]
    with pytest.raises(ValueError):  # a value for every die
        compare(before, thrown, DIE, changed_before=[False], changed_now=[False, False])
