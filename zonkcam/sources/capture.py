"""What a video file and a USB camera share: an OpenCV capture, opened quietly, its frame
size checked before a frame is decoded."""

from __future__ import annotations

import cv2

from zonkcam.errors import UserError
from zonkcam.sources.base import CameraError
from zonkcam.vision import opencv

MAX_FRAME_PIXELS = 4096 * 3072
"""The largest video or webcam frame read (4K video is 3840x2160): the decoder's frames in
flight and the BGR frame of it keep the whole process within 250 MB."""


def open_capture(target: int | str, name: str) -> cv2.VideoCapture:
    """cv2.VideoCapture of `target` (a camera index or a file), OpenCV's own messages
    silenced (zonkcam says what went wrong, once); a CameraError if it does not open, a
    UserError if its frames are over MAX_FRAME_PIXELS."""
    opencv.set_log_level(opencv.ERROR)
    opencv.quiet_ffmpeg()
    cap = cv2.VideoCapture(target)
    if not cap.isOpened():
        raise CameraError(f"cannot open {name}")
    w = int(cap.get(cv2.CAP_PROP_FRAME_WIDTH) or 0)
    h = int(cap.get(cv2.CAP_PROP_FRAME_HEIGHT) or 0)
    if w * h > MAX_FRAME_PIXELS:  # known from the header: refused before a frame is decoded
        cap.release()
        raise UserError(
            f"{name} has frames of {w}x{h} ({w * h / 1e6:.0f} MP); zonkcam reads "
            f"frames of at most {MAX_FRAME_PIXELS / 1e6:.1f} MP (4096x3072)"
        )
    return cap


def frame_rate(cap: cv2.VideoCapture) -> float:
    return float(cap.get(cv2.CAP_PROP_FPS) or 30.0) or 30.0
