"""The dice reader: an image in, every die in it out (value, colour, confidence, box).
Pure: the models are files it loads, and nothing else is read or shown.

    from zonkcam.vision import load_model, read_dice

    model = load_model()                 # the shipped ONNX models (onnxruntime)
    for reading in read_dice(image, model):
        print(reading.value, reading.color, reading.confidence, reading.bbox)

The names below are loaded when first used, so that importing one module of the reader
(the image decoder, say) does not start onnxruntime.
"""

from __future__ import annotations

import importlib
from typing import Any

_WHERE = {
    "Reading": "zonkcam.vision.die",
    "Sight": "zonkcam.vision.die",
    "DiceModel": "zonkcam.vision.model",
    "load_model": "zonkcam.vision.model",
    "ReaderSettings": "zonkcam.vision.reader",
    "read_dice": "zonkcam.vision.reader",
    "read_at": "zonkcam.vision.reader",
    "TaughtDice": "zonkcam.vision.examples",
    "ImageFileError": "zonkcam.vision.imageio",
    "load_image": "zonkcam.vision.imageio",
}

__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module 'zonkcam.vision' has no attribute {name!r}")
    return getattr(importlib.import_module(_WHERE[name]), name)


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
