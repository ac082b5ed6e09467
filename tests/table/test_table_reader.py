"""The learned reader at the demo table: rendered throws are read exactly, keeps too."""

from __future__ import annotations

import pytest

from zonkcam.mat.calibrate import calibrate
from zonkcam.sim.demo_table import DemoTable
from zonkcam.table.observe import TableWatcher
from zonkcam.table.reading import OnnxReader
from zonkcam.vision.reader import DEFAULT_SETTINGS


@pytest.fixture(scope="module")
def table_and_reader():
    table = DemoTable(seed=21, autoplay=False, size=(640, 480), dice=6)
    cal = calibrate(table.read().image, table.geometry)
    return table, cal, OnnxReader.for_table(cal, threads=1)


def test_the_detector_sees_a_die_at_the_readers_die_size(table_and_reader, monkeypatch):
    from zonkcam.vision import reader as vision_reader

    table, cal, reader = table_and_reader
    die_px = cal.px_per_mm * cal.geometry.die_mm
    assert reader.die_px == die_px
    scales = []
    real = vision_reader.detector_scale

    def spy(shape, settings, die_px):
        scales.append(real(shape, settings, die_px))
        return scales[-1]

    monkeypatch.setattr(vision_reader, "detector_scale", spy)
    reader(table.read().image)
    assert 0.8 <= die_px * scales[0] / DEFAULT_SETTINGS.die_px <= 1.25


def test_the_table_reads_with_the_settings_of_zonkcam_read(table_and_reader):
    _, _, reader = table_and_reader
    assert reader.settings is DEFAULT_SETTINGS


@pytest.mark.slow
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
            for report in watcher.process(frame):
                if report.event != "settled" or report.change == "clear":
                    continue
                truth = sorted((d.zone, d.value, d.color) for d in frame.truth.dice)
                seen = sorted((d.zone, d.value, d.color) for d in report.dice)
                assert seen == truth
                checked += 1
        values = [d.value for d in table.truth().rolled][:2]
        table.keep(values)
        while table.busy:
            frame = table.read()
            for report in watcher.process(frame):
                if report.event == "settled":
                    assert report.change == "keep"
                    assert sorted(d.value for d in report.keep) == sorted(values)
                    checked += 1
    assert checked == 6
