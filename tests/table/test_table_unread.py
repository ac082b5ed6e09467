"""A die the table cannot read: reported at once where it lies and asked for, never
guessed and never holding the throw back; read where presence sees it; filled in by a
later look; given its value by the scorekeeper."""

from __future__ import annotations

import pytest

from zonkcam.app.loop import TableApp
from zonkcam.controls import Control, Press
from zonkcam.game import PRESETS
from zonkcam.game import actions as A
from zonkcam.mat.calibrate import calibrate
from zonkcam.record.logged_game import LoggedGame
from zonkcam.record.store import EventLog
from zonkcam.sim.demo_table import DemoTable
from zonkcam.table.observe import TableEvent, TableWatcher
from zonkcam.table.reading import OnnxReader
from zonkcam.table.tracking import Change
from zonkcam.testing import TruthReader

THROWN = [1, 3, 5, 2, 6]


def table(**kw) -> DemoTable:
    return DemoTable(seed=kw.pop("seed", 2), autoplay=False, size=(640, 480), **kw)


class BlindToA3(TruthReader):
    """The table's truth, less any 3 in the rolling area (a dark die on the felt that no
    read finds) for its first ``blind_calls`` calls (None: always)."""

    blind_calls: int | None = None

    def __init__(self, table: DemoTable) -> None:
        super().__init__(table)
        self.calls = 0

    def __call__(self, image, region=None):
        self.calls += 1
        seen = super().__call__(image, region)
        if self.blind_calls is not None and self.calls > self.blind_calls:
            return seen
        return [s for s in seen if s.value != 3]


class BlindAWhile(BlindToA3):
    blind_calls = 4


def watch(t: DemoTable, reader=BlindToA3):
    empty = t.read()
    cal = calibrate(empty.image, t.geometry)
    watcher = TableWatcher(cal, reader(t))
    watcher.process(empty)
    out = []
    rest_at = None
    while t.busy:
        frame = t.read()
        if rest_at is None and not frame.truth.moving and t.poses:
            rest_at = frame.index
        out += [(frame, o) for o in watcher.process(frame) if o.event is TableEvent.SETTLED]
    return out, rest_at, watcher


def test_a_throw_with_a_die_no_read_finds_is_reported_at_settle_with_that_die_asked():
    t = table()
    t.throw(THROWN)
    got, rest_at, watcher = watch(t)
    (frame, roll) = got[0]
    assert roll.change is Change.ROLL and roll.unread == 1
    assert frame.index - rest_at <= 5  # at once: no looks again before the report
    (unread,) = [d for d in roll.rolled if d.unread]
    assert not unread.known and unread.to_json()["value"] is None
    three = next(d for d in frame.truth.dice if d.value == 3)
    assert abs(unread.center_mm[0] - three.x_mm) < 8 and abs(unread.center_mm[1] - three.y_mm) < 8
    assert roll.to_json()["values"] == [1, 2, 5, 6]  # the read ones; the 3 is not guessed
    assert [o.change for _, o in got] == [Change.ROLL]  # no second report of the throw


def test_a_hand_half_a_second_after_the_dice_stop_does_not_drop_the_throw():
    t = table(rest_frames=15)  # 0.5 s at 30 fps, then the hand comes
    t.throw(THROWN)
    t.pick_up()
    got, _, _ = watch(t)
    assert [o.change for _, o in got] == [Change.ROLL, Change.CLEAR]
    assert len(got[0][1].rolled) == 5 and got[0][1].unread == 1


def test_a_later_look_that_reads_the_die_fills_it_in():
    t = table(rest_frames=60)
    t.throw(THROWN)
    got, _, watcher = watch(t, BlindAWhile)
    assert [o.change for _, o in got] == [Change.ROLL, Change.READ]
    read = got[1][1]
    assert read.unread == 0 and sorted(d.value for d in read.rolled) == sorted(THROWN)
    assert all(d.known for d in watcher.state)


def held_app(tmp_path, reader=BlindToA3, rest_frames=20):
    t = table(rest_frames=rest_frames)
    empty = t.read()
    log = EventLog(tmp_path / "g.db")
    logged = LoggedGame.new(log, PRESETS["classic-10000"])
    logged.play(A.Players(("Ann", "Bob")))
    lines: list[str] = []
    watcher = TableWatcher(calibrate(empty.image, t.geometry), reader(t))
    app = TableApp(logged, watcher, say=lines.append)
    app.tick(empty)
    return t, app, log, lines


def test_the_throw_waits_for_the_value_typed_and_is_played_with_it(tmp_path):
    t, app, log, lines = held_app(tmp_path)
    t.throw(THROWN)
    t.pick_up()  # the hand comes before anyone types: the throw is still held
    while t.busy:
        app.tick(t.read())
    assert not any(isinstance(e, A.Roll) for e in app.logged.game.events)
    assert any("cannot read 1 die" in line for line in lines)
    app.handle(Press(Control.DIGIT, 3))
    rolls = [e for e in app.logged.game.events if isinstance(e, A.Roll)]
    assert [sorted(d.value for d in r.dice) for r in rolls] == [sorted(THROWN)]
    assert app.waiting is None
    log.close()


def test_a_die_tapped_on_the_held_throw_takes_the_value_typed(tmp_path):
    t, app, log, _ = held_app(tmp_path)
    t.throw(THROWN)
    while t.busy:
        app.tick(t.read())
    index = next(k for k, d in enumerate(app.last_settled.dice) if d.unread)
    app.handle(Press(Control.TAP_DIE, index))
    app.handle(Press(Control.DIGIT, 4))  # the scorekeeper's word, whatever was thrown
    (roll,) = [e for e in app.logged.game.events if isinstance(e, A.Roll)]
    assert sorted(d.value for d in roll.dice) == [1, 2, 4, 5, 6]
    assert any(d.value == 4 and d.known for d in app.watcher.state)  # a keep of it is a 4
    log.close()


def test_the_held_throw_is_played_when_a_later_look_reads_its_die(tmp_path):
    t, app, log, _ = held_app(tmp_path, BlindAWhile, rest_frames=60)
    t.throw(THROWN)
    while t.busy:
        app.tick(t.read())
    (roll,) = [e for e in app.logged.game.events if isinstance(e, A.Roll)]
    assert sorted(d.value for d in roll.dice) == sorted(THROWN)
    log.close()


class DetectorMissesOne(OnnxReader):
    """The learned reader, with its detector blind to the die that lies furthest right
    (what the dark dice of other sources do to it); the value net still reads crops."""

    def __init__(self, table: DemoTable, cal) -> None:
        super().__init__(die_px=cal.px_per_mm * cal.geometry.die_mm, threads=1)
        self.table = table

    def __call__(self, image, region=None):
        truth = self.table.last.truth
        if not truth.boxes:
            return super().__call__(image, region)
        far = max(truth.boxes, key=lambda b: b[0])
        return [
            d
            for d in super().__call__(image, region)
            if abs((d.bbox[0] + d.bbox[2]) / 2 - (far[0] + far[2]) / 2) > 6
        ]


@pytest.mark.slow
def test_a_die_found_only_by_presence_is_read_by_the_value_net():
    t = table(seed=4)
    t.throw(THROWN)
    empty = t.read()
    cal = calibrate(empty.image, t.geometry)
    reader = DetectorMissesOne(t, cal)
    watcher = TableWatcher(cal, reader)
    watcher.process(empty)
    got = []
    while t.busy:
        got += [o for o in watcher.process(t.read()) if o.event is TableEvent.SETTLED]
    assert [o.change for o in got] == [Change.ROLL]
    assert got[0].unread == 0
    assert sorted(d.value for d in got[0].rolled) == sorted(THROWN)
