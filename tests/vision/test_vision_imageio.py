"""Decoding image files for the CLI: bad files give a reason, not a crash."""

import struct

import cv2
import numpy as np
import pytest

from zonkcam.vision import ImageFileError, load_image
from zonkcam.vision.imageio import image_size, jpeg_size, load_image_scaled


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
    """Files of every format at about the largest size read, and hostile ones past it or
    lying about their size (tests/tools/decode_memory.py, each in a fresh process that has
    loaded the dice models): every whole process's peak within MAX_PROCESS_BYTES, the
    hostile ones refused."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    from zonkcam.vision.imageio import MAX_PROCESS_BYTES

    script = Path(__file__).parents[1] / "tools" / "decode_memory.py"
    proc = subprocess.run(
        [sys.executable, str(script), "--json"], capture_output=True, text=True, timeout=900
    )
    assert proc.returncode == 0, proc.stderr
    rows = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(rows) == 18
    for row in rows:
        assert row["mb_peak"] <= MAX_PROCESS_BYTES / 2**20, row
        assert row["answer"].startswith(("read", "refused")), row
        honest = row["file"].split()[0] in ("PNG", "16-bit", "TIFF", "WebP", "BMP")
        if honest and "said" not in row["file"]:
            wanted = "refused" if "past the limit" in row["file"] else "read"
            assert row["answer"].startswith(wanted), row
        elif "said to be 16x16" in row["file"]:  # never read at the size the lie gives
            assert "read 16x16" not in row["answer"], row
        elif "said" in row["file"] or "12000x12000 frames" in row["file"]:
            assert row["answer"].startswith("refused"), row


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


# -- headers that lie to zonkcam's reading of them, not to the decoder ----------------------


def test_opencvs_own_pixel_limit_is_zonkcams_and_set_before_cv2_is_imported():
    """A fresh process that imports zonkcam first: OpenCV itself refuses a decode of more
    pixels than zonkcam.MAX_DECODE_PIXELS, on the header its decoder reads."""
    import subprocess
    import sys

    import zonkcam
    from zonkcam.vision import imageio

    assert imageio.MAX_DECODE_PIXELS == zonkcam.MAX_DECODE_PIXELS
    child = (
        "import zonkcam.cli, cv2, numpy as np, struct, zlib, sys\n"
        "w, h = 5000, zonkcam.MAX_DECODE_PIXELS // 5000 + 1\n"
        "def chunk(t, d): return struct.pack('>I', len(d)) + t + d + "
        "struct.pack('>I', zlib.crc32(t + d))\n"
        "ihdr = struct.pack('>IIBBBBB', w, h, 8, 0, 0, 0, 0)\n"
        "png = b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', ihdr)"
        " + chunk(b'IDAT', zlib.compress(b'\\x00' * (w + 1) * 4)) + chunk(b'IEND', b'')\n"
        "try:\n"
        "    cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_GRAYSCALE)\n"
        "except cv2.error as exc:\n"
        "    print('refused' if 'CV_IO_MAX_IMAGE_PIXELS' in str(exc) else exc)\n"
        "else:\n"
        "    print('decoded')\n"
    )
    proc = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=60)
    assert proc.stdout.strip() == "refused", proc.stdout + proc.stderr


def _jpeg_with_a_fake_frame_header(real: bytes) -> bytes:
    """`real` with a 16x16 frame header in an APP1 segment that the decoder skips, and a
    segment walk lands on (the bytes FF 00 are skipped by libjpeg, read as a marker with
    a length by a walk)."""
    fake_sof = b"\xff\xc0\x00\x11\x08" + struct.pack(">HH", 16, 16) + b"\x03" + b"\x01\x11\x00" * 3
    app1 = b"\xff\xe1" + struct.pack(">H", 2 + len(fake_sof)) + fake_sof
    return real[:2] + b"\xff\x00\x00\x06" + app1 + real[2:]


def test_a_fake_small_jpeg_frame_header_does_not_stand_for_the_real_one(tmp_path):
    img = np.random.default_rng(2).integers(0, 255, (480, 640, 3), dtype=np.uint8)
    crafted = _jpeg_with_a_fake_frame_header(cv2.imencode(".jpg", img)[1].tobytes())
    decoded = cv2.imdecode(np.frombuffer(crafted, np.uint8), cv2.IMREAD_COLOR)
    assert decoded.shape == (480, 640, 3)  # the decoder reads the real frame header
    assert image_size(crafted) == ("JPEG", 640, 480)
    path = tmp_path / "fake.jpg"
    path.write_bytes(crafted)
    small, factor = load_image_scaled(path, max_pixels=100_000)
    assert factor == 2 and small.shape == (240, 320, 3)


def _tiff_with_sizes(image: np.ndarray, sizes: list[tuple[int, int]]) -> bytes:
    """A TIFF of `image` whose directory gives width and height once per (w, h) in
    `sizes`, in that order (libtiff keeps the first of a tag given twice)."""
    data = bytearray(cv2.imencode(".tif", image)[1].tobytes())
    (ifd,) = struct.unpack("<I", data[4:8])
    (count,) = struct.unpack("<H", data[ifd : ifd + 2])
    entries = [bytes(data[ifd + 2 + 12 * k : ifd + 14 + 12 * k]) for k in range(count)]
    size_tags = []
    for w, h in sizes:
        size_tags += [struct.pack("<HHII", 256, 4, 1, w), struct.pack("<HHII", 257, 4, 1, h)]
    kept = [e for e in entries if struct.unpack("<H", e[:2])[0] not in (256, 257)]
    new = sorted(kept + size_tags, key=lambda e: struct.unpack("<H", e[:2])[0])
    at = len(data)
    data += struct.pack("<H", len(new)) + b"".join(new) + b"\x00\x00\x00\x00"
    data[4:8] = struct.pack("<I", at)
    return bytes(data)


def test_a_tiff_that_gives_its_size_twice_counts_the_larger(tmp_path):
    img = np.random.default_rng(3).integers(0, 255, (200, 300, 3), dtype=np.uint8)
    honest = _tiff_with_sizes(img, [(300, 200), (16, 16)])
    assert cv2.imdecode(np.frombuffer(honest, np.uint8), cv2.IMREAD_COLOR).shape == (200, 300, 3)
    assert image_size(honest) == ("TIFF", 300, 200)
    bomb = tmp_path / "bomb.tif"
    bomb.write_bytes(_tiff_with_sizes(img, [(30000, 30000), (16, 16)]))
    with pytest.raises(ImageFileError, match="a TIFF of 30000x30000 .900 MP. would take about"):
        load_image(bomb)


def test_a_pgm_comment_ends_at_cr_as_opencv_reads_it(tmp_path):
    pgm = b"P5\n# made by hand\r300 200\n255\n" + bytes(range(200)) * 300
    assert cv2.imdecode(np.frombuffer(pgm, np.uint8), cv2.IMREAD_COLOR).shape == (200, 300, 3)
    assert image_size(pgm) == ("PNM", 300, 200)
    bomb = tmp_path / "bomb.pgm"
    bomb.write_bytes(b"P5\n# made by hand\r30000 30000\n255\n" + bytes(1000))
    with pytest.raises(ImageFileError, match="a PNM of 30000x30000 .900 MP. would take about"):
        load_image(bomb)


def test_what_the_process_holds_counts_in_the_budget(tmp_path, monkeypatch):
    from zonkcam.vision import imageio

    img = np.random.default_rng(4).integers(0, 255, (1000, 2000, 3), dtype=np.uint8)
    path = tmp_path / "a.png"
    cv2.imwrite(str(path), img)  # 2 MP: about 12 MB to decode
    assert load_image(path).shape == (1000, 2000, 3)
    monkeypatch.setattr(imageio, "MIN_DECODE_BYTES", 2**20)
    monkeypatch.setattr(imageio, "process_bytes", lambda: imageio.MAX_PROCESS_BYTES - 5 * 2**20)
    with pytest.raises(ImageFileError, match="over the 5 MB left of the 250 MB"):
        load_image(path)
    assert 10 * 2**20 < imageio.process_bytes() < imageio.MAX_PROCESS_BYTES  # /proc/self/statm


def test_a_pipe_is_refused_before_it_is_opened(tmp_path):
    import os
    import threading
    import time

    fifo = tmp_path / "photo.jpg"
    os.mkfifo(fifo)
    opened = threading.Event()
    # a writer that would block until a reader opens the pipe: it must never get one
    t = threading.Thread(target=lambda: (os.open(fifo, os.O_WRONLY), opened.set()), daemon=True)
    t.start()
    time.sleep(0.2)  # the writer waits in open() for a reader
    with pytest.raises(ImageFileError, match="not a regular file"):
        load_image(fifo)
    assert not opened.wait(0.3)
    link = tmp_path / "link.jpg"
    link.symlink_to("/dev/zero")
    with pytest.raises(ImageFileError, match="not a regular file"):
        load_image(link)
    os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # lets the writer thread go
