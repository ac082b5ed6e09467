"""Camera sources behind one small interface (:class:`~zonkcam.sources.base.FrameSource`),
opened by spec: ``pi`` (``pi:WIDTH``), ``usb:N``, a video file or a folder of images; and
:class:`ResilientSource`, which reopens a failing one from its spec with backoff. The app
opens ``auto`` and the demo table (``demo``) on top of these (zonkcam.app.camera).
"""

from __future__ import annotations

from pathlib import Path

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
    first_frame,
    is_live,
    resilient,
)
from zonkcam.sources.folder import ImageFolderSource, is_image_file
from zonkcam.sources.pi import PiCameraSource, picamera2_available
from zonkcam.sources.usb import UsbCameraSource
from zonkcam.sources.video import VideoFileSource

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
    "SPECS",
    "SourceBrokenError",
    "UsbCameraSource",
    "VideoFileSource",
    "first_frame",
    "is_live",
    "open_source",
    "picamera2_available",
    "resilient",
]


SPECS = "pi, usb[:N], a video file or a folder of images"
"""The specs open_source() takes, as its message for an unknown one says them."""


def open_source(
    spec: str, *, size: tuple[int, int] = (1280, 960), known: str = SPECS
) -> FrameSource:
    """The source a spec names: ``pi[:WIDTH]``, ``usb[:N]`` (OPENERS), a video file or a
    folder of images (the path). `size`: the frame size asked of a USB camera; `known`:
    the specs the caller takes, as the message for an unknown one lists them."""
    kind, _, arg = spec.partition(":")
    if kind in OPENERS:
        return OPENERS[kind](arg, size)
    path = Path(spec)
    if path.is_dir():
        return ImageFolderSource(path)
    if path.is_file():  # an image (by its name or its first bytes) is never read as a video
        return ImageFolderSource(path) if is_image_file(path) else VideoFileSource(path)
    raise UserError(f"unknown source {spec!r}: use {known}")


def _pi(arg: str, size: tuple[int, int]) -> FrameSource:
    if not arg:
        return PiCameraSource()
    if not arg.isdigit() or not 64 <= int(arg) <= 8192:
        raise UserError(f"--source pi:WIDTH takes a frame width in px (e.g. pi:1280), not {arg!r}")
    return PiCameraSource(int(arg))


def _usb(arg: str, size: tuple[int, int]) -> FrameSource:
    index = arg or "0"
    if not index.isdigit():
        raise UserError(f"--source usb:N takes a camera number, not {index!r}")
    return UsbCameraSource(int(index), size)


OPENERS = {"pi": _pi, "usb": _usb}
"""The sources named by a word: ``pi`` (``pi:WIDTH``) and ``usb`` (``usb:N``), one module
each (sources/pi.py, sources/usb.py); any other spec is a path (sources/video.py,
sources/folder.py)."""
