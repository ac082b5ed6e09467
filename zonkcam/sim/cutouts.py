"""Dice cut out of labelled photos, to lay real dice on a rendered table.

A cut-out is one labelled die separated from its photo's background: GrabCut seeded by the
labelled box (outside the box is background, the middle of the box is die), then the rim
that still has the background's colour is peeled away and the mask closed to its convex
hull (a die seen from above is convex; pips and glare inside it stay die). Dice whose box
touches another labelled box are left out (the mask would take in the neighbour), and so
are dice smaller than :data:`MIN_DIE_PX` and masks that cannot be a die (too small or too
large a share of the box, a ragged outline).

Photos flagged ``aspect_stretched_to_square`` (the source stretched them to 640x640 by an
unknown factor) are most of the data, so they are kept; each cut-out is rescaled so that
its box is square: the table's camera looks nearly straight down, where a die's outline is
square, and a die's own box is the best estimate of its photo's stretch (a die photographed
obliquely then looks a little squashed, no worse than the stretch left it).

``pip_cluster`` boxes (matteop65: the box is round the pips only) are widened to an
estimated die with :func:`zonkcam.train.dataset.die_boxes` (the photo's pip clusters give
the die's size: about 1.7 times a cluster, square), and GrabCut is given a looser box
(:func:`zonkcam.train.dataset.cutouts_of`).

Each cut-out has a coarse :class:`DieKind` (body colour name, dark or light, pips light or
dark) so that figures over many dice can be told kind by kind.

Everything here works on arrays; :func:`zonkcam.train.dataset.load_cutouts` reads the
labelled photos and cuts them. The cut-outs are made when asked and live in memory only
(never written next to the code).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from zonkcam.vision.color import name_color

Box = tuple[float, float, float, float]

MIN_DIE_PX = 24
"""Dice whose box is narrower than this (px, either side) are too blurry to cut out."""
CUT_PX = 72
"""Dice larger than this (px) are cut out at this size (the mask then scaled back)."""
KEEP_PX = 128
"""The largest cut-out kept (px): the table draws dice at about 40 px."""
TOUCH_PX = 2.0
"""Boxes nearer than this (px) touch."""
AREA_SHARE = (0.45, 1.05)
"""A die's mask covers this share of its box (an oblique die's outline is a hexagon)."""
MIN_SOLIDITY = 0.8
"""The mask before it is closed to its hull covers at least this share of the hull."""
MIN_SPAN = 0.7
"""The mask spans at least this share of its box's width and height."""
PIP_CONTRAST = 28.0
"""Lightness (0-255) between the body and its pips below which the pips are not told apart
(the pips' tone is then taken as the body's opposite)."""
DARK_BODY_L = 110.0
"""A body darker than this (Lab lightness, 0-255) is dark."""
COLOUR_SAMPLE = 4000
"""The most pixels a colour's k-means is run on (every n-th of a larger set)."""

COARSE_COLOUR = {
    "white": "white",
    "black": "black",
    "red": "red",
    "pink": "red",
    "orange": "amber",
    "yellow": "amber",
    "green": "blue-green",
    "blue": "blue-green",
    "purple": "purple",
}
"""zonkcam.vision.color's names, merged so that each kind holds enough dice to count."""


@dataclass(frozen=True)
class DieKind:
    """What a die looks like, coarsely: for telling figures kind by kind."""

    colour: str
    """The body's colour (a value of COARSE_COLOUR; neutral bodies are white or black by
    lightness alone)."""
    dark: bool
    """A dark body."""
    light_pips: bool

    @property
    def name(self) -> str:
        return f"{self.colour}, {'light' if self.light_pips else 'dark'} pips"


@dataclass(frozen=True, eq=False)
class CutOut:
    """One die cut out of a photo: its pixels, where they are die, and where it came from."""

    image: np.ndarray
    """BGR, the die's box (rescaled to a square) with a margin."""
    alpha: np.ndarray
    """float32 0-1, the same size: where the picture is die."""
    value: int
    source: str
    group: str
    photo: str
    """The photo's path as labels.jsonl names it."""
    index: int
    """Which of the photo's labelled dice."""
    kind: DieKind
    body_bgr: tuple[float, float, float]
    """The body's median colour (white-balanced as the photo's light allows)."""

    @property
    def key(self) -> str:
        """A name for this cut-out, unique within one photo set."""
        return f"{self.source}:{self.photo}#{self.index}"

    @property
    def side_px(self) -> float:
        """The die's edge in this picture (the root of its outline's area)."""
        return math.sqrt(float(self.alpha.sum()))


def isolated(boxes: Sequence[Box], touch: float = TOUCH_PX) -> list[bool]:
    """For each box, whether it stays clear of every other box by ``touch`` px."""
    out = []
    for i, a in enumerate(boxes):
        clear = True
        for j, b in enumerate(boxes):
            if (
                i != j
                and (a[0] - touch < b[2] and b[0] - touch < a[2] and a[1] - touch < b[3])
                and b[1] - touch < a[3]
            ):
                clear = False
                break
        out.append(clear)
    return out


def _lab(px: np.ndarray) -> np.ndarray:
    return (
        cv2.cvtColor(px.reshape(-1, 1, 3).astype(np.uint8), cv2.COLOR_BGR2LAB)
        .reshape(-1, 3)
        .astype(np.float32)
    )


def die_mask(
    image: np.ndarray, box: Box, loose: float = 0.06
) -> tuple[np.ndarray, tuple[int, int, int, int]] | None:
    """Where the die in ``box`` is, in a window of the photo round the box.

    Returns (mask uint8 0/1 over the window, the window (x0, y0, x1, y1) in photo px), or
    None where the mask cannot be a die. ``loose``: how far (share of the box) the die may
    reach beyond the box (wider for an estimated box). Large dice are cut at a smaller
    scale (:data:`CUT_PX`), which is quicker and as good for the outline."""
    h, w = image.shape[:2]
    x0, y0, x1, y1 = box
    bw, bh = x1 - x0, y1 - y0
    if min(bw, bh) < 4:
        return None
    pad = 0.35 * max(bw, bh)
    wx0, wy0 = max(0, int(x0 - pad)), max(0, int(y0 - pad))
    wx1, wy1 = min(w, int(math.ceil(x1 + pad))), min(h, int(math.ceil(y1 + pad)))
    window = (wx0, wy0, wx1, wy1)
    f = min(1.0, CUT_PX / max(bw, bh))
    roi = np.ascontiguousarray(image[wy0:wy1, wx0:wx1])
    if f < 1:
        roi = cv2.resize(roi, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
    rh, rw = roi.shape[:2]
    # the box, loosened a little, may be die; outside it is background; its middle is die
    inner = ((x0 - wx0) * f, (y0 - wy0) * f, (x1 - wx0) * f, (y1 - wy0) * f)
    sbw, sbh = bw * f, bh * f
    rx0 = max(0, int(inner[0] - loose * sbw))
    ry0 = max(0, int(inner[1] - loose * sbh))
    rx1 = min(rw, int(math.ceil(inner[2] + loose * sbw)))
    ry1 = min(rh, int(math.ceil(inner[3] + loose * sbh)))
    if rx0 == 0 and ry0 == 0 and rx1 == rw and ry1 == rh:
        return None  # no background to learn from
    seed = np.full((rh, rw), cv2.GC_BGD, np.uint8)
    seed[ry0:ry1, rx0:rx1] = cv2.GC_PR_FGD
    cx, cy = (inner[0] + inner[2]) / 2, (inner[1] + inner[3]) / 2
    seed[
        int(cy - sbh * 0.2) : int(cy + sbh * 0.2) + 1, int(cx - sbw * 0.2) : int(cx + sbw * 0.2) + 1
    ] = cv2.GC_FGD
    bgd, fgd = np.zeros((1, 65), np.float64), np.zeros((1, 65), np.float64)
    try:
        cv2.grabCut(roi, seed, None, bgd, fgd, 4, cv2.GC_INIT_WITH_MASK)
    except cv2.error:
        return None
    mask = ((seed == cv2.GC_FGD) | (seed == cv2.GC_PR_FGD)).astype(np.uint8)
    mask = peel_rim(roi, mask, seed_box=(rx0, ry0, rx1, ry1))
    mask = _largest(mask)
    if mask is None:
        return None
    hull = convex_close(mask)
    if not plausible(mask, hull, inner):
        return None
    if f < 1:
        full = cv2.resize(
            hull.astype(np.float32), (wx1 - wx0, wy1 - wy0), interpolation=cv2.INTER_LINEAR
        )
        hull = (full > 0.5).astype(np.uint8)
    return hull, window


def peel_rim(
    roi: np.ndarray, mask: np.ndarray, seed_box: tuple[int, int, int, int], most: int = 0
) -> np.ndarray:
    """Peel, layer by layer, the mask's rim where it has the background's colour (the
    table round the die, its shadow): a rim pixel goes when its colour is nearer the
    background (outside ``seed_box``) than the die's middle. ``most``: layers (0: a fifth
    of the box's side)."""
    rx0, ry0, rx1, ry1 = seed_box
    outside = np.ones(mask.shape, bool)
    outside[ry0:ry1, rx0:rx1] = False
    if outside.sum() < 20 or not mask.any():
        return mask
    lab = _lab(roi).reshape(*mask.shape, 3)
    centres = _colours(lab[outside], 4)
    inner = cv2.erode(mask, np.ones((3, 3), np.uint8), iterations=max(1, (ry1 - ry0) // 6))
    bcentres = _colours(lab[inner > 0] if inner.any() else lab[mask > 0], 3)
    d_back = np.min(np.linalg.norm(lab[..., None, :] - centres, axis=-1), axis=-1)
    d_body = np.min(np.linalg.norm(lab[..., None, :] - bcentres, axis=-1), axis=-1)
    backish = (d_back < d_body).astype(np.uint8)
    layers = most or max(1, (ry1 - ry0) // 5)
    mask = mask.copy()
    kernel = np.ones((3, 3), np.uint8)
    for _ in range(layers):
        rim = mask - cv2.erode(mask, kernel)
        peel = (rim > 0) & (backish > 0)
        if not peel.any():
            break
        mask[peel] = 0
    return mask


def _colours(px: np.ndarray, most: int) -> np.ndarray:
    """The main colours (at most ``most``, k-means centres) of ``px`` (N, 3) Lab pixels,
    judged on at most COLOUR_SAMPLE of them, spread evenly."""
    if len(px) > COLOUR_SAMPLE:
        px = px[:: len(px) // COLOUR_SAMPLE]
    _, _, centres = cv2.kmeans(
        px,
        min(most, len(px)),
        None,
        (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 10, 1.0),
        2,
        cv2.KMEANS_PP_CENTERS,
    )
    return centres


def _largest(mask: np.ndarray) -> np.ndarray | None:
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
    if n <= 1:
        return None
    best = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    return (labels == best).astype(np.uint8)


def convex_close(mask: np.ndarray) -> np.ndarray:
    """The mask closed to its convex hull."""
    pts = cv2.findNonZero(mask)
    out = np.zeros_like(mask)
    if pts is not None:
        cv2.fillConvexPoly(out, cv2.convexHull(pts), 1)
    return out


def plausible(mask: np.ndarray, hull: np.ndarray, box: Box) -> bool:
    """Whether a mask (and its hull) can be the die of ``box`` (all in window px)."""
    x0, y0, x1, y1 = box
    bw, bh = x1 - x0, y1 - y0
    area, hull_area = float(mask.sum()), float(hull.sum())
    if hull_area <= 0 or area / hull_area < MIN_SOLIDITY:
        return False
    if not AREA_SHARE[0] <= hull_area / (bw * bh) <= AREA_SHARE[1]:
        return False
    ys, xs = np.nonzero(hull)
    h, w = hull.shape
    if xs.min() == 0 or ys.min() == 0 or xs.max() == w - 1 or ys.max() == h - 1:
        return False  # leaked to the window's edge
    return (xs.max() - xs.min() + 1) >= MIN_SPAN * bw and (ys.max() - ys.min() + 1) >= MIN_SPAN * bh


def die_kind(
    image: np.ndarray, alpha: np.ndarray, gains: np.ndarray | None = None
) -> tuple[DieKind, tuple[float, float, float]]:
    """The kind of the die in ``image`` where ``alpha`` is die, and its body's median BGR.

    The die's pixels (its rim left out) are split by lightness (Otsu); the body is the
    side with the largest connected patch (it surrounds the pips, which are separate
    spots), the pips the other side. ``gains``: the photo's white balance."""
    inner = cv2.erode((alpha > 0.5).astype(np.uint8), np.ones((3, 3), np.uint8), iterations=2)
    if inner.sum() < 16:
        inner = (alpha > 0.5).astype(np.uint8)
    px = image[inner > 0].astype(np.float32)
    if gains is not None:
        px = np.clip(px * gains, 0, 255)
    lum = _lab(px)[:, 0]
    thr, _ = cv2.threshold(
        lum.astype(np.uint8).reshape(-1, 1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU
    )
    bright = lum > thr
    split = (
        bright.any()
        and (~bright).any()
        and (float(lum[bright].mean()) - float(lum[~bright].mean()) >= PIP_CONTRAST)
    )
    if split:
        grid = np.zeros(inner.shape, bool)
        grid[inner > 0] = bright
        lit = _patch(grid & (inner > 0))
        dim = _patch(~grid & (inner > 0))
        body_is_bright = lit >= dim
        body = px[bright] if body_is_bright else px[~bright]
        light_pips = not body_is_bright
    else:
        body = px
    bgr = np.median(body, axis=0)
    body_l = float(_lab(bgr.reshape(1, 3))[0, 0])
    dark = body_l < DARK_BODY_L
    if not split:
        light_pips = dark
    colour = COARSE_COLOUR[name_color(bgr)]
    if colour in ("white", "black"):  # neutral bodies by lightness alone
        colour = "black" if dark else "white"
    return DieKind(colour, dark, bool(light_pips)), (float(bgr[0]), float(bgr[1]), float(bgr[2]))


def _patch(mask: np.ndarray) -> int:
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=4)
    return int(stats[1:, cv2.CC_STAT_AREA].max()) if n > 1 else 0


def cut_die(
    image: np.ndarray,
    box: Box,
    *,
    loose: float = 0.06,
    gains: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, DieKind, tuple[float, float, float]] | None:
    """Cut the die in ``box`` out of a BGR photo: (picture, alpha, kind, body BGR), the
    picture rescaled so that the die's box is square; None where no plausible die is
    found (see the module's notes)."""
    found = die_mask(image, box, loose)
    if found is None:
        return None
    mask, (wx0, wy0, wx1, wy1) = found
    ys, xs = np.nonzero(mask)
    margin = 2
    ax0, ay0 = max(0, xs.min() - margin), max(0, ys.min() - margin)
    ax1, ay1 = min(mask.shape[1], xs.max() + 1 + margin), min(mask.shape[0], ys.max() + 1 + margin)
    pic = image[int(wy0) + ay0 : int(wy0) + ay1, int(wx0) + ax0 : int(wx0) + ax1]
    alpha = cv2.GaussianBlur(mask[ay0:ay1, ax0:ax1].astype(np.float32), (3, 3), 0)
    side = min(KEEP_PX, max(pic.shape[:2]))
    pic = cv2.resize(pic, (side, side), interpolation=cv2.INTER_AREA)
    alpha = cv2.resize(alpha, (side, side), interpolation=cv2.INTER_LINEAR)
    kind, bgr = die_kind(pic, alpha, gains)
    return np.ascontiguousarray(pic), np.clip(alpha, 0, 1), kind, bgr


def spread_over_kinds(cuts: Sequence[CutOut], n: int, rng: np.random.Generator) -> list[CutOut]:
    """``n`` of ``cuts`` (all, when fewer), taken kind by kind in turn so that the rare
    kinds are not crowded out by the common ones."""
    by_kind: dict[str, list[CutOut]] = defaultdict(list)
    for c in cuts:
        by_kind[c.kind.name].append(c)
    queues = {k: [v[int(i)] for i in rng.permutation(len(v))] for k, v in sorted(by_kind.items())}
    out: list[CutOut] = []
    while len(out) < n and any(queues.values()):
        for q in queues.values():
            if q and len(out) < n:
                out.append(q.pop())
    return out


def lab_distance(a: Sequence[float], b: Sequence[float]) -> float:
    """How far apart two BGR colours look (Euclidean in Lab, 0-255 units)."""
    la, lb = _lab(np.array([a], np.float32)), _lab(np.array([b], np.float32))
    return float(np.linalg.norm(la - lb))


def paste_die(
    image: np.ndarray,
    cut: CutOut,
    centre: tuple[float, float],
    side_px: float,
    yaw_deg: float = 0.0,
    *,
    blur_px: float = 0.0,
    blur_deg: float = 0.0,
    shadow: tuple[float, float] | None = None,
    shadow_strength: float = 0.45,
) -> Box:
    """Draw a cut-out into a BGR image, in place: scaled so that its die's edge is
    ``side_px``, turned by ``yaw_deg`` (counter-clockwise) about ``centre``; smeared by
    ``blur_px`` along ``blur_deg`` (a die in motion); with a soft dark contact shadow under
    it, offset by ``shadow`` px (away from the light). Returns the die's box in ``image``
    (x0, y0, x1, y1)."""
    h, w = image.shape[:2]
    scale = side_px / max(1e-6, cut.side_px)
    ch, cw = cut.image.shape[:2]
    reach = 0.5 * math.hypot(cw, ch) * scale + blur_px + 3
    px0, py0 = int(math.floor(centre[0] - reach)), int(math.floor(centre[1] - reach))
    px1, py1 = int(math.ceil(centre[0] + reach)), int(math.ceil(centre[1] + reach))
    ox0, oy0, ox1, oy1 = max(0, px0), max(0, py0), min(w, px1), min(h, py1)
    if ox1 <= ox0 or oy1 <= oy0:
        return (centre[0], centre[1], centre[0], centre[1])
    pw, ph = px1 - px0, py1 - py0
    m = cv2.getRotationMatrix2D((cw / 2, ch / 2), yaw_deg, scale)
    m[0, 2] += centre[0] - px0 - cw / 2
    m[1, 2] += centre[1] - py0 - ch / 2
    flags = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    pic = cv2.warpAffine(cut.image, m, (pw, ph), flags=flags, borderMode=cv2.BORDER_REPLICATE)
    alpha = cv2.warpAffine(cut.alpha, m, (pw, ph), flags=cv2.INTER_LINEAR, borderValue=0.0)
    if blur_px >= 1:
        k = int(2 * round(blur_px) + 1)
        kernel = np.zeros((k, k), np.float32)
        t = math.radians(blur_deg)
        c = k // 2
        cv2.line(
            kernel,
            (int(round(c - c * math.cos(t))), int(round(c + c * math.sin(t)))),
            (int(round(c + c * math.cos(t))), int(round(c - c * math.sin(t)))),
            1.0,
            1,
        )
        kernel /= kernel.sum()
        pic = cv2.filter2D((pic * alpha[..., None]).astype(np.float32), -1, kernel)
        alpha = cv2.filter2D(alpha, -1, kernel)
        pic = pic / np.maximum(alpha[..., None], 1e-3)
    region = image[oy0:oy1, ox0:ox1].astype(np.float32)
    sl = np.s_[oy0 - py0 : oy1 - py0, ox0 - px0 : ox1 - px0]
    if shadow is not None:
        dark = np.zeros((ph, pw), np.float32)
        sc = (centre[0] - px0 + shadow[0] * 0.5, centre[1] - py0 + shadow[1] * 0.5)
        axes = (
            max(1, int(side_px * 0.55 + abs(shadow[0]) * 0.5)),
            max(1, int(side_px * 0.55 + abs(shadow[1]) * 0.5)),
        )
        cv2.ellipse(dark, (int(sc[0]), int(sc[1])), axes, 0, 0, 360, 1.0, -1, cv2.LINE_AA)
        dark = cv2.GaussianBlur(dark, (0, 0), max(1.0, side_px * 0.15))[sl]
        region *= (1 - shadow_strength * dark)[..., None]
    a = alpha[sl][..., None]
    region = region * (1 - a) + pic[sl].astype(np.float32) * a
    image[oy0:oy1, ox0:ox1] = np.clip(region, 0, 255).astype(np.uint8)
    ys, xs = np.nonzero(alpha > 0.5)
    if len(xs) == 0:
        return (centre[0], centre[1], centre[0], centre[1])
    return (
        float(px0 + xs.min()),
        float(py0 + ys.min()),
        float(px0 + xs.max() + 1),
        float(py0 + ys.max() + 1),
    )
