"""Name a die's body colour from pixels (no learning).

The light's colour is removed first with a grey-pixel estimate taken from the whole
frame (the mean colour of its brightest near-neutral pixels; robust to warm and cool
lamps), then the die body is separated from its pips
(whether darker or lighter, the pips are separate spots, and the body the one patch
around them) and its median hue, saturation and value are named.
"""

from __future__ import annotations

import cv2
import numpy as np

NEUTRAL = 0.4
"""A pixel whose saturation ((max - min) / max of its channels) is under this is near
neutral: it shows the light's colour."""
GAIN_SHARE = 0.9
"""The share of the estimated correction applied (a little short of it: a mat that is not
quite grey pulls the estimate)..."""
GAINS = (0.7, 1.45)
"""... and the least and most gain given any channel."""


def white_balance_gains(image: np.ndarray) -> np.ndarray:
    """Per-channel (B, G, R) gains that make the frame's bright-ish average neutral."""
    small = image
    if image.shape[0] * image.shape[1] > 80 * 60:
        small = cv2.resize(image, (80, 60), interpolation=cv2.INTER_AREA)
    px = small.reshape(-1, 3).astype(np.float32)
    # per-channel arithmetic: numpy's reductions along a 3-wide axis are slow
    b, g, r = px[:, 0], px[:, 1], px[:, 2]
    lum = (b + g + r) / 3
    hi, lo = np.maximum(np.maximum(b, g), r), np.minimum(np.minimum(b, g), r)
    # ignore clipped highlights and deep shadows
    keep = (lum > 20) & (lo < 250)
    if keep.sum() < 50:
        return np.ones(3, np.float32)
    px, lum, hi, lo = px[keep], lum[keep], hi[keep], lo[keep]
    # grey-pixel estimate: the light's colour is the mean colour of near-neutral pixels
    # (strongly coloured mats and dice are left out, so they do not pull the estimate)
    sat = (hi - lo) / (hi + 1e-3)
    grey = sat < NEUTRAL
    if grey.sum() < 30:
        return np.ones(3, np.float32)
    # the brightest near-neutral things (white dice, a white tray, paper) are the best
    # reference; a dull mat that the light happens to make neutral is not
    cand, cl = px[grey], lum[grey]
    k = min(len(cl), max(30, len(cl) // 70))
    top = np.argpartition(-cl, k - 1)[:k]
    ref = cand[top].mean(axis=0) + 1e-3
    gains = ref.mean() / ref
    return np.clip(1 + GAIN_SHARE * (gains - 1), *GAINS).astype(np.float32)


SHADE_TIE = 0.8
"""The bright side of the split is the body when its largest patch is at least this
share of the dark side's."""


def _body_pixels(crop: np.ndarray) -> np.ndarray:
    h, w = crop.shape[:2]
    square = crop[h // 4 : h - h // 4, w // 4 : w - w // 4]
    centre = square.reshape(-1, 3)
    if len(centre) < 4:
        return crop.reshape(-1, 3)
    c = centre.astype(np.float32)
    lum = (c[:, 0] + c[:, 1] + c[:, 2]) / 3
    lum8 = lum.astype(np.uint8)  # Otsu's threshold is in these whole grey levels
    thr, _ = cv2.threshold(lum8.reshape(-1, 1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    bright = lum8 > thr
    if abs(float(lum[bright].mean() if bright.any() else 0) - float(lum.mean())) < 8:
        return centre
    # the body is the side of the split with the largest connected patch: it surrounds
    # the pips, which are separate spots, however much of the face they cover
    bright2d = bright.reshape(square.shape[:2])
    lit, dim = _largest_patch(bright2d), _largest_patch(~bright2d)
    # about as large: a face in light and one in shade, both the body; the lit one
    # shows its colour better
    body = bright if lit >= SHADE_TIE * dim else ~bright
    return centre[body]


def _largest_patch(mask: np.ndarray) -> int:
    """Pixels in the largest 4-connected patch of a 2-D mask."""
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=4)
    return int(stats[1:, cv2.CC_STAT_AREA].max()) if n > 1 else 0


def name_color(bgr: tuple[float, float, float] | np.ndarray) -> str:
    """The name of one BGR colour (already white-balanced)."""
    px = np.clip(np.asarray(bgr, np.float32).reshape(1, 1, 3), 0, 255).astype(np.uint8)
    hue, sat, val = (int(v) for v in cv2.cvtColor(px, cv2.COLOR_BGR2HSV_FULL)[0, 0])
    # hue in 0-255 (FULL): red 0, yellow ~43, green ~85, cyan ~128, blue ~170, magenta ~213
    if val < 55 or (val < 90 and sat < 110):
        return "black"
    if sat < 60 or (sat < 85 and val > 150):  # (any darker is black, above)
        return "white"
    h = hue * 360 / 256
    if h < 14 or h >= 342:
        return "pink" if (sat < 140 and val > 170) else "red"
    if h < 40:
        return "orange"
    if h < 76:
        return "yellow"
    if h < 170:
        return "green"
    if h < 255:
        return "blue"
    if h < 300:
        return "purple"
    return "pink"


def crop_color(crop: np.ndarray, gains: np.ndarray | None = None) -> str:
    """Body colour name of the die filling a small BGR crop (e.g. the value net's 64 px
    crop, whose 12% margin the centre sampling skips)."""
    body = _body_pixels(crop).astype(np.float32)
    if gains is not None:
        body = body * gains
    return name_color(np.median(body, axis=0))
