"""Camera sources behind one small interface (:class:`~zonkcam.sources.base.FrameSource`),
opened by spec: ``auto``, ``pi`` (``pi:WIDTH``), ``usb:N``, ``demo`` (``demo:realistic``),
a video file or a folder of images; and :class:`ResilientSource`, which reopens a failing
one from its spec with backoff.
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
    "SourceBrokenError",
    "UsbCameraSource",
    "VideoFileSource",
    "first_frame",
    "is_live",
    "open_source",
    "picamera2_available",
    "resilient",
]


def open_source(
    spec: str,
    *,
    size: tuple[int, int] = (1280, 960),
    seed: int = 0,
    demo: dict[str, Any] | None = None,
) -> FrameSource:
    """The source a spec names: ``auto``, ``pi[:WIDTH]``, ``usb[:N]``, ``demo``
    (``demo:LOOK``, ``demo:MAT``, ``demo:LOOK:MAT``), a video file or a folder of images
    (OPENERS, then the path).

    ``auto`` takes the Pi camera where picamera2 imports and a camera starts, and
    otherwise the demo table. `size`: the frame size asked of a USB camera; `seed` and
    `demo` (keyword arguments of :class:`~zonkcam.sim.demo_table.DemoTable`): the demo
    table's."""
    if spec == "auto":
        if picamera2_available():
            try:
                return PiCameraSource()
            except CameraError as exc:
                print(f"zonkcam: {exc}; using the demo table", file=sys.stderr)
        spec = "demo"
    kind, _, arg = spec.partition(":")
    if kind in OPENERS:
        return OPENERS[kind](arg, size, seed, demo or {})
    path = Path(spec)
    if path.is_dir():
        return ImageFolderSource(path)
    if path.is_file():  # an image (by its name or its first bytes) is never read as a video
        return ImageFolderSource(path) if is_image_file(path) else VideoFileSource(path)
    raise UserError(
        f"unknown source {spec!r}: use auto, pi, demo, demo:realistic, usb[:N], "
        "a video file or a folder of images"
    )


def _pi(arg: str, size: tuple[int, int], seed: int, demo: dict[str, Any]) -> FrameSource:
    if not arg:
        return PiCameraSource()
    if not arg.isdigit() or not 64 <= int(arg) <= 8192:
        raise UserError(f"--source pi:WIDTH takes a frame width in px (e.g. pi:1280), not {arg!r}")
    return PiCameraSource(int(arg))


def _usb(arg: str, size: tuple[int, int], seed: int, demo: dict[str, Any]) -> FrameSource:
    index = arg or "0"
    if not index.isdigit():
        raise UserError(f"--source usb:N takes a camera number, not {index!r}")
    return UsbCameraSource(int(index), size)


def _demo(arg: str, size: tuple[int, int], seed: int, demo: dict[str, Any]) -> FrameSource:
    # the one door from the product to the simulator (tests/test_layout.py)
    from zonkcam.sim.demo_table import DemoTable
    from zonkcam.sim.lens import demo_of

    look, mat = demo_of(f"demo:{arg}" if arg else "demo")
    return DemoTable(seed=seed, look=look, geometry=mat, **demo)


OPENERS = {"pi": _pi, "usb": _usb, "demo": _demo}
"""The sources named by a word: ``pi`` (``pi:WIDTH``), ``usb`` (``usb:N``), ``demo``
(``demo:LOOK:MAT``), one module each (sources/pi.py, sources/usb.py, sim/demo_table.py);
``auto`` picks one of them, and any other spec is a path (sources/video.py, sources/folder.py)."""
