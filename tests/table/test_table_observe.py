"""The table on the demo table: settled throws and keeps, zones, things in the way,
cocked dice, dice the reader misses now and then.

The dice are read by a stand-in reader (TruthReader) that reports what the demo table
drew, so these tests check the table logic (motion, tracking, voting, zones) on its own,
on plain frames and through a realistic camera (REALISTIC); the learned reader is tested
in test_vision_*.py and together with the table in test_table_reader.py.
"""

from __future__ import annotations

import numpy as np
import pytest

from zonkcam.game import Landing
from zonkcam.mat.calibrate import calibrate
from zonkcam.sim.demo_table import DemoTable
from zonkcam.sim.lens import REALISTIC
from zonkcam.sources import CameraProblem, Frame
from zonkcam.table.observe import TableEvent, TableWatcher
from zonkcam.table.tracking import Change
from zonkcam.testing import TruthReader

pytestmark = pytest.mark.slow  # whole tables, games or kills: `make check` leaves them out


def run(table: DemoTable, max_frames: int = 3000, reader=TruthReader):
    """Play the table's script through a watcher reading with `reader(table)`;
    (observations, frames) with truth."""
    empty = table.read()
    cal = calibrate(empty.image, table.geometry)
    watcher = TableWatcher(cal, reader(table))
    observations, frames = [], [empty]
    while table.busy and len(frames) < max_frames:
        frame = table.read()
        frames.append(frame)
        observations += watcher.process(frame)
    return observations, frames


def settled(observations):
    return [o for o in observations if o.event == TableEvent.SETTLED]


def table(**kw) -> DemoTable:
    return DemoTable(seed=kw.pop("seed", 1), autoplay=False, size=(640, 480), **kw)


def realistic(**kw) -> DemoTable:
    """The demo table through a realistic camera: tilted 15 degrees, barrel distortion,
    uneven light, blur, JPEG, clutter round the mat."""
    return table(look=REALISTIC, **kw)


def as_drawn(observations, frames):
    """Every settled report shows the dice as the table drew them, zone by zone."""
    by_index = {f.index: f for f in frames}
    for o in settled(observations):
        truth = by_index[o.frame].truth
        assert not truth.moving and not truth.hand
        assert sorted((str(d.zone), d.value) for d in o.dice if not d.cocked) == sorted(
            (d.zone, d.value) for d in truth.dice if not d.cocked
        )


def test_each_settled_roll_is_reported_once_with_values_and_zones():
    t = table()
    t.throw([1, 5, 2, 3, 6])
    t.keep([1, 5])
    t.throw([4, 4, 2])
    t.pick_up()
    observations, frames = run(t)
    got = settled(observations)
    assert [o.change for o in got] == [Change.ROLL, Change.KEEP, Change.ROLL, Change.CLEAR]
    assert sorted(d.value for d in got[0].rolled) == [1, 2, 3, 5, 6]
    assert sorted(d.value for d in got[1].in_strip) == [1, 5]
    assert sorted(d.value for d in got[1].keep) == [1, 5]
    assert sorted(d.value for d in got[1].rolled) == [2, 3, 6]
    assert sorted(d.value for d in got[2].rolled) == [2, 4, 4]
    assert sorted(d.value for d in got[2].in_strip) == [1, 5]
    assert got[3].dice == ()
    as_drawn(observations, frames)
    for o in got:
        assert o.frames_since_motion <= 10
        assert not any(d.cocked or d.touching for d in o.dice)


class BlindToAKeptOne(TruthReader):
    """The table's truth, less the 1 in the keep strip once another die has joined it:
    the learned reader's trouble with a small white 1 at the end of the strip."""

    def __call__(self, image, region=None):
        t = self.table.last.truth
        seen = super().__call__(image, region)
        if sum(d.zone == "keep" for d in t.dice) < 2:
            return seen
        return [s for s in seen if not (s.value == 1 and _in_strip(self.table, s))]


def _in_strip(table: DemoTable, seen) -> bool:
    return any(
        d.zone == "keep" and d.value == seen.value and b == seen.bbox
        for d, b in zip(table.last.truth.dice, table.last.truth.boxes, strict=True)
    )


def keep_a_1_then_a_5(**kw) -> DemoTable:
    t = (realistic if kw.pop("real", False) else table)(seed=3, **kw)
    t.throw([1, 2, 3, 4, 6])
    t.keep([1])
    t.throw([2, 3, 5, 6])
    t.keep([5])
    t.throw([2, 3, 4])
    return t


def test_a_keep_is_a_keep_when_a_die_already_kept_goes_unread():
    got = settled(run(keep_a_1_then_a_5(), reader=BlindToAKeptOne)[0])
    assert [o.change for o in got] == ["roll", "keep", "roll", "keep", "roll"]
    assert [d.value for d in got[3].keep] == [5]  # the 1 unread, the 5 joined: a keep
    assert sorted(d.value for d in got[3].in_strip) == [1, 5]  # the 1 lies where it lay


class BlindToTheNewKeep(TruthReader):
    """The table's truth, less the 5 once it lies in the keep strip."""

    def __call__(self, image, region=None):
        seen = super().__call__(image, region)
        return [s for s in seen if not (s.value == 5 and _in_strip(self.table, s))]


def test_a_keep_is_a_keep_when_the_die_kept_goes_unread():
    got = settled(run(keep_a_1_then_a_5(), reader=BlindToTheNewKeep)[0])
    # a die-like thing came to the strip that the reader cannot read, as a 5 left the
    # rolling area: the 5 was kept, with the value it was read with there
    assert [o.change for o in got] == ["roll", "keep", "roll", "keep", "roll"]
    assert [d.value for d in got[3].keep] == [5]
    assert sorted(d.value for d in got[3].rolled) == [2, 3, 6]


class Flickering(TruthReader):
    """The table's truth, but a die of ``value`` in the rolling area is missed in every
    other read (a white 1 on the LEFT image is the usual one)."""

    value = 1

    def __init__(self, table):
        super().__init__(table)
        self.calls = 0

    def __call__(self, image, region=None):
        self.calls += 1
        seen = super().__call__(image, region)
        if self.calls % 2:
            return seen
        return [s for s in seen if s.value != self.value or _in_strip(self.table, s)]


def test_a_die_missed_in_one_read_is_still_on_the_table():
    """A die one read misses stays in the roll (the 1 is not dropped), and the 5 kept
    later is a keep, not a new throw."""
    t = realistic(seed=5)
    t.throw([1, 5, 2, 3, 6], onto={0: Landing.LEFT})
    t.keep([5])
    observations, frames = run(t, reader=Flickering)
    got = settled(observations)
    assert [o.change for o in got] == [Change.ROLL, Change.KEEP]
    assert sorted(d.value for d in got[0].rolled) == [1, 2, 3, 5, 6]
    assert got[0].reads >= 3  # the reads disagreed about the 1: it was read again
    assert [d.value for d in got[1].keep] == [5]
    assert sorted(d.value for d in got[1].rolled) == [1, 2, 3, 6]


def test_a_keep_slid_while_another_die_flickers_is_a_keep():
    t = realistic(seed=6)
    t.throw([1, 5, 4, 3, 6])
    t.keep([5])
    t.keep([1])
    observations, _ = run(t, reader=Flickering)
    got = settled(observations)
    assert [o.change for o in got] == [Change.ROLL, Change.KEEP, Change.KEEP]
    assert [d.value for d in got[1].keep] == [5] and [d.value for d in got[2].keep] == [1]


class Covered(TruthReader):
    """The table's truth, less any die under something in the way (as the learned reader
    misses a die under a fingertip)."""

    def __call__(self, image, region=None):
        seen = super().__call__(image, region)
        things = self.table.things
        dice = dict(zip(self.table.last.truth.boxes, self.table.last.truth.dice, strict=True))
        return [
            s
            for s in seen
            if not any(
                abs(dice[s.bbox].x_mm - th.x_mm) < 20 and abs(dice[s.bbox].y_mm - th.y_mm) < 20
                for th in things
            )
        ]


@pytest.mark.parametrize("thing", ["finger", "cup", "phone", "sleeve", "shadow"])
def test_something_in_the_way_is_waited_for_and_changes_nothing(thing):
    """A fingertip resting on a die is waited for: no roll without that die, and no second
    roll when it leaves."""
    t = realistic(seed=7)
    t.throw([1, 1, 5, 2, 3])
    t.put(thing, frames=30, die=2)
    t.keep([5])
    observations, frames = run(t, reader=Covered)
    events = [o.event for o in observations]
    assert TableEvent.BLOCKED in events
    blocked_at = next(o.frame for o in observations if o.event == TableEvent.BLOCKED)
    assert {f.index: f for f in frames}[blocked_at].truth.hand
    got = settled(observations)
    assert [o.change for o in got] == [Change.ROLL, Change.KEEP]  # nothing while it lay
    assert [d.value for d in got[1].keep] == [5]
    as_drawn(observations, frames)


def test_a_die_moved_by_a_finger_is_a_question_not_a_roll():
    t = realistic(seed=8)
    t.throw([2, 3, 4, 6, 6])
    t.nudge(1, by_mm=(15.0, -20.0))
    observations, _ = run(t)
    got = settled(observations)
    assert [o.change for o in got] == [Change.ROLL, Change.MOVED]


def test_a_rethrow_is_a_new_roll_and_a_hand_beside_the_mat_is_nothing():
    t = realistic(seed=9)
    t.throw([2, 3, 4, 6, 6])
    t.fidget(60)
    t.throw([1, 5, 5, 2, 2])
    observations, frames = run(t)
    got = settled(observations)
    assert [o.change for o in got] == [Change.ROLL, Change.ROLL]
    assert sorted(d.value for d in got[1].rolled) == [1, 2, 2, 5, 5]
    # no motion is reported while only the hand beside the mat moves: the next motion
    # is the second throw, after the 60 frames of fidgeting
    after = [o.frame for o in observations if o.frame > got[0].frame]
    assert after and min(after) > got[0].frame + 60


def test_dice_lying_there_when_watching_begins_are_not_a_roll():
    t = table(seed=10)
    t.throw([1, 2, 3, 4, 5])
    t.rest(10)
    t.keep([1])
    _, frames = run(t)  # to the end of the script, unwatched
    cal_frame = frames[0]
    watcher = TableWatcher(calibrate(cal_frame.image, t.geometry), TruthReader(t))
    t.rest(10)
    t.keep([5])
    observations = []
    while t.busy:
        observations += watcher.process(t.read())
    got = settled(observations)
    assert [o.change for o in got] == [Change.START, Change.KEEP]
    assert [d.value for d in got[1].keep] == [5]


def test_no_report_while_a_die_spins():
    t = table(seed=2)
    t.throw([2, 3, 4, 6, 6])
    t.spin(frames=25)
    observations, frames = run(t)
    events = [o.event for o in observations]
    assert "spinning" in events
    got = settled(observations)
    assert len(got) == 1  # the spin changes nothing once it stops: reported once
    by_index = {f.index: f for f in frames}
    assert not by_index[got[0].frame].truth.moving


@pytest.mark.parametrize("camera", [table, realistic])
def test_board_images_and_off_the_mat(camera):
    t = camera(seed=3)
    t.throw([5, 1, 3, 2, 4], onto={0: Landing.LEFT, 1: Landing.SOCIAL}, off_mat=[4])
    observations, _ = run(t)
    (roll,) = settled(observations)
    touching = {d.value: d.touching for d in roll.dice}
    # the engine's Landing, which the game flow plays as it is (A.Land(landing))
    assert touching[5] == (Landing.LEFT,) and touching[1] == (Landing.SOCIAL,)
    assert touching[3] == touching[2] == ()
    rolling = {d["value"]: d["touching"] for d in roll.to_json()["rolling"]}
    assert rolling[5] == ["LEFT"] and rolling[1] == ["SOCIAL"]  # zonkcam watch: as printed
    assert [d.value for d in roll.off_mat] == [4]
    assert sorted(d.value for d in roll.rolled) == [1, 2, 3, 5]


@pytest.mark.parametrize("seed", [4, 5, 6])
def test_a_die_leaning_on_another_is_not_read_as_a_value(seed):
    t = table(seed=seed)
    t.throw([1, 2, 3, 4, 6], cocked=[4])
    observations, _ = run(t)
    (roll,) = settled(observations)
    six = [d for d in roll.dice if d.value == 6]
    assert six and all(d.cocked for d in six)
    assert 6 not in roll.to_json()["values"]
    # the die it leans on may be held back too (which leans on which is unclear from above)
    readable = sorted(d.value for d in roll.dice if not d.cocked)
    assert set(readable) <= {1, 2, 3, 4} and len(readable) >= 3


def test_a_hand_resting_on_the_mat_is_reported_not_read():
    t = table(seed=7)
    t.throw([1, 1, 5, 2, 3])
    t.reach(frames=20)
    observations, frames = run(t)
    events = [o.event for o in observations]
    assert TableEvent.BLOCKED in events
    hand_at = next(o.frame for o in observations if o.event == TableEvent.BLOCKED)
    assert {f.index: f for f in frames}[hand_at].truth.hand
    assert len(settled(observations)) == 1  # the hand left nothing changed


def test_autoplay_runs_by_itself_and_agrees_with_the_truth():
    t = DemoTable(seed=11, size=(640, 480))  # autoplay
    empty = t.read()
    watcher = TableWatcher(calibrate(empty.image, t.geometry), TruthReader(t))
    reports = 0
    for _ in range(260):
        frame = t.read()
        for o in watcher.process(frame):
            if o.event == "settled":
                reports += 1
                truth = sorted((d.zone, d.value) for d in frame.truth.dice)
                assert sorted((d.zone, d.value) for d in o.dice) == truth
    assert reports >= 4


def test_camera_problem_and_wrong_frame_size_do_not_crash():
    t = table(seed=8)
    empty = t.read()
    watcher = TableWatcher(calibrate(empty.image, t.geometry), lambda image, region: [])
    small = Frame(np.zeros((240, 320, 3), np.uint8), 1, 0.1)
    (report,) = watcher.process(small)
    assert report.event == "camera-problem" and "recalibrate" in report.message
    stream = [CameraProblem("the Pi camera stopped", 1.0), t.read()]
    out = list(watcher.watch(stream))
    assert out[0].event == "camera-problem" and out[0].message == "the Pi camera stopped"


def test_part_of_a_die_standing_out_from_the_print_is_an_unread_die_not_in_the_way():
    """A white die on a white board image stands out from the mat only in part: a piece
    smaller than a die is a die to ask about, while a finger's length is in the way."""
    from zonkcam.mat.calibrate import REFERENCE_PX_PER_MM
    from zonkcam.table.zones import Zone, leftovers

    t = table(seed=3)
    cal = calibrate(t.read().image, t.geometry)
    k, die = REFERENCE_PX_PER_MM, t.geometry.die_mm

    def lying(w_mm: float, h_mm: float) -> np.ndarray:
        top = cal.reference.copy()
        x0, y0 = round(120 * k), round(80 * k)
        top[y0 : y0 + round(h_mm * k), x0 : x0 + round(w_mm * k)] = (30, 30, 200)
        return top

    half = leftovers(lying(die, die * 0.45), cal.reference, [], cal)
    assert half.in_the_way == "" and len(half.unread) == 1
    x, y, zone = half.unread[0]
    assert zone == Zone.ROLLING and abs(x - 120 - die / 2) < 2 and abs(y - 80 - die * 0.22) < 2
    # a die standing out in two pieces (its middle like the print): one die
    top = lying(die, die * 0.4)
    y1 = round(80 * k) + round(die * 0.6 * k)
    top[y1 : y1 + round(die * 0.4 * k), round(120 * k) : round(120 * k) + round(die * k)] = (
        30,
        30,
        200,
    )
    assert len(leftovers(top, cal.reference, [], cal).unread) == 1
    # a die and its shadow: about a die's area, a little drawn out
    shadowed = leftovers(lying(die * 1.25, die * 0.72), cal.reference, [], cal)
    assert shadowed.in_the_way == "" and len(shadowed.unread) == 1
    finger = leftovers(lying(15, 50), cal.reference, [], cal)
    assert finger.in_the_way == "something that is not a die is on the mat"
