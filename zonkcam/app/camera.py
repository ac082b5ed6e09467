"""The camera side of the table, built one way for ``zonkcam play`` and ``zonkcam watch``:
the source a spec names (the demo table where there is no camera), its first frame, the
calibration (the demo table calibrates itself from its empty mat), the reader sized by
it, and the source kept going when it fails.

:func:`open_source` opens any --source spec: a camera, video file or folder from
zonkcam.sources, or the demo table from the simulator (zonkcam.sim), which only the app
opens."""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from zonkcam import sources
from zonkcam.errors import UserError
from zonkcam.game.names import escaped
from zonkcam.mat.calibrate import (
    Calibration,
    CalibrationError,
    calibrate,
    default_calibration_path,
    load_calibration,
)
from zonkcam.sources import (
    CameraError,
    CameraProblem,
    Frame,
    FrameSource,
    ResilientSource,
    first_frame,
    resilient,
)
from zonkcam.table.reading import OnnxReader

if TYPE_CHECKING:
    from zonkcam.sim.demo_table import DemoTable

SPECS = "auto, pi, demo, demo:realistic, usb[:N], a video file or a folder of images"
"""The --source specs open_source() takes, as its message for an unknown one says them."""


def open_source(
    spec: str,
    *,
    size: tuple[int, int] = (1280, 960),
    seed: int = 0,
    demo: dict[str, Any] | None = None,
) -> FrameSource:
    """The source a --source spec names: ``auto``, the demo table (``demo``,
    ``demo:LOOK``, ``demo:MAT``, ``demo:LOOK:MAT``), or a camera, video file or folder of
    images (zonkcam.sources.open_source).

    ``auto`` takes the Pi camera where picamera2 imports and a camera starts, and
    otherwise the demo table. `size`: the frame size asked of a USB camera; `seed` and
    `demo` (keyword arguments of :class:`~zonkcam.sim.demo_table.DemoTable`): the demo
    table's."""
    if spec == "auto":
        if sources.picamera2_available():
            try:
                return sources.open_source("pi", size=size)
            except CameraError as exc:
                print(f"zonkcam: {exc}; using the demo table", file=sys.stderr)
        spec = "demo"
    kind, _, arg = spec.partition(":")
    if kind == "demo":
        return open_demo_table(f"demo:{arg}" if arg else "demo", seed=seed, **(demo or {}))
    return sources.open_source(spec, size=size, known=SPECS)


def open_demo_table(spec: str = "demo", *, seed: int = 0, **options: Any) -> DemoTable:
    """The demo table a ``demo[:LOOK][:MAT]`` spec names (`options`: the rest of
    DemoTable's keyword arguments): the app's one door to the simulator's table
    (tests/test_layout.py), opened only when one is asked for."""
    from zonkcam.sim.demo_table import DemoTable
    from zonkcam.sim.lens import demo_of

    look, mat = demo_of(spec)
    return DemoTable(seed=seed, look=look, geometry=mat, **options)


@dataclass
class TableCamera:
    source: FrameSource
    first: Frame
    """The source's first frame (read to calibrate or check the calibration)."""
    calibration: Calibration
    reader: OnnxReader
    seed: int = 0
    demo_options: dict[str, Any] = field(default_factory=dict)

    @property
    def demo(self) -> bool:
        """Whether the source is the demo table."""
        return bool(getattr(self.source, "demo", False))

    def keep_going(self, camera_tries: int | None = None) -> ResilientSource:
        """The source, reopened from its spec whenever it fails: a camera given up after
        `camera_tries` failures in a row (None: never; the screen says it is lost until it
        is back), a file or folder after sources.FILE_TRIES. The demo table never fails
        and is never reopened (its players hold on to it)."""
        source = self.source
        if self.demo:
            return ResilientSource(lambda: source, source=source)
        return resilient(
            source,
            lambda: open_source(source.spec, seed=self.seed, demo=self.demo_options),
            camera_tries,
        )


def size_problem(item: Frame | CameraProblem, calibration: Calibration) -> str | None:
    """Why a frame cannot be read by `calibration`: its size is not the one the calibration
    is for (the camera changed its picture while the table ran); None where it can be."""
    if not isinstance(item, Frame):
        return None
    size = (item.image.shape[1], item.image.shape[0])
    if size == calibration.image_size:
        return None
    w, h = calibration.image_size
    again = (
        "start zonkcam again to scale the calibration to them"
        if calibration.scaled_to(size) is not None
        else "they are of another shape (another view): recalibrate (zonkcam calibrate)"
    )
    return f"the frames are {size[0]}x{size[1]} but the calibration is for {w}x{h}: {again}"


def open_camera(
    spec: str,
    *,
    calibration: str | Path | None,
    model_dir: Path | None = None,
    threads: int = 1,
    seed: int = 0,
    demo_options: dict[str, Any] | None = None,
    say: Callable[[str], None] = lambda text: None,
) -> TableCamera:
    """Open the source `spec` names (`demo_options`: how the demo table is made), read its
    first frame and calibrate: `calibration` (a file; None: the default file, or for the
    demo table its own calibration from that frame). One line for anything wrong."""
    source = open_source(spec, seed=seed, demo=demo_options)
    say(f"reading {source.name}")
    try:
        first = first_frame(source, say)
        if first is None:
            raise UserError(f"{source.name} gave no frame")
        if getattr(source, "demo", False) and calibration is None:
            try:
                cal = calibrate(first.image, source.geometry)
            except CalibrationError as exc:  # pragma: no cover - the demo mat is always seen
                raise UserError(f"the demo table could not calibrate: {exc}") from None
        else:
            path = calibration or default_calibration_path()
            cal = load_calibration(path)
            size = (first.image.shape[1], first.image.shape[0])
            if size != cal.image_size:  # the camera gives the same view larger or smaller
                made_for = cal.image_size
                scaled = cal.scaled_to(size)
                if scaled is None:  # another shape: another view, nothing to read it by
                    raise UserError(
                        f"{source.name} gives {size[0]}x{size[1]} frames but the calibration "
                        f"{escaped(str(path))} was made on {made_for[0]}x{made_for[1]} ones, "
                        "another shape (another view): recalibrate (zonkcam calibrate)"
                    )
                cal = scaled
                say(
                    f"the calibration was made on {made_for[0]}x{made_for[1]} frames: "
                    f"scaled to these {size[0]}x{size[1]} ones"
                )
        reader = OnnxReader.for_table(cal, model_dir, threads)
    except CameraError as exc:
        source.close()
        raise UserError(f"{source.name}: {exc}") from None
    except BaseException:
        source.close()
        raise
    return TableCamera(source, first, cal, reader, seed, dict(demo_options or {}))


def grab_frame(
    spec: str, warmup: int = 10, say: Callable[[str], None] = lambda text: None
) -> tuple[np.ndarray, str]:
    """One frame of the empty table from the source `spec` names, after `warmup` frames
    for the camera to settle (the last one where a file or folder ends sooner): the image
    and the source's name, for ``calibrate`` and ``check``. ``auto`` is the Pi camera,
    never the demo table in its place; the demo table (asked for by name) stands still.
    CameraError says why there is none."""
    if spec == "auto":
        if not sources.picamera2_available():
            raise CameraError("no camera: picamera2 is not installed (not a Raspberry Pi?)")
        spec = "pi"
    demo = spec.partition(":")[0] == "demo"
    src = open_source(spec, demo={"autoplay": False}) if demo else open_source(spec)
    try:
        frame = None
        for _ in range(max(1, warmup)):
            try:  # a folder's unreadable file is skipped with a line, the first one too
                got = first_frame(src, say=say)
            except CameraError as exc:
                raise CameraError(f"{src.name}: {exc}") from None
            if got is None:
                break
            frame = got
        if frame is None:
            raise CameraError(f"{src.name} gave no frame")
        return frame.image, src.name
    finally:
        src.close()
