"""Where each die lies: rolling area, keep strip, a board image it touches, or off the mat.

Dice come from the reader in image pixels; the calibration maps them onto the mat. A
die's footprint is measured in the straightened (top-down) mat image by comparing it with
the empty mat seen at calibration: that tells a board image touched by the die's edge
(footprint, not centre) and a cocked die (a footprint too long for a die lying flat).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

import cv2
import numpy as np

from zonkcam.game.actions import Landing
from zonkcam.game.dice import Die
from zonkcam.mat.calibrate import REFERENCE_PX_PER_MM, Calibration
from zonkcam.mat.layout import Rect
from zonkcam.vision.die import Reading, Sight
from zonkcam.vision.geometry import SAME_PIECE, centre

TIPPED_ASPECT = 1.15
"""A footprint this much longer than wide (across the camera's line of sight) looks tipped."""
MIN_STANDING_OUT = 0.3
"""A die must differ from the empty mat over this share of its square (else it is print)."""
TIPPED_AREA = 1.5
"""A footprint this many times a die's square looks tipped."""


class Zone(StrEnum):
    """Where on the mat a die lies."""

    ROLLING = "rolling"
    KEEP = "keep"
    OFF = "off"
    """Off the mat: a sloppy throw."""


@dataclass(frozen=True)
class TableDie:
    """A read die placed on the mat: the reader's reading, where on the mat, and what the
    table makes of it there."""

    read: Reading
    center_mm: tuple[float, float]
    zone: Zone
    touching: tuple[Landing, ...] = ()
    """Board images its footprint touches."""
    cocked: bool = False
    """Leaning on another die or the mat's edge: not a readable value."""
    footprint_mm: tuple[tuple[float, float], ...] = ()
    unread: bool = False
    """Something die-like lies here that no read could read: its value is not known (the
    scorekeeper is asked for it, or a later look reads it). ``value`` is then only the
    best guess and is never scored."""

    @property
    def known(self) -> bool:
        """Whether the die shows a value that can be scored: lying flat, and read."""
        return not self.cocked and not self.unread

    @property
    def die(self) -> Die:
        """The engine's die: its value and colour."""
        return self.read.die

    @property
    def value(self) -> int:
        return self.read.die.value

    @property
    def color(self) -> str | None:
        return self.read.die.color

    @property
    def confidence(self) -> float:
        return self.read.confidence

    @property
    def bbox(self) -> tuple[float, float, float, float]:
        return self.read.bbox

    @property
    def sight(self) -> Sight | None:
        """What the value net saw of it (to teach the table with), where the reader kept
        that."""
        return self.read.sight

    def as_read(self, value: int, confidence: float, **placed: object) -> TableDie:
        """This die read as `value` with `confidence` (a vote over reads, a correction);
        `placed`: other fields changed alike (zone, cocked)."""
        die = replace(self.read.die, value=value)
        return replace(self, read=replace(self.read, die=die, confidence=confidence), **placed)

    def confirmed(self, value: int) -> TableDie:
        """This die as the scorekeeper confirmed it: `value`, sure, lying flat, read."""
        return self.as_read(value, 1.0, cocked=False, unread=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "zone", Zone(self.zone))

    def to_json(self) -> dict:
        return {
            "value": self.value if self.known else None,
            "confidence": round(self.confidence, 3),
            "color": self.color,
            "bbox": [round(v, 1) for v in self.bbox],
            "mat_mm": [round(v, 1) for v in self.center_mm],
            "zone": self.zone,
            "touching": [landing.name for landing in self.touching],  # LEFT, as printed
            "cocked": self.cocked,
            "unread": self.unread,
        }


SHADOW_BRIGHTNESS = 0.6
"""The mat this much darker (all colours alike) is in a shadow."""
LEFTOVER_DICE = 0.35
"""Something not read as a die counts once it covers this share of a die's area."""
PART_OF_A_DIE = 1.1
PART_OF_A_DIE_SIDE = 1.6
"""Something not die-shaped but no bigger than this share of a die's area, and no longer
than this many die sides, is taken for a die seen in part (the rest of it looks like the
print under it, a white die on a white board image) or with its shadow: an unread die,
asked about, not something in the way that holds the throw back. A finger, a cup or a
sleeve is much bigger than a die."""


OTHER_COLOUR = 0.22
"""The mat's colour moved this far (against its brightness) from the empty mat's:
something lies there. A shadow darkens the three channels alike and moves it little."""
BRIGHTER = 1.35
"""The mat this many times as bright as the empty mat: something lies there."""
DARKER = 0.3
"""The mat this dark against the empty mat (darker than a shadow): something lies there."""


DARK = 8.0
"""Grey levels added to the frame and the empty mat before they are set against each
other, so that the noise in black print is not taken for a change."""


def _ratios(top_down: np.ndarray, reference: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The mat's brightness against the empty mat, and how far its colour moved."""
    if reference.shape != top_down.shape:
        reference = cv2.resize(reference, (top_down.shape[1], top_down.shape[0]))
    b, g, r = cv2.split(
        cv2.divide(top_down.astype(np.float32) + DARK, reference.astype(np.float32) + DARK)
    )
    brightness = (b + g + r) / 3
    spread = cv2.max(
        cv2.max(cv2.absdiff(b, brightness), cv2.absdiff(g, brightness)), cv2.absdiff(r, brightness)
    )
    return brightness, spread / np.maximum(brightness, 0.05)


def _open(mask: np.ndarray) -> np.ndarray:
    return cv2.morphologyEx(mask.astype(np.uint8) * 255, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))


def foreground(top_down: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """Pixels (uint8 0/255) where something lies on the mat: not the printed mat and not
    merely its shadow (a shadow darkens all three channels alike)."""
    return _lying(*_ratios(top_down, reference))


def _lying(brightness: np.ndarray, chroma: np.ndarray) -> np.ndarray:
    """:func:`foreground` from the mat's brightness and colour against the empty mat's."""
    return _open((chroma > OTHER_COLOUR) | (brightness > BRIGHTER) | (brightness < DARKER))


MARK_CONTRAST = 0.12
"""A pixel whose brightness against the empty mat departs this much (log ratio) from the
area round it is a mark: a pip, a die's edge."""
MARK_LEVEL = 16
"""...and differs from the empty mat by this many grey levels at least (noise in black
print is not a mark)."""


_MARK_SIGMA = max(1.0, 4.0 * REFERENCE_PX_PER_MM)
"""The surroundings a mark stands out from (Gaussian sigma, reference px)."""


def _departs(grey: np.ndarray) -> np.ndarray:
    """Where a (log) image departs from its surroundings by over MARK_CONTRAST."""
    k = int(2 * round(3 * _MARK_SIGMA) + 1)
    return cv2.absdiff(grey, cv2.GaussianBlur(grey, (k, k), _MARK_SIGMA)) > MARK_CONTRAST


def printed(reference: np.ndarray) -> np.ndarray:
    """Where the empty mat has edges of its own (letters, outlines, markers): bool, at the
    reference's size. A shadow crossing print makes it depart as a pip would, so
    :func:`marks` takes none there."""
    ink = np.log(reference.astype(np.float32).mean(axis=2) + DARK)
    return cv2.dilate(_departs(ink).astype(np.uint8), np.ones((3, 3), np.uint8)) > 0


def marks(
    top_down: np.ndarray, reference: np.ndarray, print_mask: np.ndarray | None = None
) -> np.ndarray:
    """Pixels (uint8 0/255) where something small and sharp differs from the empty mat:
    pips and a die's edges, which a die shows whatever its colour against the mat (a dark
    green die on green felt, a white die on white paper). Brightness is taken against the
    empty mat and then against its surroundings, so a shadow, which darkens a whole area
    alike, makes none; nor does print on the mat (``print_mask``: :func:`printed` of the
    reference, worked out once)."""
    if reference.shape != top_down.shape:
        reference = cv2.resize(reference, (top_down.shape[1], top_down.shape[0]))
        print_mask = None
    if print_mask is None:
        print_mask = printed(reference)
    now = top_down.astype(np.float32).mean(axis=2)
    empty = reference.astype(np.float32).mean(axis=2)
    ratio = np.log((now + DARK) / (empty + DARK))
    marked = _departs(ratio) & ~print_mask & (cv2.absdiff(now, empty) > MARK_LEVEL)
    return marked.astype(np.uint8) * 255


class MarkSight:
    """The :func:`marks` of a straightened frame, worked out only where they are asked
    for (a die's pip field at a time): ``sight[y0:y1, x0:x1]`` is that window's marks."""

    def __init__(
        self, top_down: np.ndarray, reference: np.ndarray, print_mask: np.ndarray | None = None
    ) -> None:
        if reference.shape != top_down.shape:
            reference = cv2.resize(reference, (top_down.shape[1], top_down.shape[0]))
            print_mask = None
        self.top_down, self.reference = top_down, reference
        self.print_mask = print_mask if print_mask is not None else printed(reference)
        self.shape = top_down.shape[:2]

    def __getitem__(self, window: tuple[slice, slice]) -> np.ndarray:
        rows, cols = window
        h, w = self.shape
        margin = int(3 * _MARK_SIGMA) + 1
        y0, y1 = max(0, rows.start - margin), min(h, rows.stop + margin)
        x0, x1 = max(0, cols.start - margin), min(w, cols.stop + margin)
        out = marks(
            self.top_down[y0:y1, x0:x1],
            self.reference[y0:y1, x0:x1],
            self.print_mask[y0:y1, x0:x1],
        )
        return out[rows.start - y0 : rows.stop - y0, cols.start - x0 : cols.stop - x0]


@dataclass(frozen=True)
class Leftovers:
    """What lies on the mat besides the dice read (mat mm)."""

    in_the_way: str = ""
    """Something that is not a die (a finger, a cup, a sleeve, a hand's shadow): what it
    looks like, or "" when there is nothing."""
    unread: tuple[tuple[float, float, Zone], ...] = ()
    """Die-sized, die-shaped things the reader did not read: where they lie."""

    def unread_in(self, zone: Zone) -> int:
        return sum(z == zone for _, _, z in self.unread)


def leftovers(
    top_down: np.ndarray, reference: np.ndarray, dice: Sequence[TableDie], cal: Calibration
) -> Leftovers:
    """Everything on the mat that the dice read do not explain. Each die explains what lies
    under its box (side faces included) and its shadow round it; what is left, over a
    third of a die, is either die-like or something in the way. Die-like is judged on the
    whole thing lying there less the dice read (so a fingertip resting on a die is a
    finger, not the die-sized stub of it past the die): about a die's size and square, a
    die the reader missed, or smaller than a die (PART_OF_A_DIE), the part of one that
    stands out from the print it lies on; pieces of one die count once. A shadow bigger
    than a die over the mat is in the way too (a hand over the table)."""
    die_px = cal.geometry.die_mm * REFERENCE_PX_PER_MM
    brightness, chroma = _ratios(top_down, reference)
    fg = _lying(brightness, chroma)
    explained, squares = _explained(fg.shape, dice, cal)
    residual = cv2.bitwise_and(fg, cv2.bitwise_not(explained))
    # what lies there, less the dice read themselves: each piece judged whole
    bare = cv2.bitwise_and(fg, cv2.bitwise_not(squares))
    unread = _unread_pieces(residual, bare, cal)
    if unread is None:
        return Leftovers("something that is not a die is on the mat")
    shade = _open((brightness < SHADOW_BRIGHTNESS) & (chroma <= OTHER_COLOUR))
    shade = cv2.bitwise_and(shade, cv2.bitwise_not(cv2.bitwise_or(explained, fg)))
    n, _, stats, _ = cv2.connectedComponentsWithStats(shade, connectivity=8)
    if n > 1 and stats[1:, cv2.CC_STAT_AREA].max() >= die_px * die_px:
        return Leftovers("a shadow lies over the mat", tuple(unread))
    return Leftovers("", tuple(unread))


READ_SQUARE = 1.3
"""A die read is taken to cover a square this many dice wide round its centre (its side
faces and the slack of where it was placed), when what lies on the mat is judged less the
dice read."""
DIE_SHADOW = 0.6
"""A die read explains what lies this many dice round its box and footprint: its
shadow."""


def _explained(
    shape: tuple[int, ...], dice: Sequence[TableDie], cal: Calibration
) -> tuple[np.ndarray, np.ndarray]:
    """Masks (reference px, uint8 0/255) of what the dice read explain (box, footprint and
    shadow round them) and of the READ_SQUARE squares they cover."""
    geo, k = cal.geometry, REFERENCE_PX_PER_MM
    explained = np.zeros(shape, np.uint8)
    squares = np.zeros(shape, np.uint8)
    for d in dice:
        x0, y0, x1, y1 = d.bbox
        corners = cal.image_to_mat([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]) * k
        hull = cv2.convexHull(
            np.vstack([corners, np.asarray(d.footprint_mm or [d.center_mm]) * k]).astype(np.float32)
        ).astype(np.int32)
        cv2.fillConvexPoly(explained, hull, 255)
        square = _square(d.center_mm, geo.die_mm * READ_SQUARE) * k
        cv2.fillConvexPoly(squares, np.round(square).astype(np.int32), 255)
    r = max(1, int(round(geo.die_mm * k * DIE_SHADOW)))
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
    return cv2.dilate(explained, disc), squares


DIE_LIKE_AREA = (0.45, 2.2)
"""Something die-like covers this many dice' areas (a die with its side faces, or with
part of it hidden)..."""
DIE_LIKE_ASPECT = 1.6
"""... is no more than this many times as long as wide ..."""
DIE_LIKE_FILL = 0.55
"""... and fills this share of its rectangle at least (a die is square, a finger's tip
or a phone's corner is not)."""


def _unread_pieces(
    residual: np.ndarray, bare: np.ndarray, cal: Calibration
) -> list[tuple[float, float, Zone]] | None:
    """Where the die-like things lie that the dice read leave unexplained (``residual``),
    each judged whole as it lies on the mat less the dice read (``bare``); None when one
    is not die-like (something in the way)."""
    geo, k = cal.geometry, REFERENCE_PX_PER_MM
    die_px = geo.die_mm * k
    die_area = die_px * die_px
    _, pieces = cv2.connectedComponents(bare, connectivity=8)
    unread: list[tuple[float, float, Zone]] = []
    n, labels, stats, _ = cv2.connectedComponentsWithStats(residual, connectivity=8)
    judged: set[int] = set()
    for i in range(1, n):
        if stats[i, cv2.CC_STAT_AREA] < LEFTOVER_DICE * die_area:
            continue
        under = pieces[labels == i]
        label = int(np.bincount(under[under > 0]).argmax()) if np.any(under > 0) else 0
        if label == 0 or label in judged:
            continue
        judged.add(label)
        ys, xs = np.nonzero(pieces == label)
        area = len(xs)
        (cx, cy), (w, h), _ = cv2.minAreaRect(np.c_[xs, ys].astype(np.float32))
        long_side, short_side = max(w, h, 1.0), max(min(w, h), 1.0)
        die_like = (
            DIE_LIKE_AREA[0] * die_area <= area <= DIE_LIKE_AREA[1] * die_area
            and long_side / short_side <= DIE_LIKE_ASPECT
            and area >= DIE_LIKE_FILL * long_side * short_side
        )
        if not die_like and not (
            area < PART_OF_A_DIE * die_area and long_side <= PART_OF_A_DIE_SIDE * die_px
        ):
            return None
        x, y = float(xs.mean()) / k, float(ys.mean()) / k
        if any(math.dist((x, y), u[:2]) < SAME_PIECE * geo.die_mm for u in unread):
            continue  # another piece of a die already counted
        unread.append((x, y, Zone.KEEP if geo.keep_strip.contains(x, y) else Zone.ROLLING))
    return unread


def place(
    seen: Sequence[Reading],
    cal: Calibration,
    frame: np.ndarray | None = None,
    mask: np.ndarray | None = None,
    marks_mask: np.ndarray | MarkSight | None = None,
) -> list[TableDie]:
    """Put read dice on the mat. ``mask`` (from :func:`foreground`, at the reference scale)
    gives footprints; without it a die's footprint is a flat die's square at its centre.
    ``mask`` and ``marks_mask`` (:func:`marks`, or a :class:`MarkSight`) tell a die from
    print on the mat."""
    geo = cal.geometry
    mat = Rect(0, 0, geo.width_mm, geo.height_mm)
    if mask is None and frame is not None and cal.reference is not None:
        top = cal.top_down(frame, REFERENCE_PX_PER_MM)
        mask, marks_mask = foreground(top, cal.reference), MarkSight(top, cal.reference)
    found = _not_print(seen, cal, mat, mask, marks_mask)
    nadir = cal.image_to_mat([[cal.image_size[0] / 2, cal.image_size[1] / 2]])[0]
    centres = np.array([c for _, c in found]).reshape(-1, 2)
    measured = [(*f, *_footprint(mask, f[1], geo.die_mm, nadir, centres)) for f in found]
    cocked = _cocked([(footprint, tipped) for _, _, footprint, tipped in measured], mat)
    out = []
    for k, (d, (cx, cy), footprint, _) in enumerate(measured):
        if not mat.contains(cx, cy):
            zone = Zone.OFF
        elif geo.keep_strip.contains(cx, cy):
            zone = Zone.KEEP
        else:
            zone = Zone.ROLLING
        # the measured footprint can miss the part of a white die on the mat's white ink
        reach = cv2.convexHull(
            np.vstack([footprint, _square((cx, cy), geo.die_mm)]).astype(np.float32)
        ).reshape(-1, 2)
        touching = tuple(
            b.landing
            for b in geo.board_images
            if zone == Zone.ROLLING and _overlaps(reach, b.rect.corners)
        )
        out.append(
            TableDie(
                replace(d, bbox=tuple(map(float, d.bbox))),
                (cx, cy),
                zone,
                touching,
                cocked[k],
                tuple((float(x), float(y)) for x, y in footprint),
            )
        )
    return out


def _not_print(
    seen: Sequence[Reading],
    cal: Calibration,
    mat: Rect,
    mask: np.ndarray | None,
    marks_mask: np.ndarray | MarkSight | None,
) -> list[tuple[Reading, tuple[float, float]]]:
    """The dice read, each with its centre on the mat (mm), less those that are print on
    the mat (a marker, a board image: there at calibration, no die seen there)."""
    mid = cal.image_to_mat([centre(d.bbox) for d in seen]) if seen else []
    centred = [(d, (float(x), float(y))) for d, (x, y) in zip(seen, mid, strict=True)]
    found = []
    for k, (d, (cx, cy)) in enumerate(centred):
        others = [c for j, (_, c) in enumerate(centred) if j != k]
        if mat.contains(cx, cy) and not seen_there(
            mask, marks_mask, (cx, cy), cal.geometry.die_mm, others
        ):
            continue
        found.append((d, (cx, cy)))
    return found


LEAN_SLACK_MM = 1.5
"""Footprints this near each other (mm) touch: one die may lean on the other."""


def _cocked(footprints: Sequence[tuple[np.ndarray, bool]], mat: Rect) -> list[bool]:
    """Which dice are cocked, of their (footprint, tipped-looking): tipped-looking, and
    with something to lean on: another die or the mat's edge. Which of two touching dice
    leans on the other is hard to see from above, so both are reported; the scorekeeper
    (or a re-throw) settles them."""
    against = [
        [
            j
            for j, (other, _) in enumerate(footprints)
            if j != k and _overlaps(footprint, other, grow=LEAN_SLACK_MM)
        ]
        for k, (footprint, _) in enumerate(footprints)
    ]
    cocked = [
        tipped and (not _inside(footprint, mat) or bool(against[k]))
        for k, (footprint, tipped) in enumerate(footprints)
    ]
    return [c or any(cocked[j] for j in against[k]) for k, c in enumerate(cocked)]


def standing_out(mask: np.ndarray, centre: tuple[float, float], die: float) -> float:
    """The share of a die-sized square at ``centre`` that differs from the empty mat."""
    s = REFERENCE_PX_PER_MM
    half = die * s / 2
    x0, y0 = int(round(centre[0] * s - half)), int(round(centre[1] * s - half))
    x1, y1 = int(round(centre[0] * s + half)), int(round(centre[1] * s + half))
    h, w = mask.shape
    window = mask[max(0, y0) : min(h, y1), max(0, x0) : min(w, x1)]
    return float(np.count_nonzero(window)) / window.size if window.size else 0.0


PIP_FIELD = 0.6
"""The middle of a die's face, as a share of its side, where its pips lie."""
MIN_MARKED = 0.06
"""A die's pip field holding this share of marks has a die in it."""
OTHERS_EDGE = 0.6
"""What lies within this many dice (across or down) of another die's centre is that die's
edge, not a mark of the die asked about."""


def marked(
    marks_mask: np.ndarray | MarkSight,
    centre: tuple[float, float],
    die: float,
    others: Sequence[tuple[float, float]] = (),
) -> float:
    """The share of the pip field of a die at ``centre`` (mat mm) that holds marks
    (:func:`marks`), less what lies within a die of ``others`` (the dice round it: their
    edges are theirs)."""
    s = REFERENCE_PX_PER_MM
    half = die * PIP_FIELD * s / 2
    x0, y0 = int(round(centre[0] * s - half)), int(round(centre[1] * s - half))
    x1, y1 = int(round(centre[0] * s + half)), int(round(centre[1] * s + half))
    h, w = marks_mask.shape
    a, b, c, d = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    if c <= a or d <= b:
        return 0.0
    window = marks_mask[b:d, a:c] > 0
    ys, xs = np.mgrid[b:d, a:c]
    for ox, oy in others:
        reach = die * OTHERS_EDGE * s
        window &= (np.abs(xs - ox * s) > reach) | (np.abs(ys - oy * s) > reach)
    return float(np.count_nonzero(window)) / window.size


def seen_there(
    mask: np.ndarray | None,
    marks_mask: np.ndarray | MarkSight | None,
    centre: tuple[float, float],
    die: float,
    others: Sequence[tuple[float, float]] = (),
) -> bool:
    """Whether a die lies at ``centre``: most of its square differs from the empty mat
    (``mask``, :func:`foreground`), or its pip field holds marks (a die the colour of the
    mat under it shows its pips and edges and little else). Print on the mat, there at
    calibration, does neither. With neither mask there is no telling: True."""
    if mask is None:
        return True
    if standing_out(mask, centre, die) >= MIN_STANDING_OUT:
        return True
    return marks_mask is not None and marked(marks_mask, centre, die, others) >= MIN_MARKED


def _inside(footprint: np.ndarray, rect: Rect) -> bool:
    return all(rect.contains(x, y) for x, y in footprint)


def _square(centre: tuple[float, float], die: float) -> np.ndarray:
    return np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], float) * die / 2 + centre


FOOTPRINT_WINDOW = 1.3
"""A die's footprint is looked for this many dice each way from its centre (a tipped die
reaches further than a flat one)."""
FOOTPRINT_CORE = 0.4
"""Every piece that stands out within this many dice of the read centre is of the die (a
white die on a white printed line comes apart in pieces)."""
MEASURABLE = 0.6
"""Less than this share of a die's square standing out is too little to measure its
footprint: it is taken to lie flat."""
SIDEWAYS_DEG = 30
"""A footprint long more than this many degrees off the line to the point under the
camera is long sideways: tipped (a flat die's side faces smear it along that line)."""


def _footprint(
    mask: np.ndarray | None,
    centre: tuple[float, float],
    die: float,
    nadir: np.ndarray,
    centres: np.ndarray,
) -> tuple[np.ndarray, bool]:
    """The die's footprint (4 corners, mm) and whether its shape looks tipped. Pixels nearer
    another die's centre belong to that die (touching dice merge in the mask)."""
    square = _square(centre, die)
    if mask is None:
        return square, False
    s = REFERENCE_PX_PER_MM
    r = int(math.ceil(die * FOOTPRINT_WINDOW * s))
    cx, cy = int(round(centre[0] * s)), int(round(centre[1] * s))
    h, w = mask.shape
    x0, y0, x1, y1 = max(0, cx - r), max(0, cy - r), min(w, cx + r + 1), min(h, cy + r + 1)
    if x1 - x0 < 3 or y1 - y0 < 3:
        return square, False
    roi = mask[y0:y1, x0:x1]
    n, labels, stats, _ = cv2.connectedComponentsWithStats(roi, connectivity=8)
    # every piece reaching near the reader's centre (a white die on a white printed line
    # can come apart in pieces)
    near = int(math.ceil(die * FOOTPRINT_CORE * s))
    core = labels[
        max(0, cy - y0 - near) : cy - y0 + near + 1, max(0, cx - x0 - near) : cx - x0 + near + 1
    ]
    pieces = [i for i in np.unique(core) if i != 0]
    if not pieces:
        return square, False
    ys, xs = np.nonzero(np.isin(labels, pieces))
    px = np.c_[xs + x0, ys + y0].astype(np.float64) / s
    d2 = ((px[:, None, :] - centres[None, :, :]) ** 2).sum(axis=2)
    mine = np.linalg.norm(px - np.asarray(centre), axis=1) ** 2 <= d2.min(axis=1) + 1e-9
    xs, ys = xs[mine], ys[mine]
    if len(xs) < (die * s) ** 2 * MEASURABLE:
        return square, False
    pts = np.c_[xs + x0, ys + y0].astype(np.float32) / s
    (rx, ry), (rw, rh), angle = cv2.minAreaRect(pts)
    corners = cv2.boxPoints(((rx, ry), (rw, rh), angle))
    long_side, short_side = max(rw, rh), max(1e-3, min(rw, rh))
    # A flat die's side faces smear it away from the point under the camera; a tipped die
    # is long in the direction it tips, and bigger.
    axis = angle if rw >= rh else angle + 90
    radial = math.degrees(math.atan2(ry - nadir[1], rx - nadir[0]))
    across = abs((axis - radial + 90) % 180 - 90) > SIDEWAYS_DEG
    aspect = long_side / short_side
    odd = (aspect > TIPPED_ASPECT and across) or long_side * short_side > TIPPED_AREA * die * die
    return corners.astype(float), bool(odd)


TOUCH_MM2 = 0.5
"""Shapes on the mat that share more than this area (mm²) touch."""


def _overlaps(footprint: np.ndarray, other: np.ndarray, grow: float = 0.0) -> bool:
    """Whether a die's footprint touches another convex shape on the mat (``grow`` mm of
    slack for touching edges)."""
    a = footprint.astype(np.float32)
    if grow:
        centre = a.mean(axis=0)
        a = centre + (a - centre) * (1 + grow / max(1e-3, float(np.abs(a - centre).max())))
    area, _ = cv2.intersectConvexConvex(
        cv2.convexHull(a.astype(np.float32)), cv2.convexHull(other.astype(np.float32))
    )
    return area > TOUCH_MM2
