"""Camera sources behind one small interface, and a wrapper that survives their failures.

Every source gives :class:`Frame` objects (BGR uint8) from ``read()``, raises
:class:`CameraError` when it cannot, returns ``None`` at the end of a file or folder,
and is released with ``close()``. ``open_source("auto")`` takes the Pi camera where
picamera2 imports and a camera answers, and otherwise the demo table.
"""

from __future__ import annotations

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
    """Every image in a folder, in name order (a file that will not decode is a CameraError
    for that frame; the next read goes on with the next file)."""

    def __init__(self, folder: str | Path, fps: float = 30.0) -> None:
        self.folder = Path(folder)
        self.files = sorted(p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self.files:
            raise UserError(f"no images in {self.folder}")
        self.name, self.fps, self._next = f"folder {self.folder}", fps, 0

    def read(self) -> Frame | None:
        if self._next >= len(self.files):
            return None
        path, index = self.files[self._next], self._next
        self._next += 1
        image = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
        if image is None:
            raise BadFrameError(f"{path.name} is not a readable image")
        return Frame(_check_image(image, path.name), index, index / self.fps)

    def close(self) -> None:
        pass


class VideoSource:
    """A USB webcam (by index) or a video file, through cv2.VideoCapture."""

    def __init__(self, target: int | str, size: tuple[int, int] | None = None) -> None:
        self.target = target
        self.name = f"USB camera {target}" if isinstance(target, int) else f"video {target}"
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
                return None  # end of the file
            raise CameraError(f"{self.name} stopped sending frames")
        index = self._index
        self._index += 1
        t = index / self.fps if isinstance(self.target, str) else time.monotonic() - self._start
        return Frame(_check_image(image, self.name), index, t)

    def close(self) -> None:
        self._cap.release()


class PiCameraSource:
    """The Raspberry Pi camera through picamera2 (imported here, only when asked for).

    Frames are requested as "RGB888", which picamera2 delivers in BGR order as OpenCV
    wants. After ``settle_s`` the automatic exposure and colour gains are read back and
    fixed, so dice colours do not drift while people lean over the table.
    """

    def __init__(self, size: tuple[int, int] = (1280, 960), settle_s: float = 2.0) -> None:
        try:
            from picamera2 import Picamera2  # noqa: PLC0415 - only present on a Pi
        except ImportError as exc:
            raise CameraError(f"picamera2 is not installed ({exc}); on a Pi: "
                              "sudo apt install python3-picamera2") from None
        try:
            self._cam = Picamera2()
            config = self._cam.create_video_configuration(main={"size": size,
                                                                "format": "RGB888"})
            self._cam.configure(config)
            self._cam.start()
            time.sleep(settle_s)
            meta = self._cam.capture_metadata()
            self._cam.set_controls({k: meta[k] for k in ("ExposureTime", "AnalogueGain",
                                                         "ColourGains") if k in meta})
        except Exception as exc:  # libcamera raises many kinds; all mean "no camera"
            raise CameraError(f"the Pi camera did not start: {exc}") from None
        self.name, self.fps = "Pi camera", 30.0
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
            self._cam.close()
        except Exception:  # noqa: BLE001
            pass


def picamera2_available() -> bool:
    try:
        import picamera2  # noqa: F401, PLC0415
    except ImportError:
        return False
    return True


def open_source(spec: str, *, size: tuple[int, int] = (1280, 960), seed: int = 0,
                **demo: Any) -> FrameSource:
    """``auto``, ``pi``, ``demo``, ``usb[:N]``, a video file or an image folder.

    ``auto`` takes the Pi camera where picamera2 imports and a camera starts, and
    otherwise the demo table (``demo`` keywords go to :class:`DemoTable`)."""
    if spec == "auto":
        if picamera2_available():
            try:
                return PiCameraSource(size)
            except CameraError as exc:
                print(f"zonkcam: {exc}; using the demo table", file=sys.stderr)
        spec = "demo"
    if spec == "demo":
        from zonkcam.table.demo import DemoTable  # noqa: PLC0415 - pulls in the renderer

        return DemoTable(seed=seed, **demo)
    if spec == "pi":
        return PiCameraSource(size)
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
    raise UserError(f"unknown source {spec!r}: use auto, pi, demo, usb[:N], a video file or "
                    "a folder of images")


@dataclass
class CameraProblem:
    message: str
    retry_in_s: float


class ResilientSource:
    """Reopens a failing camera with backoff; reports problems instead of raising.

    ``frames()`` yields Frame objects, a :class:`CameraProblem` for each failure, and
    stops at the end of a finite source. ``sleep`` and ``opener`` are injectable for tests.
    """

    def __init__(self, opener: Callable[[], FrameSource], *, max_backoff_s: float = 8.0,
                 max_bad_frames: int = 30, sleep: Callable[[float], None] = time.sleep) -> None:
        self.opener, self.max_backoff_s, self.sleep = opener, max_backoff_s, sleep
        self.max_bad_frames = max_bad_frames
        self.source: FrameSource | None = None

    def frames(self) -> Iterator[Frame | CameraProblem]:
        backoff, bad_in_a_row = 0.5, 0
        while True:
            try:
                if self.source is None:
                    self.source = self.opener()
                frame = self.source.read()
            except BadFrameError as exc:
                bad_in_a_row += 1
                if bad_in_a_row < self.max_bad_frames:
                    yield CameraProblem(str(exc), 0.0)
                    continue
                exc = CameraError(f"{exc} ({bad_in_a_row} frames in a row); reopening")
                bad_in_a_row = 0
                self.close()
                yield CameraProblem(str(exc), backoff)
                self.sleep(backoff)
                backoff = min(self.max_backoff_s, backoff * 2)
                continue
            except (CameraError, UserError, OSError, cv2.error) as exc:
                self.close()
                yield CameraProblem(str(exc), backoff)
                self.sleep(backoff)
                backoff = min(self.max_backoff_s, backoff * 2)
                continue
            if frame is None:
                return
            backoff, bad_in_a_row = 0.5, 0
            yield frame

    def close(self) -> None:
        if self.source is not None:
            try:
                self.source.close()
            finally:
                self.source = None
