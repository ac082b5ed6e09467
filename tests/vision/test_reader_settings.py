"""The reader's settings are the product's measures; the lab's study of them
(scripts/reader_settings.py) turns a step off through those measures, not by a switch of
its own on the product's settings."""

from __future__ import annotations

import importlib.util
import math
from dataclasses import fields, replace
from pathlib import Path

import numpy as np
import pytest

from tests.vision.test_vision_reader import IMAGE, _fake, _peaks
from zonkcam.vision import ReaderSettings, read_dice
from zonkcam.vision.reader import DEFAULT_SETTINGS

STUDY = Path(__file__).parents[2] / "scripts" / "reader_settings.py"


def _study():
    spec = importlib.util.spec_from_file_location("reader_settings", STUDY)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_reader_setting_is_a_measure_not_an_on_off_switch():
    switches = [f.name for f in fields(ReaderSettings) if isinstance(f.default, bool)]
    assert not switches
    assert all(isinstance(f.default, int | float) for f in fields(ReaderSettings))


@pytest.mark.parametrize("name", [name for name, _ in _study().VARIANTS])
def test_every_variant_the_lab_studies_is_the_readers_settings_changed(name):
    change = dict(_study().VARIANTS)[name]
    settings = replace(DEFAULT_SETTINGS, **change)
    assert {k: getattr(settings, k) for k in change} == change


def test_the_studys_no_mirrored_look_reads_each_candidate_once():
    peaks = _peaks(*[(10 + 12 * i, 10, 30, 0.9) for i in range(3)])
    probs = np.tile(np.array([[0.01, 0, 0, 0, 0, 0.99, 0]], np.float32), (3, 1))
    shipped, without = _fake(peaks, probs), _fake(peaks, probs)
    plain = replace(DEFAULT_SETTINGS, **dict(_study().VARIANTS)["no mirrored look"])
    assert plain.mirror_within == -math.inf
    assert [d.value for d in read_dice(IMAGE, shipped)] == [5, 5, 5]
    assert [d.value for d in read_dice(IMAGE, without, plain)] == [5, 5, 5]
    assert shipped.values.inputs == [(3, 3, 64, 64)] * 2  # as cut, then mirrored
    assert without.values.inputs == [(3, 3, 64, 64)]  # as cut only
