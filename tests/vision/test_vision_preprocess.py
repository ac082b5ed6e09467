"""Die crops and the detector's letterbox: the value net must see the same crop whatever
the die's size and wherever it lies."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from zonkcam.vision.preprocess import CROP_MARGIN, CROP_SIZE, PAD_VALUE, crop_die, letterbox


def _checkerboard(size: int, cells: int) -> np.ndarray:
    """A BGR image of `cells` x `cells` squares (black/white) with a red square in the
    top-left cell, so that flips and shifts show."""
    yy, xx = np.mgrid[0:size, 0:size] * cells // size
    img = np.where(((yy + xx) % 2 == 0)[..., None], 255, 0).astype(np.uint8).repeat(3, axis=2)
    img[: size // cells, : size // cells] = (0, 0, 255)
    return img


@pytest.mark.parametrize("side", [50, 100, 150, 300, 700])  # side * CROP_MARGIN whole
def test_a_die_of_any_size_gives_the_same_crop(side: int) -> None:
    # the same pattern drawn at `side` px, cropped, must match the pattern scaled down
    # to the crop's size by area averaging, whichever path crop_die takes (direct
    # bilinear, or a whole-factor area shrink first for dice over 2x the crop)
    margin = round(side * CROP_MARGIN)
    full = side + 2 * margin
    pattern = _checkerboard(full, 4)
    canvas = np.full((full + 200, full + 260, 3), 90, np.uint8)
    canvas[100 : 100 + full, 130 : 130 + full] = pattern
    box = (130 + margin, 100 + margin, 130 + margin + side, 100 + margin + side)
    crop = crop_die(canvas, box)
    assert crop.shape == (CROP_SIZE, CROP_SIZE, 3) and crop.dtype == np.uint8
    ref = cv2.resize(pattern, (CROP_SIZE, CROP_SIZE), interpolation=cv2.INTER_AREA)
    diff = np.abs(crop.astype(np.int16) - ref.astype(np.int16))
    # edges between cells blur a little differently; the bulk must agree
    assert np.median(diff) <= 2
    assert (diff > 60).mean() < 0.08
    assert tuple(int(v) for v in crop[4, 4]) == pytest.approx((0, 0, 255), abs=30)


def test_a_box_hanging_off_the_image_is_padded_not_an_error() -> None:
    img = np.full((200, 300, 3), 200, np.uint8)
    crop = crop_die(img, (-250.0, -250.0, 10.0, 10.0))
    assert crop.shape == (CROP_SIZE, CROP_SIZE, 3)
    gone = crop_die(img, (400.0, 400.0, 900.0, 900.0))
    assert (gone == PAD_VALUE).all()


def test_letterbox_keeps_the_aspect_and_pads_to_multiples_of_32() -> None:
    img = np.zeros((960, 1280, 3), np.uint8)
    out, scale = letterbox(img, 320)
    assert scale == 0.25
    assert out.shape == (256, 320, 3)
    assert (out[240:] == PAD_VALUE).all() and (out[:240] == 0).all()


@pytest.mark.parametrize(
    ("shape", "whole"),
    [((960, 1280), True), ((1920, 2560), True), ((1296, 2304), False), ((3000, 4000), False)],
)
def test_letterbox_scaling_matches_one_area_resize(shape: tuple[int, int], whole: bool) -> None:
    # the fast path (halving first) must give the detector the picture one area resize
    # would (the models were trained on that): to rounding at whole factors, and
    # closely at others, even on a texture much busier than a table
    rng = np.random.default_rng(shape[0])
    img = cv2.GaussianBlur(rng.integers(0, 256, (*shape, 3), dtype=np.uint8), (0, 0), 2)
    out, scale = letterbox(img, 320)
    nh, nw = round(shape[0] * scale), round(shape[1] * scale)
    ref = cv2.resize(img, (nw, nh), interpolation=cv2.INTER_AREA).astype(int)
    diff = np.abs(out[:nh, :nw].astype(int) - ref)
    if whole:
        assert diff.max() <= 1
    else:
        assert diff.mean() < 1.5 and np.percentile(diff, 99) <= 5


@pytest.mark.parametrize("side", [150, 220, 300, 450, 700])
def test_a_big_die_is_averaged_not_aliased(side: int) -> None:
    # pixel noise on a big die (JPEG noise, salt and pepper, fine texture) must be
    # averaged away, not sampled into false spots: bilinear sampling alone leaves a
    # standard deviation of about 50 here, area averaging 4-25
    rng = np.random.default_rng(side)
    img = rng.integers(0, 256, (side + 100, side + 100, 1), dtype=np.uint8).repeat(3, axis=2)
    crop = crop_die(img, (50.0, 50.0, 50.0 + side, 50.0 + side)).astype(np.float32)
    assert abs(float(crop.mean()) - 127.5) < 6
    assert float(crop.std()) < 30
