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

from zonkcam.calibration.calibrate import Calibration
from zonkcam.errors import UserError

DIE_PX_FOR_DETECTOR = 28.0
"""Measured on the demo game (4,000 frames each): at 22 px a die showing 1 in the keep
strip was missed often enough for 11 questions in 89 rolls; at 28 px, none in 64."""


def detector_size(cal: Calibration, lo: int = 320, hi: int = 1024) -> int:
    """Detector input size (a multiple of 32) showing a die at ~28 px for this calibration."""
    die_px = cal.px_per_mm * cal.geometry.die_mm
    size = max(cal.image_size) * DIE_PX_FOR_DETECTOR / max(die_px, 1e-6)
    return int(min(hi, max(lo, math.ceil(size / 32) * 32)))


class OnnxReader:
    """Reads dice with the shipped ONNX models (zonkcam.vision); a table Reader."""

    def __init__(self, model_dir: str | Path | None = None, threads: int | None = None,
                 det_size: int | None = None) -> None:
        from zonkcam.vision.model import load_model  # noqa: PLC0415 - onnxruntime is heavy
        from zonkcam.vision.reader import DEFAULT_SETTINGS  # noqa: PLC0415

        try:
            self.model = load_model(model_dir, threads, second_opinions=False)
        except FileNotFoundError as exc:
            raise UserError(f"{exc}; reinstall zonkcam or rebuild the model with "
                            "zonkcam train") from None
        # no second, half-turned reading of unsure dice at the table: it is for photos.
        # In three demo games it asked about a missed die 4 times in 780 rolls, against
        # once in 715 without it (README, "The dice reader"). Nor second opinions: they
        # were chosen on photos, and the table's frames come 10 a second. Nor the
        # detector's mirrored views (session 12): the demo table reads 60 throws of 60
        # right with or without them (scripts/bench_table.py --seed 7), and they cost
        # about a detector run more a frame. Nor the tighter second crop of a doubted
        # candidate (session 19): chosen on photos from elsewhere, where boxes take in
        # side faces; at the table the dice are seen from above at a known size.
        self.settings = dataclasses.replace(
            DEFAULT_SETTINGS,
            recheck_unsure=False,
            second_opinion=False,
            first_look_mirrors=(),
            second_look_mirrors=(),
            big_look_size=0,  # calibration sizes the dice: no close-ups, no far dice
            tiny_look_size=0,
            recrop_shrink=0,
        )
        if det_size is not None:
            self.settings = dataclasses.replace(self.settings, det_size=det_size)

    @classmethod
    def for_table(cls, cal: Calibration, model_dir: str | Path | None = None,
                  threads: int | None = None) -> OnnxReader:
        return cls(model_dir, threads, detector_size(cal))

    def __call__(self, image: np.ndarray) -> Sequence:
        from zonkcam.vision.reader import read_dice  # noqa: PLC0415

        return read_dice(image, self.model, self.settings)
