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


def load_image(path: str | Path) -> np.ndarray:
    """A file -> BGR uint8 image (EXIF orientation applied; 16-bit and grey converted)."""
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
    img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if img is None or img.size == 0:
        raise ImageFileError("not an image OpenCV can decode")
    return img
