"""The reader's confidence made to mean what it says: a temperature for the value net.

The value net's probabilities are sharper than its accuracy on dice from elsewhere
warrants: a die it misreads often comes with a confidence over the table's bar, and
the screen then shows no '?'. A temperature T flattens P(value | a die) (the six face
values, renormalised) without changing which value wins, nor whether a candidate is a
die (the detector's vote uses P(not a die), which stays the net's): the confidence is
P(a die) x softmax(log P(value | a die) / T).

:func:`fit_temperature` chooses T by the likelihood of the true values of labelled dice
the reader found (`scripts/confidence.py` runs it on real photos); :func:`silent` counts
what the table cares about: dice read wrong with no '?'.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from zonkcam.vision.model import DiceModel
from zonkcam.vision.reader import (
    DEFAULT_SETTINGS,
    ReaderSettings,
    read_crops,
    read_dice,
    value_confidence,
)


@dataclass(frozen=True)
class FoundDice:
    """Labelled dice as the reader found them: the value net's probabilities of each
    (N, 7) and the true value (N,), with the source of the photo."""

    probs: np.ndarray
    truth: np.ndarray
    sources: np.ndarray

    def of(self, source: str) -> FoundDice:
        keep = self.sources == source
        return FoundDice(self.probs[keep], self.truth[keep], self.sources[keep])

    def __len__(self) -> int:
        return len(self.truth)


def found_dice(
    records: Iterable, model: DiceModel, settings: ReaderSettings = DEFAULT_SETTINGS
) -> FoundDice:
    """Read each labelled photo, match the dice read with the labelled ones (as `zonkcam
    eval` does) and keep the value net's probabilities of each matched die."""
    from zonkcam.vision.imageio import ImageFileError, load_image
    from zonkcam.vision.metrics import match
    from zonkcam.vision.preprocess import crop_die, to_bgr8

    probs, truth, sources = [], [], []
    for rec in records:
        try:
            img = to_bgr8(load_image(rec.image))
        except ImageFileError:
            continue
        dice = read_dice(img, model, settings)
        score = match(
            [(d.value, d.bbox) for d in rec.dice], [(d.value, d.bbox) for d in dice], rec.bbox_kind
        )
        if not score.matches:
            continue
        crops = np.stack([crop_die(img, np.asarray(dice[j].bbox)) for _, j in score.matches])
        probs.append(read_crops(crops, model))
        truth += [rec.dice[i].value for i, _ in score.matches]
        sources += [rec.source] * len(score.matches)
    return FoundDice(
        np.concatenate(probs) if probs else np.zeros((0, 7), np.float32),
        np.asarray(truth, np.int64),
        np.asarray(sources),
    )


def confidences(probs: np.ndarray, temperature: float) -> tuple[np.ndarray, np.ndarray]:
    """(values read, their confidences) at ``temperature`` (see value_confidence)."""
    values = np.argmax(probs[:, 1:], axis=1) + 1
    return values, value_confidence(probs, values, temperature)


def nll(found: FoundDice, temperature: float) -> float:
    """Mean negative log-likelihood of the true values, given a die, at ``temperature``."""
    if not len(found):
        return float("nan")
    sure = value_confidence(found.probs, found.truth, temperature)
    given = sure / np.maximum(1.0 - found.probs[:, 0], 1e-9)  # P(true value | a die)
    return float(-np.log(np.clip(given, 1e-9, 1.0)).mean())


def fit_temperature(found: FoundDice, lo: float = 0.5, hi: float = 8.0) -> float:
    """The temperature of least :func:`nll` (a log-spaced search, then a finer one)."""
    grid = np.geomspace(lo, hi, 41)
    best = float(grid[np.argmin([nll(found, t) for t in grid])])
    fine = np.geomspace(best / 1.08, best * 1.08, 17)
    return round(float(fine[np.argmin([nll(found, t) for t in fine])]), 3)


@dataclass(frozen=True)
class Flags:
    """Of the dice found: how many were read wrong, and how many of those had no '?'."""

    dice: int
    wrong: int
    silent: int
    right_flagged: int

    @property
    def silent_per_200(self) -> float:
        return 200.0 * self.silent / self.dice if self.dice else float("nan")

    @property
    def wrong_flagged(self) -> float:
        return (self.wrong - self.silent) / self.wrong if self.wrong else float("nan")


def silent(found: FoundDice, temperature: float, bar: float) -> Flags:
    """The dice read wrong with a confidence at or over ``bar`` (no '?' at the table)."""
    values, conf = confidences(found.probs, temperature)
    wrong = values != found.truth
    flagged = conf < bar
    return Flags(
        len(found),
        int(wrong.sum()),
        int((wrong & ~flagged).sum()),
        int((~wrong & flagged).sum()),
    )
