"""What changed in the picture: motion from frame to frame, and the still table against
how it looked when it last settled.

Both work on small, slightly blurred colour copies of the frames (``motion_width`` px
wide), inside the part of the picture where dice can lie: the mat and a margin round it
(a die thrown off the mat lands there). Whatever happens further out (people, glasses,
phones at the edges of the picture) is not the table's business.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from zonkcam.mat.calibrate import Calibration

Region = tuple[int, int, int, int]
"""A part of the frame to read (x0, y0, x1, y1 in frame px, x1/y1 exclusive)."""

MARGIN_MM = 35.0
"""How far round the mat dice are looked for (a die thrown off the mat)."""
SPOT_REACH = 0.35
"""A spot of fine change (a pip) counts as change this many dice round it: the die it
belongs to."""
MIDDLE = 0.35
"""How much of a die's box is its middle, each way from its centre as a share of the box:
the box holds some of the table round the die, which changes when a neighbour moves."""
REGION_DICE = 0.3
"""A patch of change smaller than this many dice' areas is not worth reading."""
REGION_MARGIN = 0.75
"""A part of the frame to read reaches this many dice past its patch of change, so that
a die half in the patch is read whole."""


class TableView:
    """The table's part of the picture, at a small size, for one calibration."""

    def __init__(self, cal: Calibration, width: int = 320) -> None:
        self.cal = cal
        w, h = cal.image_size
        self.scale = width / w
        self.size = (width, max(1, int(round(h * self.scale))))
        g = cal.geometry
        m = MARGIN_MM
        corners = cal.mat_to_image(
            [
                [-m, -m],
                [g.width_mm + m, -m],
                [g.width_mm + m, g.height_mm + m],
                [-m, g.height_mm + m],
            ]
        )
        self.roi = np.zeros((self.size[1], self.size[0]), np.uint8)
        cv2.fillConvexPoly(self.roi, np.round(corners * self.scale).astype(np.int32), 255)
        xs, ys = corners[:, 0], corners[:, 1]
        self.roi_box: Region = (
            max(0, int(xs.min())),
            max(0, int(ys.min())),
            min(w, int(np.ceil(xs.max()))),
            min(h, int(np.ceil(ys.max()))),
        )
        self.die_px = cal.px_per_mm * g.die_mm
        """A die's side in frame px."""

    def small(self, image: np.ndarray) -> np.ndarray:
        """The frame at the small size, blurred a little (sensor noise, JPEG blocks)."""
        out = cv2.resize(image, self.size, interpolation=cv2.INTER_AREA)
        return cv2.GaussianBlur(out, (3, 3), 0)

    def difference(self, a: np.ndarray, b: np.ndarray, level: int) -> np.ndarray:
        """Where two small frames differ by more than ``level`` in any colour, inside the
        table's part of the picture (uint8 0/255)."""
        c0, c1, c2 = cv2.split(cv2.absdiff(a, b))
        diff = cv2.max(cv2.max(c0, c1), c2)
        _, moved = cv2.threshold(diff, level, 255, cv2.THRESH_BINARY)
        return cv2.bitwise_and(moved, self.roi)

    def changes(
        self,
        base: np.ndarray | None,
        now: np.ndarray,
        level: int,
        fine: tuple[np.ndarray, np.ndarray, TableView] | None = None,
        fine_level: int = 40,
    ) -> ChangeMap:
        """Where the still table differs from how it looked when it last settled (``base``;
        None: everything counts as changed). A light that changed over the whole table
        (a lamp, the evening) is evened out first, colour by colour.

        ``fine`` (the base and the frame now at a finer size, and that size's view) adds
        what only shows there: a die the colour of the mat it lies on changes the picture
        little but its pips, and pips are too small to see at the small size. Each patch of
        fine change (over ``fine_level``, specks left out) counts with the die round it."""
        if base is None:
            return ChangeMap(self.roi.copy(), self)
        gains = self._gains(base, now)
        mask = self._changed(base, now, level, gains)
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
        if fine is not None:
            fine_base, fine_now, view = fine
            spots = view._changed(fine_base, fine_now, fine_level, gains)
            spots = cv2.morphologyEx(spots, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
            r = max(1, int(round(view.die_px * view.scale * SPOT_REACH)))
            disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
            spots = cv2.bitwise_and(cv2.dilate(spots, disc), view.roi)
            spots = cv2.resize(spots, self.size, interpolation=cv2.INTER_AREA)
            mask = cv2.bitwise_or(mask, np.where(spots >= 128, 255, 0).astype(np.uint8))
        return ChangeMap(mask, self)

    def _gains(self, base: np.ndarray, now: np.ndarray) -> np.ndarray:
        """How much brighter ``now`` is than ``base``, colour by colour (the light)."""
        inside = self.roi > 0
        gains = []
        for c in range(3):
            a = base[..., c][inside].astype(np.float32)
            b = now[..., c][inside].astype(np.float32)
            ok = (a > 20) & (b > 20)
            gains.append(float(np.median(b[ok] / a[ok])) if ok.sum() > 100 else 1.0)
        return np.array(gains, np.float32)

    def _changed(
        self, base: np.ndarray, now: np.ndarray, level: int, gains: np.ndarray
    ) -> np.ndarray:
        """Where ``now`` differs from ``base`` by over ``level``, the light evened out."""
        evened = base.astype(np.float32) * gains
        return self.difference(np.clip(evened, 0, 255).astype(np.uint8), now, level)


@dataclass
class ChangeMap:
    """Where the picture changed (small-frame mask) and what that means for the frame."""

    mask: np.ndarray
    view: TableView

    @property
    def dice(self) -> float:
        """How much changed, in dice' areas."""
        die = self.view.die_px * self.view.scale
        return float(np.count_nonzero(self.mask)) / max(1e-6, die * die)

    def share(self, bbox: tuple[float, float, float, float]) -> float:
        """The share of a box (frame px) that changed; its middle part, as a die's box holds
        some of the table round it."""
        s = self.view.scale
        x0, y0, x1, y1 = (v * s for v in bbox)
        cx, cy, hw, hh = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) * MIDDLE, (y1 - y0) * MIDDLE
        h, w = self.mask.shape
        a, b = max(0, int(cx - hw)), max(0, int(cy - hh))
        c, d = min(w, int(np.ceil(cx + hw)) + 1), min(h, int(np.ceil(cy + hh)) + 1)
        window = self.mask[b:d, a:c]
        return float(np.count_nonzero(window)) / window.size if window.size else 1.0

    def regions(self, most: int = 3) -> list[Region]:
        """The parts of the frame to read: each changed patch with a die's margin round it
        (so a die half in the patch is read whole), overlapping parts merged; one box round
        them all when there are more than ``most``."""
        v = self.view
        if not np.any(self.mask):
            return []
        die = v.die_px * v.scale
        grown = cv2.dilate(self.mask, np.ones((3, 3), np.uint8), iterations=max(1, int(die / 3)))
        n, _, stats, _ = cv2.connectedComponentsWithStats(grown, connectivity=8)
        boxes = []
        for i in range(1, n):
            x, y, w, h, area = stats[i]
            if area < die * die * REGION_DICE:
                continue
            boxes.append(self._to_frame((x, y, x + w, y + h)))
        boxes = _merge(boxes)
        if len(boxes) > most:
            boxes = [
                (
                    min(b[0] for b in boxes),
                    min(b[1] for b in boxes),
                    max(b[2] for b in boxes),
                    max(b[3] for b in boxes),
                )
            ]
        return boxes

    def _to_frame(self, box: tuple[int, int, int, int]) -> Region:
        v = self.view
        s, pad = v.scale, v.die_px * REGION_MARGIN
        rx0, ry0, rx1, ry1 = v.roi_box
        return (
            max(rx0, int(box[0] / s - pad)),
            max(ry0, int(box[1] / s - pad)),
            min(rx1, int(np.ceil(box[2] / s + pad))),
            min(ry1, int(np.ceil(box[3] / s + pad))),
        )


def _merge(boxes: list[Region]) -> list[Region]:
    """Boxes that overlap, merged until none do."""
    boxes = list(boxes)
    merged = True
    while merged:
        merged = False
        for i in range(len(boxes)):
            for j in range(i + 1, len(boxes)):
                a, b = boxes[i], boxes[j]
                if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                    boxes[i] = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
                    del boxes[j]
                    merged = True
                    break
            if merged:
                break
    return boxes
