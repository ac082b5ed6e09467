"""Frames with a detail image (Frame.detail: the same view at a higher resolution, as the
Pi camera's main stream beside its lores one): the demo table renders one, the watcher
hands it to the reader, and the reader cuts the dice it reads from it."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from zonkcam.mat.calibrate import calibrate
from zonkcam.sim.demo_table import DemoTable
from zonkcam.table.observe import ReadsDetail, TableEvent, TableWatcher
from zonkcam.table.reading import OnnxReader
from zonkcam.testing import TruthReader
from zonkcam.vision.preprocess import crop_die

THROWN = [1, 2, 3, 4, 5]


def _settled(table: DemoTable) -> DemoTable:
    table.throw(THROWN)
    while table.busy:
        table.read()
    return table


@pytest.fixture(scope="module")
def still():
    """A 2x demo table at rest after a throw, its frame, and the table's reader."""
    table = DemoTable(seed=4, autoplay=False, size=(640, 480), detail=2)
    cal = calibrate(table.read().image, table.geometry)
    _settled(table)
    return table, table.last, OnnxReader.for_table(cal, threads=1)


def test_the_demo_table_at_2x_gives_a_detail_twice_the_frames_size():
    plain = DemoTable(seed=4, autoplay=False, size=(320, 240))
    table = DemoTable(seed=4, autoplay=False, size=(320, 240), detail=2)
    frame = table.read()
    assert frame.image.shape == (240, 320, 3) and frame.detail.shape == (480, 640, 3)
    assert plain.read().detail is None
    small = cv2.resize(frame.detail, (320, 240), interpolation=cv2.INTER_AREA)
    assert np.abs(small.astype(int) - frame.image).mean() < 2
    # boxes and mat points in the frame's px, where the plain table has them
    corners = [[0, 0], [300, 200]]
    assert np.allclose(table.mat_to_image(corners), plain.mat_to_image(corners))
    frame = _settled(table).last
    for (x0, y0, x1, y1), die in zip(frame.truth.boxes, frame.truth.dice, strict=True):
        assert x1 - x0 < 30 and np.allclose(
            table.mat_to_image([[die.x_mm, die.y_mm]]), [[(x0 + x1) / 2, (y0 + y1) / 2]], atol=4
        )
    with pytest.raises(ValueError, match="detail"):
        DemoTable(detail=0)


def _at_truth(frame, dice) -> list[int | None]:
    """The value read at each die the table drew (None where none was read there)."""
    out = []
    for b in frame.truth.boxes:
        cx, cy = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
        near = [
            d.value
            for d in dice
            if abs((d.bbox[0] + d.bbox[2]) / 2 - cx) < 4
            and abs((d.bbox[1] + d.bbox[3]) / 2 - cy) < 4
        ]
        out.append(near[0] if len(near) == 1 else None)
    return out


def test_the_reader_reads_the_dice_from_the_detail(still):
    """The frame blurred past reading, its detail sharp: the dice read as drawn, boxes in
    frame px, and the crops kept for teaching cut from the detail."""
    table, frame, reader = still
    blurred = cv2.GaussianBlur(frame.image, (0, 0), 2.5)
    assert _at_truth(frame, reader(blurred)).count(None) >= 3  # the frame alone: unreadable
    dice = reader(blurred, None, detail=frame.detail)
    assert _at_truth(frame, dice) == [d.value for d in frame.truth.dice]
    (first,) = [d for d in dice if d.value == frame.truth.dice[0].value and d.confidence > 0.9]
    x0, y0, x1, y1 = first.bbox
    seen = first.sight
    assert np.array_equal(seen.crop, crop_die(frame.detail, (2 * x0, 2 * y0, 2 * x1, 2 * y1)))
    # and only a region of it: the same die there, in frame px
    region = (int(x0) - 20, int(y0) - 20, int(x1) + 20, int(y1) + 20)
    (again,) = reader(blurred, region, detail=frame.detail)
    assert again.value == first.value and np.allclose(again.bbox, first.bbox, atol=2)


def test_the_reader_reads_the_detail_where_a_die_is_known_to_lie(still):
    table, frame, reader = still
    blurred = cv2.GaussianBlur(frame.image, (0, 0), 2.5)
    boxes = list(frame.truth.boxes)
    got = reader.read_at(blurred, boxes, detail=frame.detail)
    assert [d.value for d in got] == [d.value for d in frame.truth.dice]
    assert np.allclose([d.bbox for d in got], boxes, atol=0.1)


class DetailSpy(TruthReader):
    """Reports what the table drew, and records the detail each read was given."""

    reads_detail = True

    def __init__(self, table: DemoTable) -> None:
        super().__init__(table)
        self.details: list[tuple[int, ...] | None] = []

    def __call__(self, image, region=None, detail=None):
        self.details.append(None if detail is None else detail.shape)
        return super().__call__(image, region)

    def read_at(self, image, boxes, detail=None):
        self.details.append(None if detail is None else detail.shape)
        return [None] * len(boxes)


def test_the_watcher_hands_the_frames_detail_to_a_reader_that_takes_it():
    table = DemoTable(seed=4, autoplay=False, size=(320, 240), detail=2)
    empty = table.read()
    spy = DetailSpy(table)
    assert isinstance(spy, ReadsDetail) and not isinstance(TruthReader(table), ReadsDetail)
    for reader in (spy, TruthReader(table)):  # one that does not take it reads the frame
        watcher = TableWatcher(calibrate(empty.image, table.geometry), reader)
        watcher.process(empty)
        table.pick_up()
        table.throw(THROWN)
        settled = []
        while table.busy:
            settled += [o for o in watcher.process(table.read()) if o.event is TableEvent.SETTLED]
        assert sorted(d.value for d in settled[-1].rolled) == sorted(THROWN)
    assert spy.details and set(spy.details) == {(480, 640, 3)}
