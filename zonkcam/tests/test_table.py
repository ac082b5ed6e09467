"""The table on the demo table: settled rolls, zones, hands, cocked dice, camera trouble.

The dice are read by a stand-in reader (TruthReader) that reports what the demo table drew, so these
tests check the table logic (motion, agreement, zones) on its own; the learned reader is
tested in test_vision_*.py and together with the table in test_table_reader.py.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from zonkcam.calibration.calibrate import calibrate
from zonkcam.table.camera import (
    BadFrameError,
    CameraError,
    CameraProblem,
    Frame,
    ImageFolderSource,
    ResilientSource,
)
from zonkcam.table.demo import DemoTable, TruthReader
from zonkcam.table.observe import TableWatcher, _classify
from zonkcam.table.zones import TableDie


def run(table: DemoTable, max_frames: int = 2000, reader=TruthReader):
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
    return [o for o in observations if o.event == "settled"]


def table(**kw) -> DemoTable:
    return DemoTable(seed=kw.pop("seed", 1), autoplay=False, size=(640, 480), **kw)


def test_each_settled_roll_is_reported_once_with_values_and_zones():
    t = table()
    t.throw([1, 5, 2, 3, 6])
    t.keep([1, 5])
    t.throw([4, 4, 2])
    t.pick_up()
    observations, frames = run(t)
    got = settled(observations)
    assert [o.change for o in got] == ["roll", "keep", "roll", "clear"]
    assert sorted(d.value for d in got[0].rolled) == [1, 2, 3, 5, 6]
    assert sorted(d.value for d in got[1].kept) == [1, 5]
    assert sorted(d.value for d in got[1].rolled) == [2, 3, 6]
    assert sorted(d.value for d in got[2].rolled) == [2, 4, 4]
    assert sorted(d.value for d in got[2].kept) == [1, 5]
    assert got[3].dice == ()
    by_index = {f.index: f for f in frames}
    for o in got:
        assert not by_index[o.frame].truth.moving  # never while dice move
        assert o.frames_since_motion <= 10
        assert not any(d.cocked or d.touching for d in o.dice)


class BlindToAKeptOne(TruthReader):
    """The table's truth, less the 1 in the keep strip once another die has joined it:
    the learned reader's trouble with a small white 1 at the end of the strip."""

    def __call__(self, image):
        t = self.table.last.truth
        seen = super().__call__(image)
        if sum(d.zone == "keep" for d in t.dice) < 2:
            return seen
        return [s for s, d in zip(seen, t.dice, strict=True)
                if not (d.zone == "keep" and d.value == 1)]


def keep_a_1_then_a_5() -> DemoTable:
    t = table(seed=3)
    t.throw([1, 2, 3, 4, 6])
    t.keep([1])
    t.throw([2, 3, 5, 6])
    t.keep([5])
    t.throw([2, 3, 4])
    return t


def test_a_keep_is_a_keep_when_a_die_already_kept_goes_unread():
    got = settled(run(keep_a_1_then_a_5(), reader=BlindToAKeptOne)[0])
    assert [o.change for o in got] == ["roll", "keep", "roll", "keep", "roll"]
    assert [d.value for d in got[3].kept] == [5]  # the 1 unread, the 5 joined: a keep


class BlindToTheNewKeep(TruthReader):
    """The table's truth, less the 5 once it lies in the keep strip."""

    def __call__(self, image):
        t = self.table.last.truth
        seen = super().__call__(image)
        return [s for s, d in zip(seen, t.dice, strict=True)
                if not (d.zone == "keep" and d.value == 5)]


def test_a_keep_is_a_keep_when_the_die_kept_goes_unread():
    got = settled(run(keep_a_1_then_a_5(), reader=BlindToTheNewKeep)[0])
    # the strip's foreground grew where no die was read: the 5 went there
    assert [o.change for o in got] == ["roll", "keep", "roll", "keep", "roll"]
    assert [d.value for d in got[3].kept] == [1]
    assert sorted(d.value for d in got[3].rolled) == [2, 3, 6]


def test_dice_gone_from_the_rolling_area_alone_are_not_a_keep():
    """A throw that left some dice lying as they lay (the rest off the camera's view)
    puts nothing new in the keep strip: still a throw."""
    def die(value, x, zone="rolling"):
        return TableDie(value, 1.0, None, (0, 0, 1, 1), (x, 50.0), zone)

    before = [die(1, 10, "keep"), die(2, 100), die(3, 150), die(4, 200)]
    assert _classify(before, [die(1, 10, "keep"), die(2, 100), die(3, 150)], 16) == "roll"
    assert _classify(before, [die(1, 10, "keep"), die(4, 40, "keep"), die(2, 100),
                              die(3, 150)], 16) == "keep"
    # the 1 unread, the 4 joined it
    assert _classify(before, [die(4, 40, "keep"), die(2, 100), die(3, 150)], 16) == "keep"
    # the rolling dice moved: a throw, whatever the strip holds
    assert _classify(before, [die(4, 40, "keep"), die(2, 100), die(3, 170)], 16) == "roll"
    assert _classify(before, [], 16) == "clear"
    # nothing read joined the strip, but its foreground grew by a die: a keep
    assert _classify(before, [die(1, 10, "keep"), die(2, 100), die(3, 150)], 16,
                     strip_grew=True) == "keep"


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


def test_board_images_and_off_the_mat():
    t = table(seed=3)
    t.throw([5, 1, 3, 2, 4], onto={0: "LEFT", 1: "SOCIAL"}, off_mat=[4])
    observations, _ = run(t)
    (roll,) = settled(observations)
    touching = {d.value: d.touching for d in roll.dice}
    assert touching[5] == ("LEFT",) and touching[1] == ("SOCIAL",)
    assert touching[3] == touching[2] == ()
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
    assert "hand" in events
    hand_at = next(o.frame for o in observations if o.event == "hand")
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


def test_resilient_source_reports_and_recovers():
    sleeps: list[float] = []
    attempts = {"n": 0}

    class Flaky:
        name, fps = "flaky", 30.0

        def __init__(self):
            self.left = 2

        def read(self):
            if self.left == 0:
                return None
            self.left -= 1
            return Frame(np.zeros((4, 4, 3), np.uint8), 0, 0.0)

        def close(self):
            pass

    def opener():
        attempts["n"] += 1
        if attempts["n"] <= 3:
            raise CameraError("unplugged")
        return Flaky()

    items = list(ResilientSource(opener, sleep=sleeps.append).frames())
    problems = [i for i in items if isinstance(i, CameraProblem)]
    assert [p.message for p in problems] == ["unplugged"] * 3
    assert sleeps == [0.5, 1.0, 2.0]  # backoff
    assert sum(isinstance(i, Frame) for i in items) == 2


def test_image_folder_with_bad_files(tmp_path):
    good = np.full((48, 64, 3), 90, np.uint8)
    cv2.imwrite(str(tmp_path / "a.png"), good)
    ok, jpg = cv2.imencode(".jpg", good)
    (tmp_path / "b.jpg").write_bytes(jpg.tobytes()[: len(jpg) // 3])  # truncated
    (tmp_path / "c.png").write_bytes(b"")
    cv2.imwrite(str(tmp_path / "d.png"), cv2.cvtColor(good, cv2.COLOR_BGR2GRAY))
    source = ImageFolderSource(tmp_path)
    items = list(ResilientSource(lambda: source, sleep=lambda s: None).frames())
    frames = [i for i in items if isinstance(i, Frame)]
    problems = [i for i in items if isinstance(i, CameraProblem)]
    assert len(frames) >= 2 and all(f.image.shape == (48, 64, 3) for f in frames)
    assert any("c.png" in p.message for p in problems)
    direct = ImageFolderSource(tmp_path)
    assert direct.read().image.shape == (48, 64, 3)  # a.png
    try:
        direct.read()  # b.jpg, truncated: OpenCV may decode what is there, or refuse
    except BadFrameError:
        pass
    with pytest.raises(BadFrameError, match="c.png is not a readable image"):
        direct.read()
    assert direct.read().image.shape == (48, 64, 3)  # d.png, grey, comes back as BGR
    assert direct.read() is None


def test_camera_problem_and_wrong_frame_size_do_not_crash():
    t = table(seed=8)
    empty = t.read()
    watcher = TableWatcher(calibrate(empty.image, t.geometry), lambda image: [])
    small = Frame(np.zeros((240, 320, 3), np.uint8), 1, 0.1)
    (obs,) = watcher.process(small)
    assert obs.event == "camera-problem" and "recalibrate" in obs.message
    stream = [CameraProblem("the Pi camera stopped", 1.0), t.read()]
    out = list(watcher.watch(stream))
    assert out[0].event == "camera-problem" and out[0].message == "the Pi camera stopped"
