"""The camera side of the table, opened one way for ``zonkcam play`` and ``zonkcam watch``
(:func:`open_table`): the source a --source spec names (zonkcam.sources' registry: the
demo table where there is no camera), its first frame, the calibration (the demo table
calibrates itself from its empty mat), the reader sized by it, the teacher of the table's
dice, and the source kept going when it fails."""

from __future__ import annotations

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
    open_source,
    open_spec,
    resilient,
)
from zonkcam.table.reading import OnnxReader
from zonkcam.table.teaching import Teacher, open_teacher

if TYPE_CHECKING:
    from zonkcam.sim.demo_table import DemoTable


@dataclass
class TableCamera:
    source: FrameSource
    first: Frame
    """The source's first frame (read to calibrate or check the calibration)."""
    calibration: Calibration
    reader: OnnxReader
    seed: int = 0
    demo_options: dict[str, Any] = field(default_factory=dict)
    demo_table: DemoTable | None = None
    """The demo table where the source is it (as the sources' registry opened it)."""
    teacher: Teacher | None = None
    """What teaches the reader the table's dice (None: not asked for, or the value net
    cannot learn)."""

    @property
    def demo(self) -> bool:
        """Whether the source is the demo table."""
        return self.demo_table is not None

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
            lambda: open_spec(source.spec, seed=self.seed, demo=self.demo_options).source,
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


def open_table(
    spec: str,
    *,
    calibration: str | Path | None,
    model_dir: Path | None = None,
    threads: int | None = None,
    seed: int = 0,
    demo_options: dict[str, Any] | None = None,
    teach: Callable[[str], None] | None = None,
    forget_dice: bool = False,
    say: Callable[[str], None] = lambda text: None,
) -> TableCamera:
    """Open the source `spec` names (`demo_options`: how the demo table is made), read its
    first frame and calibrate: `calibration` (a file; None: the default file, or for the
    demo table its own calibration from that frame); then the reader, and given `teach`
    (where the teacher's lines go) its teacher: the table's taught dice, kept beside the
    calibration (forgotten first with `forget_dice`); the demo table's rendered dice for
    this run only, never on disk. `say`: where the lines about opening go. One line for
    anything wrong."""
    opened = open_spec(spec, seed=seed, demo=demo_options)
    source, demo_table = opened.source, opened.demo_table
    say(f"reading {source.name}")
    try:
        first = first_frame(source, say)
        if first is None:
            raise UserError(f"{source.name} gave no frame")
        cal = _calibration_for(source, first, demo_table, calibration, say)
        reader = OnnxReader.for_table(cal, model_dir, threads)
        teacher = None
        if teach is not None:
            kept = None if demo_table is not None else calibration or default_calibration_path()
            teacher = open_teacher(reader, kept, forget_dice, say=teach)
    except CameraError as exc:
        source.close()
        raise UserError(f"{source.name}: {exc}") from None
    except BaseException:
        source.close()
        raise
    return TableCamera(
        source, first, cal, reader, seed, dict(demo_options or {}), demo_table, teacher
    )


def _calibration_for(
    source: FrameSource,
    first: Frame,
    demo_table: DemoTable | None,
    calibration: str | Path | None,
    say: Callable[[str], None],
) -> Calibration:
    """The calibration `first` is read by: the file (scaled to the frames where the camera
    gives the same view larger or smaller), or the demo table's own from that frame."""
    if demo_table is not None and calibration is None:
        try:
            return calibrate(first.image, demo_table.geometry)
        except CalibrationError as exc:  # pragma: no cover - the demo mat is always seen
            raise UserError(f"the demo table could not calibrate: {exc}") from None
    path = calibration or default_calibration_path()
    cal = load_calibration(path)
    size = (first.image.shape[1], first.image.shape[0])
    if size == cal.image_size:
        return cal
    made_for = cal.image_size
    scaled = cal.scaled_to(size)
    if scaled is None:  # another shape: another view, nothing to read it by
        raise UserError(
            f"{source.name} gives {size[0]}x{size[1]} frames but the calibration "
            f"{escaped(str(path))} was made on {made_for[0]}x{made_for[1]} ones, "
            "another shape (another view): recalibrate (zonkcam calibrate)"
        )
    say(
        f"the calibration was made on {made_for[0]}x{made_for[1]} frames: "
        f"scaled to these {size[0]}x{size[1]} ones"
    )
    return scaled


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
    src = open_source(spec, demo={"autoplay": False})  # the demo table stands still
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
