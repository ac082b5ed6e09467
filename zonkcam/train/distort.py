"""Photo distortions for `zonkcam eval --distort`: how the reader holds up to what another
camera or table does to a photo (blur, exposure, colour casts, JPEG, resolution,
orientation). Pure functions over arrays: each gives the distorted image and the truth
boxes moved to match it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

Box = tuple[float, float, float, float]

DISTORTIONS: dict[str, tuple[float | None, str]] = {
    "blur": (1.5, "Gaussian blur, sigma in px (a soft lens, focus missed)"),
    "dark": (1.8, "gamma on 0-1 (under-exposed)"),
    "bright": (1.35, "gain, then +20 and clipped (over-exposed)"),
    "warm": (0.3, "blue down by S, red up by S/2 (tungsten light)"),
    "cool": (0.3, "red down by S, blue up by S/2 (daylight, shade)"),
    "jpeg": (25.0, "JPEG quality (1-100)"),
    "scale": (0.5, "resize factor (0.5: half the pixels each way)"),
    "grey": (None, "grey levels only"),
    "rot90": (None, "a quarter turn clockwise"),
    "rot270": (None, "a quarter turn anticlockwise"),
}
"""Name -> (default strength, what it does)."""


@dataclass(frozen=True)
class Distortion:
    name: str
    strength: float | None = None

    def __str__(self) -> str:
        return self.name if self.strength is None else f"{self.name}={self.strength:g}"


def parse_distortion(text: str) -> Distortion:
    """'blur', 'blur=2' -> Distortion; ValueError with a message a person can act on."""
    name, _, value = text.partition("=")
    name = name.strip()
    if name not in DISTORTIONS:
        raise ValueError(f"unknown distortion {name!r}; one of: {', '.join(DISTORTIONS)}")
    default, _ = DISTORTIONS[name]
    if default is None:
        if value:
            raise ValueError(f"{name} takes no strength")
        return Distortion(name)
    if not value:
        return Distortion(name, default)
    try:
        strength = float(value)
    except ValueError:
        raise ValueError(f"{name}={value}: the strength must be a number") from None
    limits = {"jpeg": (1, 100), "scale": (0.05, 8), "warm": (0, 1), "cool": (0, 1)}
    lo, hi = limits.get(name, (0, 100))
    if not lo <= strength <= hi or (name in ("blur", "dark", "bright") and strength <= 0):
        raise ValueError(f"{name}={value}: out of range ({lo}-{hi})")
    return Distortion(name, strength)


def distort(image: np.ndarray, boxes: Sequence[Box], d: Distortion) -> tuple[np.ndarray, list[Box]]:
    """A BGR uint8 image and its truth boxes, distorted by `d`."""
    s = d.strength
    h, w = image.shape[:2]
    out_boxes = [tuple(float(v) for v in b) for b in boxes]
    f = image.astype(np.float32)
    if d.name == "blur":
        out = cv2.GaussianBlur(image, (0, 0), s)
    elif d.name == "dark":
        out = 255.0 * (f / 255.0) ** s
    elif d.name == "bright":
        out = f * s + 20.0
    elif d.name == "warm":
        out = f * np.array([1 - s, 1.0, 1 + s / 2], np.float32)
    elif d.name == "cool":
        out = f * np.array([1 + s / 2, 1.0, 1 - s], np.float32)
    elif d.name == "jpeg":
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, round(s)])
        out = cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else image
    elif d.name == "scale":
        size = (max(1, round(w * s)), max(1, round(h * s)))
        area = s < 1
        out = cv2.resize(image, size, interpolation=cv2.INTER_AREA if area else cv2.INTER_CUBIC)
        fx, fy = size[0] / w, size[1] / h
        out_boxes = [(x0 * fx, y0 * fy, x1 * fx, y1 * fy) for x0, y0, x1, y1 in out_boxes]
    elif d.name == "grey":
        out = cv2.cvtColor(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    elif d.name == "rot90":
        out = cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE)
        # (x, y) -> (h - y, x): the old bottom edge is the new left one
        out_boxes = [(h - y1, x0, h - y0, x1) for x0, y0, x1, y1 in out_boxes]
    elif d.name == "rot270":
        out = cv2.rotate(image, cv2.ROTATE_90_COUNTERCLOCKWISE)
        # (x, y) -> (y, w - x): the old right edge is the new top one
        out_boxes = [(y0, w - x1, y1, w - x0) for x0, y0, x1, y1 in out_boxes]
    else:  # pragma: no cover - parse_distortion admits only the names above
        raise ValueError(d.name)
    return np.clip(out, 0, 255).astype(np.uint8), out_boxes
