"""Camera sources behind one small interface (:class:`~zonkcam.sources.base.FrameSource`),
opened by spec: ``auto``, ``pi``, ``usb:N``, ``demo`` (``demo:realistic``), a video file
or a folder of images; and :class:`ResilientSource`, which reopens a failing one from its
spec with backoff.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from zonkcam.errors import UserError
from zonkcam.sources.base import (
    FILE_TRIES,
    BadFrameError,
    CameraError,
    CameraProblem,
    Frame,
    FrameSource,
    ResilientSource,
    SourceBrokenError,
    is_live,
    resilient,
)
from zonkcam.sources.files import ImageFolderSource, VideoSource
from zonkcam.sources.pi import PiCameraSource, picamera2_available

__all__ = [
    "FILE_TRIES",
    "BadFrameError",
    "CameraError",
    "CameraProblem",
    "Frame",
    "FrameSource",
    "ImageFolderSource",
    "PiCameraSource",
    "ResilientSource",
    "SourceBrokenError",
    "VideoSource",
    "is_live",
    "open_source",
    "picamera2_available",
    "resilient",
]


def open_source(
    spec: str, *, size: tuple[int, int] = (1280, 960), seed: int = 0, **demo: Any
) -> FrameSource:
    """``auto``, ``pi``, ``demo`` (``demo:realistic``: through a realistic camera),
    ``usb[:N]``, a video file or an image folder.

    ``auto`` takes the Pi camera where picamera2 imports and a camera starts, and
    otherwise the demo table (``demo`` keywords go to :class:`DemoTable`)."""
    if spec == "auto":
        if picamera2_available():
            try:
                return PiCameraSource(size[0])
            except CameraError as exc:
                print(f"zonkcam: {exc}; using the demo table", file=sys.stderr)
        spec = "demo"
    if spec == "demo" or spec.startswith("demo:"):
        from zonkcam.sim.demo_table import DemoTable
        from zonkcam.sim.lens import look_of

        return DemoTable(seed=seed, look=look_of(spec), **demo)
    if spec == "pi":
        return PiCameraSource(size[0])
    if spec.startswith("usb"):
        index = spec.partition(":")[2] or "0"
        if not index.isdigit():
            raise UserError(f"--source usb:N takes a camera number, not {index!r}")
        return VideoSource(int(index), size)
    path = Path(spec)
    if path.is_dir():
        return ImageFolderSource(path)
    if path.is_file():
        return VideoSource(str(path))
    raise UserError(
        f"unknown source {spec!r}: use auto, pi, demo, demo:realistic, usb[:N], "
        "a video file or a folder of images"
    )
