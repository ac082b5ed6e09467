"""Training data: labelled photos and rendered tables, value-net crops, augmentation.

Every random draw comes from a numpy Generator the caller seeds, so a run's data and
batches are the same each time (and after a resume)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from zonkcam.sim import renderer
from zonkcam.train.dataset import die_boxes, load_labels, select
from zonkcam.train.metrics import match
from zonkcam.vision.geometry import box_iou_batch, centres
from zonkcam.vision.preprocess import CROP_SIZE, PAD_VALUE, crop_die

RENDERED = "rendered"
"""The source name of the renderer's tables."""
RENDERED_SHARE = 0.3
"""Share of each batch drawn from rendered tables (when photos are given)."""
PHOTOREAL = "photoreal"
"""The source name of path-traced dice (`zonkcam train render`, zonkcam.train.render)."""
PHOTOREAL_SHARE = 0.35
"""Share of each batch drawn from them when a run is given a set (`--photoreal`): chosen
on the leave-one-source-out twins, on the validation split of the source each never saw
(docs/model-card.md)."""


@dataclass(frozen=True)
class Photo:
    """One training image: encoded bytes (decoded when used, to keep thousands in memory),
    its dice and where it came from."""

    data: bytes
    boxes: np.ndarray
    """(N, 4) boxes around whole dice, image px."""
    values: np.ndarray
    """(N,) face values 1-6."""
    size_ok: bool
    """Whether the boxes are the dice's own (False: estimated from pip clusters)."""
    source: str
    width: int
    height: int

    def image(self) -> np.ndarray:
        img = cv2.imdecode(np.frombuffer(self.data, np.uint8), cv2.IMREAD_COLOR)
        if img is None:
            raise ValueError("undecodable training image")
        return img


def load_photos(
    data_dirs: Sequence[Path], leave_out: str | None, log: Callable[[str], None]
) -> list[Photo]:
    """The training split (by group) of every labelled photo set in `data_dirs`, less the
    source `leave_out` (all of its photos: leave-one-source-out)."""
    photos = []
    for d in data_dirs:
        records = [r for r in select(load_labels(d), "train") if r.source != leave_out]
        for r in records:
            try:
                data = r.image.read_bytes()
            except OSError:
                continue
            values = np.array([t.value for t in r.dice], np.int64)
            w, h = _size_of(data)
            photos.append(Photo(data, die_boxes(r), values, r.bbox_kind == "die", r.source, w, h))
        log(f"{d}: {len(records)} training photos")
    return photos


def _size_of(data: bytes) -> tuple[int, int]:
    """(width, height) of an encoded image."""
    from zonkcam.vision.imageio import image_size

    found = image_size(data)
    if found is None:
        img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        return img.shape[1], img.shape[0]
    return found[1], found[2]


def source_weights(
    sources: Sequence[str], dice_per_source: dict[str, int], photoreal_share: float = 0.0
) -> dict[str, float]:
    """How often each source is drawn: the photos' sources share 1 - RENDERED_SHARE in
    proportion to the square root of their dice (the largest leads without drowning the
    rest), the rendered tables RENDERED_SHARE (all of it without photos). Photoreal dice,
    when among `sources`, take `photoreal_share` of every batch, the rest scaled down."""
    drawn = (RENDERED, PHOTOREAL)
    real = {s: math.sqrt(max(dice_per_source.get(s, 1), 1)) for s in sources if s not in drawn}
    out = {}
    total = sum(real.values())
    for s, w in real.items():
        out[s] = (1 - RENDERED_SHARE) * w / total
    if RENDERED in sources:
        out[RENDERED] = RENDERED_SHARE if real else 1.0
    norm = sum(out.values())
    out = {s: w / norm for s, w in out.items()}
    if PHOTOREAL in sources:
        share = photoreal_share if out else 1.0
        out = {s: w * (1 - share) for s, w in out.items()}
        out[PHOTOREAL] = share
    return out


def load_photoreal(folder: Path, log: Callable[[str], None]) -> list[Photo]:
    """Every scene of a photoreal set (`zonkcam train render`) as training photos (all of
    them: no photo of it is ever judged on)."""
    photos = []
    for r in load_labels(folder):
        try:
            data = r.image.read_bytes()
        except OSError:
            continue
        values = np.array([t.value for t in r.dice], np.int64)
        w, h = _size_of(data)
        photos.append(Photo(data, die_boxes(r), values, True, PHOTOREAL, w, h))
    log(f"{folder}: {len(photos)} photoreal scenes")
    return photos


# ------------------------------------------------------------------ rendered tables

ROUNDED_SHARE = 0.3
PASTEL_SHARE = 0.15
TONAL_SHARE = 0.1
"""Shares of the rendered training dice drawn rounded, with a pale body of a random
hue, and with pips of their own colour (engraved or same-colour pips)."""
PASTEL_PIPS = ("black", "black", "black", "red", "blue", "tone")
ROUNDING = (0.2, 0.6)
RENDER_SIZES = ((640, 480), (480, 480), (640, 360), (480, 640), (800, 600), (640, 640))


def with_varied_dice(scene: renderer.Scene, rng: np.random.Generator) -> renderer.Scene:
    """`scene` with some dice rounded (ROUNDED_SHARE), pale (PASTEL_SHARE) or with
    tonal pips (TONAL_SHARE)."""
    out = []
    for d in scene.dice:
        if rng.random() < ROUNDED_SHARE:
            d = replace(d, rounding=float(rng.uniform(*ROUNDING)))
        if rng.random() < PASTEL_SHARE:
            hsv = np.array([[[rng.uniform(0, 180), rng.uniform(25, 115), rng.uniform(190, 255)]]])
            bgr = cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR)[0, 0]
            pip = str(rng.choice(PASTEL_PIPS))
            pip = renderer.TONAL_PIPS if pip == "tone" else pip
            d = replace(d, body_bgr=tuple(int(v) for v in bgr), pip_color=pip)
        elif rng.random() < TONAL_SHARE:
            d = replace(d, pip_color=renderer.TONAL_PIPS)
        out.append(d)
    return replace(scene, dice=tuple(out))


def salt_and_pepper(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A copy with 0.3-1.5% of its pixels (at least one) set black or white, as in
    Roboflow's exports."""
    out = img.copy()
    h, w = out.shape[:2]
    n = max(1, int(h * w * rng.uniform(0.003, 0.015)))
    ys, xs = rng.integers(0, h, n), rng.integers(0, w, n)
    out[ys, xs] = np.where(rng.random(n) < 0.5, 0, 255).astype(out.dtype)[:, None]
    return out


def render_tables(n: int, seed: int, log: Callable[[str], None]) -> list[tuple[Photo, np.ndarray]]:
    """`n` seeded random tables as training photos, each with its decoy boxes (printed
    board tiles with a token or an icon: 'not a die')."""
    out = []
    for i in range(n):
        rng = np.random.default_rng([seed, 7, i])
        w, h = RENDER_SIZES[int(rng.integers(0, len(RENDER_SIZES)))]
        scene = with_varied_dice(renderer.random_scene(rng, w, h), rng)
        if rng.random() < 0.5:  # more things that are not dice than a game table has
            scene = replace(scene, distractors=scene.distractors + int(rng.integers(2, 10)))
        r = renderer.render(scene, rng)
        img = salt_and_pepper(r.image, rng) if rng.random() < 0.25 else r.image
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 95])
        assert ok
        boxes = np.array([d.bbox for d in r.dice], np.float32).reshape(-1, 4)
        values = np.array([d.value for d in r.dice], np.int64)
        decoys = np.array(r.decoys, np.float32).reshape(-1, 4)
        out.append((Photo(buf.tobytes(), boxes, values, True, RENDERED, w, h), decoys))
        if (i + 1) % 200 == 0:
            log(f"rendered {i + 1}/{n} tables")
    return out


# ------------------------------------------------------------------ value-net crops


def jitter(box: np.ndarray, rng: np.random.Generator, amount: float = 0.1) -> np.ndarray:
    """The box moved by up to `amount` of its size and scaled by up to 1.5 x `amount`
    (log) each way, as a detector boxes a die."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    cx = (x0 + x1) / 2 + rng.uniform(-amount, amount) * w
    cy = (y0 + y1) / 2 + rng.uniform(-amount, amount) * h
    w *= math.exp(rng.uniform(-1.5 * amount, 1.5 * amount))
    h *= math.exp(rng.uniform(-1.5 * amount, 1.5 * amount))
    return np.array([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], np.float32)


OFF_DIE_IOU = 0.1
"""A random 'not a die' box overlaps every die by less than this IoU: it shows next to
nothing of one."""
BESIDE_DIE_IOU = 0.3
"""A 'not a die' box beside a die overlaps it by less than this IoU: half of it on the die
at most, as a detector's box slid off a die takes it in."""
PIP_NEGATIVE_SIZE = (0.2, 0.33)
"""'Not a die' boxes inside a die, as a share of its box side: about one pip."""
BIG_NEGATIVE_SHARE = 1 / 3
"""Share of the random 'not a die' boxes that are 1.6-4x a die's size."""


def random_negative_boxes(
    boxes: np.ndarray, w: int, h: int, n: int, rng: np.random.Generator
) -> np.ndarray:
    """Up to `n` random boxes on a w x h image on no die of `boxes` (IoU under
    OFF_DIE_IOU): mostly die-sized, BIG_NEGATIVE_SHARE 1.6 to 4 times bigger, which never
    hold a die's centre (a board tile, a hand)."""
    out = []
    sizes = (boxes[:, 2:] - boxes[:, :2]) if len(boxes) else np.array([[0.1 * w, 0.1 * w]])
    middles = centres(boxes)
    for _ in range(n * 4):
        if len(out) >= n:
            break
        big = rng.random() < BIG_NEGATIVE_SHARE
        f = math.exp(rng.uniform(0.5, 1.4) if big else rng.uniform(-0.5, 0.5))
        bw, bh = np.minimum(sizes[rng.integers(0, len(sizes))] * f, (w, h))
        x0, y0 = rng.uniform(-bw * 0.2, w - bw * 0.8), rng.uniform(-bh * 0.2, h - bh * 0.8)
        cand = np.array([[x0, y0, x0 + bw, y0 + bh]], np.float32)
        if len(boxes) and box_iou_batch(cand, boxes).max() >= OFF_DIE_IOU:
            continue
        if big and ((middles >= cand[0, :2]) & (middles <= cand[0, 2:])).all(axis=1).any():
            continue
        out.append(cand[0])
    return np.array(out, np.float32).reshape(-1, 4)


def negative_boxes(
    img_shape: tuple[int, ...], boxes: np.ndarray, rng: np.random.Generator, n: int
) -> list[np.ndarray]:
    """'Not a die' boxes for an image with dice `boxes`: n + 2 random ones, about n / 2
    beside a die (half on it at most) and n / 3 about one pip of a die."""
    h, w = img_shape[:2]
    out = list(random_negative_boxes(boxes, w, h, n + 2, rng))
    for _ in range(n // 2 + 1 if len(boxes) else 0):
        b = boxes[rng.integers(0, len(boxes))]
        bw, bh = b[2] - b[0], b[3] - b[1]
        ang, d = rng.uniform(0, 2 * math.pi), rng.uniform(0.6, 1.0)
        cand = b + np.array([1, 0, 1, 0]) * math.cos(ang) * d * bw
        cand = cand + np.array([0, 1, 0, 1]) * math.sin(ang) * d * bh
        if box_iou_batch(cand[None].astype(np.float32), boxes).max() < BESIDE_DIE_IOU:
            out.append(cand.astype(np.float32))
    for _ in range(n // 3 + 1 if len(boxes) else 0):
        b = boxes[rng.integers(0, len(boxes))]
        bw, bh = b[2] - b[0], b[3] - b[1]
        f = rng.uniform(*PIP_NEGATIVE_SIZE)
        cx = rng.uniform(b[0] + bw * 0.25, b[2] - bw * 0.25)
        cy = rng.uniform(b[1] + bh * 0.25, b[3] - bh * 0.25)
        out.append(
            np.array(
                [cx - f * bw / 2, cy - f * bh / 2, cx + f * bw / 2, cy + f * bh / 2], np.float32
            )
        )
    return out


@dataclass
class Crops:
    """Value-net training crops: x (N, 64, 64, 3) BGR uint8, y (N,) 0 = not a die or
    1-6, source (N,) index into `sources`."""

    x: np.ndarray
    y: np.ndarray
    source: np.ndarray
    sources: tuple[str, ...]

    @classmethod
    def join(cls, parts: Sequence[Crops]) -> Crops:
        names = tuple(sorted({s for p in parts for s in p.sources}))
        remap = [np.array([names.index(s) for s in p.sources], np.int64) for p in parts]
        return cls(
            np.concatenate([p.x for p in parts]),
            np.concatenate([p.y for p in parts]),
            np.concatenate([r[p.source] for r, p in zip(remap, parts, strict=True)]),
            names,
        )

    def __len__(self) -> int:
        return len(self.y)


CROPS_PER_DIE_FEW = 8
CROPS_PER_DIE_MANY = 3
MANY_DICE = 5000
"""Jittered crops cut per labelled die: CROPS_PER_DIE_FEW for a source of fewer than
MANY_DICE training dice, CROPS_PER_DIE_MANY for a larger one (its own variety is worth
more than jitter, and memory is finite)."""


def _crops_builder() -> tuple[list, list, list, Callable]:
    xs: list[np.ndarray] = []
    ys: list[int] = []
    ss: list[str] = []

    def add(crop: np.ndarray, value: int, source: str) -> None:
        xs.append(crop)
        ys.append(value)
        ss.append(source)

    return xs, ys, ss, add


def _finish(xs: list, ys: list, ss: list) -> Crops:
    names = tuple(sorted(set(ss)))
    x = np.stack(xs) if xs else np.zeros((0, CROP_SIZE, CROP_SIZE, 3), np.uint8)
    return Crops(x, np.array(ys, np.int64), np.array([names.index(s) for s in ss], np.int64), names)


def label_crops(
    photos: Sequence[Photo], decoys: Sequence[np.ndarray], seed: int, log: Callable[[str], None]
) -> Crops:
    """Crops of the labelled dice (jittered) and of things that are not dice, from every
    photo; for rendered tables also their decoys (`decoys`, one array per photo, empty
    for real ones)."""
    dice = {}
    for p in photos:
        dice[p.source] = dice.get(p.source, 0) + len(p.boxes)
    xs, ys, ss, add = _crops_builder()
    for i, (p, dec) in enumerate(zip(photos, decoys, strict=True)):
        rng = np.random.default_rng([seed, 11, i])
        img = p.image()
        k = CROPS_PER_DIE_FEW if dice[p.source] < MANY_DICE else CROPS_PER_DIE_MANY
        for b, v in zip(p.boxes, p.values, strict=True):
            for _ in range(k):
                add(crop_die(img, jitter(b, rng)), int(v), p.source)
        n = max(2, len(p.boxes))
        for b in negative_boxes(img.shape, p.boxes, rng, n):
            add(crop_die(img, b), 0, p.source)
        for b in dec[:4]:
            add(crop_die(img, jitter(b, rng, 0.15)), 0, p.source)
        if (i + 1) % 1000 == 0:
            log(f"cut crops from {i + 1}/{len(photos)} images")
    return _finish(xs, ys, ss)


MINED_NEGATIVES = 8
"""Per image, at most this many of the detector's candidates on no die (hottest first)."""


MINED_OFF_DIE_IOU = 0.2
"""A detector's candidate counts as on no die below this IoU with every labelled die
(one nearer a die that the matching gave another candidate is not taught either way)."""


def mined_crops(
    photos: Sequence[Photo],
    detect: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]],
    log: Callable[[str], None],
) -> Crops:
    """The trained detector's candidates on every photo, cut as the reader cuts them:
    those on a labelled die with its value, those on no die (IoU under MINED_OFF_DIE_IOU
    with every one) as 'not a die' (MINED_NEGATIVES at most)."""
    xs, ys, ss, add = _crops_builder()
    for i, p in enumerate(photos):
        img = p.image()
        cand, heat = detect(img)
        truth = [(int(v), tuple(b)) for v, b in zip(p.values, p.boxes, strict=True)]
        s = match(truth, [(0, tuple(b)) for b in cand])
        on = {j: i for i, j in s.matches}
        near = box_iou_batch(cand, p.boxes).max(axis=1) if len(p.boxes) else np.zeros(len(cand))
        negatives = 0
        for j in np.argsort(-heat):
            if j in on:
                add(crop_die(img, cand[j]), int(p.values[on[j]]), p.source)
            elif near[j] < MINED_OFF_DIE_IOU and negatives < MINED_NEGATIVES:
                add(crop_die(img, cand[j]), 0, p.source)
                negatives += 1
        if (i + 1) % 1000 == 0:
            log(f"mined {i + 1}/{len(photos)} images")
    return _finish(xs, ys, ss)


def weighted_index(
    crops: Crops, weights: dict[str, float], n: int, rng: np.random.Generator
) -> np.ndarray:
    """`n` crop indices: a source drawn by `weights`, then a crop of it uniformly."""
    by_source = [np.flatnonzero(crops.source == k) for k in range(len(crops.sources))]
    present = [k for k, ix in enumerate(by_source) if len(ix)]
    w = np.array([weights.get(crops.sources[k], 0.0) for k in present])
    w = w / w.sum() if w.sum() > 0 else np.full(len(present), 1 / len(present))
    pick = rng.choice(len(present), size=n, p=w)
    return np.array(
        [by_source[present[k]][rng.integers(0, len(by_source[present[k]]))] for k in pick], np.int64
    )


# ------------------------------------------------------------------ augmentation

DET_CANVAS = 320
"""The detector trains on square canvases this many px wide."""


def _color_jitter(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """img float32 (..., H, W, 3)."""
    img = img * rng.uniform(0.8, 1.2, 3).astype(np.float32)
    mean = img.mean()
    img = (img - mean) * rng.uniform(0.65, 1.35) + mean * rng.uniform(0.65, 1.3)
    if rng.random() < 0.25:
        img = img[..., rng.permutation(3)]
    if rng.random() < 0.15:
        img = np.repeat(img.mean(axis=-1, keepdims=True), 3, axis=-1)
    return img


ZOOM = (0.45, 2.4)
"""The detector's training images are scaled by this factor (log-uniform) of the scale
that fits them in the canvas."""


def det_sample(photo: Photo, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One augmented training canvas (DET_CANVAS square, float32 BGR) with its boxes
    (canvas px) and whether each box's size is known."""
    size = DET_CANVAS
    data = np.frombuffer(photo.data, np.uint8)
    h, w = photo.height, photo.width
    s0 = size / max(h, w)
    z = math.exp(rng.uniform(math.log(ZOOM[0]), math.log(ZOOM[1])))
    a = math.exp(rng.uniform(-0.2, 0.2))
    sx, sy = s0 * z * a, s0 * z / a
    nw, nh = max(1, round(w * sx)), max(1, round(h * sy))
    ox = int(rng.integers(0, size - nw + 1)) if nw <= size else -int(rng.integers(0, nw - size + 1))
    oy = int(rng.integers(0, size - nh + 1)) if nh <= size else -int(rng.integers(0, nh - size + 1))
    if rng.random() < 0.5:  # the reader's letterbox is top-left anchored
        ox, oy = min(ox, 0), min(oy, 0)
    # decode at half size when the canvas shrinks it that far anyway (JPEG decodes it
    # directly), and scale only the part of the photo that lands on the canvas
    half = max(sx, sy) < 0.5
    img = cv2.imdecode(data, cv2.IMREAD_REDUCED_COLOR_2 if half else cv2.IMREAD_COLOR)
    f = img.shape[1] / w
    x0, y0 = max(ox, 0), max(oy, 0)
    x1, y1 = min(ox + nw, size), min(oy + nh, size)
    canvas = np.full((size, size, 3), PAD_VALUE, np.uint8)
    if x1 > x0 and y1 > y0:
        # the photo's px (at its decoded size) that fill canvas [x0, x1) x [y0, y1)
        u0, u1 = (x0 - ox) / sx * f, (x1 - ox) / sx * f
        v0, v1 = (y0 - oy) / sy * f, (y1 - oy) / sy * f
        iu0, iv0 = max(int(u0), 0), max(int(v0), 0)
        iu1, iv1 = min(math.ceil(u1), img.shape[1]), min(math.ceil(v1), img.shape[0])
        roi = img[iv0:iv1, iu0:iu1]
        fx, fy = sx / f, sy / f
        out_w, out_h = max(1, round(roi.shape[1] * fx)), max(1, round(roi.shape[0] * fy))
        small = cv2.resize(
            roi, (out_w, out_h), interpolation=cv2.INTER_AREA if fx < 1 else cv2.INTER_LINEAR
        )
        cx0, cy0 = round(iu0 * fx + ox) - x0, round(iv0 * fy + oy) - y0
        dst = canvas[y0:y1, x0:x1]
        sy0, sx0 = max(0, -cy0), max(0, -cx0)
        ty0, tx0 = max(0, cy0), max(0, cx0)
        hh = min(dst.shape[0] - ty0, small.shape[0] - sy0)
        ww = min(dst.shape[1] - tx0, small.shape[1] - sx0)
        if hh > 0 and ww > 0:
            dst[ty0 : ty0 + hh, tx0 : tx0 + ww] = small[sy0 : sy0 + hh, sx0 : sx0 + ww]
    boxes = photo.boxes
    b = boxes * np.array([sx, sy, sx, sy], np.float32) + np.array([ox, oy, ox, oy], np.float32)
    clipped = np.clip(b, 0, size)
    area = np.maximum((b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1]), 1e-6)
    carea = (clipped[:, 2] - clipped[:, 0]) * (clipped[:, 3] - clipped[:, 1])
    b = clipped[carea / area > 0.6]
    size_ok = np.full(len(b), photo.size_ok)
    if rng.random() < 0.5:
        canvas = canvas[:, ::-1]
        b = np.stack([size - b[:, 2], b[:, 1], size - b[:, 0], b[:, 3]], axis=1)
    if rng.random() < 0.3:
        canvas = canvas[::-1]
        b = np.stack([b[:, 0], size - b[:, 3], b[:, 2], size - b[:, 1]], axis=1)
    out = _color_jitter(canvas.astype(np.float32), rng)
    if rng.random() < 0.2:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.3, 1.2))
    if rng.random() < 0.3:
        out += rng.standard_normal(out.shape, dtype=np.float32) * np.float32(rng.uniform(2, 9))
    return np.clip(out, 0, 255), b.reshape(-1, 4), size_ok


def det_targets(boxes: np.ndarray, size_ok: np.ndarray, stride: int, grid: int) -> tuple:
    """CenterNet targets on a grid x grid map: (heat, regression (dx, dy, log w, log h in
    cells), offset mask, size mask)."""
    heat = np.zeros((grid, grid), np.float32)
    reg = np.zeros((4, grid, grid), np.float32)
    m_off = np.zeros((grid, grid), np.float32)
    m_size = np.zeros((grid, grid), np.float32)
    yy, xx = np.mgrid[0:grid, 0:grid].astype(np.float32)
    for (x0, y0, x1, y1), ok in zip(boxes, size_ok, strict=True):
        bw, bh = max(x1 - x0, 1.0), max(y1 - y0, 1.0)
        cx, cy = (x0 + x1) / 2 / stride, (y0 + y1) / 2 / stride
        ix, iy = min(int(cx), grid - 1), min(int(cy), grid - 1)
        sigma = max(0.6, 0.12 * min(bw, bh) / stride)
        g = np.exp(-((xx - ix) ** 2 + (yy - iy) ** 2) / (2 * sigma**2))
        np.maximum(heat, g, out=heat)
        heat[iy, ix] = 1.0
        reg[:, iy, ix] = (cx - ix, cy - iy, math.log(bw / stride), math.log(bh / stride))
        m_off[iy, ix] = 1.0
        m_size[iy, ix] = float(ok)
    return heat, reg, m_off, m_size


TURN_SHARE = 0.5
"""Share of value-net crops turned a quarter, a half or three quarters (the rest stay
upright, as an oblique camera sees a die: its top face uppermost)."""
GREY_SHARE = 0.2
SMALL_SHARE = 0.25
BLUR_SHARE = 0.15
RECOLOUR_SHARE = 0.3
"""Share of the value net's crops recoloured in two new colours (`recolour`)."""
MARBLE_SHARE = 0.15
"""Share of the value net's crops given a marbled body (`marble`)."""


def recolour(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """(64, 64, 3) float32 crop -> the same die in two random colours: each pixel's
    brightness, stretched to 0-1 over the crop, blends a random 'dark' colour into a
    random 'light' one. The body and the pips so change colour independently, and when
    the dark colour comes out the lighter of the two, their contrast flips: a white die
    with black pips becomes a smoke-black one with red pips, a black one with white pips
    an ivory one with blue pips."""
    lum = crop @ np.array([0.114, 0.587, 0.299], np.float32)
    lo, hi = np.percentile(lum, (2, 98))
    t = np.clip((lum - lo) / max(hi - lo, 8.0), 0, 1)[..., None]
    hsv = np.array(
        [[[rng.uniform(0, 180), rng.uniform(0, 255), rng.uniform(20, 255)] for _ in range(2)]]
    )
    a, b = cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR)[0].astype(np.float32)
    if abs(float(a.mean() - b.mean())) < 40:  # the two must stay apart enough to read:
        # the light one moved 60 grey levels off the dark one, on the side with room
        b = np.clip(b + (a.mean() + (60 if a.mean() < 128 else -60) - b.mean()), 0, 255)
    return a * (1 - t) + b * t


def marble(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """(64, 64, 3) float32 crop with smooth random swirls of light and colour over it,
    as on marbled, smoky and swirled dice (and as uneven light on plain ones)."""
    cells = int(rng.integers(3, 7))
    field = rng.normal(0, 1, (cells, cells, 3)).astype(np.float32)
    field = field.mean(axis=2, keepdims=True) + field / 3  # mostly light, a little colour
    field = cv2.resize(field, (CROP_SIZE, CROP_SIZE), interpolation=cv2.INTER_CUBIC)
    return crop + field * np.float32(rng.uniform(8, 28))


def value_augment(x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """(N, 64, 64, 3) uint8 crops -> (N, 3, 64, 64) float32, augmented: mirrored
    left-right, turned by quarters (TURN_SHARE), colour gains,
    brightness, contrast, channel order, grey (GREY_SHARE), new body and pip colours
    (RECOLOUR_SHARE), marbling (MARBLE_SHARE), lost resolution as of a small die
    (SMALL_SHARE), blur (BLUR_SHARE), noise."""
    b = x.astype(np.float32)
    n = len(b)
    flip = rng.random(n) < 0.5
    b[flip] = b[flip][:, :, ::-1]
    turn = np.flatnonzero(rng.random(n) < TURN_SHARE)
    for i, k in zip(turn, rng.integers(1, 4, len(turn)), strict=True):
        b[i] = np.rot90(b[i], int(k))
    gains = rng.uniform(0.75, 1.25, (n, 1, 1, 3)).astype(np.float32)
    bright = rng.uniform(0.6, 1.35, (n, 1, 1, 1)).astype(np.float32)
    mean = b.mean(axis=(1, 2, 3), keepdims=True)
    contrast = rng.uniform(0.6, 1.4, (n, 1, 1, 1)).astype(np.float32)
    b = ((b - mean) * contrast + mean) * bright * gains
    perm = rng.random(n) < 0.3
    if perm.any():
        b[perm] = b[perm][..., rng.permutation(3)]
    grey = rng.random(n) < GREY_SHARE
    if grey.any():
        b[grey] = b[grey].mean(axis=-1, keepdims=True)
    for i in range(n):
        if rng.random() < RECOLOUR_SHARE:
            b[i] = recolour(b[i], rng)
        if rng.random() < MARBLE_SHARE:
            b[i] = marble(b[i], rng)
        r = rng.random()
        if r < SMALL_SHARE:
            s = int(rng.integers(12, 34))
            small = cv2.resize(b[i], (s, s), interpolation=cv2.INTER_AREA)
            b[i] = cv2.resize(small, (CROP_SIZE, CROP_SIZE), interpolation=cv2.INTER_LINEAR)
        elif r < SMALL_SHARE + BLUR_SHARE:
            b[i] = cv2.GaussianBlur(b[i], (0, 0), rng.uniform(0.4, 1.5))
    noise = rng.random(n) < 0.3
    if noise.any():
        b[noise] += rng.normal(0, rng.uniform(2, 10), b[noise].shape).astype(np.float32)
    return np.clip(b, 0, 255).transpose(0, 3, 1, 2)
