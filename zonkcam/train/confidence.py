"""Fit the reader's confidence (zonkcam.vision.confidence) on real photos.

The value net's own figure is sharper than its accuracy on dice from elsewhere warrants:
a die it misreads often comes with a confidence over the table's bar, and the screen
then shows no '?'. :func:`kept_dice` reads labelled photos as the reader does and keeps,
for every die it kept, its clues and whether it was right (a labelled die read with its
value; a misread or a die where the labels have none is wrong); :func:`fit` finds the
logistic weights of best likelihood; :func:`flags` counts what the table cares about at
a bar: dice read wrong with no '?', photos scored wrong without a question, right dice
asked about.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from zonkcam.vision.confidence import FEATURES, Calibration
from zonkcam.vision.model import DiceModel
from zonkcam.vision.reader import DEFAULT_SETTINGS, ReaderSettings, read_dice


@dataclass(frozen=True)
class KeptDice:
    """The dice the reader kept on labelled photos: per die its clues (N,
    len(FEATURES)), whether it was right (N,) and its photo (N,, an index into the
    per-photo arrays); per photo its source and whether its dice count was right (every
    labelled die found, none extra)."""

    clues: np.ndarray
    right: np.ndarray
    photo: np.ndarray
    photo_sources: np.ndarray
    counted: np.ndarray

    def __len__(self) -> int:
        return len(self.right)

    def of(self, source: str) -> KeptDice:
        mine = self.photo_sources == source
        renumber = np.cumsum(mine) - 1
        keep = mine[self.photo]
        return KeptDice(
            self.clues[keep],
            self.right[keep],
            renumber[self.photo[keep]],
            self.photo_sources[mine],
            self.counted[mine],
        )

    @classmethod
    def join(cls, parts: list[KeptDice]) -> KeptDice:
        shift = np.cumsum([0] + [len(p.counted) for p in parts[:-1]])
        return cls(
            np.concatenate([p.clues for p in parts]),
            np.concatenate([p.right for p in parts]),
            np.concatenate([p.photo + k for p, k in zip(parts, shift, strict=True)]),
            np.concatenate([p.photo_sources for p in parts]),
            np.concatenate([p.counted for p in parts]),
        )


def kept_dice(
    records: Iterable, model: DiceModel, settings: ReaderSettings = DEFAULT_SETTINGS
) -> KeptDice:
    """Read each labelled photo and match what was kept with the labels (as `zonkcam
    eval` does)."""
    from zonkcam.train.metrics import match
    from zonkcam.vision.imageio import ImageFileError, load_image

    clues, right, photo, sources, counted = [], [], [], [], []
    for rec in records:
        try:
            img = load_image(rec.image)
        except ImageFileError:
            continue
        rows: list[np.ndarray] = []
        dice = read_dice(img, model, settings, clues=rows)
        truth = [(d.value, d.bbox) for d in rec.dice]
        score = match(truth, [(d.value, d.bbox) for d in dice], rec.bbox_kind)
        ok = {j for i, j in score.matches if truth[i][0] == dice[j].value}
        for j, row in enumerate(rows):
            clues.append(row)
            right.append(j in ok)
            photo.append(len(counted))
        sources.append(rec.source)
        counted.append(score.n_truth == score.n_pred == score.matched)
    return KeptDice(
        np.array(clues, np.float64).reshape(-1, len(FEATURES)),
        np.array(right, bool),
        np.array(photo, np.int64),
        np.array(sources, dtype=str),
        np.array(counted, bool),
    )


def nll(kept: KeptDice, cal: Calibration) -> float:
    """Mean negative log-likelihood of right / wrong under `cal`."""
    if not len(kept):
        return float("nan")
    p = np.clip(cal.confidence_of(kept.clues), 1e-9, 1 - 1e-9)
    return float(-np.where(kept.right, np.log(p), np.log(1 - p)).mean())


def fit(kept: KeptDice, fitted_on: str = "", ridge: float = 1e-3) -> Calibration:
    """Logistic regression of right on the clues (Newton's method, a little ridge),
    every source weighted alike so that the largest does not set the bar alone."""
    x = np.hstack([kept.clues, np.ones((len(kept), 1))])
    y = kept.right.astype(np.float64)
    names, inverse = np.unique(kept.photo_sources[kept.photo], return_inverse=True)
    counts = np.bincount(inverse, minlength=len(names)).astype(np.float64)
    w_rows = (len(kept) / len(names)) / counts[inverse]
    penalty = np.full(x.shape[1], ridge)
    penalty[-1] = 0.0

    def loss(theta: np.ndarray) -> float:
        z = x @ theta
        per_row = np.logaddexp(0.0, z) - y * z  # -log-likelihood of each die
        return float((w_rows * per_row).mean() + 0.5 * (penalty * theta**2).sum())

    theta = np.zeros(x.shape[1])
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ theta, -40, 40)))
        grad = x.T @ (w_rows * (p - y)) / len(y) + penalty * theta
        hess = (x * (w_rows * p * (1 - p))[:, None]).T @ x / len(y) + np.diag(penalty + 1e-9)
        step = np.linalg.solve(hess, grad)
        before, t = loss(theta), 1.0
        while t > 1e-4 and loss(theta - t * step) > before:  # damped: never uphill
            t /= 2
        theta = theta - t * step
        if np.abs(t * step).max() < 1e-8:
            break
    return Calibration(tuple(float(v) for v in theta[:-1]), float(theta[-1]), fitted_on)


@dataclass(frozen=True)
class Flags:
    """At a bar: kept dice, wrong ones (misread or extra), wrong ones with no '?'
    (silent), right ones asked about; photos, and photos with the right dice count, a
    wrong value and no '?' (scored wrong without a question)."""

    dice: int
    wrong: int
    silent: int
    right_flagged: int
    photos: int
    silent_photos: int

    @property
    def wrong_flagged(self) -> float:
        return (self.wrong - self.silent) / self.wrong if self.wrong else float("nan")

    @property
    def silent_photo_share(self) -> float:
        return self.silent_photos / self.photos if self.photos else float("nan")

    @property
    def right_flagged_share(self) -> float:
        right = self.dice - self.wrong
        return self.right_flagged / right if right else float("nan")


def flags(kept: KeptDice, cal: Calibration, bar: float) -> Flags:
    """What the table's '?' at `bar` catches and misses under `cal`."""
    asked = cal.confidence_of(kept.clues) < bar
    wrong = ~kept.right
    flagged_photo = np.zeros(len(kept.counted), bool)
    wrong_photo = np.zeros(len(kept.counted), bool)
    np.logical_or.at(flagged_photo, kept.photo, asked)
    np.logical_or.at(wrong_photo, kept.photo, wrong)
    return Flags(
        len(kept),
        int(wrong.sum()),
        int((wrong & ~asked).sum()),
        int((kept.right & asked).sum()),
        len(kept.counted),
        int((kept.counted & wrong_photo & ~flagged_photo).sum()),
    )
