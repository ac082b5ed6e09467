"""Score read dice against labelled truth (one-to-one matching); :class:`Scorer` reads
labelled photos and tallies the figures (`zonkcam eval`)."""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from zonkcam.vision.geometry import box_iou_batch, centre, centre_in, side

if TYPE_CHECKING:
    from zonkcam.train.distort import Distortion
    from zonkcam.vision.model import DiceModel
    from zonkcam.vision.reader import ReaderSettings

MATCH_IOU = 0.3
"""A found die and a labelled one are one die at this IoU or more: a loose bar, as two
boxes of one die differ by how much of its side faces each takes in."""
SIZE_BINS = (20.0, 40.0, 80.0, 160.0)
"""Die sizes (the die box's longer side, image px) at which the per-size figures split."""
SIZE_NAMES = ("<20", "20-40", "40-80", "80-160", ">=160")


def div(a: int, b: int) -> float:
    """a / b to 4 places (NaN where b is 0): a figure's share."""
    return round(a / b, 4) if b else float("nan")


def size_bin(side: float) -> int:
    """Index into SIZE_NAMES of a die `side` px wide."""
    return sum(side >= b for b in SIZE_BINS)


@dataclass(frozen=True)
class ImageScore:
    n_truth: int
    n_pred: int
    matched: int
    correct: int
    matches: tuple[tuple[int, int], ...]
    """(truth index, prediction index) pairs."""

    @property
    def exact(self) -> bool:
        return self.correct == self.n_truth == self.n_pred

    @property
    def errors(self) -> int:
        return (self.n_truth - self.correct) + (self.n_pred - self.matched)


def _boxes(pairs: Sequence[tuple[int, Sequence[float]]]) -> np.ndarray:
    """The boxes of (value, box) pairs as an (N, 4) batch."""
    return np.asarray([b for _, b in pairs], np.float64).reshape(-1, 4)


def match(
    truth: Sequence[tuple[int, Sequence[float]]],
    pred: Sequence[tuple[int, Sequence[float]]],
    bbox_kind: str = "die",
) -> ImageScore:
    """Greedy one-to-one matching of (value, bbox) pairs.

    bbox_kind 'die': a pair qualifies at IoU >= 0.3 (best IoU first).
    'pip_cluster': a pair qualifies when the truth box's centre lies inside the
    predicted box (nearest centres first).
    """
    pairs: list[tuple[float, int, int]] = []
    if bbox_kind == "pip_cluster":
        for i, (_, tb) in enumerate(truth):
            for j, (_, pb) in enumerate(pred):
                if centre_in(tb, pb):
                    (tx, ty), (px, py) = centre(tb), centre(pb)
                    pairs.append((-float(np.hypot(tx - px, ty - py)), i, j))
    else:
        ious = box_iou_batch(_boxes(truth), _boxes(pred))
        pairs = [(float(ious[i, j]), int(i), int(j)) for i, j in np.argwhere(ious >= MATCH_IOU)]
    pairs.sort(key=lambda p: -p[0])
    used_t: set[int] = set()
    used_p: set[int] = set()
    matches = []
    for _, i, j in pairs:
        if i in used_t or j in used_p:
            continue
        used_t.add(i)
        used_p.add(j)
        matches.append((i, j))
    correct = sum(1 for i, j in matches if truth[i][0] == pred[j][0])
    return ImageScore(len(truth), len(pred), len(matches), correct, tuple(sorted(matches)))


def flagged(
    truth: Sequence[tuple[int, Sequence[float]]],
    pred: Sequence[tuple[int, float]],
    score: ImageScore,
    bar: float,
) -> tuple[int, int, int]:
    """Of an image's dice read right, misread and extra (pred: (value, confidence) in
    the order `score` was matched with): how many were read with a confidence under
    `bar`, which the table's screen shows with a '?' for the players to confirm."""
    right = misread = 0
    for i, j in score.matches:
        if pred[j][1] < bar:
            if truth[i][0] == pred[j][0]:
                right += 1
            else:
                misread += 1
    matched = {j for _, j in score.matches}
    extra = sum(1 for j, (_, conf) in enumerate(pred) if j not in matched and conf < bar)
    return right, misread, extra


@dataclass
class Tally:
    images: int = 0
    exact: int = 0
    truth: int = 0
    pred: int = 0
    matched: int = 0
    correct: int = 0
    ms: list[float] = field(default_factory=list)
    flags: list[int] = field(default_factory=lambda: [0, 0, 0])
    """Dice read right, misread and extra with a confidence under the bar (`flagged`)."""
    silent_images: int = 0
    """Images read with the right number of dice and a wrong value, no die under the bar:
    the error a table would score without asking."""
    sizes: np.ndarray = field(default_factory=lambda: np.zeros((len(SIZE_NAMES), 5), np.int64))
    """Per size bin (SIZE_NAMES): truth dice, found, read right; dice read, matched."""
    boxed: int = 0
    boxed_right: int = 0
    """Labelled dice the value net read at their labelled boxes, and of them those read as
    a die with the right face (`add_boxed`): the value net's figure without the detector."""

    def add_boxed(self, right: Sequence[bool]) -> None:
        """Count one image's labelled dice as the value net read them at their boxes."""
        self.boxed += len(right)
        self.boxed_right += sum(map(bool, right))

    def add(
        self,
        s: ImageScore,
        ms: float | None = None,
        flags: tuple[int, int, int] | None = None,
        truth_sides: Sequence[float] = (),
        pred_sides: Sequence[float] = (),
        right: Sequence[bool] = (),
    ) -> None:
        """Count one image. `truth_sides` and `pred_sides` (each die's size, `side`) and
        `right` (per match of `s`, whether its value was read right) give the per-size
        figures."""
        if len(truth_sides) or len(pred_sides):
            found = {i: ok for (i, _), ok in zip(s.matches, right, strict=True)}
            matched = {j for _, j in s.matches}
            for i, t in enumerate(truth_sides):
                row = self.sizes[size_bin(t)]
                row[0] += 1
                row[1] += i in found
                row[2] += found.get(i, False)
            for j, p in enumerate(pred_sides):
                row = self.sizes[size_bin(p)]
                row[3] += 1
                row[4] += j in matched
        self.images += 1
        if flags is not None:
            self.flags = [a + b for a, b in zip(self.flags, flags, strict=True)]
            counted = s.n_truth == s.n_pred == s.matched
            self.silent_images += counted and s.correct < s.matched and not any(flags)
        self.exact += int(s.exact)
        self.truth += s.n_truth
        self.pred += s.n_pred
        self.matched += s.matched
        self.correct += s.correct
        if ms is not None:
            self.ms.append(ms)

    def summary(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "images": self.images,
            "dice": self.truth,
            "end_to_end": div(self.correct, self.truth),
            "value_acc_matched": div(self.correct, self.matched),
            "precision": div(self.matched, self.pred),
            "recall": div(self.matched, self.truth),
            "images_exact": div(self.exact, self.images),
            "missed": self.truth - self.matched,
            "misread": self.matched - self.correct,
            "extra": self.pred - self.matched,
            "right_flagged": self.flags[0],
            "misread_flagged": self.flags[1],
            "extra_flagged": self.flags[2],
            "misread_silent": self.matched - self.correct - self.flags[1],
            "images_silent": div(self.silent_images, self.images),
            "value_on_boxes": div(self.boxed_right, self.boxed),
        }
        if self.sizes.any():
            out["by_size"] = {
                name: {
                    "dice": int(n),
                    "recall": div(int(found), int(n)),
                    "end_to_end": div(int(ok), int(n)),
                    "read": int(read),
                    "precision": div(int(hit), int(read)),
                }
                for name, (n, found, ok, read, hit) in zip(SIZE_NAMES, self.sizes, strict=True)
            }
            big = self.sizes[size_bin(SIZE_BINS[0]) :].sum(axis=0)
            out["recall_20px"] = div(int(big[1]), int(big[0]))
            out["precision_20px"] = div(int(big[4]), int(big[3]))
        if self.ms:
            out["ms_median"] = round(float(np.median(self.ms)), 2)
            out["ms_p95"] = round(float(np.percentile(self.ms, 95)), 2)
        return out


BODY_KINDS = ("white", "black", "coloured opaque", "translucent or smoke", "marbled")
"""The body kinds dice are judged by. A photo set names no die's body: its dice are
sorted by the body colour read from pixels (zonkcam.vision.color) into white, black and
coloured; a rendered set gives each die's look (zonkcam.sim.photoreal.BODY_KIND)."""


def body_kind(die_look: str | None, crop: np.ndarray, gains: np.ndarray | None) -> str:
    """The body kind of a labelled die: its rendered look's, or its read colour's."""
    if die_look is not None:
        from zonkcam.sim.photoreal import BODY_KIND

        return BODY_KIND.get(die_look, die_look)
    from zonkcam.vision.color import crop_color

    name = crop_color(crop, gains)
    return name if name in ("white", "black") else "coloured opaque"


@dataclass
class LookTally:
    """One body kind's dice: labelled, found, read right, misread with no '?', and
    read right but asked about."""

    dice: int = 0
    found: int = 0
    right: int = 0
    silent: int = 0
    right_asked: int = 0

    def summary(self) -> dict[str, Any]:
        return {
            "dice": self.dice,
            "end_to_end": div(self.right, self.dice),
            "misread_silent": self.silent,
            "silent_share": div(self.silent, self.found),
            "right_asked": self.right_asked,
            "right_asked_share": div(self.right_asked, self.right),
        }


class Scorer:
    """Reads labelled photos and tallies the figures, overall and per source (and per
    body kind with `by_look`)."""

    def __init__(
        self,
        model: DiceModel,
        settings: ReaderSettings,
        distortion: Distortion | None = None,
        bar: float = 0.0,
        keep_worst: bool = False,
        by_look: bool = False,
    ) -> None:
        self.model, self.settings, self.distortion, self.bar = model, settings, distortion, bar
        self.total = Tally()
        self.per_source: dict[str, Tally] = {}
        self.worst: list[tuple[int, Any, tuple, Any]] = []
        self.keep_worst = keep_worst
        self.unreadable = 0
        self.by_look = by_look
        self.looks: dict[str, LookTally] = {}

    def photo(self, rec) -> tuple:  # noqa: ANN001
        """The image as read, its truth [(value, box)] and its whole-die boxes (pip
        clusters widened), distorted if asked."""
        from zonkcam.train.dataset import die_boxes
        from zonkcam.train.distort import distort
        from zonkcam.vision.imageio import load_image

        img = load_image(rec.image)
        truth = [(d.value, d.bbox) for d in rec.dice]
        whole = [tuple(b) for b in die_boxes(rec)]
        if self.distortion is None:
            return img, truth, whole
        img, boxes = distort(img, [b for _, b in truth] + whole, self.distortion)
        n = len(truth)
        return img, [(v, b) for (v, _), b in zip(truth, boxes[:n], strict=True)], boxes[n:]

    def read(self, records: Iterable) -> Scorer:
        from zonkcam.vision.imageio import ImageFileError
        from zonkcam.vision.reader import read_dice

        for rec in records:
            try:
                img, truth, whole = self.photo(rec)
            except ImageFileError:
                self.unreadable += 1
                continue
            t0 = time.perf_counter()
            dice = read_dice(img, self.model, self.settings)
            ms = (time.perf_counter() - t0) * 1000
            pred = [(d.value, d.bbox) for d in dice]
            score = match(truth, pred, rec.bbox_kind)
            flags = flagged(truth, [(d.value, d.confidence) for d in dice], score, self.bar)
            sides = [side(b) for b in whole]  # each die's size: its whole-die box
            right = [truth[i][0] == pred[j][0] for i, j in score.matches]
            boxed = self.read_boxes(img, truth, whole)
            if self.by_look:
                self._tally_looks(img, rec, whole, dice, score)
            for t in (self.total, self.per_source.setdefault(rec.source, Tally())):
                t.add(score, ms, flags, sides, [side(b) for _, b in pred], right)
                t.add_boxed(boxed)
            if self.keep_worst and score.errors:
                self.worst.append((score.errors, rec, dice, score))
        return self

    def _tally_looks(self, img, rec, whole: list, dice, score: ImageScore) -> None:  # noqa: ANN001
        from zonkcam.vision.color import white_balance_gains
        from zonkcam.vision.preprocess import crop_die, to_bgr8

        bgr = to_bgr8(img)
        gains = white_balance_gains(bgr)
        found = dict(score.matches)
        for i, (t, box) in enumerate(zip(rec.dice, whole, strict=True)):
            kind = body_kind(t.look, crop_die(bgr, box), gains)
            tally = self.looks.setdefault(kind, LookTally())
            tally.dice += 1
            if i not in found:
                continue
            d = dice[found[i]]
            tally.found += 1
            asked = d.confidence < self.bar
            if d.value == t.value:
                tally.right += 1
                tally.right_asked += asked
            else:
                tally.silent += not asked

    def read_boxes(self, img, truth: list, whole: list) -> list[bool]:  # noqa: ANN001
        """Whether the value net reads each labelled die, cut at its whole-die box, as a
        die with the right face (read as cut and mirrored, as the reader reads a die it is
        unsure of)."""
        from zonkcam.vision.preprocess import crop_die, to_bgr8
        from zonkcam.vision.reader import read_crops

        if not truth:
            return []
        bgr = to_bgr8(img)
        crops = np.stack([crop_die(bgr, b) for b in whole])
        probs = read_crops(crops, self.model, mirrored=True)
        faces = np.argmax(probs[:, 1:], axis=1) + 1
        return [
            bool(p[0] < 0.5 and f == v) for p, f, (v, _) in zip(probs, faces, truth, strict=True)
        ]

    def summary(self) -> dict:
        out = {
            "all": self.total.summary(),
            "per_source": {k: v.summary() for k, v in sorted(self.per_source.items())},
        }
        if self.unreadable:
            out["unreadable_images"] = self.unreadable
        if self.by_look:
            order = {k: n for n, k in enumerate(BODY_KINDS)}
            out["by_look"] = {
                k: self.looks[k].summary()
                for k in sorted(self.looks, key=lambda k: (order.get(k, 99), k))
            }
        return out
