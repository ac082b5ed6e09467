"""The learned reader at the demo table: rendered throws are read exactly, keeps too."""

from __future__ import annotations

import pytest

from zonkcam.mat.calibrate import calibrate
from zonkcam.sources.demo import DemoTable
from zonkcam.table.observe import TableWatcher
from zonkcam.table.reading import OnnxReader, detector_size


@pytest.fixture(scope="module")
def table_and_reader():
    table = DemoTable(seed=21, autoplay=False, size=(640, 480), dice=6)
    cal = calibrate(table.read().image, table.geometry)
    return table, cal, OnnxReader.for_table(cal, threads=1)


def test_detector_size_follows_the_calibrated_die_size(table_and_reader):
    _, cal, reader = table_and_reader
    die_px = cal.px_per_mm * cal.geometry.die_mm
    size = detector_size(cal)
    assert size % 32 == 0 and reader.settings.det_size == size
    assert 26 <= die_px * size / max(cal.image_size) <= 30


def test_the_table_reads_each_die_once_by_one_value_net(table_and_reader):
    # the recheck, the second opinions and the detector's mirrored views are for photos;
    # the table reads 10 frames a second
    _, _, reader = table_and_reader
    assert not reader.settings.recheck_unsure and not reader.settings.second_opinion
    assert reader.settings.first_look_mirrors == reader.settings.second_look_mirrors == ()
    assert reader.settings.big_look_size == reader.settings.tiny_look_size == 0  # sized dice
    assert reader.model.second_opinions == ()  # not even loaded


def test_throws_and_keeps_are_read_as_drawn(table_and_reader):
    table, cal, reader = table_and_reader
    watcher = TableWatcher(cal, reader)
    checked = 0
    for _ in range(3):
        table.pick_up()
        table.throw(n=6)
        table.keep([])  # a pause, then the first two dice go to the keep strip
        table.rest()
        while table.busy:
            frame = table.read()
            for obs in watcher.process(frame):
                if obs.event != "settled" or obs.change == "clear":
                    continue
                truth = sorted((d.zone, d.value, d.color) for d in frame.truth.dice)
                seen = sorted((d.zone, d.value, d.color) for d in obs.dice)
                assert seen == truth
                checked += 1
        values = [d.value for d in table.truth().rolled][:2]
        table.keep(values)
        while table.busy:
            frame = table.read()
            for obs in watcher.process(frame):
                if obs.event == "settled":
                    assert obs.change == "keep"
                    assert sorted(d.value for d in obs.keep) == sorted(values)
                    checked += 1
    assert checked == 6
