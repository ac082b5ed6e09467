"""Decode image files for the CLI (the reader itself never touches files)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np


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

_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def jpeg_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from a JPEG's frame header, or None."""
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
            return w, h
        i += 2 + int.from_bytes(data[i + 2 : i + 4], "big")
    return None


def load_image_scaled(path: str | Path, max_pixels: int = MAX_PIXELS) -> tuple[np.ndarray, int]:
    """Like `load_image`, but a JPEG over `max_pixels` comes back at 1/f of its size;
    returns (image, f): multiply boxes by f to get the file's pixels."""
    data = _read(path)
    size = jpeg_size(data) if data[:3] == b"\xff\xd8\xff" else None
    factor = 1
    if size is not None:
        while factor < 8 and size[0] * size[1] / factor**2 > max_pixels:
            factor *= 2
    flags = {
        1: cv2.IMREAD_COLOR,
        2: cv2.IMREAD_REDUCED_COLOR_2,
        4: cv2.IMREAD_REDUCED_COLOR_4,
        8: cv2.IMREAD_REDUCED_COLOR_8,
    }[factor]
    img = cv2.imdecode(np.frombuffer(data, np.uint8), flags)
    if img is None or img.size == 0:
        raise ImageFileError("not an image OpenCV can decode")
    return img, factor


def load_image(path: str | Path) -> np.ndarray:
    """A file -> BGR uint8 image (EXIF orientation applied; 16-bit and grey converted)."""
    data = _read(path)
    img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if img is None or img.size == 0:
        raise ImageFileError("not an image OpenCV can decode")
    return img


def _read(path: str | Path) -> bytes:
    p = Path(path)
    if not p.exists():
        raise ImageFileError("no such file")
    if p.is_dir():
        raise ImageFileError("is a directory")
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise ImageFileError(f"cannot read: {exc.strerror or exc}") from exc
    if not data:
        raise ImageFileError("empty file")
    if _truncated(data):
        raise ImageFileError("truncated image file")
    return data
