"""A classical pip check: the value of a die read by counting its pips and matching them
to the six standard layouts, as a second opinion beside the learned value net.

`check_pips(image, box)` cuts the die from the full-size image (the box and a margin,
scaled so that the box's longer side is WORK px), and for each of a few channels and
polarities (grey darker and lighter than the body, red against green, for red pips on
smoke or black dice) finds small blobs by local contrast (a morphological top-hat whose
size follows the die), keeps those of pip size and shape, and fits the layouts of 1 to 6
to their centres: an affine grid for 4, 5 and 6 (any rotation, any squash from a
stretched photo or an oblique view), a diagonal for 2 and 3, a centred round blob for 1.
It speaks (`PipCheck.value` set) only when one layout fits well, the pips are alike in
size and shape (and drawn out as the grid is), the grid points a layout leaves empty are
clearly empty (so that a 4 with two pips lost in glare is not read as a 2), nothing else
stands out on the face round the grid (a pip of a side face, a stray blob), and no other
channel or threshold finds a different clean layout.
Otherwise `value` is None: it has no opinion, which says nothing against the net.
Pure numpy and OpenCV (long-standing calls only), no I/O.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

WORK = 64
"""The box's longer side in the working image, px."""
MARGIN = 0.15
"""Each side of the working image reaches this share of WORK beyond the box."""
HAT = 0.42
"""The top-hat's element, as a share of WORK: wider than the biggest pip (a 1 drawn
large), narrower than the face."""
MIN_CONTRAST = 14.0
"""Weakest pip contrast (grey levels over the local body) counted at all."""
BLOB_SHARES = (0.4, 0.55)
"""A blob is pixels over one of these shares of the strongest contrast in the box (each
tried in turn: pips of uneven contrast, pips that run together)."""
EMPTY_SHARE = 0.4
"""A grid point a layout leaves empty must stay under this share of its pips' contrast."""
MAX_FIT = 0.16
"""Largest RMS distance of a pip from its layout point, in units of the grid's half-size."""

# layout points on a face, grid half-size 1 (u right, v down); cyclic order round the centre
_RING = {
    4: ((-1, -1), (1, -1), (1, 1), (-1, 1)),
    5: ((-1, -1), (1, -1), (1, 1), (-1, 1)),
    6: ((-1, -1), (1, -1), (1, 0), (1, 1), (-1, 1), (-1, 0)),
}
MAX_SQUASH = 1.8
"""Largest ratio of a 4, 5 or 6's grid's long axis to its short one (a stretched photo
seen obliquely)."""
FACE = 1.8
"""Half-size of the face round the pips' grid, in grid half-sizes, where nothing but the
pips may stand out."""
QUIET_SHARE = 0.45
"""Anything else on the face must stay under this share of its pips' contrast."""
KEEP = 1.7
"""The quiet check leaves out a disc of this many pip radii round each pip (its rim)."""
SPOT = 0.5
"""An empty grid point is looked at within this many pip radii of it."""
OPPOSITE_SHARE = 0.3
"""A lone pip (a 1) is refused when the other polarity shows pips over this share of its
contrast round it: a gap between pips, or a whole face, seen the wrong way round."""
ONE_MARGIN = 0.1
"""A 1 must pass every tolerance by this much (its score is lowered by it): a lone blob
is the easiest layout to make from blur and shading."""
PAIR_AREAS = 2.0
"""Largest ratio of pip areas on a 2 or a 3 (2.6 on a 4, 5 or 6): a pip of the top face
and one of a side face, foreshortened, do not pass for a 2."""
ONE_MAX = 0.34
"""Largest diameter of a 1's pip, as a share of the box's longer side."""
RING_SPREAD = 0.6
"""Largest spread (10th to 90th percentile) of the body right round a pip, as a share of
the pip's contrast."""
SHAPE_SPREAD = 0.25
SHAPE_GRID = 0.35
"""Tolerances on the pips' anisotropy vectors (see _Blob.shape): their spread, and their
mean's distance from the grid's own squash."""

_EMPTY = {  # grid points each affine layout leaves empty
    4: ((0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)),
    5: ((-1, 0), (1, 0), (0, -1), (0, 1)),
    6: ((0, -1), (0, 0), (0, 1)),
}
_OPPOSITE = {"grey-dark": "grey-light", "grey-light": "grey-dark", "red-light": "red-dark"}
_OPPOSITE["red-dark"] = "red-light"


@dataclass(frozen=True)
class PipCheck:
    """What the pip check saw on one die."""

    value: int | None
    """The face value 1-6 when the pips fit one layout cleanly, else None (no opinion)."""
    pips: int
    """Pip-like blobs counted in the box (in the channel whose layout fitted best; 0 when
    none; 7 stands for 7 or more)."""
    score: float
    """How cleanly the best layout fits, 1 = perfect; 0 or below = outside a tolerance
    (the fit, the empty grid points, the pip sizes). A value is given only above 0."""
    channel: str = ""
    """The channel and polarity the pips were counted in (e.g. 'grey-dark'), or ''."""


@dataclass(frozen=True)
class _Blob:
    x: float
    y: float
    area: float
    contrast: float
    shape: tuple[float, float]
    """How the blob is drawn out, and which way: (l1 - l2) / (l1 + l2) of its second
    moments, as a vector at twice its long axis's angle ((0, 0) = round)."""


def _shape(cxx: float, cxy: float, cyy: float) -> tuple[float, float]:
    """The anisotropy vector of second moments (see _Blob.shape)."""
    t = cxx + cyy
    if t <= 0:
        return 0.0, 0.0
    return (cxx - cyy) / t, 2 * cxy / t


def _working_crop(image: np.ndarray, box: Sequence[float]) -> tuple[np.ndarray, tuple]:
    """The box with its margin, scaled to a square of WORK * (1 + 2 MARGIN) px (aspect kept;
    edges past the image repeated); returns it and the box in its pixels."""
    x0, y0, x1, y1 = (float(v) for v in box)
    side = max(x1 - x0, y1 - y0, 1.0)
    n = int(round(WORK * (1 + 2 * MARGIN)))
    half = side * (0.5 + MARGIN)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    h, w = image.shape[:2]
    ix0, iy0 = int(math.floor(cx - half)), int(math.floor(cy - half))
    ix1, iy1 = int(math.ceil(cx + half)), int(math.ceil(cy + half))
    cx0, cy0, cx1, cy1 = max(ix0, 0), max(iy0, 0), min(ix1, w), min(iy1, h)
    if cx1 - cx0 < 2 or cy1 - cy0 < 2:
        return np.zeros((n, n, 3), np.uint8), (0.0, 0.0, 0.0, 0.0)
    region = image[cy0:cy1, cx0:cx1]
    pads = (cy0 - iy0, iy1 - cy1, cx0 - ix0, ix1 - cx1)
    if any(pads):
        region = cv2.copyMakeBorder(region, *pads, cv2.BORDER_REPLICATE)
    full = region.shape[0]
    while region.shape[0] >= 2 * n and region.shape[1] >= 2 * n:  # OpenCV's fast 2x path
        region = cv2.resize(
            region, (region.shape[1] // 2, region.shape[0] // 2), interpolation=cv2.INTER_AREA
        )
    interp = cv2.INTER_AREA if region.shape[0] > n else cv2.INTER_LINEAR
    crop = cv2.resize(region, (n, n), interpolation=interp)
    k = n / full
    wb = ((x0 - ix0) * k, (y0 - iy0) * k, (x1 - ix0) * k, (y1 - iy0) * k)
    return crop, wb


def _contrast_maps(crop: np.ndarray, red: bool) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Local contrast (top-hat) of the grey channel (or with `red`, red against green) in
    both polarities, float32 grey levels, each with its channel (negated for the dark
    polarity, so that pips are always the brighter); {} for a channel with nothing in it."""
    if red:
        chan = crop[..., 2].astype(np.float32) - crop[..., 1]
        if float(np.abs(chan).max()) < MIN_CONTRAST:
            return {}
        names = ("red-light", "red-dark")
    else:
        chan = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
        names = ("grey-light", "grey-dark")
    k = max(3, int(round(HAT * WORK)) | 1)
    el = cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))
    light = cv2.morphologyEx(chan, cv2.MORPH_TOPHAT, el).astype(np.float32)
    dark = cv2.morphologyEx(chan, cv2.MORPH_BLACKHAT, el).astype(np.float32)
    chan = chan.astype(np.float32)
    return {names[0]: (light, chan), names[1]: (dark, -chan)}


def _peak(hat: np.ndarray, wb: tuple) -> float:
    """The strongest contrast inside the box (less a thin rim)."""
    x0, y0, x1, y1 = wb
    inset = 0.04 * WORK
    ix0, iy0 = max(int(x0 + inset), 0), max(int(y0 + inset), 0)
    inner = hat[iy0 : int(y1 - inset) + 1, ix0 : int(x1 - inset) + 1]
    return float(inner.max()) if inner.size else 0.0


def _blobs(hat: np.ndarray, wb: tuple, thr: float) -> list[_Blob]:
    """Pip-like blobs inside the box: pixels over `thr`, of pip size and roughly round."""
    x0, y0, x1, y1 = wb
    inset = 0.04 * WORK
    h, w = hat.shape
    ox, oy = max(int(x0) - 1, 0), max(int(y0) - 1, 0)
    region = hat[oy : min(int(y1) + 2, h), ox : min(int(x1) + 2, w)]
    mask = (region > thr).astype(np.uint8)
    count, labels, stats, cents = cv2.connectedComponentsWithStats(mask, connectivity=8)
    blobs = []
    # specks are left to the empty-point checks, shapes that are no pip to the quiet check
    bw, bh, area = stats[:, 2], stats[:, 3], stats[:, 4].astype(np.float64)
    d = 2 * np.sqrt(area / math.pi)
    cx, cy = cents[:, 0] + ox, cents[:, 1] + oy
    ok = (d >= 0.06 * WORK) & (d <= 0.45 * WORK) & (area >= 0.45 * bw * bh)
    ok &= np.maximum(bw, bh) <= 2.4 * np.maximum(np.minimum(bw, bh), 1)
    ok &= (cx >= x0 + inset) & (cx <= x1 - inset) & (cy >= y0 + inset) & (cy <= y1 - inset)
    ok[0] = False
    for i in np.flatnonzero(ok)[:7]:  # seven are enough to be too many
        x, y, a = float(cx[i]), float(cy[i]), float(area[i])
        top, left = int(stats[i, 1]), int(stats[i, 0])
        sl = (slice(top, top + int(bh[i])), slice(left, left + int(bw[i])))
        own = labels[sl] == i
        contrast = float(region[sl][own].max())
        mo = cv2.moments(own.astype(np.uint8), True)
        shape = _shape(mo["mu20"], mo["mu11"], mo["mu02"])
        blobs.append(_Blob(x, y, a, contrast, shape))
    return blobs


def _peak_near(hat: np.ndarray, x: float, y: float, r: float) -> float:
    """The strongest contrast within r px of (x, y) (0 outside the image)."""
    h, w = hat.shape
    ri = max(1, int(round(r)))
    xi, yi = int(round(x)), int(round(y))
    a0, a1 = max(yi - ri, 0), min(yi + ri + 1, h)
    b0, b1 = max(xi - ri, 0), min(xi + ri + 1, w)
    if a1 <= a0 or b1 <= b0:
        return 0.0
    return float(hat[a0:a1, b0:b1].max())


def _layout_src(value: int) -> tuple[np.ndarray, np.ndarray]:
    """Layout `value`'s points (ring, then the centre for a 5) with a column of ones, and
    the pseudo-inverse that fits an affine map to them."""
    src = np.array(_RING[value] + (((0, 0),) if value == 5 else ()), np.float64)
    a = np.hstack([src, np.ones((len(src), 1))])
    return a, np.linalg.pinv(a)


_SRC = {v: _layout_src(v) for v in _RING}


def _fit_affine(pts: np.ndarray, value: int) -> tuple[float, np.ndarray] | None:
    """Best affine map of layout `value`'s points onto `pts` over the cyclic orders round
    the centre (either way round): (RMS error in grid half-sizes, 2x3 map)."""
    a, pinv = _SRC[value]
    pts = np.asarray(pts, np.float64)
    c = pts.mean(axis=0)
    if value == 5:
        mid = int(np.argmin(np.linalg.norm(pts - c, axis=1)))
        outer = np.delete(pts, mid, axis=0)
    else:
        outer = pts
    ang = np.arctan2(outer[:, 1] - c[1], outer[:, 0] - c[0])
    order = outer[np.argsort(ang)]
    n = len(order)
    idx = np.arange(n)
    rolls = [(idx + k) % n for k in range(n)]
    perms = np.array(rolls + [r[::-1] for r in rolls])
    dst = order[perms]  # (2n, n, 2)
    if value == 5:
        dst = np.concatenate([dst, np.broadcast_to(pts[mid], (len(dst), 1, 2))], axis=1)
    m = np.einsum("ij,kjl->kil", pinv, dst)  # (2n, 3, 2)
    res = np.einsum("ij,kjl->kil", a, m) - dst
    det = np.abs(m[:, 0, 0] * m[:, 1, 1] - m[:, 0, 1] * m[:, 1, 0])
    err = np.sqrt((res**2).sum(axis=2).mean(axis=1) / np.maximum(det, 1e-9))
    err[det < 1e-6] = np.inf
    k = int(np.argmin(err))
    if not np.isfinite(err[k]):
        return None
    return float(err[k]), m[k].T


@functools.cache
def _grid(n: int) -> np.ndarray:
    """Pixel row and column numbers of an n x n image, (2, n, n) float32 (read-only)."""
    g = np.mgrid[0:n, 0:n].astype(np.float32)
    g.flags.writeable = False
    return g


def _median(xs: list[float]) -> float:
    s = sorted(xs)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def _quiet_badness(
    hat: np.ndarray,
    m: np.ndarray | None,
    centre: np.ndarray,
    reach: float,
    pts: np.ndarray,
    r_pip: float,
    pip_c: float,
) -> float:
    """The strongest contrast on the face away from the pips, as a share of the pips'
    contrast over QUIET_SHARE (1 = at the tolerance). The face is the square of half-size
    FACE grid units through the grid map `m`, or (no map, a 1) the disc of radius `reach`
    round `centre`."""
    yy, xx = _grid(hat.shape[0])
    if m is None:
        face = (xx - centre[0]) ** 2 + (yy - centre[1]) ** 2 <= reach**2
    else:
        inv = np.linalg.inv(m[:, :2]).astype(np.float32)
        dx, dy = xx - np.float32(m[0, 2]), yy - np.float32(m[1, 2])
        u = inv[0, 0] * dx + inv[0, 1] * dy
        v = inv[1, 0] * dx + inv[1, 1] * dy
        face = (np.abs(u) <= FACE) & (np.abs(v) <= FACE)
    keep = (KEEP * r_pip) ** 2
    for x, y in pts:
        face &= (xx - np.float32(x)) ** 2 + (yy - np.float32(y)) ** 2 > keep
    if not face.any():
        return 0.0
    return float(hat[face].max()) / max(pip_c, 1e-6) / QUIET_SHARE


def _shape_badness(blobs: list[_Blob], m: np.ndarray | None) -> float:
    """How far the pips' shapes differ from one another, and (given the grid map `m`) from
    the squash of the grid (1 = at the tolerance): pips of one face are drawn out alike."""
    vec = np.array([b.shape for b in blobs])
    mean = vec.mean(axis=0)
    out = float(np.linalg.norm(vec - mean, axis=1).max()) / SHAPE_SPREAD if len(blobs) > 1 else 0.0
    if m is not None:
        a = m[:, :2]
        c = a @ a.T
        want = np.array(_shape(float(c[0, 0]), float(c[0, 1]), float(c[1, 1])))
        out = max(out, float(np.linalg.norm(want - mean)) / SHAPE_GRID)
    return out


def _ring_badness(chan: np.ndarray, blobs: list[_Blob], r_pip: float) -> float:
    """How uneven the body right round each pip is, as a share of the pip's contrast over
    RING_SPREAD (1 = at the tolerance): a pip sits on plain body, where a gap between
    pips seen in the wrong polarity is ringed by them."""
    n = chan.shape[0]
    grid_y, grid_x = _grid(n)
    out = 0.0
    r0, r1 = 1.35 * r_pip, 1.9 * r_pip
    for b in blobs:
        a0, a1 = max(int(b.y - r1), 0), min(int(b.y + r1) + 2, n)
        c0, c1 = max(int(b.x - r1), 0), min(int(b.x + r1) + 2, n)
        yy, xx = grid_y[a0:a1, c0:c1], grid_x[a0:a1, c0:c1]
        d2 = (xx - np.float32(b.x)) ** 2 + (yy - np.float32(b.y)) ** 2
        ring = chan[a0:a1, c0:c1][(d2 >= r0 * r0) & (d2 <= r1 * r1)]
        if ring.size < 8:
            continue
        k = ring.size // 10
        part = np.partition(ring, (k, ring.size - 1 - k))
        lo, hi = part[k], part[ring.size - 1 - k]
        out = max(out, float(hi - lo) / max(b.contrast, 1e-6) / RING_SPREAD)
    return out


def _score_layout(
    blobs: list[_Blob], hat: np.ndarray, chan: np.ndarray, other: np.ndarray, wb: tuple
) -> tuple[int, float] | None:
    """(value, score) for the layout these blobs make, or None when they make none."""
    n = len(blobs)
    if not 1 <= n <= 6:
        return None
    pts = np.array([(b.x, b.y) for b in blobs])
    areas = np.array([b.area for b in blobs])
    pip_c = _median([b.contrast for b in blobs])
    r_pip = math.sqrt(_median([b.area for b in blobs]) / math.pi)
    bx0, by0, bx1, by1 = wb
    side = max(bx1 - bx0, by1 - by0)
    bc = np.array([(bx0 + bx1) / 2, (by0 + by1) / 2])
    if n >= 2 and areas.max() > (2.6 if n > 3 else PAIR_AREAS) * areas.min():
        return None
    checks: list[Callable[[], float]] = []  # cheapest first; each badness is 1 at its tolerance
    if n == 1:
        d = 2 * r_pip
        if not 0.12 * side <= d <= ONE_MAX * side:
            return None
        checks += [
            lambda: float(np.linalg.norm(pts[0] - bc)) / side / 0.22,
            lambda: _shape_badness(blobs, None),
            lambda: _ring_badness(chan, blobs, r_pip),
            lambda: _quiet_badness(hat, None, pts[0], 0.34 * side, pts, r_pip, pip_c),
            lambda: _opposite_badness(other, wb, pts[0], 0.34 * side, pip_c),
        ]
        return 1, _score(checks) - ONE_MARGIN
    if n in (2, 3):
        c = pts.mean(axis=0)
        if n == 3:
            mid = int(np.argmin(np.linalg.norm(pts - c, axis=1)))
            p1, p2 = np.delete(pts, mid, axis=0)
            centre = (p1 + p2) / 2
            span = float(np.linalg.norm(p2 - p1))
            off = float(np.linalg.norm(pts[mid] - centre)) / span / 0.08
            checks.append(lambda: off)
        else:
            p1, p2 = pts
            centre = (p1 + p2) / 2
        h = (p2 - p1) / 2  # the grid's map: (1, 1) -> p2, (-1, 1) -> centre + perp
        perp = np.array([-h[1], h[0]])
        cols = np.column_stack([(h - perp) / 2, (h + perp) / 2])
        m = np.column_stack([cols, centre])
        spots = [centre + perp, centre - perp] + ([centre] if n == 2 else [])
        shape_m = None
    else:
        fit = _fit_affine(pts, n)
        if fit is None:
            return None
        err, m = fit
        checks.append(lambda: err / MAX_FIT)
        sv = np.linalg.svd(m[:, :2], compute_uv=False)
        if sv[1] <= 0 or sv[0] / sv[1] > MAX_SQUASH:
            return None
        spots = [m[:, :2] @ np.array(p, np.float64) + m[:, 2] for p in _EMPTY[n]]
        shape_m = m
    g = math.sqrt(abs(float(np.linalg.det(m[:, :2]))))
    checks += [
        lambda: _grid_badness(g, r_pip, side, 4.0 if n < 4 else 5.0),
        lambda: _shape_badness(blobs, shape_m),
        lambda: _empty_badness(hat, spots, r_pip, pip_c),
        lambda: _ring_badness(chan, blobs, r_pip) if n < 4 else 0.0,
        lambda: _quiet_badness(hat, m, m[:, 2], 0.0, pts, r_pip, pip_c),
    ]
    return n, _score(checks)


def _opposite_badness(
    other: np.ndarray, wb: tuple, centre: np.ndarray, reach: float, pip_c: float
) -> float:
    """2 when the other polarity shows pips within `reach` of `centre` (over OPPOSITE_SHARE
    of the pip's contrast), else 0: a lone blob that is a gap ringed by pips, or a whole
    face, seen the wrong way round."""
    for b in _blobs(other, wb, max(OPPOSITE_SHARE * pip_c, MIN_CONTRAST)):
        if (b.x - centre[0]) ** 2 + (b.y - centre[1]) ** 2 <= reach**2:
            return 2.0
    return 0.0


def _score(checks: list[Callable[[], float]]) -> float:
    """1 less the worst badness, stopping at the first one past its tolerance (the score
    is then 0 or below, whatever the rest)."""
    worst = 0.0
    for check in checks:
        worst = max(worst, check())
        if worst > 1.0:
            break
    return 1.0 - worst


def _grid_badness(g: float, r_pip: float, side: float, most: float) -> float:
    """How far a grid half-size g is from fitting the pips' size (from 1.6 to `most` pip
    radii) and the box's (1 = at a tolerance)."""
    ratio = g / max(r_pip, 1e-6)
    rel = g / side
    out = 0.0
    out = max(out, 1.6 / ratio if ratio < 1.6 else 0.0, ratio / most if ratio > most else 0.0)
    out = max(out, 0.09 / rel if rel < 0.09 else 0.0, rel / 0.36 if rel > 0.36 else 0.0)
    return out


def _empty_badness(
    hat: np.ndarray, spots: Iterable[np.ndarray], r_pip: float, pip_c: float
) -> float:
    """The strongest contrast at grid points meant to be empty, as a share of the pips'
    contrast over EMPTY_SHARE (1 = at the tolerance)."""
    peak = max(_peak_near(hat, float(p[0]), float(p[1]), SPOT * r_pip) for p in spots)
    return peak / max(pip_c, 1e-6) / EMPTY_SHARE


def check_pips(image_bgr: np.ndarray, box: Sequence[float]) -> PipCheck:
    """The pip check on one die: `image_bgr` the whole photo (BGR uint8; grey accepted),
    `box` the die (x0, y0, x1, y1) in its pixels. The grey channel is tried first, red
    against green only when grey gives no clean layout."""
    if image_bgr.ndim == 2:
        image_bgr = cv2.cvtColor(image_bgr, cv2.COLOR_GRAY2BGR)
    crop, wb = _working_crop(image_bgr, box)
    if wb[2] - wb[0] < 2:
        return PipCheck(None, 0, 0.0)
    crop = cv2.medianBlur(crop, 3)
    fallback = PipCheck(None, 0, 0.0)
    for red in (False, True):
        maps = _contrast_maps(crop, red)
        best: PipCheck | None = None
        values: set[int] = set()
        spoke: set[str] = set()
        for name, share in itertools.product(maps, BLOB_SHARES):
            if name in spoke:
                continue  # a clean layout at a lower share: the higher adds nothing
            hat, chan = maps[name]
            peak = _peak(hat, wb)
            if peak < MIN_CONTRAST:
                continue
            blobs = _blobs(hat, wb, max(share * peak, MIN_CONTRAST))
            if not blobs:
                continue
            got = _score_layout(blobs, hat, chan, maps[_OPPOSITE[name]][0], wb)
            score = got[1] if got is not None else -1.0
            if got is None or score <= 0:
                if fallback.pips == 0 or score > fallback.score:
                    fallback = PipCheck(None, len(blobs), score, name)
                continue
            if red and got[0] == 1:
                continue  # colour is coarse in a photo: a cluster of pips blurs into one
            values.add(got[0])
            spoke.add(name)
            if best is None or score > best.score:
                best = PipCheck(got[0], len(blobs), score, name)
        if best is not None:
            if len(values) > 1:  # two clean layouts that disagree
                return PipCheck(None, best.pips, best.score, best.channel)
            return best
    return fallback


def check_dice(image_bgr: np.ndarray, boxes: Iterable[Sequence[float]]) -> list[PipCheck]:
    """`check_pips` for each box of one photo."""
    return [check_pips(image_bgr, b) for b in boxes]
