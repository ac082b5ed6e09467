"""Is a die loaded? Its face counts against a fair die's, with a verdict that respects
how many throws there are.

Pure: counts in, a :class:`Verdict` out. The test is Pearson's chi-square (5 degrees of
freedom) at FALSE_ALARM; the verdict says "too few throws to tell" until the die has been
thrown often enough to catch a die loaded as LOADED describes (one face 1 time in 4
instead of 1 in 6) POWER of the time, and says how many throws that is.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np

FACES = 6
FALSE_ALARM = 0.01
"""A fair die is called loaded at most this often."""
LOADED_FACE = 1 / 4
"""The loaded die the verdict promises to catch shows one face this often (1 in 6 fair),
its other faces equally often."""
POWER = 0.9
"""...this often, once there are enough throws (needed_throws)."""


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for X chi-square with `df` (a whole number) degrees of freedom."""
    if x <= 0:
        return 1.0
    half = x / 2
    if df % 2 == 0:  # e^-x/2 sum_{j < df/2} (x/2)^j / j!
        term, total = 1.0, 1.0
        for j in range(1, df // 2):
            term *= half / j
            total += term
        return min(1.0, math.exp(-half) * total)
    # odd: erfc(sqrt(x/2)) + sqrt(2x/pi) e^-x/2 sum_{j=1}^{(df-1)/2} x^(j-1) / (1*3*...*(2j-1))
    total, term = 0.0, 1.0
    for j in range(1, (df + 1) // 2):
        total += term
        term *= x / (2 * j + 1)
    tail = math.sqrt(2 * x / math.pi) * math.exp(-half) * total
    return min(1.0, math.erfc(math.sqrt(half)) + tail)


def chi2_isf(p: float, df: int) -> float:
    """The x with chi2_sf(x, df) = p (bisection)."""
    lo, hi = 0.0, 1.0
    while chi2_sf(hi, df) > p:
        hi *= 2
    for _ in range(100):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if chi2_sf(mid, df) > p else (lo, mid)
    return (lo + hi) / 2


def statistic(counts: Sequence[int]) -> float:
    """Pearson's chi-square of face counts (faces 1-6) against a fair die."""
    n = sum(counts)
    expected = n / FACES
    return sum((c - expected) ** 2 / expected for c in counts) if n else 0.0


def p_value(counts: Sequence[int]) -> float:
    """How often a fair die thrown as often shows counts at least this uneven."""
    return chi2_sf(statistic(counts), FACES - 1)


def power(
    throws: int, face: float = LOADED_FACE, false_alarm: float = FALSE_ALARM, trials: int = 20_000
) -> float:
    """The chance that `throws` throws of a die showing one face with probability `face`
    (the others alike) are called loaded at `false_alarm`: the test itself run on
    `trials` simulated dice (seeded, so the same every time; within about 0.2% of the
    truth at 90%). The chi-square's own power formula (noncentral) promises too much at
    these sample sizes."""
    others = (1 - face) / (FACES - 1)
    rng = np.random.default_rng(0)
    counts = rng.multinomial(throws, [face] + [others] * (FACES - 1), size=trials)
    expected = throws / FACES
    x2 = ((counts - expected) ** 2 / expected).sum(axis=1)
    return float(np.mean(x2 > chi2_isf(false_alarm, FACES - 1)))


@cache
def needed_throws(
    face: float = LOADED_FACE, false_alarm: float = FALSE_ALARM, wanted: float = POWER
) -> int:
    """The fewest throws that catch such a die `wanted` of the time."""
    lo, hi = 1, 2
    while power(hi, face, false_alarm) < wanted:
        hi *= 2
    while lo < hi:
        mid = (lo + hi) // 2
        lo, hi = (mid + 1, hi) if power(mid, face, false_alarm) < wanted else (lo, mid)
    return lo


@dataclass(frozen=True)
class Verdict:
    counts: tuple[int, ...]
    """Throws showing each face 1-6."""
    p_value: float
    needed: int
    """Throws it takes to catch a die loaded as LOADED_FACE describes, POWER of the time."""

    @property
    def throws(self) -> int:
        return sum(self.counts)

    @property
    def enough(self) -> bool:
        return self.throws >= self.needed

    @property
    def loaded(self) -> bool:
        """Called loaded: the counts are too uneven for a fair die at FALSE_ALARM (said
        however few the throws: a very uneven die shows it early)."""
        return self.p_value < FALSE_ALARM

    @property
    def text(self) -> str:
        n, faces = self.throws, self.counts
        if self.loaded:
            face = max(range(FACES), key=lambda i: faces[i]) + 1
            return (
                f"looks loaded: {faces[face - 1]} {face}s in {n} throws, where a fair die "
                f"shows about {n / FACES:.0f} (a fair die is this uneven {_odds(self.p_value)})"
            )
        if not self.enough:
            return (
                f"too few throws to tell: {n} of the {self.needed} it takes to catch a die "
                f"that shows one face 1 time in {round(1 / LOADED_FACE)}"
            )
        return (
            f"no sign of loading in {n} throws (a die showing one face 1 time in "
            f"{round(1 / LOADED_FACE)} would have been caught {POWER:.0%} of the time)"
        )


def verdict(counts: Sequence[int]) -> Verdict:
    """The verdict on a die (or a pool of dice told apart from no other) thrown with
    these face counts."""
    if len(counts) != FACES or any(c < 0 for c in counts):
        raise ValueError("face counts are six whole numbers, faces 1 to 6")
    return Verdict(tuple(int(c) for c in counts), p_value(counts), needed_throws())


def _odds(p: float) -> str:
    return f"1 time in {round(1 / p):,}" if p > 1e-6 else "less than 1 time in a million"
