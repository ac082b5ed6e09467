"""Read the dice in an image: boxes, face values, body colours.

Pure: numpy image in, frozen dataclasses out; the ONNX sessions come from
`zonkcam.vision.model.load_model`. One pass: the image letterboxed for the detector ->
its heatmap peaks (die centres, class-agnostic) -> a 64 px crop of each candidate cut
from the full-resolution image -> the value net reads all crops of the image in one run
('not a die' or 1-6), and again mirrored those it may keep, the two readings averaged ->
a candidate is kept when the value net and the detector's heat vote for it -> on a photo
where a kept die came small at the detector's input or none was kept, a second, larger
look (over the parts of the photo near the first look's small candidates), whose new dice
need a surer vote -> of two dice boxed over each other, the surer
one (the first look's before the second's) -> each die's confidence
(zonkcam.vision.confidence) -> body colour.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from zonkcam.game.dice import Die
from zonkcam.vision.color import crop_color, white_balance_gains
from zonkcam.vision.confidence import features as confidence_features
from zonkcam.vision.die import Reading
from zonkcam.vision.examples import TaughtDice, asked_confidence
from zonkcam.vision.geometry import (
    box_inside_batch,
    box_iou_batch,
    centre,
    centres,
    sides,
)
from zonkcam.vision.model import DiceModel
from zonkcam.vision.preprocess import CROP_SIZE, DET_STRIDE, crop_die, letterbox, to_bgr8

MIN_SIDE = 8
"""Images smaller than this (px) hold no readable die."""


@dataclass(frozen=True)
class ReaderSettings:
    """The reader's settings: one set for `zonkcam read`, `eval`, `bench` and the table
    (DEFAULT_SETTINGS), chosen on the validation splits of both dev sets (docs/model-card.md)."""

    det_size: int = 416
    """The detector sees a photo scaled so that its longer side is this many px."""
    die_px: float = 28.0
    """When the caller knows how big a die looks (the calibrated table: read_dice's
    `die_px`), the detector sees the image scaled so that a die spans this many px."""
    det_threshold: float = 0.1
    """Least detector heat of a candidate the value net reads."""
    max_candidates: int = 64
    """At most this many candidates (the hottest) are read."""
    nms_iou: float = 0.5
    """Of two candidates overlapping by more than this IoU, the hotter one is read."""
    heat_full: float = 0.4
    heat_weight: float = 0.25
    keep_vote: float = 0.7
    """A candidate is kept as a die when P(a die) x min(heat / heat_full, 1) ** heat_weight
    reaches keep_vote: one the detector is lukewarm about needs a surer value net."""
    dedupe_iou: float = 0.35
    dedupe_inside: float = 0.6
    """Of two kept dice overlapping by more than dedupe_iou, or with more than
    dedupe_inside of the smaller box inside the other (a die boxed whole and by its top
    face), the one the value net is surer of stays."""
    mirror_within: float = 0.3
    """A candidate whose vote comes within mirror_within of keep_vote (or over it) is read
    a second time mirrored left to right, and the two readings are averaged: a face reads
    the same mirrored, and a misreading often does not (minus infinity: none is)."""
    second_look: int = 512
    """On a photo (no `die_px` given) where a kept die spans fewer than second_look_below
    px at the detector's input, or no die was kept, the detector looks again with the
    photo's longer side at this many px (0: never) ..."""
    second_look_below: float = 28.0
    second_look_vote: float = 0.8
    """... and a die only that look finds is kept when its vote reaches this."""
    second_look_near: float = 3.0
    """Where the first look kept a die, the second sees only the parts of the photo within
    this many die sides of a candidate it found small (the small dice of a photo lie near
    one another); the whole photo when those parts cover most of it, or no die was kept."""


DEFAULT_SETTINGS = ReaderSettings()
MIN_DET_SIZE = 96
MAX_DET_SIZE = 1024
"""The detector input's longer side when sized by `die_px`, at least and at most (px)."""


def detector_scale(shape: tuple[int, ...], settings: ReaderSettings, die_px: float | None) -> float:
    """Factor from image px to detector input px: the longer side to settings.det_size,
    or (`die_px` known) a die to settings.die_px, the input kept within MIN_DET_SIZE and
    MAX_DET_SIZE (a multiple of 32)."""
    side = max(shape[:2])
    if die_px is None or die_px <= 0:
        return settings.det_size / side
    size = side * settings.die_px / die_px
    size = min(MAX_DET_SIZE, max(MIN_DET_SIZE, math.ceil(size / 32) * 32))
    return size / side


def detect(
    img: np.ndarray, model: DiceModel, settings: ReaderSettings, scale: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The detector's candidates in a BGR uint8 image seen at `scale`: (boxes (N, 4) in
    image px, heat (N,), the letterboxed input), hottest first, after NMS."""
    h, w = img.shape[:2]
    inp, scale = letterbox(img, round(max(h, w) * scale))
    x = np.ascontiguousarray(inp.transpose(2, 0, 1)[None], dtype=np.float32)
    peaks, geom = model.detector.run(None, {"image": x})
    heat = peaks[0, 0]
    ys, xs = np.nonzero(heat >= settings.det_threshold)
    scores = heat[ys, xs]
    top = np.argsort(-scores, kind="stable")[: settings.max_candidates]
    ys, xs, scores = ys[top], xs[top], scores[top]
    g = geom[0][:, ys, xs]
    cx, cy = (xs + g[0]) * DET_STRIDE, (ys + g[1]) * DET_STRIDE
    boxes = np.stack([cx - g[2] / 2, cy - g[3] / 2, cx + g[2] / 2, cy + g[3] / 2], axis=1)
    boxes = np.clip(boxes / scale, 0, [w, h, w, h]).astype(np.float32).reshape(-1, 4)
    ok = (boxes[:, 2] - boxes[:, 0] >= 2) & (boxes[:, 3] - boxes[:, 1] >= 2)
    boxes, scores = boxes[ok], scores[ok].astype(np.float32)
    keep = nms(boxes, scores, settings.nms_iou)
    return boxes[keep], scores[keep], inp


def read_crops(crops: np.ndarray, model: DiceModel, mirrored: bool = False) -> np.ndarray:
    """(N, 64, 64, 3) BGR uint8 crops -> (N, 7) probabilities (0 = not a die, 1-6), all
    in one run of the value net; `mirrored`: each also read mirrored left to right, the
    two readings averaged (the reader's mirrored look, ReaderSettings.mirror_within)."""
    return read_crops_and_features(crops, model, mirrored)[0]


def read_crops_and_features(
    crops: np.ndarray, model: DiceModel, mirrored: bool = False
) -> tuple[np.ndarray, np.ndarray | None]:
    """read_crops, and the value net's features (N, D) of the crops as cut where
    the model has that output (zonkcam.train.faces), else None."""
    n = len(crops)
    if n == 0:
        return np.zeros((0, 7), np.float32), None
    batch = np.concatenate([crops, crops[:, :, ::-1]]) if mirrored else crops
    x = np.ascontiguousarray(batch.transpose(0, 3, 1, 2), dtype=np.float32)
    out = model.values.run(None, {"crops": x})
    probs = (out[0][:n] + out[0][n:]) / 2 if mirrored else out[0]
    return probs, (out[1][:n] if len(out) > 1 else None)


def vote(probs: np.ndarray, heat: np.ndarray, settings: ReaderSettings) -> np.ndarray:
    """Each candidate's vote (ReaderSettings.keep_vote): P(a die) x min(heat / heat_full,
    1) ** heat_weight."""
    backing = np.minimum(heat / settings.heat_full, 1.0)
    return (1.0 - probs[:, 0]) * backing**settings.heat_weight


def min_kept_heat(settings: ReaderSettings, bar: float | None = None) -> float:
    """The least heat with which a candidate can reach the vote `bar` (default
    keep_vote): the value net sure of it."""
    if settings.heat_weight <= 0:
        return 0.0
    bar = settings.keep_vote if bar is None else bar
    return settings.heat_full * bar ** (1.0 / settings.heat_weight)


@dataclass(frozen=True)
class _Look:
    """What one detector look kept: per die its box, heat, crop, the value net's
    probabilities, feature (None without that output) and vote; the detector's
    letterboxed input and its scale."""

    boxes: np.ndarray
    heat: np.ndarray
    crops: np.ndarray
    probs: np.ndarray
    feats: np.ndarray | None
    votes: np.ndarray
    asked: np.ndarray
    """Whether the table's taught faces ask about each die (zonkcam.vision.examples)."""
    inp: np.ndarray
    scale: float
    candidates: np.ndarray
    """Every candidate box the detector found (image px), read or not."""


def _look(
    img: np.ndarray,
    model: DiceModel,
    settings: ReaderSettings,
    scale: float,
    examples: TaughtDice | None,
    bar: float,
    taken: np.ndarray | None = None,
    regions: list[tuple[int, int, int, int]] | None = None,
) -> _Look:
    """Detect at `scale` (over the whole image, or only over `regions`: (x0, y0, x1, y1)
    image px), read each candidate that could reach the vote `bar` and keep those that do.
    `taken`: boxes of dice already kept, which a candidate boxed over one of them (the
    dedupe's rule) could never displace, so it is not read."""
    if regions is None:
        boxes, heat, inp = detect(img, model, settings, scale)
    else:
        boxes, heat, inp = _detect_in(img, model, settings, scale, regions)
    candidates = boxes
    hopeful = heat >= min_kept_heat(settings, bar)
    if taken is not None and len(taken) and len(boxes):
        hopeful &= ~_overlaps(boxes, taken, settings.dedupe_iou, settings.dedupe_inside).any(1)
    boxes, heat = boxes[hopeful], heat[hopeful]
    if len(boxes) == 0:
        crops = np.zeros((0, CROP_SIZE, CROP_SIZE, 3), np.uint8)
        nothing = np.zeros(0, np.float32)
        no_probs = np.zeros((0, 7), np.float32)
        asked = np.zeros(0, bool)
        return _Look(boxes, heat, crops, no_probs, None, nothing, asked, inp, scale, candidates)
    crops = np.stack([crop_die(img, b) for b in boxes])
    probs, feats = read_crops_and_features(crops, model)
    near = np.flatnonzero(
        vote(probs, heat, settings) >= settings.keep_vote - settings.mirror_within
    )
    if len(near):
        probs = probs.copy()
        probs[near] = (probs[near] + read_crops(crops[near][:, :, ::-1], model)) / 2
    asked = examples.asks(probs, feats) if examples is not None else np.zeros(len(probs), bool)
    votes = vote(probs, heat, settings)
    k = np.flatnonzero(votes >= bar)
    kept_feats = feats[k] if feats is not None else None
    return _Look(
        boxes[k],
        heat[k],
        crops[k],
        probs[k],
        kept_feats,
        votes[k],
        asked[k],
        inp,
        scale,
        candidates,
    )


def _wants_second_look(first: _Look, settings: ReaderSettings) -> bool:
    """No die kept, or one small at the detector's input."""
    if len(first.boxes) == 0:
        return True
    return bool(sides(first.boxes).min() * first.scale < settings.second_look_below)


SECOND_LOOK_GRID = 64
"""second_look_regions lays the parts to look at on a grid of this many cells along the
photo's longer side."""
SECOND_LOOK_WHOLE = 0.6
"""Parts that cover more than this share of the photo: the second look sees it whole."""


def second_look_regions(
    first: _Look, shape: tuple[int, ...], settings: ReaderSettings
) -> list[tuple[int, int, int, int]] | None:
    """The parts of a photo (x0, y0, x1, y1 px) the second look sees: round each candidate
    the first look found small, settings.second_look_near of its sides each way, the
    touching ones joined into one rectangle; None for the whole photo (no die kept, or
    the parts cover more than SECOND_LOOK_WHOLE of it)."""
    h, w = shape[:2]
    boxes = first.candidates
    small = boxes[sides(boxes) * first.scale < settings.second_look_below]
    if len(first.boxes) == 0 or len(small) == 0:
        return None
    cell = max(h, w) / SECOND_LOOK_GRID
    gh, gw = math.ceil(h / cell), math.ceil(w / cell)
    grid = np.zeros((gh, gw), np.uint8)
    reach = (settings.second_look_near + 0.5) * sides(small)
    cx, cy = centres(small).T
    for x0, y0, x1, y1 in zip(cx - reach, cy - reach, cx + reach, cy + reach, strict=True):
        grid[
            max(0, int(y0 // cell)) : min(gh, int(y1 // cell) + 1),
            max(0, int(x0 // cell)) : min(gw, int(x1 // cell) + 1),
        ] = 1
    count, _, stats, _ = cv2.connectedComponentsWithStats(grid, connectivity=8)
    if stats[1:count, 2:4].prod(axis=1).sum() > SECOND_LOOK_WHOLE * gh * gw:
        return None
    out = []
    for x, y, bw, bh, _area in stats[1:count]:
        x0, y0 = int(x * cell), int(y * cell)
        out.append((x0, y0, min(w, math.ceil((x + bw) * cell)), min(h, math.ceil((y + bh) * cell))))
    return out


def _detect_in(
    img: np.ndarray,
    model: DiceModel,
    settings: ReaderSettings,
    scale: float,
    regions: list[tuple[int, int, int, int]],
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """detect() over each region of `img`, the boxes in image px: a box cut by a region's
    edge inside the photo is left out (the die is whole in a neighbouring region or beyond
    what this look sees); the letterboxed input is the last region's."""
    h, w = img.shape[:2]
    boxes, heat, inp = [np.zeros((0, 4), np.float32)], [np.zeros(0, np.float32)], img[:0, :0]
    for x0, y0, x1, y1 in regions:
        b, s, inp = detect(img[y0:y1, x0:x1], model, settings, scale)
        b = b + np.array([x0, y0, x0, y0], np.float32)
        cut = (
            ((b[:, 0] <= x0 + 1) & (x0 > 0))
            | ((b[:, 1] <= y0 + 1) & (y0 > 0))
            | ((b[:, 2] >= x1 - 1) & (x1 < w))
            | ((b[:, 3] >= y1 - 1) & (y1 < h))
        )
        boxes.append(b[~cut])
        heat.append(s[~cut])
    b, s = np.concatenate(boxes), np.concatenate(heat)
    order = np.argsort(-s, kind="stable")
    b, s = b[order], s[order]
    keep = nms(b, s, settings.nms_iou)
    return b[keep], s[keep], inp


def read_dice(
    image: np.ndarray,
    model: DiceModel,
    settings: ReaderSettings = DEFAULT_SETTINGS,
    die_px: float | None = None,
    examples: TaughtDice | None = None,
    features: list[np.ndarray] | None = None,
    clues: list[np.ndarray] | None = None,
) -> tuple[Reading, ...]:
    """Every six-sided die found in `image` (grey, BGR or BGRA; 8 or 16 bit), sorted
    top-to-bottom then left-to-right. `die_px`: how many px a die spans in `image`, when
    known (a calibrated table); the detector input is then sized by it (and there is no
    second look). `examples`: the table's taught dice, which ask about a die their
    nearest face reads otherwise (zonkcam.vision.examples). `features`: a list that receives each
    returned die's feature, in order (nothing when the model has no 'features' output).
    `clues`:
    a list that receives each returned die's confidence clues
    (zonkcam.vision.confidence.features), in order."""
    img = to_bgr8(image)
    h, w = img.shape[:2]
    if h < MIN_SIDE or w < MIN_SIDE:
        return ()
    scale = detector_scale(img.shape, settings, die_px)
    first = _look(img, model, settings, scale, examples, settings.keep_vote)
    looks = [first]
    bigger = settings.second_look / max(h, w)
    if die_px is None and bigger > scale and _wants_second_look(first, settings):
        bar = max(settings.keep_vote, settings.second_look_vote)
        regions = second_look_regions(first, img.shape, settings)
        looks.append(_look(img, model, settings, bigger, examples, bar, first.boxes, regions))
    boxes = np.concatenate([lk.boxes for lk in looks])
    if len(boxes) == 0:
        return ()
    probs = np.concatenate([lk.probs for lk in looks])
    heat = np.concatenate([lk.heat for lk in looks])
    crops = np.concatenate([lk.crops for lk in looks])
    votes = np.concatenate([lk.votes for lk in looks])
    asked = np.concatenate([lk.asked for lk in looks])
    keep = np.arange(len(boxes))
    if len(boxes) > 1:  # of two dice boxed over each other, the surer one
        keep = nms(boxes, votes, settings.dedupe_iou, settings.dedupe_inside)
    feats = None
    if all(lk.feats is not None for lk in looks if len(lk.boxes)):
        feats = np.concatenate([lk.feats for lk in looks if len(lk.boxes)])
    visible = first.inp[: max(1, round(h * first.scale)), : max(1, round(w * first.scale))]
    gains = white_balance_gains(visible)
    values = np.argmax(probs[keep, 1:], axis=1) + 1
    clue = confidence_features(probs[keep], values, heat[keep], sides(boxes[keep]))
    sure = asked_confidence(model.calibration.confidence_of(clue), asked[keep])
    dice = []
    for i, value, conf in zip(keep, values, sure, strict=True):
        bbox = tuple(round(float(v), 1) for v in boxes[i])
        die = Die(int(value), crop_color(crops[i], gains))
        dice.append(Reading(die, round(float(conf), 4), bbox))
    order = sorted(range(len(dice)), key=lambda k: _reading_order(dice[k]))
    if features is not None and feats is not None:
        features.extend(feats[keep[k]] for k in order)
    if clues is not None:
        clues.extend(clue[k] for k in order)
    return tuple(dice[k] for k in order)


PRESENT_DIE = 0.5
"""read_at: a crop the value net gives P(a die) under this holds no readable die."""


def read_at(
    image: np.ndarray,
    boxes: np.ndarray,
    model: DiceModel,
    settings: ReaderSettings = DEFAULT_SETTINGS,
    examples: TaughtDice | None = None,
    features: list[np.ndarray | None] | None = None,
) -> list[Reading | None]:
    """The die in each box of `image` (BGR; boxes (N, 4) in image px), where the caller
    knows a die lies (the table's presence test, a die seen in an earlier read): the value
    net reads each crop, mirrored too, with no detector. None for a crop it does not take
    for a die. The confidence is worked out as for a die the detector backs fully
    (heat_full): what vouches for it is the caller's. `features`: a list that receives each
    box's feature (None where no die was read), in order."""
    img = to_bgr8(image)
    boxes = np.asarray(boxes, np.float32).reshape(-1, 4)
    if len(boxes) == 0:
        return []
    crops = np.stack([crop_die(img, b) for b in boxes])
    probs, feats = read_crops_and_features(crops, model)
    probs = (probs + read_crops(crops[:, :, ::-1], model)) / 2
    asked = examples.asks(probs, feats) if examples is not None else np.zeros(len(probs), bool)
    values = np.argmax(probs[:, 1:], axis=1) + 1
    heat = np.full(len(boxes), settings.heat_full, np.float32)
    clue = confidence_features(probs, values, heat, sides(boxes))
    sure = asked_confidence(model.calibration.confidence_of(clue), asked)
    gains = white_balance_gains(img)
    out: list[Reading | None] = []
    for i, box in enumerate(boxes):
        if 1.0 - probs[i, 0] < PRESENT_DIE:
            out.append(None)
            if features is not None:
                features.append(None)
            continue
        die = Die(int(values[i]), crop_color(crops[i], gains))
        bbox = tuple(round(float(v), 1) for v in box)
        out.append(Reading(die, round(float(sure[i]), 4), bbox))
        if features is not None:
            features.append(feats[i] if feats is not None else None)
    return out


def nms(boxes: np.ndarray, scores: np.ndarray, iou: float, inside: float = 0.0) -> np.ndarray:
    """Indices kept by greedy non-maximum suppression, best score first: a box goes when
    it overlaps a better one by more than `iou`, or (`inside` > 0) when more than that
    share of the smaller of the two lies inside the other."""
    if len(boxes) == 0:
        return np.zeros(0, np.int64)
    order = np.argsort(-scores, kind="stable")
    drops = _overlaps(boxes, boxes, iou, inside)
    gone = np.zeros(len(boxes), bool)
    keep: list[int] = []
    for i in order.tolist():
        if not gone[i]:
            keep.append(i)
            gone |= drops[i]
    return np.array(keep, np.int64)


def _overlaps(a: np.ndarray, b: np.ndarray, iou: float, inside: float) -> np.ndarray:
    """(len(a), len(b)): whether two boxes overlap by more than `iou`, or (`inside` > 0)
    more than that share of the smaller lies inside the other."""
    out = box_iou_batch(a, b) > iou
    if inside > 0:
        out |= box_inside_batch(a, b) > inside
    return out


def _reading_order(d: Reading) -> tuple[float, float]:
    """Top-to-bottom, then left-to-right, by the box's centre."""
    x, y = centre(d.bbox)
    return y, x
