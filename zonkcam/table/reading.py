"""The learned dice reader as the table uses it: model loaded once, one call per frame.

At the table the calibration tells how big a die looks, so the detector's input size is
chosen to show each die at about :data:`DIE_PX_FOR_DETECTOR` pixels: small dice in a
wide view are not lost, and big ones cost no more than they need.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from zonkcam.errors import UserError
from zonkcam.mat.calibrate import Calibration

DIE_PX_FOR_DETECTOR = 28.0
"""Measured on the demo game (4,000 frames each): at 22 px a die showing 1 in the keep
strip was missed often enough for 11 questions in 89 rolls; at 28 px, none in 64."""


def detector_size(cal: Calibration, lo: int = 320, hi: int = 1024) -> int:
    """Detector input size (a multiple of 32) showing a die at ~28 px for this calibration."""
    return _fit(max(cal.image_size), cal.px_per_mm * cal.geometry.die_mm, lo, hi)


def _fit(side: float, die_px: float, lo: int, hi: int) -> int:
    size = side * DIE_PX_FOR_DETECTOR / max(die_px, 1e-6)
    return int(min(hi, max(lo, math.ceil(size / 32) * 32)))


MIN_REGION_DETECTOR = 96
"""The smallest detector input for a part of the frame (a die or two that moved)."""


class OnnxReader:
    """Reads dice with the shipped ONNX models (zonkcam.vision); a table Reader.

    Given a region of the frame it reads only that, with the detector's input sized so a
    die spans about DIE_PX_FOR_DETECTOR px (``die_px`` says how big a die looks)."""

    def __init__(self, model_dir: str | Path | None = None, threads: int | None = None,
                 det_size: int | None = None, die_px: float | None = None) -> None:
        from zonkcam.vision.model import load_model  # noqa: PLC0415 - onnxruntime is heavy
        from zonkcam.vision.reader import DEFAULT_SETTINGS  # noqa: PLC0415

        try:
            self.model = load_model(model_dir, threads, second_opinions=False)
        except FileNotFoundError as exc:
            raise UserError(f"{exc}; reinstall zonkcam or rebuild the model with "
                            "zonkcam train") from None
        # The table's dice are seen from above at a size the calibration gives, ten frames
        # a second: no turned or mirrored second readings, no second opinions, no looks
        # for tiny, crowded or close-up dice (those are for photos from anywhere).
        self.settings = dataclasses.replace(
            DEFAULT_SETTINGS,
            recheck_unsure=False,
            second_opinion=False,
            first_look_mirrors=(),
            second_look_mirrors=(),
            big_look_size=0,
            tiny_look_size=0,
            recrop_shrink=0,
        )
        if det_size is not None:
            self.settings = dataclasses.replace(self.settings, det_size=det_size)
        self.die_px = die_px

    @classmethod
    def for_table(cls, cal: Calibration, model_dir: str | Path | None = None,
                  threads: int | None = None) -> OnnxReader:
        return cls(model_dir, threads, detector_size(cal), cal.px_per_mm * cal.geometry.die_mm)

    def __call__(self, image: np.ndarray, region: tuple[int, int, int, int] | None = None
                 ) -> Sequence:
        from zonkcam.vision.reader import read_dice  # noqa: PLC0415

        if region is None:
            return read_dice(image, self.model, self.settings)
        x0, y0, x1, y1 = region
        crop = image[y0:y1, x0:x1]
        if crop.size == 0:
            return []
        settings = self.settings
        if self.die_px:
            settings = dataclasses.replace(settings, det_size=_fit(
                max(crop.shape[:2]), self.die_px, MIN_REGION_DETECTOR, settings.det_size))
        return [dataclasses.replace(d, bbox=(d.bbox[0] + x0, d.bbox[1] + y0,
                                             d.bbox[2] + x0, d.bbox[3] + y0))
                for d in read_dice(crop, self.model, settings)]
