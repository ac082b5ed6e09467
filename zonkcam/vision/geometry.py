"""Boxes and die distances, written once for the reader, the table and the lab.

Pure (numpy only). A box is ``(x0, y0, x1, y1)`` in image px, a batch of boxes an
``(N, 4)`` array; the batch functions compare every box of one batch with every box of
another at once, as supervision's ``box_iou_batch`` does, and keep the arrays' dtype.

    from zonkcam.vision.geometry import box_iou_batch, die_at_box

    box_iou_batch(found, truth)     # (len(found), len(truth)) IoU
    die_at_box(boxes, box)          # index of the die lying at `box`, or None

The die distances say how near two sightings must lie to be one die, as a share of a
die's side (its calibrated side in mat mm on the table, its box's longer side in a
picture). Two dice lying flat lie a whole die apart or more, centre to centre, so each
is under one die; each answers its own question, and so has its own figure, why beside it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

Box = tuple[float, float, float, float]
"""(x0, y0, x1, y1), image px."""

UNION_FLOOR = 1e-6
"""Areas (px²) are divided by at least this, so that boxes with no area overlap by 0
rather than by NaN."""

# -- die distances (in dice) ---------------------------------------------------------------

SAME_SPOT = 0.5
"""A die seen again in a scene that did not move, its centre within half a die of where
one was seen, is that die: reads of one still table (voted die by die), the die a box
names (:func:`die_at_box`: within half a box side each way), the die a late look reads
where one lay. Nothing moved between the sightings, so only the reader's box wavers, by
far less than half a die: the most a sighting may stray and still lie nearer its own die
than a neighbour lying against it."""
SAME_DIE = 0.8
"""A die read this near a die of the last settled table that lies as it lay (the picture
did not change there) is that die. Looser than SAME_SPOT: nothing else can have come to
lie there without changing the picture, and one look may box the die with a side face
the other left out, moving its centre."""
STILL_THERE = 0.3
"""A die of the same value read this near where a die lay whose place did change in the
picture (a neighbour's shadow, a hand passing over) is that die, unmoved. Tight, as the
picture says something happened there: a die thrown seldom lands this near showing the
same face."""
SAME_PIECE = 0.9
"""Pieces of something die-like on the mat whose centres lie within this of each other,
or of a die read there, are one die: a die cut in pieces by the print it lies on, or by
its own shadow, has pieces up to nearly a die apart; two dice lie a whole die apart."""
LATE_READ = 0.6
"""A die read on a later look (the table still) within this of an unread die's spot is
that die, its value filled in: the spot was measured on the mat (the centre of what
stands out there, side faces and shadow with it), a little off where the reader boxes the
die's face."""

# -- one box -------------------------------------------------------------------------------


def centre(box: Sequence[float]) -> tuple[float, float]:
    """The middle of a box."""
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def side(box: Sequence[float]) -> float:
    """A box's longer side: a die's size in the picture (its shorter side shrinks as it
    leans or lies at the picture's edge)."""
    return max(box[2] - box[0], box[3] - box[1])


def die_at_box(
    boxes: Sequence[Sequence[float]], box: Sequence[float], reach: float | None = None
) -> int | None:
    """The index of the first of ``boxes`` whose centre lies within ``reach`` px of
    ``box``'s centre each way (across and down), or None; ``reach`` defaults to SAME_SPOT
    of ``box``'s :func:`side`. The die at a box: the same die boxed in another read of a
    still scene (a correction's tap, a die to teach, the demo table's truth)."""
    cx, cy = centre(box)
    near = SAME_SPOT * side(box) if reach is None else reach
    for k, b in enumerate(boxes):
        bx, by = centre(b)
        if abs(bx - cx) <= near and abs(by - cy) <= near:
            return k
    return None


def centre_in(box: Sequence[float], region: Sequence[float]) -> bool:
    """Whether a box's centre lies in ``region`` (a box, its edges included): a die that
    the region holds, whatever of its box sticks out."""
    cx, cy = centre(box)
    return bool(region[0] <= cx <= region[2] and region[1] <= cy <= region[3])


# -- batches of boxes ----------------------------------------------------------------------


def sides(boxes: np.ndarray) -> np.ndarray:
    """Each box's longer side (:func:`side`), for an (N, 4) batch."""
    return np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])


def centres(boxes: np.ndarray) -> np.ndarray:
    """(N, 2): the middle of each box of an (N, 4) batch."""
    return (boxes[:, :2] + boxes[:, 2:]) / 2


def areas(boxes: np.ndarray) -> np.ndarray:
    """(N,): each box's area."""
    return (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])


def intersections(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(len(a), len(b)): the area each box of ``a`` shares with each box of ``b``."""
    w = np.minimum(a[:, None, 2], b[None, :, 2]) - np.maximum(a[:, None, 0], b[None, :, 0])
    h = np.minimum(a[:, None, 3], b[None, :, 3]) - np.maximum(a[:, None, 1], b[None, :, 1])
    return np.clip(w, 0, None) * np.clip(h, 0, None)


def box_iou_batch(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(len(a), len(b)): the intersection over union of each box of ``a`` with each of
    ``b`` (0 apart, 1 for the same box): how far two boxes are one (the reader's
    suppression of a die boxed twice, the lab's matching of a found die with the truth).
    An empty batch gives an empty matrix."""
    a, b = _batch(a), _batch(b)
    inter = intersections(a, b)
    union = areas(a)[:, None] + areas(b)[None, :] - inter
    return inter / np.maximum(union, UNION_FLOOR)


def box_inside_batch(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(len(a), len(b)): the share of the smaller of each pair of boxes that lies inside
    the other (1 when one holds the other whole): a die's pip cluster or a side face boxed
    apart from the die lies inside the die's box, its IoU small."""
    a, b = _batch(a), _batch(b)
    smaller = np.minimum(areas(a)[:, None], areas(b)[None, :])
    return intersections(a, b) / np.maximum(smaller, UNION_FLOOR)


def box_iou(a: Sequence[float], b: Sequence[float]) -> float:
    """The intersection over union of two boxes (:func:`box_iou_batch` of one each)."""
    return float(box_iou_batch(np.asarray([a], np.float64), np.asarray([b], np.float64))[0, 0])


def _batch(boxes: np.ndarray) -> np.ndarray:
    """``boxes`` as an (N, 4) array (an empty list of boxes as (0, 4))."""
    boxes = np.asarray(boxes)
    return boxes if boxes.ndim == 2 else boxes.reshape(-1, 4)
