"""Photo distortions for `zonkcam eval --distort`."""

from __future__ import annotations

import numpy as np
import pytest

from zonkcam.train.distort import DISTORTIONS, Distortion, distort, parse_distortion


def test_names_defaults_and_strengths_parse() -> None:
    assert parse_distortion("blur") == Distortion("blur", 1.5)
    assert parse_distortion("blur=2.5") == Distortion("blur", 2.5)
    assert parse_distortion("rot90") == Distortion("rot90")
    assert str(parse_distortion("jpeg=40")) == "jpeg=40" and str(Distortion("grey")) == "grey"
    assert all(parse_distortion(name).name == name for name in DISTORTIONS)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("fog", "unknown distortion 'fog'"),
        ("blur=soft", "must be a number"),
        ("blur=0", "out of range"),
        ("jpeg=400", "out of range"),
        ("grey=1", "takes no strength"),
    ],
)
def test_a_wrong_distortion_says_what_is_wrong(text: str, says: str) -> None:
    with pytest.raises(ValueError, match=says):
        parse_distortion(text)


def _square() -> tuple[np.ndarray, tuple[float, float, float, float]]:
    """A 90 x 60 grey image with a white 10 x 20 block at x 20-30, y 5-25."""
    img = np.full((60, 90, 3), 100, np.uint8)
    img[5:25, 20:30] = 255
    return img, (20.0, 5.0, 30.0, 25.0)


def _white_box(img: np.ndarray) -> tuple[int, int, int, int]:
    ys, xs = np.nonzero(img[..., 0] > 200)
    return xs.min(), ys.min(), xs.max() + 1, ys.max() + 1


@pytest.mark.parametrize(
    ("how", "size"), [("rot90", (60, 90)), ("rot270", (60, 90)), ("scale=2", (180, 120))]
)
def test_the_truth_boxes_move_with_the_image(how: str, size: tuple[int, int]) -> None:
    img, box = _square()
    out, (moved,) = distort(img, [box], parse_distortion(how))
    assert (out.shape[1], out.shape[0]) == size
    assert np.allclose(_white_box(out), moved, atol=1)


def test_the_pixels_change_the_way_each_name_says() -> None:
    img = np.random.default_rng(0).integers(30, 220, (40, 40, 3)).astype(np.uint8)

    def run(how: str) -> np.ndarray:
        out, boxes = distort(img, [(1, 2, 3, 4)], parse_distortion(how))
        assert out.dtype == np.uint8 and out.shape == img.shape and boxes == [(1, 2, 3, 4)]
        return out.astype(np.float32)

    f = img.astype(np.float32)
    assert run("dark").mean() < f.mean() < run("bright").mean()
    warm, cool = run("warm"), run("cool")
    assert warm[..., 2].mean() > f[..., 2].mean() and warm[..., 0].mean() < f[..., 0].mean()
    assert cool[..., 0].mean() > f[..., 0].mean() and cool[..., 2].mean() < f[..., 2].mean()
    grey = run("grey")
    assert np.array_equal(grey[..., 0], grey[..., 1]) and np.array_equal(grey[..., 1], grey[..., 2])
    assert np.abs(np.diff(run("blur"), axis=1)).mean() < np.abs(np.diff(f, axis=1)).mean() / 2
    assert 0 < np.abs(run("jpeg=10") - f).mean()
