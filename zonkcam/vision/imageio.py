"""Decode image files for the CLI (the reader itself never touches files).

Every file is sized from its header before it is decoded, so no file, whatever its
format, can make the decoder take more than ``MAX_DECODE_BYTES``: JPEGs over
``MAX_PIXELS`` are decoded at 1/2, 1/4 or 1/8 size, anything whose decode would still
take more (a progressive JPEG holds all its coefficients at full size, whatever the
scale), and formats whose size is not read here, is refused.
"""

from __future__ import annotations

import errno
import os
import struct
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import cv2
import numpy as np

from zonkcam.fileio import open_to_read
from zonkcam.vision import opencv


class ImageFileError(Exception):
    """A file that cannot be read as a whole image; the message says why."""


def _truncated(data: bytes) -> bool:
    if data[:3] == b"\xff\xd8\xff":  # JPEG: must end with EOI (allow trailing padding)
        return b"\xff\xd9" not in data[-4096:]
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return b"IEND" not in data[-64:]
    return False


MAX_PIXELS = 24_000_000
"""JPEGs larger than this are decoded at 1/2, 1/4 or 1/8 size (libjpeg's own scaling),
so that a 48 MP photo does not cost 150 MB+ of memory; dice stay far above pip size."""

MAX_DECODE_BYTES = 250 * 2**20
"""The most memory one decode may take, as estimated from the header before anything is
decoded (decode_cost): a larger PNG, TIFF, ... is refused, and a JPEG is decoded smaller
or refused."""

BYTES_PER_PIXEL = 6.25
"""What a decode takes per pixel it puts out (the BGR image and OpenCV's own copy of it;
WebP one more), measured with `python scripts/decode_memory.py`."""

MAX_DECODE_PIXELS = 40_000_000
"""The most pixels decoded at all (238 MB at BYTES_PER_PIXEL)."""

MAX_FILE_BYTES = 128 * 2**20
"""The largest image file read (its bytes count towards MAX_DECODE_BYTES too)."""

FORMATS = "JPEG, PNG, BMP, WebP, GIF, TIFF or PNM (PPM/PGM/PBM)"

_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}
_PROGRESSIVE = {0xC2, 0xC6, 0xCA, 0xCE}


def jpeg_frame(data: bytes) -> tuple[int, int, float] | None:
    """(width, height, coefficients) from a JPEG's frame header, or None: coefficients
    is how many DCT coefficients per pixel a progressive JPEG's decoder holds for the
    whole image at once, whatever the scale it is decoded at (1 per component sample:
    3 for 4:4:4 colour, 1.5 for 4:2:0, 1 for grey; 0 for a baseline JPEG, decoded a few
    rows at a time)."""
    i = 2
    while i + 9 < len(data):
        if data[i] != 0xFF:
            i += 1
            continue
        marker = data[i + 1]
        if marker == 0xFF:
            i += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            i += 2
            continue
        if marker in _SOF:
            h = int.from_bytes(data[i + 5 : i + 7], "big")
            w = int.from_bytes(data[i + 7 : i + 9], "big")
            if marker not in _PROGRESSIVE:
                return w, h, 0.0
            n = data[i + 9]
            factors = [(b >> 4, b & 15) for b in data[i + 11 : i + 11 + 3 * n : 3]]
            hmax = max((f[0] for f in factors), default=1) or 1
            vmax = max((f[1] for f in factors), default=1) or 1
            samples = sum(max(fh, 1) * max(fv, 1) for fh, fv in factors) / (hmax * vmax)
            return w, h, max(samples, 1.0)
        i += 2 + int.from_bytes(data[i + 2 : i + 4], "big")
    return None


def jpeg_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from a JPEG's frame header, or None."""
    frame = jpeg_frame(data)
    return frame[:2] if frame else None


def decode_cost(kind: str, w: int, h: int, factor: int = 1, coefficients: float = 0.0) -> float:
    """Bytes a decode of a `kind` image of w x h at 1/`factor` takes (estimated): the
    image put out, and a progressive JPEG's coefficients (2 bytes each) at full size."""
    per_pixel = BYTES_PER_PIXEL + (kind == "WebP")
    return per_pixel * w * h / factor**2 + 2 * coefficients * w * h


def image_size(data: bytes) -> tuple[str, int, int] | None:
    """(format, width, height) from the header of a file in one of ``FORMATS``; None for
    any other file, or a header too short to say."""
    try:
        if data[:3] == b"\xff\xd8\xff":
            size = jpeg_size(data)
            return ("JPEG", *size) if size else None
        if data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR":
            return ("PNG", *struct.unpack(">II", data[16:24]))
        if data[:2] == b"BM":
            header = struct.unpack("<I", data[14:18])[0]
            if header == 12:  # OS/2 bitmap
                return ("BMP", *struct.unpack("<HH", data[18:22]))
            w, h = struct.unpack("<ii", data[18:26])
            return ("BMP", abs(w), abs(h))
        if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
            return _webp_size(data)
        if data[:6] in (b"GIF87a", b"GIF89a"):
            return ("GIF", *struct.unpack("<HH", data[6:10]))
        if data[:4] in (b"II*\x00", b"MM\x00*"):
            return _tiff_size(data)
        if data[:1] == b"P" and data[1:2] in b"123456" and data[1:2]:
            return _pnm_size(data)
    except struct.error:
        return None
    return None


def _webp_size(data: bytes) -> tuple[str, int, int] | None:
    chunk = data[12:16]
    if chunk == b"VP8 " and data[23:26] == b"\x9d\x01\x2a":
        w, h = struct.unpack("<HH", data[26:30])
        return "WebP", w & 0x3FFF, h & 0x3FFF
    if chunk == b"VP8L" and data[20:21] == b"\x2f":
        bits = int.from_bytes(data[21:25], "little")
        return "WebP", (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8X":
        w = int.from_bytes(data[24:27], "little") + 1
        h = int.from_bytes(data[27:30], "little") + 1
        return "WebP", w, h
    return None


def _tiff_size(data: bytes) -> tuple[str, int, int] | None:
    order = "<" if data[:2] == b"II" else ">"
    (ifd,) = struct.unpack(order + "I", data[4:8])
    (count,) = struct.unpack(order + "H", data[ifd : ifd + 2])
    size: dict[int, int] = {}
    for k in range(min(count, 1000)):
        entry = data[ifd + 2 + 12 * k : ifd + 14 + 12 * k]
        tag, kind = struct.unpack(order + "HH", entry[:4])
        if tag in (256, 257):
            fmt = order + ("H" if kind == 3 else "I")
            size[tag] = struct.unpack(fmt, entry[8 : 8 + struct.calcsize(fmt)])[0]
    if 256 in size and 257 in size:
        return "TIFF", size[256], size[257]
    return None


def _pnm_size(data: bytes) -> tuple[str, int, int] | None:
    numbers: list[int] = []
    for line in data[2:1024].split(b"\n"):
        for word in line.split(b"#", 1)[0].split():
            if not word.isdigit() or len(word) > 9:
                return None
            numbers.append(int(word))
            if len(numbers) == 2:
                return "PNM", numbers[0], numbers[1]
    return None


def _decode_factor(data: bytes, max_pixels: int) -> int:
    """The reduction (1, 2, 4 or 8) this file is decoded at; ImageFileError for a file
    that is not one of ``FORMATS`` or is too large to decode within MAX_DECODE_BYTES."""
    found = image_size(data)
    if found is None:
        raise ImageFileError(f"not an image zonkcam reads (a {FORMATS} file)")
    kind, w, h = found
    frame = jpeg_frame(data) if kind == "JPEG" else None
    coefficients = frame[2] if frame else 0.0

    def cost(factor: int) -> float:  # the file's bytes are held while it is decoded
        return len(data) + decode_cost(kind, w, h, factor, coefficients)

    factor = 1
    if kind == "JPEG":
        while factor < 8 and (w * h / factor**2 > max_pixels or cost(factor) > MAX_DECODE_BYTES):
            factor *= 2
    if w * h / factor**2 > MAX_DECODE_PIXELS or cost(factor) > MAX_DECODE_BYTES:
        what = f"a {'progressive ' if coefficients else ''}{kind} of {w}x{h} ({w * h / 1e6:.0f} MP)"
        raise ImageFileError(
            f"{what} would take about {cost(factor) / 2**20:,.0f} MB to read, over the "
            f"{MAX_DECODE_BYTES // 2**20} MB zonkcam allows: save it smaller"
            + (" or as a baseline JPEG" if coefficients else "")
        )
    return factor


def decode_image(data: bytes, max_pixels: int = MAX_DECODE_PIXELS) -> tuple[np.ndarray, int]:
    """Image bytes -> (BGR uint8 image, f): a JPEG over ``max_pixels`` comes back at 1/f of
    its size; ImageFileError for anything that cannot be read."""
    if not data:
        raise ImageFileError("empty file")
    if _truncated(data):
        raise ImageFileError("truncated image file")
    factor = _decode_factor(data, max_pixels)
    flags = {
        1: cv2.IMREAD_COLOR,
        2: cv2.IMREAD_REDUCED_COLOR_2,
        4: cv2.IMREAD_REDUCED_COLOR_4,
        8: cv2.IMREAD_REDUCED_COLOR_8,
    }[factor]
    with opencv.log_level(opencv.SILENT), _libjpeg_warnings() as warned:  # the reason is ours
        try:
            img = cv2.imdecode(np.frombuffer(data, np.uint8), flags)
        except cv2.error:
            img = None
    if img is None or img.size == 0:
        raise ImageFileError("not an image OpenCV can decode")
    if any(w.startswith(_JPEG_CUT_SHORT) for w in warned):
        # a JPEG cut short, with an end marker after the cut: libjpeg fills the rest grey
        raise ImageFileError("truncated image file (its JPEG data ends early)")
    return img, factor


_JPEG_CUT_SHORT = ("Corrupt JPEG data: premature end of data segment", "Premature end of JPEG file")
"""libjpeg's own warnings for scan data that stops before the image is whole."""


@contextmanager
def _libjpeg_warnings() -> Iterator[list[str]]:
    """The lines libjpeg writes to stderr inside the block (it says there, and only there,
    that a JPEG's data ended early); any other line written meanwhile goes on to stderr.
    Caught in a pipe that never blocks a writer (no file is written)."""
    lines: list[str] = []
    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, ValueError):  # no stderr to borrow
        yield lines
        return
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)  # a full pipe loses words, never hangs a decode
    os.dup2(write_end, 2)
    try:
        yield lines
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(write_end)
        chunks = []
        while chunk := os.read(read_end, 1 << 16):
            chunks.append(chunk)
        os.close(read_end)
        for line in b"".join(chunks).decode("utf-8", "replace").splitlines():
            if line.startswith(("Corrupt JPEG data", "Premature end of JPEG", "Warning")):
                lines.append(line)
            elif line:
                print(line, file=sys.stderr)


def load_image_scaled(path: str | Path, max_pixels: int = MAX_PIXELS) -> tuple[np.ndarray, int]:
    """Like `load_image`, but a JPEG over `max_pixels` comes back at 1/f of its size;
    returns (image, f): multiply boxes by f to get the file's pixels."""
    return decode_image(_read(path), max_pixels)


def load_image(path: str | Path) -> np.ndarray:
    """A file -> BGR uint8 image (EXIF orientation applied; 16-bit and grey converted)."""
    return decode_image(_read(path))[0]


def _read(path: str | Path) -> bytes:
    try:
        with open_to_read(path) as f:
            data = f.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        why = {
            errno.ENOENT: "no such file",
            errno.EISDIR: "is a directory",
            errno.ELOOP: "a loop of symbolic links",
            errno.EACCES: "permission denied",
            errno.ENOTDIR: "no such file (a part of its path is not a folder)",
        }
        raise ImageFileError(why.get(exc.errno, f"cannot read: {exc.strerror or exc}")) from exc
    if len(data) > MAX_FILE_BYTES:
        raise ImageFileError(f"over {MAX_FILE_BYTES // 2**20} MB, too large for a photo")
    return data
