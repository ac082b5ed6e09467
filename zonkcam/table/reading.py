"""The learned dice reader as the table uses it: model loaded once, one call per frame.

The table reads with the same reader and settings as `zonkcam read` (DEFAULT_SETTINGS);
what it adds is what it knows: the calibration tells how big a die looks, so the
detector's input is sized to show each die at ReaderSettings.die_px (read_dice's
`die_px`), and only the parts of a frame that changed are read.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from zonkcam.errors import UserError
from zonkcam.mat.calibrate import Calibration


class OnnxReader:
    """Reads dice with the shipped ONNX models (zonkcam.vision); a table Reader.

    Given a region of the frame it reads only that. ``die_px``: how many px a die spans
    in the frame (from the calibration), which sizes the detector's input."""

    def __init__(
        self,
        model_dir: str | Path | None = None,
        threads: int | None = None,
        die_px: float | None = None,
    ) -> None:
        from zonkcam.vision.model import load_model
        from zonkcam.vision.reader import DEFAULT_SETTINGS

        try:
            self.model = load_model(model_dir, threads)
        except FileNotFoundError as exc:
            raise UserError(
                f"{exc}; reinstall zonkcam or rebuild the model with zonkcam train"
            ) from None
        self.settings = DEFAULT_SETTINGS
        self.die_px = die_px

    @classmethod
    def for_table(
        cls, cal: Calibration, model_dir: str | Path | None = None, threads: int | None = None
    ) -> OnnxReader:
        return cls(model_dir, threads, cal.px_per_mm * cal.geometry.die_mm)

    def __call__(
        self, image: np.ndarray, region: tuple[int, int, int, int] | None = None
    ) -> Sequence:
        from zonkcam.vision.reader import read_dice

        if region is None:
            return read_dice(image, self.model, self.settings, self.die_px)
        x0, y0, x1, y1 = region
        crop = image[y0:y1, x0:x1]
        if crop.size == 0:
            return []
        return [
            dataclasses.replace(
                d, bbox=(d.bbox[0] + x0, d.bbox[1] + y0, d.bbox[2] + x0, d.bbox[3] + y0)
            )
            for d in read_dice(crop, self.model, self.settings, self.die_px)
        ]
