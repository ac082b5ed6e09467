"""The Raspberry Pi camera, through picamera2 (apt's python3-picamera2, imported only when
asked for)."""

from __future__ import annotations

import atexit
import time
from typing import Any

from zonkcam.sources.base import CameraError, Frame, check_image

FRAME_US = 33_333
"""The camera's frame time (30 fps), and so the longest exposure: a dim room gets more gain,
not a longer exposure that smears a throw."""


def full_view_mode(modes: list[dict], pixel_array: tuple[int, int], fps: float = 30.0) -> dict:
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
        from picamera2 import Picamera2

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

    demo = False

    def __init__(self, width: int = 1280, settle_s: float = 2.0) -> None:
        try:
            cam = _picamera()
        except ImportError as exc:
            raise CameraError(
                f"picamera2 is not installed ({exc}); on a Pi: sudo apt install python3-picamera2"
            ) from None
        except Exception as exc:  # libcamera raises many kinds; all mean "no camera"
            raise CameraError(f"the Pi camera did not start: {exc}") from None
        try:
            mode = full_view_mode(cam.sensor_modes, cam.camera_properties["PixelArraySize"])
            size = frame_size(mode["size"], width)
            config = cam.create_video_configuration(
                main={"size": size, "format": "RGB888"},
                sensor={"output_size": mode["size"], "bit_depth": mode["bit_depth"]},
                controls={"FrameDurationLimits": (FRAME_US, FRAME_US)},
            )
            cam.configure(config)
            cam.start()
            time.sleep(settle_s)
            cam.set_controls(locked_controls(cam.capture_metadata()))
        except Exception as exc:
            try:
                cam.stop()
            except Exception:
                pass
            raise CameraError(f"the Pi camera did not start: {exc}") from None
        self._cam = cam
        self.name, self.fps, self.spec = "Pi camera", 1e6 / FRAME_US, "pi"
        self.mode, self.size = mode, size
        self._index, self._start = 0, time.monotonic()

    def read(self) -> Frame | None:
        try:
            image = self._cam.capture_array("main")
        except Exception as exc:
            raise CameraError(f"the Pi camera stopped: {exc}") from None
        index = self._index
        self._index += 1
        return Frame(check_image(image, self.name), index, time.monotonic() - self._start)

    def close(self) -> None:
        try:
            self._cam.stop()
        except Exception:
            pass


def picamera2_available() -> bool:
    try:
        import picamera2  # noqa: F401
    except ImportError:
        return False
    return True
