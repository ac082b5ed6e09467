"""A drawn camera frame (the mat's rolling colour, square dice with pips) for screenshots,
tests and demos.

No photos: every pixel is drawn here, and the dice positions are known exactly.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from zonkcam.display.view import CameraView
from zonkcam.game.dice import DIE_COLOURS, Die
from zonkcam.mat.layout import ROLLING_COLOUR
from zonkcam.vision.die import Reading

MAT_BGR = ROLLING_COLOUR
"""The printed mat's rolling area, as the camera shows it."""
_BODY_BGR = {c.name: c.rgb[::-1] for c in DIE_COLOURS}
_BODY_BGR[None] = _BODY_BGR["white"]
_PIPS = {
    1: [(1, 1)],
    2: [(0, 0), (2, 2)],
    3: [(0, 0), (1, 1), (2, 2)],
    4: [(0, 0), (0, 2), (2, 0), (2, 2)],
    5: [(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)],
    6: [(0, 0), (1, 0), (2, 0), (0, 2), (1, 2), (2, 2)],
}


def mat_view(
    values: Sequence[int],
    *,
    colors: Sequence[str | None] | None = None,
    confidences: Sequence[float] | None = None,
    size: tuple[int, int] = (640, 480),
    die: int = 70,
) -> CameraView:
    """A frame of ``size`` (width, height) showing ``values`` as dice in a loose row."""
    width, height = size
    frame = np.zeros((height, width, 3), np.uint8)
    frame[:] = MAT_BGR
    colors = list(colors) if colors is not None else [None] * len(values)
    confidences = list(confidences) if confidences is not None else [0.97] * len(values)
    step = width // (len(values) + 1) if values else width
    seen = []
    for i, value in enumerate(values):
        x = step * (i + 1) - die // 2
        y = height // 2 - die // 2 + (die // 2 if i % 2 else -die // 3)
        _draw_die(frame, x, y, die, value, colors[i])
        seen.append(Reading(Die(value, colors[i]), confidences[i], (x, y, x + die, y + die)))
    return CameraView(frame, tuple(seen))


def _draw_die(frame: np.ndarray, x: int, y: int, size: int, value: int, color: str | None) -> None:
    body = _BODY_BGR.get(color, _BODY_BGR[None])
    frame[y : y + size, x : x + size] = body
    pip = (20, 20, 20) if color not in ("black", "blue", "red", "green") else (245, 245, 245)
    r = max(2, size // 10)
    for row, col in _PIPS[value]:
        cx = x + size // 4 + col * size // 4
        cy = y + size // 4 + row * size // 4
        frame[cy - r : cy + r, cx - r : cx + r] = pip
