"""The home-printer mats (A4 and US Letter) on the rendered table: the demo camera hangs
nearer them, the table calibrates on them, and throws and keeps on them are read by the
learned reader as drawn."""

from __future__ import annotations

import math

import pytest

from zonkcam.mat.calibrate import calibrate, detect_markers
from zonkcam.sim.demo_table import DemoTable
from zonkcam.sim.lens import PLAIN, REALISTIC
from zonkcam.table.observe import TableWatcher
from zonkcam.table.reading import OnnxReader
from zonkcam.table.zones import Zone


def test_a_smaller_mat_is_seen_through_the_same_lens_from_nearer():
    seen = {}
    for mat in ("a3", "a4", "letter"):
        table = DemoTable(seed=1, geometry=mat, autoplay=False, size=(640, 480))
        cal = calibrate(table.read().image, table.geometry)
        g = table.geometry
        seen[mat] = (table, cal.px_per_mm, cal.px_per_mm * g.width_mm, cal.px_per_mm * g.height_mm)
    a3, a3_px_mm, a3_w, a3_h = seen["a3"]
    for mat, distance in (("a4", 600 * 297 / 420), ("letter", 600 * 215.9 / 297)):
        table, px_mm, w, h = seen[mat]
        # the same lens (focal length), nearer the mat: A4 as wide in the frame as A3,
        # Letter (squarer) as tall as they are
        assert table.camera.focal_px == pytest.approx(a3.camera.focal_px)
        assert table.camera.distance_mm == pytest.approx(distance)
        assert w <= a3_w * 1.02 and h <= a3_h * 1.02
        assert max(w / a3_w, h / a3_h) == pytest.approx(1, abs=0.02)
        # so the same 16 mm die is that much larger in the picture
        assert px_mm * 16 == pytest.approx(a3_px_mm * 16 * 600 / distance, rel=0.02)


@pytest.mark.parametrize("mat", ["a4", "letter"])
def test_every_marker_of_a_home_printer_mat_is_found_on_the_rendered_table(mat):
    for look in (PLAIN, REALISTIC):
        for size in ((480, 360), (640, 480)):
            for seed in range(3):
                table = DemoTable(seed=seed, geometry=mat, autoplay=False, size=size, look=look)
                found = detect_markers(table.read().image, table.geometry)
                assert sorted(found) == [m.id for m in table.geometry.markers], (look, size, seed)


@pytest.mark.slow  # whole throws through the learned reader, as in test_table_reader.py
@pytest.mark.parametrize(
    ("mat", "look"), [("a4", PLAIN), ("letter", PLAIN), ("a4", REALISTIC), ("letter", REALISTIC)]
)
def test_throws_and_keeps_on_a_home_printer_mat_are_read_as_drawn(mat, look):
    table = DemoTable(seed=5, geometry=mat, autoplay=False, size=(640, 480), dice=6, look=look)
    cal = calibrate(table.read().image, table.geometry)
    watcher = TableWatcher(cal, OnnxReader.for_table(cal, threads=1))
    table.throw(n=6)
    rolls = keeps = 0
    while table.busy:
        frame = table.read()
        for report in watcher.process(frame):
            if report.event == "settled" and report.change != "clear":
                truth = sorted((d.zone, d.value, d.color) for d in frame.truth.dice)
                assert sorted((d.zone, d.value, d.color) for d in report.dice) == truth
                rolls += 1
    values = [d.value for d in table.truth().rolled]
    table.keep(values)  # all six into the strip, one after another
    while table.busy:
        frame = table.read()
        for report in watcher.process(frame):
            if report.event == "settled":
                assert report.change == "keep"
                assert sorted(d.value for d in report.keep) == sorted(values)
                keeps += 1
    assert (rolls, keeps) == (1, 1)
    strip, half = table.geometry.keep_strip, table.geometry.die_mm / 2 * math.sqrt(2)
    kept = table.truth().dice
    assert len(kept) == 6 and all(d.zone is Zone.KEEP for d in kept)
    for d in kept:  # each die wholly in the strip, whichever way it is turned
        assert strip.x <= d.x_mm - half and d.x_mm + half <= strip.x + strip.w
        assert strip.y <= d.y_mm - half and d.y_mm + half <= strip.y + strip.h
