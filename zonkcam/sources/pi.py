"""The Raspberry Pi camera, through picamera2 (apt's python3-picamera2, imported only when
asked for)."""

from __future__ import annotations

import atexit
import time
from typing import Any

import cv2
import numpy as np

from zonkcam.sources.base import BadFrameError, CameraError, Frame, check_image

FRAME_US = 33_333
"""The camera's frame time (30 fps), and so the longest exposure: a dim room gets more gain,
not a longer exposure that smears a throw."""
LORES_WIDTH = 640
"""The width of the frames that motion, presence, calibration and the screen use (the
lores stream), when the dice are read from the main stream at the sensor mode's size."""


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


def yuv420_to_bgr(array: Any, size: tuple[int, int]) -> np.ndarray:
    """A YUV420 (I420) buffer as picamera2 gives it, (height * 3 / 2, stride) with each
    plane's rows padded to the stride (the U and V rows to half of it), as the BGR image
    of ``size`` (width, height) it holds."""
    w, h = size
    if (
        not isinstance(array, np.ndarray)
        or array.dtype != np.uint8
        or array.ndim != 2
        or array.shape[0] != h * 3 // 2
        or array.shape[1] < w
        or array.shape[1] % 2
    ):
        shape = getattr(array, "shape", None)
        raise BadFrameError(f"the Pi camera sent a lores buffer of shape {shape}, not {w}x{h}")
    bgr = cv2.cvtColor(np.ascontiguousarray(array), cv2.COLOR_YUV2BGR_I420)
    return np.ascontiguousarray(bgr[:, :w])


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

    The sensor runs in a mode that sees its whole field of view (:func:`full_view_mode`)
    and the camera gives two streams of that same view from each request: "main" at the
    mode's own size (2304x1296 on a Camera Module 3, 2028x1520 on the HQ camera), as
    "RGB888" (which picamera2 delivers in BGR order, as OpenCV wants), which becomes each
    frame's ``detail``, the picture the dice are read from; and "lores", ``width`` px wide
    in the mode's shape, as YUV420 (the one format a Pi 4 gives it in; converted to BGR
    here), which becomes the frame's ``image`` for motion, presence, calibration and the
    screen (LORES_WIDTH px wide). Given a ``width``, it gives one stream only, that many
    px wide in the mode's shape, and frames have no ``detail``.

    Frames come at 30 fps at most (exposure capped at FRAME_US). After ``settle_s`` the
    automatic exposure and white balance are read back and locked
    (:func:`locked_controls`), so dice colours do not drift while people lean over the
    table. Closing stops the camera; opening again restarts the same one.
    """

    def __init__(self, width: int | None = None, settle_s: float = 2.0) -> None:
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
            size = frame_size(mode["size"], width or LORES_WIDTH)
            streams: dict[str, Any] = {"main": {"size": size, "format": "RGB888"}}
            if width is None:
                streams = {
                    "main": {"size": tuple(mode["size"]), "format": "RGB888"},
                    "lores": {"size": size, "format": "YUV420"},
                }
            config = cam.create_video_configuration(
                **streams,
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
        self.name, self.fps = "Pi camera", 1e6 / FRAME_US
        self.spec = "pi" if width is None else f"pi:{width}"
        self.mode, self.size = mode, size
        self.detail_size: tuple[int, int] | None = None if width else tuple(mode["size"])
        """The size of each frame's ``detail`` (None: frames have none)."""
        self._index, self._start = 0, time.monotonic()

    def read(self) -> Frame | None:
        try:
            if self.detail_size is None:
                image, main = self._cam.capture_array("main"), None
            else:
                request = self._cam.capture_request()
                try:
                    main, image = request.make_array("main"), request.make_array("lores")
                finally:
                    request.release()
        except Exception as exc:
            raise CameraError(f"the Pi camera stopped: {exc}") from None
        index = self._index
        self._index += 1
        t = time.monotonic() - self._start
        if main is None:
            return Frame(check_image(image, self.name), index, t)
        lores = yuv420_to_bgr(image, self.size)
        return Frame(lores, index, t, detail=check_image(main, self.name))

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
