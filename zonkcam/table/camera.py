"""Camera sources behind one small interface, and a wrapper that survives their failures.

Every source gives :class:`Frame` objects (BGR uint8) from ``read()``, raises
:class:`CameraError` when it cannot (:class:`BadFrameError` for one bad frame,
:class:`SourceBrokenError` when a file cannot go on), returns ``None`` at the end of a
file or folder, and is released with ``close()``. ``open_source(spec)`` opens one by its
spec (``auto``, ``pi``, ``usb:N``, ``demo``, a file or a folder); :class:`ResilientSource`
reopens it from the same spec, with backoff, whenever it fails.
"""

from __future__ import annotations

import atexit
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from zonkcam.errors import UserError

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff"}


class CameraError(UserError):
    """The camera is gone or will not start."""


class BadFrameError(CameraError):
    """One frame was not an image; the camera itself may carry on."""


class SourceBrokenError(CameraError):
    """A file source cannot go on (a video damaged from here on): reopening would only
    start it again from the beginning."""


@dataclass
class Frame:
    image: np.ndarray
    index: int
    t: float
    """Seconds since the source started (the demo table's simulated clock)."""
    truth: Any = field(default=None, repr=False)
    """What the demo table drew (None for real cameras)."""


class FrameSource(Protocol):
    name: str
    fps: float
    spec: str
    """What open_source() takes to open this source again."""

    def read(self) -> Frame | None: ...

    def close(self) -> None: ...


def _check_image(image: Any, what: str) -> np.ndarray:
    if not isinstance(image, np.ndarray) or image.ndim not in (2, 3) or image.size == 0:
        raise BadFrameError(f"{what} sent something that is not an image")
    if image.dtype != np.uint8:
        if image.dtype == np.uint16:
            image = (image >> 8).astype(np.uint8)
        else:
            raise BadFrameError(f"{what} sent a {image.dtype} image")
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    elif image.shape[2] == 4:
        image = cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    elif image.shape[2] != 3:
        raise BadFrameError(f"{what} sent an image with {image.shape[2]} channels")
    return image


class ImageFolderSource:
    """Every image in a folder, in name order. A file that will not decode whole (empty,
    truncated, not an image) is a BadFrameError for that frame; the next read goes on
    with the next file."""

    def __init__(self, folder: str | Path, fps: float = 30.0) -> None:
        self.folder = Path(folder)
        self.files = sorted(p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self.files:
            raise UserError(f"no images in {self.folder}")
        self.name, self.fps, self._next = f"folder {self.folder}", fps, 0
        self.spec = str(self.folder)

    def read(self) -> Frame | None:
        from zonkcam.vision.imageio import ImageFileError, load_image  # noqa: PLC0415

        if self._next >= len(self.files):
            return None
        path, index = self.files[self._next], self._next
        self._next += 1
        try:
            image = load_image(path)
        except ImageFileError as exc:
            raise BadFrameError(f"{path.name}: {exc}") from None
        return Frame(_check_image(image, path.name), index, index / self.fps)

    def close(self) -> None:
        pass


class VideoSource:
    """A USB webcam (by index) or a video file, through cv2.VideoCapture."""

    def __init__(self, target: int | str, size: tuple[int, int] | None = None) -> None:
        self.target = target
        self.name = f"USB camera {target}" if isinstance(target, int) else f"video {target}"
        self.spec = f"usb:{target}" if isinstance(target, int) else str(target)
        cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_ERROR)  # we say it ourselves
        self._cap = cv2.VideoCapture(target)
        if not self._cap.isOpened():
            raise CameraError(f"cannot open {self.name}")
        if size and isinstance(target, int):
            self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
            self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
        self.fps = float(self._cap.get(cv2.CAP_PROP_FPS) or 30.0) or 30.0
        self._index, self._start = 0, time.monotonic()

    def read(self) -> Frame | None:
        ok, image = self._cap.read()
        if not ok:
            if isinstance(self.target, str):
                return self._damaged_or_done()
            raise CameraError(f"{self.name} stopped sending frames")
        index = self._index
        self._index += 1
        t = index / self.fps if isinstance(self.target, str) else time.monotonic() - self._start
        return Frame(_check_image(image, self.name), index, t)

    def _damaged_or_done(self) -> None:
        """A file that stops before its last frame is damaged there: skip to the next frame
        that decodes (a BadFrameError saying how many were lost), or say that the rest of
        the file cannot be read. At its last frame it is simply done (None)."""
        total = int(self._cap.get(cv2.CAP_PROP_FRAME_COUNT) or 0)
        if total <= 0 or self._index >= total - 1:
            return None
        step = 1
        while self._index + step < total:
            self._cap.set(cv2.CAP_PROP_POS_FRAMES, self._index + step)
            if self._cap.grab():
                self._cap.set(cv2.CAP_PROP_POS_FRAMES, self._index + step)
                lost, self._index = step, self._index + step
                raise BadFrameError(f"{self.name}: {lost} frame{'s' * (lost > 1)} from frame "
                                    f"{self._index - lost} could not be decoded; skipped")
            step *= 2
        raise SourceBrokenError(f"{self.name} is damaged from frame {self._index} of {total}: "
                                "the rest cannot be decoded")

    def close(self) -> None:
        self._cap.release()


FRAME_US = 33_333
"""The camera's frame time (30 fps), and so the longest exposure: a dim room gets more gain,
not a longer exposure that smears a throw."""


def full_view_mode(modes: list[dict], pixel_array: tuple[int, int],
                   fps: float = 30.0) -> dict:
    """The sensor mode to run: one that sees the sensor's whole field of view (its crop is
    the whole pixel array; a Camera Module 3's 16:9 sensor has cropped modes too), at
    ``fps`` or faster, the smallest such (binned: brighter, and less to move)."""
    whole = [m for m in modes if tuple(m["crop_limits"][2:]) == tuple(pixel_array)] or modes
    fast = [m for m in whole if m.get("fps", fps) >= fps] or whole
    return min(fast, key=lambda m: m["size"][0] * m["size"][1])


def frame_size(sensor_size: tuple[int, int], width: int = 1280) -> tuple[int, int]:
    """Frames ``width`` px wide with the sensor mode's shape (1280x720 from a 16:9 sensor,
    1280x960 from a 4:3 one): the same shape keeps the whole field of view."""
    w, h = sensor_size
    return width, int(round(width * h / w / 2)) * 2


def locked_controls(metadata: dict) -> dict:
    """The controls that hold exposure and white balance where the camera settled
    (picamera2's manual: AeEnable/AwbEnable off, with the measured values)."""
    out: dict[str, Any] = {"AeEnable": False, "AwbEnable": False}
    for key in ("ExposureTime", "AnalogueGain", "ColourGains"):
        if key in metadata:
            out[key] = metadata[key]
    return out


_PICAMERA: Any = None
"""The process's one Picamera2 object: libcamera does not reliably hand the camera to a
second object in the same process, so reopening restarts this one."""


def _picamera() -> Any:
    global _PICAMERA
    if _PICAMERA is None:
        from picamera2 import Picamera2  # noqa: PLC0415 - only present on a Pi

        _PICAMERA = Picamera2()
        atexit.register(_PICAMERA.close)
    return _PICAMERA


class PiCameraSource:
    """The Raspberry Pi camera through picamera2 (imported here, only when asked for).

    The sensor runs in a mode that sees its whole field of view (:func:`full_view_mode`),
    frames come ``width`` px wide in the mode's shape, as "RGB888" (which picamera2
    delivers in BGR order, as OpenCV wants), at 30 fps at most (exposure capped at
    FRAME_US). After ``settle_s`` the automatic exposure and white balance are read back
    and locked (:func:`locked_controls`), so dice colours do not drift while people lean
    over the table. Closing stops the camera; opening again restarts the same one.
    """

    def __init__(self, width: int = 1280, settle_s: float = 2.0) -> None:
        try:
            cam = _picamera()
        except ImportError as exc:
            raise CameraError(f"picamera2 is not installed ({exc}); on a Pi: "
                              "sudo apt install python3-picamera2") from None
        except Exception as exc:  # libcamera raises many kinds; all mean "no camera"
            raise CameraError(f"the Pi camera did not start: {exc}") from None
        try:
            mode = full_view_mode(cam.sensor_modes, cam.camera_properties["PixelArraySize"])
            size = frame_size(mode["size"], width)
            config = cam.create_video_configuration(
                main={"size": size, "format": "RGB888"},
                sensor={"output_size": mode["size"], "bit_depth": mode["bit_depth"]},
                controls={"FrameDurationLimits": (FRAME_US, FRAME_US)})
            cam.configure(config)
            cam.start()
            time.sleep(settle_s)
            cam.set_controls(locked_controls(cam.capture_metadata()))
        except Exception as exc:  # noqa: BLE001 - as above
            try:
                cam.stop()
            except Exception:  # noqa: BLE001 - it may never have started
                pass
            raise CameraError(f"the Pi camera did not start: {exc}") from None
        self._cam = cam
        self.name, self.fps, self.spec = "Pi camera", 1e6 / FRAME_US, "pi"
        self.mode, self.size = mode, size
        self._index, self._start = 0, time.monotonic()

    def read(self) -> Frame | None:
        try:
            image = self._cam.capture_array("main")
        except Exception as exc:  # noqa: BLE001 - a vanished camera raises anything
            raise CameraError(f"the Pi camera stopped: {exc}") from None
        index = self._index
        self._index += 1
        return Frame(_check_image(image, self.name), index, time.monotonic() - self._start)

    def close(self) -> None:
        try:
            self._cam.stop()
        except Exception:  # noqa: BLE001 - a camera that is gone cannot be stopped
            pass


def picamera2_available() -> bool:
    try:
        import picamera2  # noqa: F401, PLC0415
    except ImportError:
        return False
    return True


def open_source(spec: str, *, size: tuple[int, int] = (1280, 960), seed: int = 0,
                **demo: Any) -> FrameSource:
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
        from zonkcam.table.demo import DemoTable, look_of  # noqa: PLC0415 - the renderer

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
    raise UserError(f"unknown source {spec!r}: use auto, pi, demo, demo:realistic, usb[:N], "
                    "a video file or a folder of images")


@dataclass
class CameraProblem:
    message: str
    retry_in_s: float
    """When the source is tried again (0: at once)."""
    final: bool = False
    """The source cannot go on (a damaged video): the stream ends after this."""
    repeat: bool = False
    """Still waiting to try again after a problem already reported (sent every
    ``poll_s`` so that the screen keeps showing it)."""


class ResilientSource:
    """Keeps frames coming from a source that fails: reports each problem, reopens the
    source with ``opener`` (a new object, opened from its spec) with backoff, skips and
    counts bad frames, and never raises.

    ``frames()`` yields Frame objects and a :class:`CameraProblem` for each failure; while
    it waits to reopen it yields a ``repeat`` problem every ``poll_s`` instead of blocking,
    so that the app goes on drawing. It stops at the end of a finite source, or after a
    ``final`` problem. ``clock`` and ``sleep`` are injectable for tests.
    """

    def __init__(self, opener: Callable[[], FrameSource], *, source: FrameSource | None = None,
                 max_backoff_s: float = 8.0, max_bad_frames: int = 30, poll_s: float = 0.1,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.opener, self.source = opener, source
        self.max_backoff_s, self.max_bad_frames, self.poll_s = max_backoff_s, max_bad_frames, poll_s
        self.clock, self.sleep = clock, sleep
        self.bad_frames = 0
        """Frames skipped because they were not whole images."""
        self.reopened = 0

    def frames(self) -> Iterator[Frame | CameraProblem]:
        backoff, bad_in_a_row = 0.5, 0
        waiting: CameraProblem | None = None
        retry_at = 0.0
        while True:
            if waiting is not None:
                left = retry_at - self.clock()
                if left > 0:
                    yield CameraProblem(waiting.message, left, repeat=True)
                    self.sleep(min(self.poll_s, left))
                    continue
                waiting = None
            try:
                if self.source is None:
                    self.source = self.opener()
                    self.reopened += 1
                frame = self.source.read()
            except SourceBrokenError as exc:
                self.close()
                yield CameraProblem(str(exc), 0.0, final=True)
                return
            except BadFrameError as exc:
                self.bad_frames += 1
                bad_in_a_row += 1
                if bad_in_a_row < self.max_bad_frames:
                    yield CameraProblem(str(exc), 0.0)
                    continue
                waiting = CameraProblem(f"{exc} ({bad_in_a_row} bad frames in a row); "
                                        "reopening", backoff)
            except (CameraError, UserError, OSError, cv2.error) as exc:
                waiting = CameraProblem(str(exc), backoff)
            else:
                if frame is None:
                    return
                backoff, bad_in_a_row = 0.5, 0
                yield frame
                continue
            self.close()
            bad_in_a_row = 0
            retry_at = self.clock() + backoff
            backoff = min(self.max_backoff_s, backoff * 2)
            yield waiting

    def close(self) -> None:
        if self.source is not None:
            try:
                self.source.close()
            except Exception:  # noqa: BLE001 - a dying camera may fail to close; it is gone
                pass
            finally:
                self.source = None
