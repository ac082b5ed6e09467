"""A die's confidence (vision/confidence.py) and its fit on real photos (train/confidence.py)."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from zonkcam import cli
from zonkcam.sim import renderer
from zonkcam.train.confidence import KeptDice, fit, flags, nll
from zonkcam.vision import load_model, read_dice
from zonkcam.vision.confidence import FEATURES, IDENTITY, Calibration, features
from zonkcam.vision.model import CONFIDENCE_FILE, DETECTOR_FILE, MODEL_DIR, VALUES_FILE

PROBS = np.array([[0.1, 0.02, 0.8, 0.02, 0.02, 0.02, 0.02], [0.0, 0.5, 0.5, 0, 0, 0, 0]])


def test_the_identity_is_the_value_nets_own_figure():
    clues = features(PROBS, np.array([2, 1]), np.array([0.9, 0.5]), np.array([40, 12]))
    conf = IDENTITY.confidence_of(clues)
    assert conf == pytest.approx([0.8, 0.5], abs=1e-5)
    assert clues.shape == (2, len(FEATURES))
    assert clues[0, 1] == pytest.approx(math.log(0.8 / 0.02))  # the lead over the runner-up
    assert clues[1, 1] == pytest.approx(0.0)  # a tie leads by nothing
    assert clues[1, 3] == pytest.approx(math.log(12 / 32))


def test_a_calibration_weighs_the_clues():
    wary_of_small = Calibration((1.0, 0.0, 0.0, 2.0), 0.0)
    values, heat = np.array([2, 2]), np.array([0.9, 0.9])
    conf = wary_of_small.confidence_of(
        features(PROBS[[0, 0]], values, heat, np.array([64.0, 12.0]))
    )
    assert conf[0] > 0.8 > conf[1]  # the same read, less sure of the small die


def test_a_calibration_file_is_checked_as_data(tmp_path, capsys):
    good = Calibration((0.5, 0.2, 0.1, 0.3), -0.4, "somewhere")
    assert Calibration.from_json(json.loads(json.dumps(good.to_json()))) == good
    bad = [
        [],
        {**good.to_json(), "colour": 1},
        {**good.to_json(), "features": ["lead"]},
        {**good.to_json(), "weights": [1, 2]},
        {**good.to_json(), "weights": [1, 2, 3, "x"]},
        {**good.to_json(), "bias": float("nan")},
        {**good.to_json(), "bias": True},
        {**good.to_json(), "fitted_on": 3},
    ]
    for data in bad:
        with pytest.raises(ValueError):
            Calibration.from_json(data)
    # a damaged file beside the models: one line, no traceback
    for name in (DETECTOR_FILE, VALUES_FILE):
        (tmp_path / name).write_bytes((MODEL_DIR / name).read_bytes())
    (tmp_path / CONFIDENCE_FILE).write_text('{"weights": [1, 2, 3, 4], "bias": Infinity}')
    image = tmp_path / "a.png"
    import cv2

    cv2.imwrite(str(image), np.full((64, 64, 3), 90, np.uint8))
    assert cli.main(["read", str(image), "--model-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert CONFIDENCE_FILE in err and "not a dice confidence calibration" in err
    assert "Traceback" not in err
    (tmp_path / CONFIDENCE_FILE).unlink()  # none at all: the value net's own figure
    assert load_model(tmp_path).calibration == IDENTITY


def test_the_shipped_confidence_is_the_calibrated_one():
    shipped = json.loads((MODEL_DIR / CONFIDENCE_FILE).read_text())
    weights, bias = np.array(shipped["weights"]), shipped["bias"]
    assert shipped["features"] == list(FEATURES) and shipped["fitted_on"]
    assert not np.allclose(weights, IDENTITY.weights)  # fitted, not the net's own figure
    model = load_model()
    rng = np.random.default_rng(3)
    checked = 0
    for seed in range(4):  # rendered tables: the crops are the fixture, the file the truth
        scene = renderer.random_scene(np.random.default_rng(seed), 640, 480, n_dice=4)
        clues: list[np.ndarray] = []
        dice = read_dice(renderer.render(scene, rng).image, model, clues=clues)
        for die, clue in zip(dice, clues, strict=True):
            expected = 1.0 / (1.0 + math.exp(-(float(clue @ weights) + bias)))
            assert die.confidence == pytest.approx(expected, abs=1e-4)
            checked += 1
    assert checked >= 8


def _kept(clues, right, photo, sources, counted) -> KeptDice:
    return KeptDice(
        np.array(clues, float).reshape(-1, len(FEATURES)),
        np.array(right, bool),
        np.array(photo),
        np.array(sources),
        np.array(counted, bool),
    )


def test_the_fit_learns_which_clue_tells_right_from_wrong():
    rng = np.random.default_rng(0)
    n = 4000
    clues = rng.normal(0, 1, (n, len(FEATURES)))
    clues[:, 0] += 3.0  # the net is sure of everything...
    right = rng.random(n) < 1 / (1 + np.exp(-(2.0 * clues[:, 3])))  # ...but small dice fail
    kept = _kept(clues, right, np.arange(n), ["a"] * (n // 2) + ["b"] * (n // 2), [True] * n)
    cal = fit(kept)
    assert cal.weights[3] == pytest.approx(2.0, abs=0.3)
    assert abs(cal.weights[0]) < 0.3
    assert nll(kept, cal) < nll(kept, IDENTITY)


def test_flags_count_silent_dice_and_photos_scored_wrong_without_a_question():
    sure, unsure = [10.0, 0, 0, 0], [-10.0, 0, 0, 0]
    kept = _kept(
        [sure, sure, sure, unsure, sure],
        [True, False, True, False, False],
        [0, 0, 1, 1, 2],  # photo 0: a silent misread; 1: asked about; 2: an extra die
        ["s", "s", "s"],
        [True, True, False],
    )
    f = flags(kept, IDENTITY, 0.6)
    assert (f.dice, f.wrong, f.silent, f.right_flagged) == (5, 3, 2, 0)
    assert (f.photos, f.silent_photos) == (3, 1)
    assert kept.of("s").counted.tolist() == [True, True, False]
    other = _kept([sure], [True], [0], ["t"], [True])
    both = KeptDice.join([kept, other])
    assert both.of("t").photo.tolist() == [0] and len(both.of("s")) == 5


def _photo_set(root, source: str, n: int) -> None:
    """A labelled photo set of ``n`` rendered tables from one source, one group each."""
    import cv2

    (root / "images").mkdir(parents=True)
    with (root / "labels.jsonl").open("w") as fh:
        for i in range(n):
            scene = renderer.random_scene(np.random.default_rng(50 + i), 640, 480, n_dice=4)
            out = renderer.render(scene, np.random.default_rng(i))
            cv2.imwrite(str(root / "images" / f"{i}.png"), out.image)
            record = {
                "image": f"images/{i}.png",
                "width": 640,
                "height": 480,
                "dice": [{"bbox": list(d.bbox), "value": d.value} for d in out.dice],
                "bbox_kind": "die",
                "group": f"{source}:{i}",
            }
            fh.write(json.dumps(record) + "\n")


def test_train_confidence_fits_on_the_twins_and_writes_beside_the_models(tmp_path, capsys):
    data, twin, models = tmp_path / "set", tmp_path / "twins" / "synth", tmp_path / "models"
    _photo_set(data, "synth", 6)
    for folder in (twin, models):  # the shipped nets stand in for a twin and for the models
        folder.mkdir(parents=True)
        for name in (DETECTOR_FILE, VALUES_FILE):
            (folder / name).write_bytes((MODEL_DIR / name).read_bytes())
    argv = ["train", "confidence", str(data), "--twins", str(tmp_path / "twins")]
    assert cli.main([*argv, "--model-dir", str(models), "--write"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("bar 0.6; new fit: [")
    rows = [line.split()[3:5] for line in out[1:4]]
    assert [line.split()[:3] for line in out[1:4]] == [["twin", "without", "synth"]] * 3
    assert [r[0] for r in rows] == ["shipped", "net's", "new"]
    written = Calibration.from_json(json.loads((models / CONFIDENCE_FILE).read_text()))
    assert out[0].endswith(f"bias {written.bias:.4f}") and "synth" in written.fitted_on
    assert json.dumps(list(written.weights)) in out[0]
    assert out[-1] == f"wrote {models / CONFIDENCE_FILE}"
    # the models read with the fit: the value net's own figure is no longer theirs
    assert load_model(models).calibration == written != IDENTITY


def test_train_confidence_says_in_one_line_when_it_has_no_twins(tmp_path, capsys):
    _photo_set(tmp_path / "set", "synth", 1)
    (tmp_path / "twins" / "other").mkdir(parents=True)
    argv = ["train", "confidence", str(tmp_path / "set"), "--twins", str(tmp_path / "twins")]
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert "no twins named after a source under" in err and "Traceback" not in err
