"""Video files, USB webcams (both through OpenCV) and folders of images."""

from __future__ import annotations

import time
from pathlib import Path

import cv2

from zonkcam.errors import UserError
from zonkcam.sources.base import (
    IMAGE_SUFFIXES,
    BadFrameError,
    CameraError,
    Frame,
    SourceBrokenError,
    check_image,
)
from zonkcam.vision import opencv

MAX_FRAME_PIXELS = 4096 * 4096
"""The largest video or webcam frame read (a decoded frame of it takes about 120 MB)."""


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
        from zonkcam.vision.imageio import ImageFileError, load_image

        if self._next >= len(self.files):
            return None
        path, index = self.files[self._next], self._next
        self._next += 1
        try:
            image = load_image(path)
        except ImageFileError as exc:
            raise BadFrameError(f"{path.name}: {exc}") from None
        return Frame(check_image(image, path.name), index, index / self.fps)

    def close(self) -> None:
        pass


class VideoSource:
    """A USB webcam (by index) or a video file, through cv2.VideoCapture."""

    def __init__(self, target: int | str, size: tuple[int, int] | None = None) -> None:
        self.target = target
        self.name = f"USB camera {target}" if isinstance(target, int) else f"video {target}"
        self.spec = f"usb:{target}" if isinstance(target, int) else str(target)
        opencv.set_log_level(opencv.ERROR)  # we say it ourselves
        opencv.quiet_ffmpeg()
        self._cap = cv2.VideoCapture(target)
        if not self._cap.isOpened():
            raise CameraError(f"cannot open {self.name}")
        w = int(self._cap.get(cv2.CAP_PROP_FRAME_WIDTH) or 0)
        h = int(self._cap.get(cv2.CAP_PROP_FRAME_HEIGHT) or 0)
        if w * h > MAX_FRAME_PIXELS:  # known from the header: refused before a frame is decoded
            self._cap.release()
            raise UserError(
                f"{self.name} has frames of {w}x{h} ({w * h / 1e6:.0f} MP); zonkcam reads "
                f"frames of at most {MAX_FRAME_PIXELS / 1e6:.1f} MP (4096x4096)"
            )
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
        return Frame(check_image(image, self.name), index, t)

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
                raise BadFrameError(
                    f"{self.name}: {lost} frame{'s' * (lost > 1)} from frame "
                    f"{self._index - lost} could not be decoded; skipped"
                )
            step *= 2
        raise SourceBrokenError(
            f"{self.name} is damaged from frame {self._index} of {total}: "
            "the rest cannot be decoded"
        )

    def close(self) -> None:
        self._cap.release()
