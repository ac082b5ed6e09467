"""Matching read dice to truth, as `zonkcam eval` does."""

import pytest

from zonkcam.train.metrics import Tally, flagged, match
from zonkcam.vision.geometry import box_iou as iou


def test_iou():
    assert iou((0, 0, 10, 10), (0, 0, 10, 10)) == 1.0
    assert iou((0, 0, 10, 10), (5, 0, 15, 10)) == pytest.approx(1 / 3)
    assert iou((0, 0, 10, 10), (20, 20, 30, 30)) == 0.0


def test_die_boxes_match_one_to_one_at_iou_03():
    truth = [(3, (0, 0, 10, 10)), (5, (100, 100, 110, 110))]
    pred = [(3, (1, 1, 11, 11)), (3, (0, 0, 10, 10)), (5, (107, 100, 117, 110))]
    s = match(truth, pred)
    # the exact box wins the first die; the second prediction is a duplicate;
    # IoU 3/17 < 0.3 for the last one
    assert s.matches == ((0, 1),)
    assert (s.matched, s.correct, s.n_pred) == (1, 1, 3)
    assert not s.exact and s.errors == 1 + 2


def test_wrong_value_counts_as_matched_but_not_correct():
    s = match([(2, (0, 0, 10, 10))], [(4, (0, 0, 10, 10))])
    assert (s.matched, s.correct, s.exact) == (1, 0, False)


def test_pip_cluster_truth_matches_by_centre_inside_prediction():
    truth = [(1, (48, 48, 52, 52))]  # a single pip
    assert match(truth, [(1, (30, 30, 70, 70))], "pip_cluster").exact
    assert match(truth, [(1, (30, 30, 70, 70))], "die").matched == 0
    assert match(truth, [(1, (55, 30, 95, 70))], "pip_cluster").matched == 0


def test_tally_summary():
    t = Tally()
    t.add(match([(1, (0, 0, 10, 10))], [(1, (0, 0, 10, 10))]), ms=2.0)
    t.add(match([(6, (0, 0, 10, 10)), (2, (50, 50, 60, 60))], [(5, (0, 0, 10, 10))]), ms=4.0)
    s = t.summary()
    assert s["dice"] == 3 and s["images"] == 2
    assert s["end_to_end"] == pytest.approx(1 / 3, abs=1e-3)
    assert s["value_acc_matched"] == 0.5
    assert s["precision"] == 1.0 and s["recall"] == pytest.approx(2 / 3, abs=1e-3)
    assert s["images_exact"] == 0.5
    assert s["ms_median"] == 3.0


def test_flagged_counts_the_unsure_dice_by_how_they_were_read():
    truth = [(1, (0, 0, 10, 10)), (2, (20, 0, 30, 10)), (3, (40, 0, 50, 10))]
    boxes = [(0, 0, 10, 10), (20, 0, 30, 10), (40, 0, 50, 10), (60, 0, 70, 10), (80, 0, 90, 10)]
    values = [1, 5, 3, 4, 6]  # right, misread, right, extra, extra
    score = match(truth, list(zip(values, boxes, strict=True)))
    pred = list(zip(values, [0.5, 0.55, 0.9, 0.3, 0.95], strict=True))
    assert flagged(truth, pred, score, 0.6) == (1, 1, 1)
    assert flagged(truth, pred, score, 0.96) == (2, 1, 2)
    assert flagged(truth, pred, score, 0.0) == (0, 0, 0)
    t = Tally()
    t.add(score, flags=flagged(truth, pred, score, 0.6))
    t.add(score, flags=flagged(truth, pred, score, 0.6))
    s = t.summary()
    assert (s["missed"], s["misread"], s["extra"]) == (0, 2, 4)
    assert (s["right_flagged"], s["misread_flagged"], s["extra_flagged"]) == (2, 2, 2)


def test_a_photo_with_a_silent_error_has_every_die_and_a_sure_wrong_value():
    truth = [(1, (0, 0, 10, 10)), (2, (20, 0, 30, 10))]
    boxes = [(0, 0, 10, 10), (20, 0, 30, 10)]
    t = Tally()
    for values, sure in (
        ([1, 5], [0.9, 0.9]),  # a wrong value nobody is asked about: silent
        ([1, 5], [0.9, 0.5]),  # the wrong die gets a '?'
        ([1, 2], [0.9, 0.9]),  # right
    ):
        pred = list(zip(values, boxes, strict=True))
        score = match(truth, pred)
        t.add(score, flags=flagged(truth, list(zip(values, sure, strict=True)), score, 0.6))
    missing = match(truth, [(5, boxes[1])])  # a die missed: the count tells the table
    t.add(missing, flags=flagged(truth, [(5, 0.9)], missing, 0.6))
    s = t.summary()
    assert s["misread_silent"] == 2  # the first photo's and the photo with a die missed
    assert s["images_silent"] == pytest.approx(1 / 4)
