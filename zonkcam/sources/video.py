"""A video file, through OpenCV: its frames in order, a damaged stretch skipped."""

from __future__ import annotations

from pathlib import Path

import cv2

from zonkcam.sources.base import BadFrameError, Frame, SourceBrokenError, check_image
from zonkcam.sources.capture import frame_rate, open_capture


class VideoFileSource:
    """Each frame of a video file; None at its end."""

    demo = False

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self.name, self.spec = f"video {self.path}", self.path
        self._cap = open_capture(self.path, self.name)
        self.fps = frame_rate(self._cap)
        self._index = 0

    def read(self) -> Frame | None:
        ok, image = self._cap.read()
        if not ok:
            return self._damaged_or_done()
        index = self._index
        self._index += 1
        return Frame(check_image(image, self.name), index, index / self.fps)

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
