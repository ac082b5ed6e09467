"""A video file, through OpenCV: its frames in order, a damaged stretch skipped."""

from __future__ import annotations

from pathlib import Path

import cv2

from zonkcam.sources.base import BadFrameError, Frame, SourceBrokenError, check_image
from zonkcam.sources.capture import MAX_FRAME_PIXELS, frame_rate, open_capture


class VideoFileSource:
    """Each frame of a video file; None at its end."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self.name, self.spec = f"video {self.path}", self.path
        self._cap = open_capture(self.path, self.name)
        self.fps = frame_rate(self._cap)
        self.size = (
            int(self._cap.get(cv2.CAP_PROP_FRAME_WIDTH) or 0),
            int(self._cap.get(cv2.CAP_PROP_FRAME_HEIGHT) or 0),
        )
        """The frame size the file gave when it was opened: every frame must be it."""
        self._index = 0

    def read(self) -> Frame | None:
        try:
            ok, image = self._cap.read()
        except cv2.error:  # OpenCV's own limit refused a frame larger than the file said
            self._cap.release()
            raise SourceBrokenError(
                f"{self.name}: frame {self._index} is larger than the file said when it was "
                "opened: the rest is not read"
            ) from None
        if not ok:
            return self._damaged_or_done()
        index = self._index
        self._index += 1
        self._check_size(image, index)
        return Frame(check_image(image, self.name), index, index / self.fps)

    def _check_size(self, image: object, index: int) -> None:
        """A frame of another size than the file said when it was opened (one that grows
        past the limit the opening checked) ends the file: SourceBrokenError."""
        shape = getattr(image, "shape", (0, 0))
        size = (int(shape[1]), int(shape[0])) if len(shape) >= 2 else (0, 0)
        if size != self.size and self.size != (0, 0) or size[0] * size[1] > MAX_FRAME_PIXELS:
            self._cap.release()
            raise SourceBrokenError(
                f"{self.name}: frame {index} is {size[0]}x{size[1]}, not the "
                f"{self.size[0]}x{self.size[1]} the file gave when it was opened: "
                "the rest is not read"
            )

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
