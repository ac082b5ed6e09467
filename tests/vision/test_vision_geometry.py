"""Boxes and die distances (zonkcam.vision.geometry): IoU and "inside" over batches, the
die at a box, and the reader's suppression built on them."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zonkcam.vision import geometry
from zonkcam.vision.geometry import (
    box_inside_batch,
    box_iou,
    box_iou_batch,
    centre,
    die_at_box,
    side,
)
from zonkcam.vision.reader import nms

SETTINGS = settings(max_examples=150, deadline=None)


@st.composite
def boxes(draw, n_min=0, n_max=6):
    """An (N, 4) batch of boxes with sides of 1 px or more, on a 200 px picture."""
    n = draw(st.integers(n_min, n_max))
    out = []
    for _ in range(n):
        x0 = draw(st.floats(0, 200, allow_nan=False, width=32))
        y0 = draw(st.floats(0, 200, allow_nan=False, width=32))
        w = draw(st.floats(1, 80, allow_nan=False, width=32))
        h = draw(st.floats(1, 80, allow_nan=False, width=32))
        out.append((x0, y0, x0 + w, y0 + h))
    return np.array(out, np.float64).reshape(-1, 4)


def plain_iou(a, b):
    """IoU of two boxes, pair by pair, as a textbook writes it."""
    iw = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    ih = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = iw * ih
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union


@SETTINGS
@given(boxes(), boxes())
def test_iou_is_symmetric_and_matches_a_plain_loop(a, b):
    got = box_iou_batch(a, b)
    assert got.shape == (len(a), len(b))
    np.testing.assert_array_equal(got, box_iou_batch(b, a).T)
    for i in range(len(a)):
        for j in range(len(b)):
            assert got[i, j] == pytest.approx(plain_iou(a[i], b[j]), rel=1e-12, abs=1e-15)
            assert box_iou(a[i], b[j]) == got[i, j]
    assert ((got >= 0) & (got <= 1 + 1e-12)).all()


@SETTINGS
@given(boxes(n_min=1))
def test_a_box_overlaps_itself_whole(a):
    assert (np.diag(box_iou_batch(a, a)) == 1.0).all()
    assert (np.diag(box_inside_batch(a, a)) == 1.0).all()


@SETTINGS
@given(boxes(n_min=1, n_max=1), st.floats(0, 50), st.floats(0, 50))
def test_boxes_apart_overlap_by_nothing(a, gap_x, gap_y):
    box = a[0]
    beyond = box + np.array([box[2] - box[0] + gap_x, 0, box[2] - box[0] + gap_x, 0])
    below = box + np.array([0, box[3] - box[1] + gap_y, 0, box[3] - box[1] + gap_y])
    assert box_iou_batch(a, np.stack([beyond, below])).tolist() == [[0.0, 0.0]]
    assert box_inside_batch(a, np.stack([beyond, below])).tolist() == [[0.0, 0.0]]


@SETTINGS
@given(boxes(n_min=1, n_max=1), st.floats(0, 1), st.floats(0, 1), st.floats(0.05, 1))
def test_a_box_held_whole_by_another_lies_inside_it(a, fx, fy, share):
    """Inside: the share of the smaller box in the other, 1 where it is whole in it,
    however small its IoU; the same either way round."""
    x0, y0, x1, y1 = a[0]
    w, h = (x1 - x0) * share, (y1 - y0) * share
    ix0, iy0 = x0 + fx * (x1 - x0 - w), y0 + fy * (y1 - y0 - h)
    inner = np.array([[ix0, iy0, ix0 + w, iy0 + h]])
    assert box_inside_batch(inner, a)[0, 0] == pytest.approx(1.0, rel=1e-9)
    assert box_inside_batch(a, inner)[0, 0] == box_inside_batch(inner, a)[0, 0]
    assert box_iou_batch(inner, a)[0, 0] == pytest.approx(share * share, rel=1e-6)


def test_empty_batches_give_empty_matrices():
    some = np.array([[0, 0, 10, 10]], np.float32)
    assert box_iou_batch(np.zeros((0, 4)), some).shape == (0, 1)
    assert box_iou_batch(some, []).shape == (1, 0)
    assert box_inside_batch([], []).shape == (0, 0)


def test_the_batch_keeps_the_boxes_dtype():
    """The reader's boxes are float32: its figures stay float32, as before."""
    a = np.array([[0, 0, 10, 10], [5, 5, 15, 15]], np.float32)
    assert box_iou_batch(a, a).dtype == np.float32
    assert box_iou_batch(a, a)[0, 1] == pytest.approx(25 / 175)


def test_the_die_at_a_box_is_the_first_within_half_its_side_each_way():
    box = (100.0, 100.0, 120.0, 110.0)  # side 20: within 10 px of its centre each way
    assert centre(box) == (110.0, 105.0) and side(box) == 20.0
    far = (131.0, 100.0, 151.0, 110.0)  # centre 31 px across
    near = (109.0, 104.0, 129.0, 124.0)  # 9 across, 9 down
    edge = (90.0, 90.0, 110.0, 110.0)  # 10 across, 5 up: just in
    assert die_at_box([far, near, edge], box) == 1
    assert die_at_box([far, edge], box) == 1
    assert die_at_box([far], box) is None
    assert die_at_box([], box) is None
    assert die_at_box([far, near], box, reach=5.0) is None  # a reach given (the die's side)
    assert die_at_box([far, near], box, reach=31.0) == 0


def test_every_die_distance_is_under_one_die():
    """Two dice lying flat lie a whole die apart, centre to centre: a distance at which two
    sightings are one die must be under one die, or two dice side by side become one."""
    named = [
        geometry.SAME_SPOT,
        geometry.SAME_DIE,
        geometry.STILL_THERE,
        geometry.SAME_PIECE,
        geometry.LATE_READ,
    ]
    assert all(0 < d < 1 for d in named)
    assert len(set(named)) == len(named)  # each question its own figure, named once


def plain_nms(boxes, scores, iou, inside):
    """Greedy suppression, pair by pair: best score first, a box goes when it overlaps one
    kept by more than `iou`, or more than `inside` of the smaller lies in the other."""
    order = sorted(range(len(boxes)), key=lambda i: -scores[i])
    kept = []
    for i in order:
        a = boxes[i]
        clash = False
        for j in kept:
            b = boxes[j]
            iw = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
            ih = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
            smaller = min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))
            if plain_iou(a, b) > iou or (inside > 0 and iw * ih / smaller > inside):
                clash = True
        if not clash:
            kept.append(i)
    return kept


@SETTINGS
@given(boxes(n_max=8), st.sampled_from([(0.5, 0.0), (0.35, 0.6), (0.2, 0.3)]), st.data())
def test_the_readers_suppression_keeps_what_a_plain_loop_keeps(b, limits, data):
    scores = np.array(
        data.draw(st.lists(st.floats(0, 1), min_size=len(b), max_size=len(b), unique=True))
    )
    iou, inside = limits
    assert nms(b, scores, iou, inside).tolist() == plain_nms(b, scores, iou, inside)
