"""A stand-in for picamera2's Picamera2, for testing the Pi camera source off a Pi:
install it with ``monkeypatch.setitem(sys.modules, "picamera2",
types.SimpleNamespace(Picamera2=FakePicamera2))``."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

MODULE_3: tuple[tuple[int, int], list[dict[str, Any]]] = (
    (4608, 2592),
    [
        {"size": (1536, 864), "bit_depth": 10, "crop_limits": (768, 432, 3072, 1728), "fps": 120.1},
        {"size": (2304, 1296), "bit_depth": 10, "crop_limits": (0, 0, 4608, 2592), "fps": 56.0},
        {"size": (4608, 2592), "bit_depth": 10, "crop_limits": (0, 0, 4608, 2592), "fps": 14.4},
    ],
)
"""A Camera Module 3 (imx708, 16:9): its pixel array and its sensor modes as picamera2
lists them."""
MODULE_2: tuple[tuple[int, int], list[dict[str, Any]]] = (
    (3280, 2464),
    [
        {"size": (640, 480), "bit_depth": 10, "crop_limits": (1000, 752, 1280, 960), "fps": 206.7},
        {"size": (1640, 1232), "bit_depth": 10, "crop_limits": (0, 0, 3280, 2464), "fps": 41.9},
        {"size": (1920, 1080), "bit_depth": 10, "crop_limits": (680, 692, 1920, 1080), "fps": 47.6},
        {"size": (3280, 2464), "bit_depth": 10, "crop_limits": (0, 0, 3280, 2464), "fps": 21.2},
    ],
)
"""A Camera Module 2 (imx219, 4:3), alike."""
HQ: tuple[tuple[int, int], list[dict[str, Any]]] = (
    (4056, 3040),
    [
        {"size": (1332, 990), "bit_depth": 10, "crop_limits": (696, 528, 2664, 1980), "fps": 120.1},
        {"size": (2028, 1080), "bit_depth": 12, "crop_limits": (0, 440, 4056, 2160), "fps": 50.0},
        {"size": (2028, 1520), "bit_depth": 12, "crop_limits": (0, 0, 4056, 3040), "fps": 40.0},
        {"size": (4056, 3040), "bit_depth": 12, "crop_limits": (0, 0, 4056, 3040), "fps": 10.0},
    ],
)
"""The HQ camera (imx477, 4:3), alike."""


def yuv420_buffer(bgr: np.ndarray, stride: int) -> np.ndarray:
    """A BGR image as picamera2 gives a YUV420 stream: (height * 3 / 2, stride), the Y
    rows padded to ``stride`` and the U and V rows to half of it (padding bytes 255)."""
    h, w = bgr.shape[:2]
    flat = cv2.cvtColor(bgr, cv2.COLOR_BGR2YUV_I420).ravel()
    planes = (
        (flat[: h * w].reshape(h, w), stride),
        (flat[h * w : h * w * 5 // 4].reshape(h // 2, w // 2), stride // 2),
        (flat[h * w * 5 // 4 :].reshape(h // 2, w // 2), stride // 2),
    )
    padded = [
        np.pad(p, ((0, 0), (0, width - p.shape[1])), constant_values=255).ravel()
        for p, width in planes
    ]
    return np.concatenate(padded).reshape(h * 3 // 2, stride)


def fake_view(size: tuple[int, int]) -> np.ndarray:
    """What the fake camera sees, at ``size`` (width, height): four coloured quarters."""
    w, h = size
    image = np.empty((h, w, 3), np.uint8)
    image[: h // 2, : w // 2] = (40, 160, 60)
    image[: h // 2, w // 2 :] = (200, 60, 30)
    image[h // 2 :, : w // 2] = (30, 40, 210)
    image[h // 2 :, w // 2 :] = (220, 220, 220)
    return image


class FakeRequest:
    """A completed request: the streams' arrays, given back with ``release()``."""

    def __init__(self, arrays: dict[str, np.ndarray]) -> None:
        self.arrays, self.released = arrays, False

    def make_array(self, name: str) -> np.ndarray:
        if self.released:
            raise RuntimeError("request already released")
        return self.arrays[name].copy()

    def release(self) -> None:
        self.released = True


class FakePicamera2:
    """What PiCameraSource asks of picamera2, recorded in `calls`; the camera of
    `camera_module` (a Camera Module 3 unless set) that, while started, gives
    :func:`fake_view` at each configured stream's size: "RGB888" as (height, width, 3),
    "YUV420" as picamera2 gives it, each Y row padded by 64 bytes (:func:`yuv420_buffer`).
    `made` counts the objects made, `requests` the requests captured."""

    made = 0
    camera_module = MODULE_3
    LORES_PAD = 64

    def __init__(self) -> None:
        FakePicamera2.made += 1
        self.sensor_modes = self.camera_module[1]
        self.camera_properties = {"PixelArraySize": self.camera_module[0]}
        self.calls: list = []
        self.running = False
        self.requests: list[FakeRequest] = []
        self._arrays: dict[str, np.ndarray] = {}

    def create_video_configuration(self, **kw: Any) -> dict[str, Any]:
        return kw

    def configure(self, config: dict[str, Any]) -> None:
        self.calls.append(("configure", config))
        self._arrays = {}
        for name in ("main", "lores"):
            stream = config.get(name)
            if stream is None:
                continue
            view = fake_view(tuple(stream["size"]))
            if stream["format"] == "YUV420":
                view = yuv420_buffer(view, view.shape[1] + self.LORES_PAD)
            self._arrays[name] = view

    def start(self) -> None:
        self.running = True

    def stop(self) -> None:
        self.running = False

    def close(self) -> None:
        self.running = False

    def capture_metadata(self) -> dict[str, Any]:
        return {"ExposureTime": 12000, "AnalogueGain": 2.5, "ColourGains": (1.8, 1.4), "Lux": 300.0}

    def set_controls(self, controls: dict[str, Any]) -> None:
        self.calls.append(("set_controls", controls))

    def capture_array(self, stream: str) -> np.ndarray:
        if not self.running:
            raise RuntimeError("camera not running")
        return self._arrays[stream].copy()

    def capture_request(self) -> FakeRequest:
        if not self.running:
            raise RuntimeError("camera not running")
        request = FakeRequest(self._arrays)
        self.requests.append(request)
        return request
