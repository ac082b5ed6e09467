"""What differs between the OpenCV releases zonkcam runs on, detected rather than assumed.

A Pi with picamera2 from apt has OpenCV below 4.12 (numpy 1.x); a new machine gets the
newest release. Everything that is not in both goes through here.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import cv2

# OpenCV's own log levels (cv::utils::logging::LogLevel), the same numbers in every release
SILENT, ERROR = 0, 2


def _log_functions() -> tuple[Callable[[], int], Callable[[int], None]]:
    """(get, set) for OpenCV's log level: cv2.utils.logging in the newer releases,
    cv2.getLogLevel/setLogLevel in the older ones; a level that never changes otherwise."""
    logging = getattr(getattr(cv2, "utils", None), "logging", None)
    if logging is not None and hasattr(logging, "setLogLevel"):
        return logging.getLogLevel, logging.setLogLevel
    if hasattr(cv2, "setLogLevel") and hasattr(cv2, "getLogLevel"):
        return cv2.getLogLevel, cv2.setLogLevel
    return (lambda: ERROR), (lambda level: None)


_get_level, set_log_level = _log_functions()
"""set_log_level(level): OpenCV's log level (SILENT, ERROR, ...) where this OpenCV lets us."""


@contextmanager
def log_level(level: int) -> Iterator[None]:
    """OpenCV at `level` inside the block (we say what went wrong ourselves), as it was after."""
    before = _get_level()
    set_log_level(level)
    try:
        yield
    finally:
        set_log_level(before)


def can_encode(ext: str) -> bool:
    """Whether this OpenCV can write images of the type `ext` (".gif" only from 4.12)."""
    try:
        return bool(cv2.haveImageWriter(f"probe{ext}"))
    except cv2.error:
        return False


def quiet_ffmpeg() -> None:
    """Keep FFmpeg's own lines ("moov atom not found", ...) off stderr: zonkcam says what is
    wrong with a video in one line itself. Read once, where OpenCV first opens a video."""
    os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")  # AV_LOG_QUIET
