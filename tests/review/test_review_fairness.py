"""The fairness verdict, checked by simulation: fair dice are called loaded about 1% of
the time, and a die that shows one face 1 time in 4 is caught at the sample size the
verdict promises, 9 times in 10."""

from __future__ import annotations

import math

import numpy as np
import pytest

from zonkcam.review import fairness as F


def test_the_chi_square_tail_is_the_textbook_one():
    # the 1% critical value for 5 degrees of freedom, and closed forms for 2 and 4
    assert F.chi2_isf(0.01, 5) == pytest.approx(15.0863, abs=1e-3)
    assert F.chi2_sf(3.0, 2) == pytest.approx(math.exp(-1.5))
    assert F.chi2_sf(3.0, 4) == pytest.approx(math.exp(-1.5) * 2.5)
    assert F.chi2_sf(1.0, 1) == pytest.approx(math.erfc(math.sqrt(0.5)))


def test_fair_dice_are_called_loaded_about_one_time_in_a_hundred():
    rng = np.random.default_rng(1)
    n = F.needed_throws()
    counts = rng.multinomial(n, [1 / 6] * 6, size=4000)
    called = np.mean([F.verdict(c).loaded for c in counts])
    assert 0.005 <= called <= 0.016  # 1% +- about 2.5 standard errors


def test_a_loaded_die_is_caught_at_the_promised_sample_size():
    rng = np.random.default_rng(2)
    n = F.needed_throws()
    loaded = [1 / 4] + [3 / 20] * 5
    counts = rng.multinomial(n, loaded, size=2000)
    caught = np.mean([F.verdict(c).loaded for c in counts])
    assert 0.87 <= caught <= 0.93  # POWER, 0.9
    fewer = rng.multinomial(n // 3, loaded, size=2000)  # and with a third of the throws, not
    assert np.mean([F.verdict(c).loaded for c in fewer]) < 0.5


def test_the_verdict_respects_the_sample_size():
    few = F.verdict([2, 1, 0, 3, 1, 1])
    assert not few.enough and not few.loaded and few.text.startswith("too few throws to tell")
    assert f"of the {F.needed_throws()} it takes" in few.text
    even = F.verdict([80] * 6)
    assert even.enough and not even.loaded and even.text.startswith("no sign of loading")
    sixes = F.verdict([100, 100, 100, 100, 100, 200])
    assert sixes.loaded and "200 6s in 700 throws" in sixes.text
    with pytest.raises(ValueError):
        F.verdict([1, 2, 3])


def test_the_docs_promise_the_sample_size_the_verdict_uses():
    from pathlib import Path

    page = (Path(__file__).resolve().parents[2] / "docs" / "playing.md").read_text()
    assert f"has the {F.needed_throws()} throws that catch one face" in page
