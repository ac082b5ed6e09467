"""Training (only where the `train` extra is installed: torch, onnx, EfficientNet-Lite0)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

pytestmark = [pytest.mark.slow, pytest.mark.train]  # trains a tiny schedule: `make test-train`

torch = pytest.importorskip("torch")
pytest.importorskip("onnx")
pytest.importorskip("efficientnet_lite_pytorch")

from zonkcam import cli  # noqa: E402
from zonkcam.sim import renderer  # noqa: E402
from zonkcam.train import data as D  # noqa: E402
from zonkcam.train import run as R  # noqa: E402
from zonkcam.vision import load_model, read_dice  # noqa: E402
from zonkcam.vision.model import DETECTOR_FILE, MODEL_DIR  # noqa: E402


def _labelled_set(root: Path, sources: dict[str, int]) -> Path:
    """A labels.jsonl set of rendered tables: {source: photos}, one group per photo."""
    (root / "images").mkdir(parents=True)
    with (root / "labels.jsonl").open("w") as fh:
        for source, n in sources.items():
            for i in range(n):
                out = renderer.render(
                    renderer.random_scene(
                        np.random.default_rng([i, len(source)]), 320, 240, n_dice=3
                    ),
                    np.random.default_rng(i),
                )
                name = f"images/{source}{i}.png"
                cv2.imwrite(str(root / name), out.image)
                dice = [{"bbox": list(d.bbox), "value": d.value} for d in out.dice]
                fh.write(
                    json.dumps(
                        {
                            "image": name,
                            "width": 320,
                            "height": 240,
                            "dice": dice,
                            "bbox_kind": "die",
                            "group": f"{source}:{i}",
                        }
                    )
                    + "\n"
                )
    return root


def test_the_tiny_schedule_builds_a_model_the_reader_loads(tmp_path, capsys):
    out = tmp_path / "run"
    assert (
        cli.main(
            ["train", "--data", "none", "--schedule", "tiny", "--out", str(out), "--threads", "1"]
        )
        == 0
    )
    log = capsys.readouterr().err
    assert "detector step 3/3" in log and "value net (tuning) step 2/2" in log
    model = load_model(out)
    assert read_dice(np.full((240, 320, 3), 90, np.uint8), model) == ()
    assert any(
        n.op_type == "DequantizeLinear"
        for n in __import__("onnx").load(str(out / "dice_values.onnx")).graph.node
    )
    info = json.loads((out / "run.json").read_text())
    assert info["settings"]["schedule"]["det_steps"] == 3 and info["minutes"] >= 0
    # again with other settings into the same folder: refused, nothing lost
    assert (
        cli.main(
            ["train", "--data", "none", "--schedule", "tiny", "--out", str(out), "--seed", "1"]
        )
        == 2
    )
    assert "holds a run with other settings" in capsys.readouterr().err
    # again with the same: every stage is found done
    assert (
        cli.main(
            ["train", "--data", "none", "--schedule", "tiny", "--out", str(out), "--threads", "1"]
        )
        == 0
    )
    assert "detector: done before" in capsys.readouterr().err
    # its value net gives the face feature the table compares taught dice in
    feats = load_model(out).values.run(None, {"crops": np.zeros((2, 3, 64, 64), np.float32)})
    assert feats[1].shape == (2, 256 + 64)


def test_train_faces_fits_the_face_feature_of_a_model_folder_and_says_what_is_missing(
    tmp_path, capsys
):
    out = tmp_path / "run"
    tiny = ["train", "--data", "none", "--schedule", "tiny", "--threads", "1"]
    assert cli.main([*tiny, "--out", str(out)]) == 0
    before = load_model(out).values
    crops = np.random.default_rng(0).uniform(0, 255, (3, 3, 64, 64)).astype(np.float32)
    probs, old = before.run(None, {"crops": crops})
    data = _labelled_set(tmp_path / "set", {"a": 4})
    capsys.readouterr()
    assert cli.main(["train", "faces", "--model-dir", str(out), "--data", str(data)]) == 0
    assert "wrote the face feature" in capsys.readouterr().err
    again = load_model(out).values.run(None, {"crops": crops})
    assert np.array_equal(again[0], probs) and not np.allclose(again[1], old)
    # no value net, or no dice to fit on: one line each
    assert cli.main(["train", "faces", "--model-dir", str(tmp_path / "none")]) == 2
    assert "no dice_values.onnx" in capsys.readouterr().err
    empty = tmp_path / "empty"
    (empty / "images").mkdir(parents=True)
    (empty / "labels.jsonl").write_text("")
    assert cli.main(["train", "faces", "--model-dir", str(out), "--data", str(empty)]) == 2
    err = capsys.readouterr().err
    assert "no labelled dice" in err and "Traceback" not in err


def test_a_value_net_twin_keeps_the_given_detector(tmp_path, monkeypatch, capsys):
    values = R.SCHEDULES["values"]
    assert values.det_steps == 0 and values.value_steps < R.SCHEDULES["short"].value_steps
    tiny = R.SCHEDULES["tiny"]
    monkeypatch.setitem(R.SCHEDULES, "values", R.Schedule(**{**vars(tiny), "det_steps": 0}))
    out = tmp_path / "twin"
    args = ["train", "--data", "none", "--schedule", "values", "--out", str(out)]
    assert cli.main([*args, "--threads", "1"]) == 0
    log = capsys.readouterr().err
    assert "detector step" not in log and "value net (tuning) step 2/2" in log
    shipped = (MODEL_DIR / DETECTOR_FILE).read_bytes()
    assert (out / DETECTOR_FILE).read_bytes() == shipped
    info = json.loads((out / "run.json").read_text())["settings"]
    assert info["detector"]["sha256"] == hashlib.sha256(shipped).hexdigest()
    assert read_dice(np.full((240, 320, 3), 90, np.uint8), load_model(out)) == ()
    # --detector: a folder holding one, kept by any schedule
    assert cli.main([*args[:-1], str(tmp_path / "b"), "--detector", str(tmp_path)]) == 2
    assert "no dice_detector.onnx there" in capsys.readouterr().err
    other = tmp_path / "other"
    other.mkdir()
    (other / DETECTOR_FILE).write_bytes((out / DETECTOR_FILE).read_bytes())
    tiny = ["train", "--data", "none", "--schedule", "tiny", "--threads", "1"]
    assert cli.main([*tiny, "--out", str(tmp_path / "c"), "--detector", str(other)]) == 0
    assert "detector step" not in capsys.readouterr().err
    info = json.loads((tmp_path / "c" / "run.json").read_text())["settings"]
    assert info["detector"]["file"] == str((other / DETECTOR_FILE).resolve())


def test_a_stage_resumed_after_an_interruption_ends_as_one_run_would(tmp_path, monkeypatch):
    monkeypatch.setattr(R, "CHECKPOINT_EVERY", 2)

    def make_batch(step: int) -> tuple:
        rng = np.random.default_rng([0, step])
        x = rng.normal(size=(8, 3, 4, 4)).astype(np.float32)
        return x, x.sum(axis=(1, 2, 3)).astype(np.float32)

    def loss_of(net, batch) -> torch.Tensor:
        out = net(torch.from_numpy(batch[0]).flatten(1))
        return torch.nn.functional.mse_loss(out[:, 0], torch.from_numpy(batch[1]))

    def fresh() -> torch.nn.Module:
        torch.manual_seed(0)
        return torch.nn.Sequential(
            torch.nn.Linear(48, 8), torch.nn.Dropout(0.3), torch.nn.Linear(8, 1)
        )

    once = R.train_stage(
        fresh(),
        7,
        0.01,
        make_batch,
        loss_of,
        tmp_path / "a.ckpt",
        tmp_path / "a.pt",
        "one",
        lambda _: None,
    )

    calls = []

    def interrupted(step: int) -> tuple:
        calls.append(step)
        if step == 5 and len(calls) == 6:
            raise KeyboardInterrupt
        return make_batch(step)

    with pytest.raises(KeyboardInterrupt):
        R.train_stage(
            fresh(),
            7,
            0.01,
            interrupted,
            loss_of,
            tmp_path / "b.ckpt",
            tmp_path / "b.pt",
            "two",
            lambda _: None,
        )
    assert not (tmp_path / "b.pt").exists()
    logs = []
    twice = R.train_stage(
        fresh(),
        7,
        0.01,
        interrupted,
        loss_of,
        tmp_path / "b.ckpt",
        tmp_path / "b.pt",
        "two",
        logs.append,
    )
    assert "two: resumed at step 4/7" in logs
    assert calls == [0, 1, 2, 3, 4, 5, 4, 5, 6]
    for a, b in zip(once.state_dict().values(), twice.state_dict().values(), strict=True):
        torch.testing.assert_close(a, b)


def test_leaving_a_source_out_drops_all_its_photos(tmp_path):
    data = _labelled_set(tmp_path / "set", {"left": 6, "right": 6})
    every = D.load_photos([data], None, lambda _: None)
    without = D.load_photos([data], "left", lambda _: None)
    assert {p.source for p in every} == {"left", "right"}
    assert {p.source for p in without} == {"right"}
    assert len(without) == sum(p.source == "right" for p in every)


def test_train_names_a_wrong_source_or_folder_before_any_work(tmp_path, capsys):
    data = _labelled_set(tmp_path / "set", {"left": 1})
    assert (
        cli.main(
            ["train", "--data", str(data), "--leave-out", "nope", "--out", str(tmp_path / "o")]
        )
        == 2
    )
    assert "--leave-out nope: no such source (sources: left)" in capsys.readouterr().err
    assert cli.main(["train", "--data", str(tmp_path), "--out", str(tmp_path / "o")]) == 2
    assert "no labels.jsonl there" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()


def test_sources_share_each_batch_by_the_root_of_their_dice():
    w = D.source_weights(
        ["big", "small", D.RENDERED], {"big": 10000, "small": 100, D.RENDERED: 5000}
    )
    assert sum(w.values()) == pytest.approx(1.0)
    assert w[D.RENDERED] == pytest.approx(D.RENDERED_SHARE)
    assert w["big"] / w["small"] == pytest.approx(10.0)
    assert D.source_weights([D.RENDERED], {D.RENDERED: 5}) == {D.RENDERED: 1.0}


def test_weighted_draws_follow_the_shares():
    crops = D.Crops(
        np.zeros((30, 64, 64, 3), np.uint8),
        np.zeros(30, np.int64),
        np.array([0] * 27 + [1] * 3),
        ("a", "b"),
    )
    idx = D.weighted_index(crops, {"a": 0.5, "b": 0.5}, 4000, np.random.default_rng(0))
    assert 0.45 < (idx >= 27).mean() < 0.55


def test_detector_samples_keep_their_boxes_on_the_dice():
    out = renderer.render(
        renderer.random_scene(np.random.default_rng(3), 640, 480, n_dice=4),
        np.random.default_rng(3),
    )
    ok, buf = cv2.imencode(".png", out.image)
    photo = D.Photo(
        buf.tobytes(),
        np.array([d.bbox for d in out.dice], np.float32),
        np.array([d.value for d in out.dice]),
        True,
        D.RENDERED,
        640,
        480,
    )
    for seed in range(10):
        img, boxes, size_ok = D.det_sample(photo, np.random.default_rng(seed))
        assert img.shape == (D.DET_CANVAS, D.DET_CANVAS, 3) and img.dtype == np.float32
        assert len(boxes) == len(size_ok) <= 4
        assert (boxes >= 0).all() and (boxes <= D.DET_CANVAS).all()
        heat, reg, m_off, m_size = D.det_targets(boxes, size_ok, 4, D.DET_CANVAS // 4)
        assert int((heat == 1.0).sum()) == int(m_off.sum()) <= len(boxes)


def test_value_crops_are_mirrored_and_some_turned():
    crop = np.zeros((1, 64, 64, 3), np.uint8)
    crop[0, :20] = 255  # bright on top
    out = D.value_augment(np.repeat(crop, 300, axis=0), np.random.default_rng(0))
    assert out.shape == (300, 3, 64, 64) and out.dtype == np.float32
    top, bottom = out[:, :, :20].mean(axis=(1, 2, 3)), out[:, :, 44:].mean(axis=(1, 2, 3))
    left, right = out[:, :, :, :20].mean(axis=(1, 2, 3)), out[:, :, :, 44:].mean(axis=(1, 2, 3))
    across, along = np.abs(top - bottom), np.abs(left - right)
    # the band stays along one edge (recolouring may flip which side is lighter) ...
    assert (np.maximum(across, along) > 30).all()
    # ... and a quarter or three-quarter turn (2 in 3 of the turned) lays it on its side
    sideways = (along > across).mean()
    assert abs(sideways - D.TURN_SHARE * 2 / 3) < 0.1


def _die_crop(body: int, pip: int) -> np.ndarray:
    crop = np.full((64, 64, 3), body, np.float32)
    for x, y in ((20, 20), (44, 44), (32, 32)):
        cv2.circle(crop, (x, y), 5, (pip, pip, pip), -1)
    return crop


def _contrast(crop: np.ndarray) -> float:
    """Pip brightness minus body brightness."""
    lum = crop.mean(axis=2)
    return float(lum[32, 32] - lum[5, 5])


def test_recolouring_changes_body_and_pips_and_keeps_the_pips():
    rng = np.random.default_rng(0)
    white = _die_crop(230, 20)  # a white die with black pips
    outs = [D.recolour(white, rng) for _ in range(200)]
    contrasts = np.array([_contrast(o) for o in outs])
    # the pips stay apart from the body, lighter or darker: some dice come out dark
    # with light pips (smoke dice with red pips), most as the light die in new colours
    assert (np.abs(contrasts) >= 30).all()
    assert 0.2 < (contrasts > 0).mean() < 0.8
    bodies = np.array([o[5, 5] for o in outs])
    pips = np.array([o[32, 32] for o in outs])
    assert bodies.std(axis=0).min() > 40 and pips.std(axis=0).min() > 40  # any colour
    hue_turned = np.abs(bodies - bodies.mean(axis=1, keepdims=True)).max(axis=1) > 30
    assert hue_turned.mean() > 0.3  # many coloured, not grey
    # marbling swirls the body without painting over the pips
    m = D.marble(white, np.random.default_rng(1))
    assert m.shape == white.shape and np.abs(m - white).max() > 5
    assert abs(_contrast(m) - _contrast(white)) < 80


def test_mined_candidates_are_labelled_by_the_die_they_fall_on():
    boxes = np.array([[10, 10, 50, 50], [100, 10, 140, 50]], np.float32)
    ok, buf = cv2.imencode(".png", np.full((120, 200, 3), 90, np.uint8))
    photo = D.Photo(buf.tobytes(), boxes, np.array([3, 6]), True, "src", 200, 120)
    cand = np.array(
        [[12, 11, 51, 49], [60, 60, 100, 100], [110, 15, 150, 55], [25, 25, 65, 65]], np.float32
    )
    heat = np.array([0.9, 0.5, 0.8, 0.4], np.float32)
    mined = D.mined_crops([photo], lambda img: (cand, heat), lambda _: None)
    # on die 3, on nothing, on die 6, half over die 3 (neither: left out)
    assert sorted(mined.y.tolist()) == [0, 3, 6]
    assert mined.sources == ("src",) and len(mined.x) == 3


def test_an_exported_detector_and_value_net_have_the_reader_shapes(tmp_path):
    from zonkcam.train.nets import Detector, ValueNet, export_detector, export_values
    from zonkcam.vision.model import open_session

    det = export_detector(Detector().eval(), tmp_path / "d.onnx")
    peaks, geom = open_session(det, 1).run(None, {"image": np.zeros((1, 3, 96, 160), np.float32)})
    assert peaks.shape == (1, 1, 24, 40) and geom.shape == (1, 4, 24, 40)
    values = export_values(ValueNet(pretrained=False).eval(), tmp_path / "v.onnx")
    (probs,) = open_session(values, 1).run(None, {"crops": np.zeros((5, 3, 64, 64), np.float32)})
    assert probs.shape == (5, 7) and np.allclose(probs.sum(axis=1), 1, atol=1e-5)
