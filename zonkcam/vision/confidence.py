"""A die's confidence: how likely it is that a kept die is a die and its value is right.

Pure. The value net's own figure, P(a die) x P(its value | a die), is the first of a
few clues; a calibration fitted on real photos of dice the nets never saw
(zonkcam.train.confidence, `zonkcam train confidence`) weighs them: a logistic model of
the chance that the die is read right, from

- the logit of the value net's figure,
- how far the read value leads the runner-up (log P(value) - log P(second value)),
- the detector's heat at the die (log),
- the die's size in the image (log of its box's longer side over 32 px).

The calibration ships beside the value net as models/dice_confidence.json;
`IDENTITY` (the value net's figure as it is) stands in where none is given.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

CONFIRM_BELOW = 0.6
"""The confidence bar: dice read with less confidence than this are flagged with a '?' for
the players to confirm (`zonkcam play --confirm-below`; `zonkcam eval --confirm-below BAR`
counts what a bar flags)."""
FEATURES = ("value_logit", "lead", "log_heat", "log_size")
"""The clues, in the order of Calibration.weights."""
EPS = 1e-6


def features(
    probs: np.ndarray, values: np.ndarray, heat: np.ndarray, sides: np.ndarray
) -> np.ndarray:
    """(N, len(FEATURES)) clues of N kept dice: the value net's (N, 7) probabilities,
    the values read (1-6), the detector's heat (N,) and the boxes' longer sides (N,
    image px)."""
    p = np.asarray(probs, np.float64)
    faces = np.clip(p[:, 1:], EPS, 1.0)
    faces = faces / faces.sum(axis=1, keepdims=True)
    rows = np.arange(len(p))
    picked = faces[rows, np.asarray(values) - 1]
    raw = np.clip((1.0 - p[:, 0]) * picked, EPS, 1 - EPS)
    others = faces.copy()
    others[rows, np.asarray(values) - 1] = 0.0
    lead = np.log(picked) - np.log(np.maximum(others.max(axis=1), EPS))
    log_heat = np.log(np.clip(np.asarray(heat, np.float64), EPS, 1.0))
    log_size = np.log(np.maximum(np.asarray(sides, np.float64), 1.0) / 32.0)
    return np.stack([np.log(raw / (1 - raw)), lead, log_heat, log_size], axis=1)


@dataclass(frozen=True)
class Calibration:
    """confidence = sigmoid(bias + weights . features)."""

    weights: tuple[float, ...] = (1.0, 0.0, 0.0, 0.0)
    bias: float = 0.0
    fitted_on: str = ""
    """What it was fitted on, in words (the model card gives the figures)."""

    def confidence_of(self, clues: np.ndarray) -> np.ndarray:
        """(N,) confidences of N kept dice's (N, len(FEATURES)) clues."""
        if len(clues) == 0:
            return np.zeros(0)
        z = np.asarray(clues) @ np.asarray(self.weights) + self.bias
        return 1.0 / (1.0 + np.exp(-np.clip(z, -40, 40)))

    def to_json(self) -> dict:
        return {
            "features": list(FEATURES),
            "weights": [round(w, 6) for w in self.weights],
            "bias": round(self.bias, 6),
            "fitted_on": self.fitted_on,
        }

    @classmethod
    def from_json(cls, data: object) -> Calibration:
        """The calibration in a parsed dice_confidence.json; ValueError names what is
        wrong with it."""
        if not isinstance(data, Mapping):
            raise ValueError("not a JSON object")
        unknown = set(data) - {"features", "weights", "bias", "fitted_on"}
        if unknown:
            raise ValueError(f"unknown key {sorted(unknown)[0]!r}")
        if list(data.get("features", [])) != list(FEATURES):
            raise ValueError(f"'features' must be {list(FEATURES)}")
        weights, bias = data.get("weights"), data.get("bias")
        numbers = [*weights] if isinstance(weights, list) else []
        if len(numbers) != len(FEATURES) or not isinstance(bias, int | float):
            raise ValueError(f"'weights' must be {len(FEATURES)} numbers and 'bias' a number")
        numbers.append(bias)
        if not all(
            isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
            for v in numbers
        ):
            raise ValueError("'weights' and 'bias' must be finite numbers")
        fitted_on = data.get("fitted_on", "")
        if not isinstance(fitted_on, str):
            raise ValueError("'fitted_on' must be text")
        return cls(tuple(float(w) for w in weights), float(bias), fitted_on)


IDENTITY = Calibration()
"""The value net's own figure, P(a die) x P(its value | a die), unchanged."""
