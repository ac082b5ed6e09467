"""Camera sources behind one small interface (:class:`~zonkcam.sources.base.FrameSource`),
chosen by their --source spec from one registry (:data:`OPENERS`, as gpiozero chooses its
pin factories by name): ``pi`` (``pi:WIDTH``), ``usb:N``, the demo table (``demo``,
``demo:LOOK:MAT``: the simulator, imported only when it is opened) and ``auto`` (the Pi
camera, else the demo table); any other spec is a video file or a folder of images. And
:class:`ResilientSource`, which reopens a failing source from its spec with backoff.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

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
)
from zonkcam.sources.folder import ImageFolderSource, is_image_file
from zonkcam.sources.pi import PiCameraSource, picamera2_available
from zonkcam.sources.usb import UsbCameraSource
from zonkcam.sources.video import VideoFileSource

if TYPE_CHECKING:
    from zonkcam.sim.demo_table import DemoTable

__all__ = [
    "FILE_TRIES",
    "OPENERS",
    "BadFrameError",
    "CameraError",
    "CameraProblem",
    "Frame",
    "FrameSource",
    "ImageFolderSource",
    "Opened",
    "PiCameraSource",
    "ResilientSource",
    "SPECS",
    "SourceBrokenError",
    "SourceOptions",
    "UsbCameraSource",
    "VideoFileSource",
    "first_frame",
    "is_live",
    "open_source",
    "open_spec",
    "picamera2_available",
    "resilient",
]


SPECS = "auto, pi, demo, demo:realistic, usb[:N], a video file or a folder of images"
"""The specs open_spec() takes, as its message for an unknown one says them."""


@dataclass(frozen=True)
class SourceOptions:
    """How a source is opened, beyond its spec; each opener reads what concerns it."""

    size: tuple[int, int] = (1280, 960)
    """The frame size asked of a USB camera."""
    seed: int = 0
    """The demo table's seed."""
    demo: dict[str, Any] = field(default_factory=dict)
    """The rest of the demo table's keyword arguments (zonkcam.sim.demo_table.DemoTable)."""


@dataclass(frozen=True)
class Opened:
    """A source opened from its spec, with what the table must know of it."""

    source: FrameSource
    demo_table: DemoTable | None = None
    """The demo table where the source is it (the same object): it calibrates itself from
    its own mat, is never reopened, and the demo's players throw its dice. None for a
    camera, video file or folder."""


Opener = Callable[[str, SourceOptions], Opened]
"""Opens the source a spec names, given the spec's part after its word (``usb:2``: ``2``)."""


def open_spec(
    spec: str,
    *,
    size: tuple[int, int] = (1280, 960),
    seed: int = 0,
    demo: dict[str, Any] | None = None,
) -> Opened:
    """The source a --source spec names, as :class:`Opened`: a word in OPENERS (``auto``,
    ``pi[:WIDTH]``, ``usb[:N]``, ``demo[:LOOK][:MAT]``), else a video file or a folder of
    images (the path). `size`, `seed`, `demo`: :class:`SourceOptions`."""
    options = SourceOptions(size, seed, dict(demo or {}))
    word, _, arg = spec.partition(":")
    if word in OPENERS:
        return OPENERS[word](arg, options)
    path = Path(spec)
    if path.is_dir():
        return Opened(ImageFolderSource(path))
    if path.is_file():  # an image (by its name or its first bytes) is never read as a video
        return Opened(ImageFolderSource(path) if is_image_file(path) else VideoFileSource(path))
    raise UserError(f"unknown source {spec!r}: use {SPECS}")


def open_source(spec: str, **options: Any) -> FrameSource:
    """The source a --source spec names, alone (:func:`open_spec`, which takes the same
    `options`)."""
    return open_spec(spec, **options).source


def is_live(spec: str) -> bool:
    """Whether a source spec is a camera (a word in OPENERS: ``pi[:WIDTH]``, ``usb[:N]``,
    the demo table), not a file or folder that has an end."""
    return spec.partition(":")[0] in OPENERS


def resilient(
    source: FrameSource, opener: Callable[[], FrameSource], camera_tries: int | None
) -> ResilientSource:
    """`source` kept going by ResilientSource, reopened with `opener`: a camera is given
    up after `camera_tries` failures in a row (None: never, the screen says it is lost
    until it is back); a file or folder after FILE_TRIES, and a folder's unreadable file
    is skipped, never a reason to start the folder again."""
    if is_live(source.spec):
        return ResilientSource(opener, source=source, give_up_after=camera_tries)
    return ResilientSource(opener, source=source, max_bad_frames=None, give_up_after=FILE_TRIES)


def _auto(arg: str, options: SourceOptions) -> Opened:
    """The Pi camera where picamera2 imports and a camera starts, else the demo table."""
    if arg:
        raise UserError(f"unknown source {'auto:' + arg!r}: use {SPECS}")
    if picamera2_available():
        try:
            return _pi("", options)
        except CameraError as exc:
            print(f"zonkcam: {exc}; using the demo table", file=sys.stderr)
    return _demo("", options)


def _pi(arg: str, options: SourceOptions) -> Opened:
    if not arg:
        return Opened(PiCameraSource())
    if not arg.isdigit() or not 64 <= int(arg) <= 8192:
        raise UserError(f"--source pi:WIDTH takes a frame width in px (e.g. pi:1280), not {arg!r}")
    return Opened(PiCameraSource(int(arg)))


def _usb(arg: str, options: SourceOptions) -> Opened:
    index = arg or "0"
    if not index.isdigit():
        raise UserError(f"--source usb:N takes a camera number, not {index!r}")
    return Opened(UsbCameraSource(int(index), options.size))


def _demo(arg: str, options: SourceOptions) -> Opened:
    """The demo table (zonkcam.sim), imported here and only here, when it is opened."""
    from zonkcam.sim.demo_table import open_demo_table

    table = open_demo_table(f"demo:{arg}" if arg else "demo", seed=options.seed, **options.demo)
    return Opened(table, demo_table=table)


OPENERS: dict[str, Opener] = {"auto": _auto, "pi": _pi, "usb": _usb, "demo": _demo}
"""The sources named by a word: ``auto``, ``pi`` (``pi:WIDTH``), ``usb`` (``usb:N``), one
module each (sources/pi.py, sources/usb.py), and ``demo`` (``demo:LOOK:MAT``, the
simulator's demo table, zonkcam/sim/demo_table.py); any other spec is a path
(sources/video.py, sources/folder.py)."""
