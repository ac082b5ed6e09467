"""Dice the colour of the mat under them: seen arriving, seen leaving, never left behind.

A die is on the table only while something die-like is seen there. A die the colour of
the zone it lies on (the rolling area's, the keep strip's, the paper's round the zones)
changes the picture little but for its pips and edges; these tests throw such dice,
keep them, pick them up and throw again where they lay, with the stand-in reader
(TruthReader: what the demo table drew, within the parts of the frame the table reads),
so what they check is the table's own sight: what changed, and what lies on the mat.
"""

from __future__ import annotations

import pytest

from zonkcam.mat.calibrate import calibrate
from zonkcam.mat.layout import KEEP_COLOUR, PAPER_COLOUR, ROLLING_COLOUR
from zonkcam.sim.demo_table import DemoTable
from zonkcam.sim.lens import REALISTIC
from zonkcam.table.observe import TableEvent, TableWatcher
from zonkcam.table.tracking import Change
from zonkcam.testing import TruthReader

pytestmark = pytest.mark.slow  # whole tables: `make check` leaves them out

ZONE_COLOURED = {"as-rolling": ROLLING_COLOUR, "as-strip": KEEP_COLOUR, "as-paper": PAPER_COLOUR}
LOOKS = {"plain": {}, "realistic": {"look": REALISTIC}}
PAPER_LEFT, PAPER_RIGHT = (28.0, 72.0), (392.0, 72.0)
"""Mat mm on the white paper below the top markers (A3)."""


def table(look: str, seed: int = 1) -> DemoTable:
    return DemoTable(
        seed=seed, autoplay=False, size=(640, 480), bodies=ZONE_COLOURED, **LOOKS[look]
    )


def reports(t: DemoTable) -> list[tuple[Change, list[tuple[int, str]], list[tuple[int, str]]]]:
    """Each settled report of the table's script: (change, dice reported, dice drawn),
    dice as sorted (value, zone)."""
    empty = t.read()
    watcher = TableWatcher(calibrate(empty.image, t.geometry), TruthReader(t))
    out = []
    while t.busy:
        frame = t.read()
        for o in watcher.process(frame):
            if o.event == TableEvent.SETTLED:
                out.append(
                    (
                        o.change,
                        sorted((d.value, str(d.zone)) for d in o.dice),
                        sorted((d.value, d.zone) for d in frame.truth.dice),
                    )
                )
    return out


def assert_as_drawn(got) -> None:
    for change, seen, drawn in got:
        assert seen == drawn, f"{change}: reported {seen}, the table holds {drawn}"


@pytest.mark.parametrize("look", LOOKS)
def test_a_die_the_rolling_areas_colour_goes_when_picked_up(look):
    t = table(look)
    t.throw([2, 5, 1], colours=["as-rolling", "white", "white"])
    t.keep([5, 1])
    t.pick_up()
    t.throw([4, 6], colours=["white", "white"])
    got = reports(t)
    assert [c for c, _, _ in got] == [Change.ROLL, Change.KEEP, Change.CLEAR, Change.ROLL]
    assert_as_drawn(got)


@pytest.mark.parametrize("look", LOOKS)
def test_the_same_die_thrown_again_where_it_lay_is_a_roll(look):
    t = table(look, seed=2)
    spot = (150.0, 110.0)
    t.throw([3, 2], colours=["as-rolling", "white"], at={0: spot})
    t.throw([6, 4], colours=["as-rolling", "white"], at={0: spot})
    t.throw([5], colours=["as-rolling"], at={0: spot})
    got = reports(t)
    assert [c for c, _, _ in got] == [Change.ROLL, Change.ROLL, Change.ROLL]
    assert_as_drawn(got)


@pytest.mark.parametrize("look", LOOKS)
def test_a_die_the_keep_strips_colour_is_kept_and_goes(look):
    t = table(look)
    t.throw([3, 3, 4], colours=["as-strip", "white", "white"])
    t.keep([3, 3])
    t.throw([2], colours=["white"])
    t.pick_up()
    got = reports(t)
    assert [c for c, _, _ in got] == [Change.ROLL, Change.KEEP, Change.ROLL, Change.CLEAR]
    assert sorted(v for v, z in got[1][1] if z == "keep") == [3, 3]
    assert_as_drawn(got)


@pytest.mark.parametrize("look", LOOKS)
def test_a_white_die_on_the_white_round_a_marker_is_seen_coming_and_going(look):
    t = table(look)
    t.throw([2, 6], colours=["as-paper", "as-paper"], at={0: PAPER_LEFT, 1: PAPER_RIGHT})
    t.throw([5, 1], colours=["as-paper", "white"], at={0: PAPER_LEFT})
    t.pick_up()
    got = reports(t)
    assert [c for c, _, _ in got] == [Change.ROLL, Change.ROLL, Change.CLEAR]
    assert_as_drawn(got)
