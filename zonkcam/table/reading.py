"""The learned dice reader as the table uses it: model loaded once, one call per frame."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from zonkcam.errors import UserError


class OnnxReader:
    """Reads dice with the shipped ONNX models (zonkcam.vision); a table Reader."""

    def __init__(self, model_dir: str | Path | None = None, threads: int | None = None) -> None:
        from zonkcam.vision.model import load_model  # noqa: PLC0415 - onnxruntime is heavy

        try:
            self.model = load_model(model_dir, threads)
        except FileNotFoundError as exc:
            raise UserError(f"{exc}; reinstall zonkcam or rebuild the model with "
                            "zonkcam train") from None

    def __call__(self, image: np.ndarray) -> Sequence:
        from zonkcam.vision.reader import read_dice  # noqa: PLC0415

        return read_dice(image, self.model)
