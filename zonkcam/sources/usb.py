"""A USB webcam, through OpenCV (``--source usb:N``)."""

from __future__ import annotations

import time

import cv2

from zonkcam.sources.base import CameraError, Frame, check_image
from zonkcam.sources.capture import frame_rate, open_capture


class UsbCameraSource:
    """Camera number `index` (as OpenCV counts them), asked for frames of `size`."""

    def __init__(self, index: int, size: tuple[int, int] | None = None) -> None:
        self.index = index
        self.name, self.spec = f"USB camera {index}", f"usb:{index}"
        self._cap = open_capture(index, self.name)
        if size:
            self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
            self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
        self.fps = frame_rate(self._cap)
        self._index, self._start = 0, time.monotonic()

    def read(self) -> Frame:
        ok, image = self._cap.read()
        if not ok:
            raise CameraError(f"{self.name} stopped sending frames")
        index = self._index
        self._index += 1
        return Frame(check_image(image, self.name), index, time.monotonic() - self._start)

    def close(self) -> None:
        self._cap.release()
