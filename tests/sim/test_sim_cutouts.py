"""Dice cut out of photos (zonkcam.sim.cutouts, zonkcam.train.dataset.load_cutouts) and the
demo table's die art hook."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from zonkcam.sim.cutouts import (
    CutOut,
    DieKind,
    cut_die,
    die_mask,
    isolated,
    paste_die,
)
from zonkcam.sim.demo_table import DemoTable, DiePose
from zonkcam.train.dataset import load_cutouts

SHARED = Path(__file__).resolve().parents[3] / "shared" / "datasets"


def _photo(body=(40, 40, 200), pips=(250, 250, 250), side=60, seed=0):
    """A die (a square of ``body`` with five dots) on a textured grey-green table."""
    rng = np.random.default_rng(seed)
    img = np.clip(rng.normal(0, 18, (200, 200, 3)) + np.array([90, 130, 110]), 0, 255).astype(
        np.uint8
    )
    img = cv2.GaussianBlur(img, (3, 3), 0)
    x0 = y0 = 70
    cv2.rectangle(img, (x0, y0), (x0 + side - 1, y0 + side - 1), body, -1)
    for fx, fy in ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)):
        cv2.circle(img, (int(x0 + fx * side), int(y0 + fy * side)), side // 10, pips, -1)
    return img, (float(x0), float(y0), float(x0 + side), float(y0 + side))


def test_the_mask_covers_the_die_and_not_the_table():
    img, box = _photo()
    found = die_mask(img, box)
    assert found is not None
    mask, (wx0, wy0, wx1, wy1) = found
    full = np.zeros(img.shape[:2], np.uint8)
    full[int(wy0) : int(wy1), int(wx0) : int(wx1)] = mask
    die = np.zeros_like(full)
    x0, y0, x1, y1 = (int(v) for v in box)
    die[y0:y1, x0:x1] = 1
    assert (full & die).sum() / die.sum() > 0.93  # the pips are die too
    assert (full & (1 - die)).sum() / die.sum() < 0.06


def test_a_loose_box_is_peeled_down_to_the_die():
    img, (x0, y0, x1, y1) = _photo()
    found = die_mask(img, (x0 - 8, y0 - 8, x1 + 8, y1 + 8))
    assert found is not None
    mask = found[0]
    area = float(mask.sum())
    assert 0.9 * 60 * 60 < area < 1.12 * 60 * 60


def test_no_die_in_the_box_gives_no_cut_out():
    rng = np.random.default_rng(3)
    table = np.clip(rng.normal(0, 18, (200, 200, 3)) + 120, 0, 255).astype(np.uint8)
    assert cut_die(table, (70.0, 70.0, 130.0, 130.0)) is None


def test_dice_whose_boxes_touch_are_left_out():
    boxes = [(0, 0, 10, 10), (11, 0, 20, 10), (50, 50, 60, 60), (55, 58, 70, 70)]
    assert isolated(boxes) == [False, False, False, False]
    assert isolated([(0, 0, 10, 10), (20, 0, 30, 10)]) == [True, True]


@pytest.mark.parametrize(
    ("body", "pips", "kind"),
    [
        ((235, 235, 235), (20, 20, 20), DieKind("white", False, False)),
        ((25, 25, 25), (240, 240, 240), DieKind("black", True, True)),
        ((30, 30, 190), (245, 245, 245), DieKind("red", True, True)),
        ((60, 200, 240), (30, 30, 30), DieKind("amber", False, False)),
        ((160, 60, 30), (245, 245, 245), DieKind("blue-green", True, True)),
    ],
)
def test_the_kind_names_body_and_pips(body, pips, kind):
    img, box = _photo(body, pips)
    cut = cut_die(img, box)
    assert cut is not None
    assert cut[2] == kind
    assert np.allclose(cut[3], body, atol=25)


def test_a_die_art_draws_each_die_where_the_truth_says():
    """DemoTable(die_art=...) draws the dice with the art; the frame's truth boxes are the
    boxes the art returned, and the pixels are there."""

    class Squares:
        def __init__(self):
            self.poses: list[DiePose] = []

        def draw(self, image, pose):
            self.poses.append(pose)
            cx, cy = pose.centre_px
            h = pose.side_px / 2
            box = (cx - h, cy - h, cx + h, cy + h)
            cv2.rectangle(
                image, (int(cx - h), int(cy - h)), (int(cx + h), int(cy + h)), (255, 0, 255), -1
            )
            return box

    art = Squares()
    table = DemoTable(seed=1, autoplay=False, die_art=art, size=(640, 480))
    table.read()
    table.throw([2, 5], colours=["a", "b"])
    while table.busy:
        frame = table.read()
    assert [d.color for d in frame.truth.dice] == ["a", "b"]
    assert len(frame.truth.boxes) == 2
    for (x0, y0, x1, y1), d in zip(frame.truth.boxes, frame.truth.dice, strict=True):
        assert 8 < x1 - x0 < 40  # a 16 mm die on a 640 px frame
        patch = frame.image[int(y0) + 3 : int(y1) - 3, int(x0) + 3 : int(x1) - 3].astype(int)
        magenta = (patch[..., 0] > 180) & (patch[..., 1] < 90) & (patch[..., 2] > 180)
        assert magenta.mean() > 0.8
        mx, my = table.mat_to_image([[d.x_mm, d.y_mm]])[0]  # the plain look: no lens bending
        assert abs((x0 + x1) / 2 - mx) < 6 and abs((y0 + y1) / 2 - my) < 8
    assert not art.poses[-1].moving
    assert art.poses[0].moving  # tumbling in


def test_a_pasted_cut_out_lands_where_its_box_says():
    img, box = _photo()
    pic, alpha, kind, bgr = cut_die(img, box)
    cut = CutOut(pic, alpha, 5, "test", "test:1", "p.jpg", 0, kind, bgr)
    frame = np.full((300, 400, 3), 128, np.uint8)
    x0, y0, x1, y1 = paste_die(frame, cut, (200.0, 150.0), 40.0, yaw_deg=30, shadow=(6.0, 4.0))
    assert 38 < x1 - x0 < 62 and 38 < y1 - y0 < 62  # a 40 px die turned by 30 degrees
    assert abs((x0 + x1) / 2 - 200) < 2 and abs((y0 + y1) / 2 - 150) < 2
    red = (frame[..., 2] > 150) & (frame[..., 0] < 90)
    assert 0.6 * 40 * 40 < red.sum() < 1.05 * 40 * 40
    assert frame[150 + 24, 200 + 24].mean() < 120  # the contact shadow, away from the light
    assert frame[150 - 28, 200 - 28].mean() > 125


@pytest.mark.shared
@pytest.mark.skipif(
    not (SHARED / "real-dice-dev" / "labels.jsonl").is_file(), reason="no ../shared datasets"
)
def test_real_photos_give_cut_outs_of_every_source():
    cuts = load_cutouts([SHARED / "real-dice-dev"], 12, np.random.default_rng(0))
    assert {c.source for c in cuts} == {"epanemu", "matteop65"}
    for c in cuts:
        assert 1 <= c.value <= 6
        assert c.image.shape[:2] == c.alpha.shape
        assert 0.45 < c.alpha.mean() <= 1.0
