"""A stand-in for picamera2's Picamera2, for testing the Pi camera source off a Pi:
install it with ``monkeypatch.setitem(sys.modules, "picamera2",
types.SimpleNamespace(Picamera2=FakePicamera2))``."""

from __future__ import annotations

from typing import Any

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


class FakePicamera2:
    """What PiCameraSource asks of picamera2, recorded in `calls`; a Camera Module 3 that
    gives black 1280x720 frames while started. `made` counts the objects made."""

    made = 0

    def __init__(self) -> None:
        FakePicamera2.made += 1
        self.sensor_modes = MODULE_3[1]
        self.camera_properties = {"PixelArraySize": MODULE_3[0]}
        self.calls: list = []
        self.running = False

    def create_video_configuration(self, **kw: Any) -> dict[str, Any]:
        return kw

    def configure(self, config: dict[str, Any]) -> None:
        self.calls.append(("configure", config))

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
        return np.zeros((720, 1280, 3), np.uint8)
