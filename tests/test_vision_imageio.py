"""Decoding image files for the CLI: bad files give a reason, not a crash."""

import cv2
import numpy as np
import pytest

from zonkcam.vision.imageio import ImageFileError, jpeg_size, load_image, load_image_scaled


def _jpeg(tmp_path, name="a.jpg"):
    img = np.random.default_rng(0).integers(0, 255, (60, 80, 3), dtype=np.uint8)
    p = tmp_path / name
    assert cv2.imwrite(str(p), img)
    return p


def _file(path, data):
    path.write_bytes(data)
    return path


@pytest.mark.parametrize(
    ("make", "reason"),
    [
        (lambda d: d / "missing.jpg", "no such file"),
        (lambda d: _file(d / "empty.jpg", b""), "empty"),
        (lambda d: _file(d / "t.jpg", b"hello, not a picture"), "not an image"),
        (lambda d: d, "directory"),
    ],
)
def test_bad_files_say_why(tmp_path, make, reason):
    with pytest.raises(ImageFileError, match=reason):
        load_image(make(tmp_path))


def test_truncated_jpeg(tmp_path):
    p = _jpeg(tmp_path)
    data = p.read_bytes()
    p.write_bytes(data[: len(data) // 2])
    with pytest.raises(ImageFileError, match="truncated"):
        load_image(p)


def test_sixteen_bit_and_grey_pngs_become_bgr8(tmp_path):
    grey16 = np.arange(40 * 50, dtype=np.uint16).reshape(40, 50) * 30
    cv2.imwrite(str(tmp_path / "g16.png"), grey16)
    img = load_image(tmp_path / "g16.png")
    assert img.shape == (40, 50, 3) and img.dtype == np.uint8
    assert img[-1, -1, 0] == (grey16[-1, -1] >> 8)


def test_good_jpeg(tmp_path):
    img = load_image(_jpeg(tmp_path))
    assert img.shape == (60, 80, 3) and img.dtype == np.uint8


def test_huge_jpegs_are_decoded_reduced(tmp_path):
    img = np.random.default_rng(1).integers(0, 255, (600, 800, 3), dtype=np.uint8)
    p = tmp_path / "big.jpg"
    cv2.imwrite(str(p), img)
    assert jpeg_size(p.read_bytes()) == (800, 600)
    small, factor = load_image_scaled(p, max_pixels=100_000)
    assert factor == 4 and small.shape == (150, 200, 3)
    full, factor = load_image_scaled(p)
    assert factor == 1 and full.shape == (600, 800, 3)


@pytest.mark.slow
def test_reading_any_file_stays_within_the_memory_budget():
    """Files of every format at about the largest size read, and hostile ones past it
    (scripts/decode_memory.py, each in a fresh process): every peak within
    MAX_DECODE_BYTES, the hostile ones refused before they cost anything."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    from zonkcam.vision.imageio import MAX_DECODE_BYTES

    script = Path(__file__).parent.parent / "scripts" / "decode_memory.py"
    proc = subprocess.run(
        [sys.executable, str(script), "--json"], capture_output=True, text=True, timeout=600
    )
    assert proc.returncode == 0, proc.stderr
    rows = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(rows) == 14
    for row in rows:
        assert row["mb_peak"] <= MAX_DECODE_BYTES / 2**20, row
        hostile = "said to be" in row["file"] or "12000x12000" in row["file"]
        assert row["answer"].startswith("refused" if hostile else "read"), row
        if hostile:
            assert row["mb_peak"] < 20, row


def test_a_jpeg_cut_short_with_an_end_marker_after_the_cut_is_refused(tmp_path, capfd):
    """libjpeg would fill what is missing with grey (a half-grey photo read as a table)."""
    rng = np.random.default_rng(0)
    image = cv2.resize(rng.integers(0, 255, (30, 40, 3), dtype=np.uint8), (640, 480))
    whole = cv2.imencode(".jpg", image)[1].tobytes()
    cut = tmp_path / "cut.jpg"
    cut.write_bytes(whole[: len(whole) // 2] + b"\xff\xd9")
    with pytest.raises(ImageFileError, match="truncated image file .its JPEG data ends early"):
        load_image(cut)
    ok = tmp_path / "whole.jpg"
    ok.write_bytes(whole)
    assert load_image(ok).shape == (480, 640, 3)
    assert capfd.readouterr().err == ""  # libjpeg's own words stay ours
