"""How well the table would see real dice on a printed zone colour: the body colours of the
labelled real dice photos against candidate zone colours, by the table's own measures.

    python scripts/mat_contrast.py [--datasets ../shared/datasets] [--normalise white]

Each labelled die gives one body colour: the larger of two colour clusters (2-means in Lab)
of the inner part of its box, so the pips (the smaller cluster) are left out. A box that
holds only the pips (matteop65's pip-cluster boxes) is widened first so the face round them
counts. Tiny dice (under 12 px) are skipped.

Photos have their own white balance and exposure; the mat's camera sees dice and print under
one light, white-balanced and exposed for the mat's white paper. ``--normalise white`` (the
default) puts each photo in that state: each colour channel is scaled so that the photo's
brightest unclipped part (its top 2 %, which is white paper, a white table or a white die in
these photos) reads as the mat's paper does (235). ``grey`` is grey-world (the photo's mean
made neutral at 128), ``none`` leaves the photo as it is.

A die is hard to see on a zone colour when the table's presence test (zonkcam.table.zones:
chroma ratio over 0.22, or brightness ratio over 1.35 or under 0.3 against the empty mat)
or its change test (zonkcam.table.changes: a channel differs by more than 24) does not see
it; "with margin" asks each measure to clear its threshold by a quarter (light over a mat
is never even, and a die's side faces are darker than its top). Delta E is CIE76 in Lab.

Kinds of die are named from the body colour (white, cream, yellow, amber, red, brown,
pink, purple, blue, navy, green, grey, black); a kind is common when it is at least 0.5 %
of a source's dice (and 10 dice). A candidate's "worst" is its worst common kind.
"""

from __future__ import annotations

import argparse
import colorsys
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from zonkcam.mat import layout  # noqa: E402
from zonkcam.train.dataset import load_labels  # noqa: E402

PAPER_LEVEL = 235.0
"""What the mat's white paper reads as, in a frame exposed for the mat."""
CHROMA, BRIGHT, DARK, CHANGE = 0.22, 1.35, 0.3, 24
"""The table's thresholds (zonkcam.table.zones.foreground, zonkcam.table.changes)."""
MARGIN = 1.25
MIN_SIDE_PX = 12
KINDS = (
    "white",
    "cream",
    "yellow",
    "amber",
    "red",
    "brown",
    "pink",
    "purple",
    "blue",
    "navy",
    "green",
    "grey",
    "black",
)

OLD = {
    "rolling": (105, 72, 38),
    "keep": (70, 52, 44),
    "border": (255, 255, 255),
}
"""The mat's earlier colours (BGR: denim blue, dark slate, white paper), for comparison."""
NAMED: dict[str, tuple[int, int, int]] = {
    # BGR
    "denim blue (old rolling)": OLD["rolling"],
    "dark slate (old keep)": OLD["keep"],
    "white paper (old border)": OLD["border"],
    "casino felt #35654D": (77, 101, 53),
    "billiard cloth #0A6C03 (unprintable)": (3, 108, 10),
    "deep blue #1B3A59": (89, 58, 27),
    "mid grey": (128, 128, 128),
    "light grey": (170, 170, 170),
    "dark grey": (85, 85, 85),
    "kraft tan": (110, 150, 190),
    "terracotta": (60, 90, 170),
    "teal": (120, 120, 30),
    "burgundy": (45, 30, 110),
}
"""Other colours a mat could have (BGR)."""


def paler(bgr: tuple[int, int, int], by: float = 0.7) -> tuple[int, int, int]:
    """``bgr`` with its saturation cut to ``by`` of itself: a print that came out paler."""
    h, s, v = colorsys.rgb_to_hsv(bgr[2] / 255, bgr[1] / 255, bgr[0] / 255)
    r, g, b = colorsys.hsv_to_rgb(h, s * by, v)
    return int(round(b * 255)), int(round(g * 255)), int(round(r * 255))


@dataclass(frozen=True)
class Body:
    bgr: tuple[float, float, float]
    source: str
    kind: str


def _gains(img: np.ndarray, how: str) -> np.ndarray:
    small = cv2.resize(img, (160, 160), interpolation=cv2.INTER_AREA)
    px = small.reshape(-1, 3).astype(np.float32)
    if how == "none":
        return np.ones(3, np.float32)
    if how == "grey":
        mean = px.mean(axis=0)
        return np.clip(128.0 / np.maximum(mean, 1.0), 0.3, 4.0)
    unclipped = px[px.max(axis=1) < 250]
    if len(unclipped) < 100:
        unclipped = px
    lum = unclipped.mean(axis=1)
    top = unclipped[lum >= np.percentile(lum, 98)]
    return np.clip(PAPER_LEVEL / np.maximum(top.mean(axis=0), 1.0), 0.3, 4.0)


def _body(img: np.ndarray, box: tuple[float, ...], pips_only: bool) -> np.ndarray | None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    if min(w, h) < MIN_SIDE_PX:
        return None
    if pips_only:  # the box holds the pips: widen it onto the face round them
        grow = max(w, h) * 0.35
        x0, y0, x1, y1 = x0 - grow, y0 - grow, x1 + grow, y1 + grow
    else:  # the inner part: the top face, little of the sides or the table
        x0, y0, x1, y1 = x0 + 0.2 * w, y0 + 0.2 * h, x1 - 0.2 * w, y1 - 0.2 * h
    H, W = img.shape[:2]
    xa, ya, xb, yb = max(0, int(x0)), max(0, int(y0)), min(W, int(x1)), min(H, int(y1))
    crop = img[ya:yb, xa:xb]
    if crop.shape[0] < 4 or crop.shape[1] < 4:
        return None
    if max(crop.shape[:2]) > 32:
        crop = cv2.resize(crop, (32, 32), interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2Lab).reshape(-1, 3).astype(np.float32)
    _, labels, _ = cv2.kmeans(
        lab,
        2,
        None,
        (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 10, 1.0),
        2,
        cv2.KMEANS_PP_CENTERS,
    )
    labels = labels.ravel()
    major = int(np.bincount(labels, minlength=2).argmax())
    return np.median(crop.reshape(-1, 3)[labels == major].astype(np.float32), axis=0)


def _lab(bgr: np.ndarray) -> np.ndarray:
    """CIE Lab (L 0-100) of BGR 0-255 rows."""
    img = (np.asarray(bgr, np.float32).reshape(-1, 1, 3) / 255.0).astype(np.float32)
    return cv2.cvtColor(img, cv2.COLOR_BGR2Lab).reshape(-1, 3)


def kind_of(bgr: np.ndarray) -> str:
    """The everyday name of a die's body colour."""
    L, a, b = _lab(bgr)[0]
    chroma = float(np.hypot(a, b))
    hue = float(np.degrees(np.arctan2(b, a))) % 360
    if chroma < 10:
        return "white" if L >= 72 else "grey" if L >= 35 else "black"
    if 50 <= hue < 110 and L >= 72 and chroma < 32:
        return "cream"
    if 20 <= hue < 80 and L < 45:
        return "brown"
    if hue >= 345 or hue < 50:
        return "pink" if L >= 65 else "red"
    if hue < 75:
        return "amber"
    if hue < 110:
        return "yellow"
    if hue < 200:
        return "green"
    if hue < 300:
        return "navy" if L < 35 else "blue"
    return "purple"


def sample(datasets: Path, how: str, per_group: int) -> list[Body]:
    bodies: list[Body] = []
    for name in ("real-dice-dev", "rune55-dev"):
        records = load_labels(datasets / name)
        taken: Counter[str] = Counter()
        for rec in records:
            if taken[rec.group] >= per_group:
                continue
            taken[rec.group] += 1
            img = cv2.imread(str(rec.image))
            if img is None:
                continue
            gains = _gains(img, how)
            for d in rec.dice:
                body = _body(img, d.bbox, rec.bbox_kind == "pip_cluster")
                if body is None:
                    continue
                bgr = np.clip(body * gains, 0, 255)
                bodies.append(Body(tuple(float(v) for v in bgr), rec.source, kind_of(bgr)))
    return bodies


def hard(dice: np.ndarray, zone: np.ndarray, margin: float = 1.0) -> np.ndarray:
    """Dice x zones: whether the table misses each die on each zone colour (presence or
    change test), with each threshold made ``margin`` times harder to clear."""
    r = (dice[:, None, :] + 8.0) / (zone[None, :, :] + 8.0)
    bright = r.mean(axis=2)
    chroma = np.abs(r - bright[..., None]).max(axis=2) / np.maximum(bright, 0.05)
    seen = (chroma > CHROMA * margin) | (bright > BRIGHT**margin) | (bright < DARK / margin)
    changed = np.abs(dice[:, None, :] - zone[None, :, :]).max(axis=2) > CHANGE * margin
    return ~(seen & changed)


def contrast_ratio(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    """WCAG contrast ratio of two BGR colours (text on ground; 4.5 reads easily, 3 large)."""

    def lum(c: tuple[int, int, int]) -> float:
        lin = [(v / 255) / 12.92 if v <= 10 else ((v / 255 + 0.055) / 1.055) ** 2.4 for v in c]
        return 0.0722 * lin[0] + 0.7152 * lin[1] + 0.2126 * lin[2]

    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def grid() -> dict[str, tuple[int, int, int]]:
    """Printable candidates: hue every 15 degrees, saturation up to 0.7 (an ordinary
    colour printer does not reach fully saturated screen colours), value 0.25-0.9."""
    out = {}
    for hue in range(0, 360, 15):
        for sat in (0.0, 0.2, 0.35, 0.5, 0.6, 0.7):
            if sat == 0 and hue:
                continue
            for val in np.arange(0.25, 0.91, 0.05):
                r, g, b = colorsys.hsv_to_rgb(hue / 360, sat, float(val))
                out[f"hsv {hue:3d} {sat:.2f} {val:.2f}"] = (
                    int(round(b * 255)),
                    int(round(g * 255)),
                    int(round(r * 255)),
                )
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument(
        "--datasets",
        default=str(ROOT.parent / "shared" / "datasets"),
        help="folder holding real-dice-dev and rune55-dev (default ../shared/datasets)",
    )
    p.add_argument(
        "--normalise",
        choices=("white", "grey", "none"),
        default="white",
        help="how each photo's white balance and exposure is evened out (default white)",
    )
    p.add_argument(
        "--per-group", type=int, default=3, help="photos read per near-duplicate group (3)"
    )
    p.add_argument(
        "--cache",
        help="keep the sampled body colours in this file (outside the repository) and "
        "reuse them when it exists",
    )
    p.add_argument("--top", type=int, default=10, help="best grid colours shown per role (10)")
    args = p.parse_args(argv)
    cache = Path(args.cache) if args.cache else None
    if cache is not None and cache.is_file():
        saved = np.load(cache)
        bodies = [
            Body(tuple(map(float, c)), str(s), str(k))
            for c, s, k in zip(saved["bgr"], saved["source"], saved["kind"], strict=True)
        ]
    else:
        bodies = sample(Path(args.datasets), args.normalise, args.per_group)
        if cache is not None:
            np.savez(
                cache,
                bgr=np.array([b.bgr for b in bodies]),
                source=np.array([b.source for b in bodies]),
                kind=np.array([b.kind for b in bodies]),
            )
    if not bodies:
        print(f"no labelled dice found under {args.datasets}", file=sys.stderr)
        return 1
    dice = np.array([b.bgr for b in bodies], np.float32)
    sources = np.array([b.source for b in bodies])
    kinds = np.array([b.kind for b in bodies])
    names = sorted(set(sources))
    print(f"{len(bodies)} dice ({args.normalise} normalisation):")
    for s in names:
        count = Counter(kinds[sources == s])
        shown = ", ".join(f"{k} {count[k]}" for k in KINDS if count[k])
        print(f"  {s:10s} {sum(count.values()):6d}: {shown}")
    common = [
        (s, k)
        for s in names
        for k in KINDS
        if (n := np.sum((sources == s) & (kinds == k))) >= 10 and n >= 0.005 * np.sum(sources == s)
    ]
    now = {
        "rolling": layout.ROLLING_COLOUR,
        "keep": layout.KEEP_COLOUR,
        "border": layout.ROLLING_COLOUR,  # the mat round the zones is printed rolling colour
        "quiet zone": layout.PAPER_COLOUR,
    }
    named = (
        {f"mat: {role}": c for role, c in now.items()}
        | {f"mat: {role}, printed paler": paler(now[role]) for role in ("rolling", "keep")}
        | NAMED
    )
    candidates = named | grid()
    labels = list(candidates)
    zones = np.array([candidates[n] for n in labels], np.float32)
    miss = hard(dice, zones)
    miss_m = hard(dice, zones, MARGIN)
    lab_zones = _lab(zones)
    de = np.linalg.norm(_lab(dice)[:, None, :] - lab_zones[None, :, :], axis=2)
    picks = {sk: (sources == sk[0]) & (kinds == sk[1]) for sk in common}

    def row(i: int) -> dict:
        worst, worst_kind = max(
            (miss_m[sel, i].mean(), f"{s} {k}") for (s, k), sel in picks.items()
        )
        return {
            "all": miss[:, i].mean(),
            "margin": miss_m[:, i].mean(),
            **{s: miss_m[sources == s, i].mean() for s in names},
            "worst": worst,
            "worst_kind": worst_kind if worst > 0 else "-",
            "de10": (de[:, i] < 10).mean(),
            "de_med": float(np.median(de[:, i])),
        }

    rows = [row(i) for i in range(len(labels))]
    head = (
        f"{'colour':38s} {'BGR':15s} {'hard':>5s} {'+marg':>6s} "
        + " ".join(f"{s[:9]:>8s}" for s in names)
        + f"  {'worst common kind (+marg)':>29s} {'dE<10':>6s} {'dE med':>6s}"
    )

    def line(i: int) -> str:
        r = rows[i]
        return (
            f"{labels[i][:38]:38s} {str(candidates[labels[i]]):15s} {r['all']:5.1%} "
            f"{r['margin']:6.1%} "
            + " ".join(f"{r[s]:8.1%}" for s in names)
            + f"  {r['worst_kind'][:22]:>22s} {r['worst']:6.1%} {r['de10']:6.1%} {r['de_med']:6.1f}"
        )

    print(
        "\nShare of dice hard to see on each colour: hard = missed by the table's presence or"
        "\nchange test; +marg = with each threshold a quarter harder (per source: +marg)"
    )
    print(head)
    for i, n in enumerate(labels):
        if n in named:
            print(line(i))

    print("\nPer common kind of die, with margin (old: denim blue, dark slate, white paper)")
    cols = {f"old {r}": OLD[r] for r in OLD} | {
        f"now {r}": now[r] for r in ("rolling", "keep", "quiet zone")
    }
    col_i = [labels.index(next(n for n in labels if candidates[n] == c)) for c in cols.values()]
    print(f"{'':22s}" + "".join(f"{c:>15s}" for c in cols))
    for (s, k), sel in picks.items():
        print(
            f"{s[:9]:9s} {k:7s} {sel.sum():5d}"
            + "".join(f"{miss_m[sel, i].mean():15.1%}" for i in col_i)
        )

    white = (240, 240, 240)
    ink = (30, 30, 30)
    rolling_lab = _lab(np.array(now["rolling"]))[0]

    def readable(c: tuple[int, int, int]) -> float:
        return max(contrast_ratio(white, c), contrast_ratio(ink, c))

    roles = {
        "rolling area (white outlines on it: contrast ratio >= 3)": lambda i: (
            contrast_ratio(white, candidates[labels[i]]) >= 3.0
        ),
        "keep strip (its label readable: contrast >= 4.5; dE >= 30 from the rolling area)": (
            lambda i: (
                readable(candidates[labels[i]]) >= 4.5
                and np.linalg.norm(lab_zones[i] - rolling_lab) >= 30
            )
        ),
    }
    order = sorted(
        (i for i, n in enumerate(labels) if n not in named),
        key=lambda i: (rows[i]["worst"], rows[i]["margin"], -rows[i]["de_med"]),
    )
    for role, fits in roles.items():
        print(f"\nBest printable grid colours for the {role}")
        print(head)
        for i in [i for i in order if fits(i)][: args.top]:
            print(line(i))

    print("\nThe mat's colours: the print on them and how far apart they are (CIE76 dE)")
    for role, c in now.items():
        far = ", ".join(
            f"{other} {np.linalg.norm(_lab(np.array(c))[0] - _lab(np.array(d))[0]):.0f}"
            for other, d in now.items()
            if other not in (role, "border") and d != c
        )
        print(
            f"  {role:10s} {str(c):15s} white print contrast {contrast_ratio(white, c):4.1f}, "
            f"dark ink {contrast_ratio(ink, c):4.1f}; dE to {far}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
