"""The dice reader: with the shipped ONNX models on images the project renders itself,
and with stand-in sessions for the rules of the one pass."""

import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from zonkcam import cli
from zonkcam.display.view import CONFIRM_BELOW
from zonkcam.sim import renderer
from zonkcam.vision import DiceModel, ReaderSettings, load_model, read_dice
from zonkcam.vision.confidence import FEATURES
from zonkcam.vision.geometry import box_iou as iou
from zonkcam.vision.model import CONFIDENCE_FILE, DETECTOR_FILE, MODEL_DIR, VALUES_FILE
from zonkcam.vision.reader import (
    DEFAULT_SETTINGS,
    MAX_DET_SIZE,
    MIN_DET_SIZE,
    Die,
    detector_scale,
    min_kept_heat,
    nms,
    second_look_regions,
)

SHARED = Path(__file__).resolve().parents[3] / "shared" / "datasets"


@pytest.fixture(scope="module")
def model():
    return load_model()


def table(seed: int, width: int = 1280, height: int = 960, n_dice: int = 6, **kw):
    """A clean table seen from above: white, red and green dice lying apart on a plain
    mat, all inside the frame, under a warm or cool lamp."""
    rng = np.random.default_rng(seed)
    die_px = float(rng.uniform(0.06, 0.085)) * width
    cam = renderer.Camera(
        width,
        height,
        tilt_deg=float(rng.uniform(0, 20)),
        distance_mm=16.0 * 1.1 * width / die_px,
        focal_px=1.1 * width,
    )
    cells = [(c, r) for c in range(4) for r in range(3)]
    picks = rng.choice(len(cells), n_dice, replace=False)
    colors = ["white", "red", "green"]
    dice = []
    for i, k in enumerate(picks):
        c, r = cells[int(k)]
        u = width * (0.18 + 0.213 * c + rng.uniform(-0.04, 0.04))
        v = height * (0.22 + 0.28 * r + rng.uniform(-0.05, 0.05))
        x, y = cam.pixel_to_mat(u, v)
        dice.append(
            renderer.DieSpec(
                value=int(rng.integers(1, 7)),
                color=colors[i % 3],
                x_mm=x,
                y_mm=y,
                yaw_deg=float(rng.uniform(0, 90)),
                pip_color="black" if i % 3 == 0 else "white",
            )
        )
    kind = str(rng.choice(["felt", "wood", "white", "cloth"]))
    colour = {
        "felt": (50, 100, 40),
        "wood": (70, 120, 170),
        "white": (235, 235, 235),
        "cloth": (90, 60, 60),
    }[kind]
    scene = renderer.Scene(
        dice=tuple(dice),
        camera=cam,
        mat=renderer.Mat(kind, colour),
        light=renderer.Light(warmth=float(rng.uniform(-0.6, 0.6))),
        noise=2.0,
        **kw,
    )
    return renderer.render(scene, rng)


def assert_read_exactly(found: tuple[Die, ...], truth, check_color: bool = True):
    assert len(found) == len(truth), (found, truth)
    for t in truth:
        best = max(found, key=lambda d: iou(d.bbox, t.bbox))
        assert iou(best.bbox, t.bbox) >= 0.3  # the eval's matching rule
        assert best.value == t.value
        if check_color:
            assert best.color == t.color


# ------------------------------------------------------------------ the shipped models


def test_model_files_ship_with_the_package():
    names = (DETECTOR_FILE, VALUES_FILE)
    assert sorted(p.name for p in MODEL_DIR.glob("*.onnx")) == sorted(names)
    assert sum((MODEL_DIR / n).stat().st_size for n in names) <= 5 * 1024 * 1024


def test_the_model_card_is_short_and_credits_its_data():
    card = (Path(__file__).resolve().parents[2] / "docs" / "model-card.md").read_text("utf-8")
    assert len(card.encode()) <= 20 * 1024
    assert "Rune55 v3 (rune-zkmvl), Roboflow Universe, CC BY 4.0" in card
    assert "zonkcam train" in card and "zonkcam eval" in card


def test_model_outputs_have_the_documented_shapes(model):
    det = model.detector
    assert [i.name for i in det.get_inputs()] == ["image"]
    assert det.get_inputs()[0].shape == [1, 3, "h", "w"]
    for h, w in ((320, 320), (256, 320), (480, 352)):
        peaks, geom = det.run(None, {"image": np.full((1, 3, h, w), 114, np.float32)})
        assert peaks.shape == (1, 1, h // 4, w // 4) and geom.shape == (1, 4, h // 4, w // 4)
        assert 0 <= peaks.min() and peaks.max() <= 1 and (geom[:, 2:] > 0).all()
    for n in (1, 3, 40):
        crops = np.random.default_rng(n).uniform(0, 255, (n, 3, 64, 64)).astype(np.float32)
        probs = model.values.run(None, {"crops": crops})[0]
        assert probs.shape == (n, 7)
        assert np.allclose(probs.sum(axis=1), 1, atol=1e-3)


def test_a_batch_of_crops_reads_as_each_crop_alone(model):
    from zonkcam.vision.reader import read_crops

    crops = np.random.default_rng(5).integers(0, 256, (19, 64, 64, 3), dtype=np.uint8)
    together = read_crops(crops, model)
    alone = np.concatenate([read_crops(crops[i : i + 1], model) for i in range(len(crops))])
    np.testing.assert_allclose(together, alone, atol=2e-3)


def test_thread_count_is_configurable():
    m = load_model(threads=2)
    assert m.threads == 2
    assert m.detector.get_session_options().intra_op_num_threads == 2
    assert load_model().detector.get_session_options().intra_op_num_threads == 1


@pytest.mark.parametrize("seed", range(8))
def test_rendered_tables_are_read_exactly(model, seed):
    out = table(seed)
    assert_read_exactly(read_dice(out.image, model), out.dice)


def test_a_pair_and_a_row_with_small_gaps(model):
    for xs in ((-9, 9), (-27, -9, 9, 27)):  # 16 mm dice, 2 mm apart
        specs = tuple(
            renderer.DieSpec(value=v, color="white", x_mm=x, y_mm=0)
            for x, v in zip(xs, (2, 3, 4, 5), strict=False)
        )
        cam = renderer.Camera(640, 480, distance_mm=250, focal_px=600)
        scene = renderer.Scene(dice=specs, camera=cam, mat=renderer.Mat("felt", (60, 110, 40)))
        out = renderer.render(scene, np.random.default_rng(0))
        assert_read_exactly(read_dice(out.image, model), out.dice)


def test_close_ups_are_read_in_one_pass(model):
    for out in renderer.closeup_frames(1280, 960, 0.3, 3, 0):
        found = read_dice(out.image, model)
        assert sorted(d.value for d in found) == sorted(d.value for d in out.dice)


@pytest.mark.slow
@pytest.mark.xfail(
    strict=True,
    reason="known limit: five dice 3% of a 2560 px frame wide, up to 30 degrees oblique, "
    "are 16-23 px at the detector's input and some come too cold to keep (docs/model-card.md)",
)
def test_dice_far_away_and_oblique_are_read_in_one_pass(model):
    for out in renderer.far_frames(2560, 1920, 0.03, 3, 0):
        found = read_dice(out.image, model)
        assert sorted(d.value for d in found) == sorted(d.value for d in out.dice)


def test_a_table_with_no_dice_reads_empty(model):
    rng = np.random.default_rng(4)
    for kind in ("wood", "felt", "white"):
        scene = renderer.Scene(dice=(), mat=renderer.Mat(kind, (70, 120, 170)))
        assert read_dice(renderer.render(scene, rng).image, model) == ()


def test_degenerate_and_odd_arrays(model):
    assert read_dice(np.zeros((1, 1, 3), np.uint8), model) == ()
    assert read_dice(np.zeros((0, 0, 3), np.uint8), model) == ()
    assert read_dice(np.zeros((7, 4000, 3), np.uint8), model) == ()
    out = table(1, 640, 480, n_dice=5)
    bgr = read_dice(out.image, model)
    assert_read_exactly(bgr, out.dice)
    grey = read_dice(cv2.cvtColor(out.image, cv2.COLOR_BGR2GRAY), model)
    assert sorted(d.value for d in grey) == sorted(d.value for d in out.dice)
    one_channel = read_dice(cv2.cvtColor(out.image, cv2.COLOR_BGR2GRAY)[:, :, None], model)
    assert [d.value for d in one_channel] == [d.value for d in grey]
    sixteen = read_dice(out.image.astype(np.uint16) * 257, model)
    assert [d.value for d in sixteen] == [d.value for d in bgr]
    bgra = read_dice(cv2.cvtColor(out.image, cv2.COLOR_BGR2BGRA), model)
    assert [d.value for d in bgra] == [d.value for d in bgr]
    floats = read_dice(out.image.astype(np.float32) / 255, model)
    assert [d.value for d in floats] == [d.value for d in bgr]
    with pytest.raises(ValueError, match="not an image array"):
        read_dice(np.zeros((10, 10, 5), np.uint8), model)


def test_huge_image(model):
    out = table(2, 800, 600, n_dice=5)
    big = cv2.resize(out.image, (8000, 6000), interpolation=cv2.INTER_LINEAR)
    found = read_dice(big, model)
    assert sorted(d.value for d in found) == sorted(d.value for d in out.dice)


# ------------------------------------------------------------------ the CLI


def test_cli_reads_a_batch_and_reports_bad_files(tmp_path, capsys):
    out = table(3, 640, 480, n_dice=5)
    good = tmp_path / "good.jpg"
    cv2.imwrite(str(good), out.image, [cv2.IMWRITE_JPEG_QUALITY, 95])
    trunc = tmp_path / "trunc.jpg"
    trunc.write_bytes(good.read_bytes()[:2000])
    empty = tmp_path / "empty.png"
    empty.write_bytes(b"")
    names = [str(good), str(trunc), str(empty), str(tmp_path / "nope.jpg"), str(good)]
    rc = cli.main(["read", "--json", "--annotate", str(tmp_path / "ann"), *names])
    assert rc == 0
    lines = [json.loads(s) for s in capsys.readouterr().out.splitlines()]
    assert [r["image"] for r in lines] == names
    assert [("error" in r) for r in lines] == [False, True, True, True, False]
    first = lines[0]
    assert sorted(d["value"] for d in first["dice"]) == sorted(d.value for d in out.dice)
    assert first["ms"] > 0
    for d in first["dice"]:
        assert set(d) == {"value", "confidence", "bbox", "color"}
        assert 0 <= d["confidence"] <= 1 and len(d["bbox"]) == 4
    assert (tmp_path / "ann" / "good.annotated.jpg").is_file()


def test_cli_reads_every_image_of_a_folder_and_says_1_die(tmp_path, capsys):
    folder = tmp_path / "photos"
    folder.mkdir()
    for name, seed in (("b.png", 3), ("a.JPG", 4)):
        cv2.imwrite(str(folder / name), table(seed, 640, 480, n_dice=5).image)
    (folder / "notes.txt").write_text("not an image")
    (folder / "sub").mkdir()
    assert cli.main(["read", "--json", str(folder)]) == 0
    lines = [json.loads(s) for s in capsys.readouterr().out.splitlines()]
    assert [Path(r["image"]).name for r in lines] == ["a.JPG", "b.png"]
    assert all("error" not in r and len(r["dice"]) == 5 for r in lines)
    # a folder with no image in it: one line, exit 1
    assert cli.main(["read", str(folder / "sub")]) == 1
    assert "a folder with no images in it" in capsys.readouterr().out
    # one die is '1 die'
    one = tmp_path / "one.png"
    cv2.imwrite(str(one), table(6, 640, 480, n_dice=1).image)
    assert cli.main(["read", str(one)]) == 0
    assert ": 1 die: " in capsys.readouterr().out


def test_cli_summary_and_usage_errors(tmp_path, capsys):
    out = table(5, 640, 480, n_dice=5)
    good = tmp_path / "g.png"
    cv2.imwrite(str(good), out.image)
    assert cli.main(["read", str(good)]) == 0
    assert "5 dice" in capsys.readouterr().out
    assert cli.main(["read", "--model-dir", str(tmp_path), str(good)]) == 2
    assert "model file missing" in capsys.readouterr().err
    assert cli.main(["read", "--threads", "0", str(good)]) == 2
    assert "--threads must be at least 1" in capsys.readouterr().err


def test_read_help_shows_a_handful_of_options(capsys):
    with pytest.raises(SystemExit):
        cli.main(["read", "--help"])
    text = capsys.readouterr().out
    options = {w.strip("[],") for w in text.split() if w.startswith(("--", "[--"))}
    assert options == {"--help", "--json", "--annotate", "--threads", "--model-dir"}


def _write_set(root: Path, source: str, seeds: range, size=(640, 480)) -> None:
    """A labelled photo set of rendered tables in labels.jsonl format, one group each."""
    (root / "images").mkdir(parents=True, exist_ok=True)
    with (root / "labels.jsonl").open("a") as fh:
        for i in seeds:
            out = table(10 + i, *size, n_dice=5)
            cv2.imwrite(str(root / "images" / f"{source}{i}.png"), out.image)
            dice = [{"bbox": list(d.bbox), "value": d.value} for d in out.dice]
            fh.write(
                json.dumps(
                    {
                        "image": f"images/{source}{i}.png",
                        "width": size[0],
                        "height": size[1],
                        "dice": dice,
                        "bbox_kind": "die",
                        "group": f"{source}:{i}",
                    }
                )
                + "\n"
            )


def test_eval_reports_per_source_and_die_size(tmp_path, capsys):
    _write_set(tmp_path, "synth", range(3))
    review = tmp_path / "review.jpg"
    rc = cli.main(["eval", str(tmp_path), "--split", "all", "--json", "--review", str(review)])
    assert rc == 0
    res = json.loads(capsys.readouterr().out)
    assert res["settings"] == vars(DEFAULT_SETTINGS)
    r = res["datasets"][str(tmp_path)]
    assert r["all"]["images"] == 3 and r["all"]["dice"] == 15
    assert r["all"]["end_to_end"] == 1.0 and r["all"]["images_exact"] == 1.0
    assert r["all"]["recall_20px"] == 1.0 and r["all"]["precision_20px"] == 1.0
    assert set(r["per_source"]) == {"synth"}
    sizes = r["all"]["by_size"]  # each die in the bin of its box's longer side
    assert sum(v["dice"] for v in sizes.values()) == 15 and sizes["<20"]["dice"] == 0
    assert sizes["40-80"]["dice"] > 0
    assert res["confirm_below"] == CONFIRM_BELOW and res["distort"] is None
    # the text names the bar and the sizes
    assert cli.main(["eval", str(tmp_path), "--split", "all", "--confirm-below", "1.0"]) == 0
    out = capsys.readouterr().out
    assert "read with confidence under 1" in out and "0 of 0 misread, 0 of 0 extra" in out
    assert "by die size (px): 40-80:" in out
    # distorted photos: the truth boxes move with them, so the dice still match
    for how in ("rot90", "scale=1.5"):
        assert (
            cli.main(
                [
                    "eval",
                    str(tmp_path),
                    "--split",
                    "all",
                    "--json",
                    "--distort",
                    how,
                    "--review",
                    str(review),
                ]
            )
            == 0
        )
        res = json.loads(capsys.readouterr().out)
        assert res["distort"] == how
        assert res["datasets"][str(tmp_path)]["all"]["images_exact"] == 1.0, how
    assert cli.main(["eval", str(tmp_path), "--distort", "fog"]) == 2
    assert "unknown distortion 'fog'" in capsys.readouterr().err
    assert cli.main(["eval", str(tmp_path), "--confirm-below", "1.5"]) == 2
    assert "--confirm-below 1.5: give a confidence from 0 to 1" in capsys.readouterr().err


def test_eval_reads_each_twin_on_the_source_it_never_saw(tmp_path, capsys):
    data = tmp_path / "set"
    _write_set(data, "left", range(2))
    _write_set(data, "right", range(2, 4))
    twins = tmp_path / "twins"
    (twins / "left").mkdir(parents=True)
    for name in (DETECTOR_FILE, VALUES_FILE):  # the shipped models stand in for a twin
        (twins / "left" / name).write_bytes((MODEL_DIR / name).read_bytes())
    assert cli.main(["eval", str(data), "--split", "all", "--twins", str(twins), "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert set(res["twins"]) == {"left"}
    assert res["twins"]["left"]["images"] == 2 and res["twins"]["left"]["dice"] == 10
    assert res["twins"]["left"]["model"] == str(twins / "left")
    # the rendered dice read right at their labelled boxes, found by the detector or not
    assert res["twins"]["left"]["value_on_boxes"] == 1.0
    assert res["twins"]["left"]["detector_is_twin"]
    # a twin reads with the shipped calibration unless its folder holds its own
    shipped = res["datasets"][str(data)]["per_source"]["left"]
    assert res["twins"]["left"]["right_flagged"] == shipped["right_flagged"]
    unsure = {"features": list(FEATURES), "weights": [0, 0, 0, 0], "bias": -5.0}
    (twins / "left" / CONFIDENCE_FILE).write_text(json.dumps(unsure))
    assert cli.main(["eval", str(data), "--split", "all", "--twins", str(twins), "--json"]) == 0
    left = json.loads(capsys.readouterr().out)["twins"]["left"]
    assert left["right_flagged"] == left["dice"] - left["missed"] - left["misread"] > 0
    (twins / "left" / CONFIDENCE_FILE).unlink()
    # a twin of the value net alone says that its detector is not a twin
    settings = {"leave_out": "left", "detector": {"file": "x", "sha256": "0"}}
    (twins / "left" / "run.json").write_text(json.dumps({"settings": settings}))
    assert cli.main(["eval", str(data), "--split", "all", "--twins", str(twins)]) == 0
    out = capsys.readouterr().out
    assert "left: silent errors 0 dice" in out
    assert "its detector is not a twin" in out and "value_on_boxes" in out
    assert cli.main(["eval", str(data), "--twins", str(tmp_path / "none")]) == 2
    assert "no such folder" in capsys.readouterr().err
    assert cli.main(["eval", str(data), "--twins", str(data)]) == 2
    assert "no twin model folders named after a source (left, right)" in capsys.readouterr().err


def test_eval_by_look_sorts_dice_by_the_set_s_looks_or_the_body_colour_read(tmp_path, capsys):
    data = tmp_path / "set"
    _write_set(data, "synth", range(3))
    recs = [json.loads(line) for line in (data / "labels.jsonl").read_text().splitlines()]
    looks = ("translucent", "marbled", "metal", "smoke", "white")
    for r in recs[:2]:  # a rendered set names each die's look
        for d, look in zip(r["dice"], looks, strict=True):
            d["look"] = look
    (data / "labels.jsonl").write_text("".join(json.dumps(r) + "\n" for r in recs))
    assert cli.main(["eval", str(data), "--split", "all", "--by-look", "--json"]) == 0
    by_look = json.loads(capsys.readouterr().out)["datasets"][str(data)]["by_look"]
    assert sum(v["dice"] for v in by_look.values()) == 15
    assert by_look["translucent or smoke"]["dice"] == 4 and by_look["marbled"]["dice"] == 2
    assert by_look["coloured opaque"]["dice"] >= 2  # metal, and coloured bodies read
    assert set(by_look) <= {"white", "black", "coloured opaque", "translucent or smoke", "marbled"}
    for v in by_look.values():
        assert v["end_to_end"] == 1.0 and v["misread_silent"] == 0
    assert cli.main(["eval", str(data), "--split", "all", "--by-look"]) == 0
    assert "by body kind:" in capsys.readouterr().out
    # a twin's unseen source in two halves: the validation and the training split
    twins = tmp_path / "twins"
    (twins / "synth").mkdir(parents=True)
    for name in (DETECTOR_FILE, VALUES_FILE):
        (twins / "synth" / name).write_bytes((MODEL_DIR / name).read_bytes())
    seen = {}
    for half in ("all", "val", "train"):
        argv = ["eval", str(data), "--split", "all", "--twins", str(twins), "--json"]
        assert cli.main([*argv, "--twins-split", half, "--by-look"]) == 0
        res = json.loads(capsys.readouterr().out)
        assert res["twins_split"] == half
        seen[half] = res["twins"]["synth"]["images"]
        assert sum(v["dice"] for v in res["twins"]["synth"]["by_look"].values()) == 5 * seen[half]
    assert seen["val"] + seen["train"] == seen["all"] == 3


def test_every_command_and_the_table_read_with_the_same_settings(tmp_path, monkeypatch):
    """`zonkcam read`, `eval`, `bench` and the table reader run one reader with one set of
    settings (the table adds only the calibrated die size)."""
    from zonkcam.table.reading import OnnxReader
    from zonkcam.vision import reader

    seen = []
    real = reader.read_dice

    def spy(image, model, settings=DEFAULT_SETTINGS, die_px=None, *rest):
        seen.append(settings)
        return real(image, model, settings, die_px, *rest)

    monkeypatch.setattr(reader, "read_dice", spy)
    _write_set(tmp_path / "set", "synth", range(1))
    image = str(tmp_path / "set" / "images" / "synth0.png")
    assert cli.main(["read", image]) == 0
    assert cli.main(["eval", str(tmp_path / "set"), "--split", "all"]) == 0
    (tmp_path / "work").mkdir()
    monkeypatch.chdir(tmp_path / "work")  # no ../shared here: the bench reads rendered frames
    assert cli.main(["bench", "--frames", "1"]) == 0
    table_reader = OnnxReader(die_px=60.0)
    table_reader(cv2.imread(image), (0, 0, 320, 240))
    table_reader(cv2.imread(image))
    assert len(seen) == 1 + 1 + 3 + 2
    assert all(s is DEFAULT_SETTINGS for s in seen)
    assert table_reader.settings is DEFAULT_SETTINGS


def _boxes(record: dict) -> list[list[float]]:
    return [d["bbox"] for d in record["dice"]]


@pytest.mark.slow
def test_bench_times_photos_and_rendered_frames(tmp_path, capsys, monkeypatch):
    from zonkcam.train.dataset import is_validation

    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)  # the bench finds ../shared/datasets from here
    data = tmp_path / "shared" / "datasets" / "real-dice-dev"
    _write_set(data, "synth", range(8))
    val = [r for r in map(json.loads, (data / "labels.jsonl").open()) if is_validation(r["group"])]
    assert val  # (the split by group puts about one in five there)
    assert cli.main(["bench", "--frames", "2", "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert [(p["set"], p["photos"]) for p in res["photos"]] == [
        ("../shared/datasets/real-dice-dev", len(val))
    ]
    # the photos with a die under second_look_below px at the detector's input, timed apart
    at_input = DEFAULT_SETTINGS.det_size / 640
    small = [
        r for r in val if min(max(b[2] - b[0], b[3] - b[1]) for b in _boxes(r)) * at_input < 28
    ]
    assert res["photos"][0]["small_dice"]["photos"] == len(small)
    assert [t["size"] for t in res["tables"]] == ["640x480", "1280x960", "2304x1296"]
    assert all(t["frames"] == 2 and t["ms_median"] > 0 for t in res["tables"])
    assert res["read_peak_rss_mb"] > 50 and res["bench_peak_rss_mb"] > 50


@pytest.mark.shared
@pytest.mark.skipif(
    not (SHARED / "real-dice-dev" / "labels.jsonl").is_file(), reason="no ../shared datasets"
)
@pytest.mark.slow
def test_validation_splits_of_real_photos(capsys):
    sets = [
        str(SHARED / n)
        for n in ("real-dice-dev", "rune55-dev")
        if (SHARED / n / "labels.jsonl").is_file()
    ]
    assert cli.main(["eval", *sets, "--json"]) == 0
    res = json.loads(capsys.readouterr().out)["datasets"]
    # regression floors a little under the measured figures (docs/measured.md)
    rdd = res[sets[0]]["all"]
    assert rdd["end_to_end"] >= FLOOR["real-dice-dev"] and rdd["recall_20px"] >= 0.97
    if len(sets) > 1:
        assert res[sets[1]]["all"]["end_to_end"] >= FLOOR["rune55-dev"]


FLOOR = {"real-dice-dev": 0.94, "rune55-dev": 0.86}
"""Below what the shipped models measure (0.947 and 0.870): a guard against regressions."""


# ------------------------------------------------------------------ the rules of the pass


class _Session:
    """Stands in for an onnxruntime session: fixed outputs; counts its runs and keeps the
    shape of each input."""

    def __init__(self, outputs) -> None:
        self.outputs = outputs
        self.inputs: list[tuple] = []

    def run(self, _names, feeds):
        self.inputs.append(next(iter(feeds.values())).shape)
        out = self.outputs
        if callable(out):
            return out(next(iter(feeds.values())))
        return out


def _peaks(*peaks: tuple[int, int, int, float], grid: int = 104) -> tuple[np.ndarray, ...]:
    """A fake detector's outputs (heat, geometry) on a grid x grid map (416 px input):
    peaks (grid x, grid y, box side px, heat)."""
    heat = np.zeros((1, 1, grid, grid), np.float32)
    geom = np.zeros((1, 4, grid, grid), np.float32)
    for gx, gy, side, hot in peaks:
        heat[0, 0, gy, gx] = hot
        geom[0, 2:, gy, gx] = side
    return heat, geom


def _fake(peaks: tuple[np.ndarray, ...], probs: np.ndarray) -> DiceModel:
    """A detector with these peaks and a value net that reads the crops `probs`, and the
    same again for its mirrored look (every candidate in these tests comes near enough to
    the vote to get one)."""

    def values(x: np.ndarray) -> list[np.ndarray]:
        return [np.resize(probs, (len(x), probs.shape[1]))]

    return DiceModel(_Session(list(peaks)), _Session(values), threads=1)


IMAGE = np.full((416, 416, 3), 90, np.uint8)


def test_all_crops_of_a_photo_go_to_the_value_net_in_one_run():
    peaks = _peaks(*[(10 + 12 * (i % 7), 10 + 12 * (i // 7), 30, 0.9) for i in range(20)])
    probs = np.tile(np.array([[0.01, 0, 0, 0.99, 0, 0, 0]], np.float32), (20, 1))
    fake = _fake(peaks, probs)
    dice = read_dice(IMAGE, fake)
    assert len(dice) == 20 and {d.value for d in dice} == {3}
    assert fake.values.inputs == [(20, 3, 64, 64)] * 2  # as cut, then mirrored
    assert fake.detector.inputs == [(1, 3, 416, 416)]


def test_a_candidate_the_detector_barely_saw_needs_a_surer_value_net():
    # three peaks far apart: the detector sure of the first (0.9), lukewarm about the
    # other two (0.1); the value net calls all three a 4, P(a die) 0.95, 0.95 and 0.999
    peaks = _peaks((10, 10, 40, 0.9), (60, 10, 40, 0.1), (30, 60, 40, 0.1))
    probs = np.array(
        [[0.05, 0, 0, 0, 0.95, 0, 0], [0.05, 0, 0, 0, 0.95, 0, 0], [0.001, 0, 0, 0, 0.999, 0, 0]],
        np.float32,
    )
    settings = ReaderSettings(heat_full=0.4, heat_weight=0.25, keep_vote=0.7)
    # votes: 0.95; 0.95 x 0.25 ** 0.25 = 0.672 < 0.7; 0.999 x 0.707 = 0.706
    dice = read_dice(IMAGE, _fake(peaks, probs), settings)
    assert [(d.bbox[0] + d.bbox[2]) / 2 for d in dice] == [40.0, 120.0]
    alone = ReaderSettings(heat_full=0.4, heat_weight=0.0, keep_vote=0.7)
    assert len(read_dice(IMAGE, _fake(peaks, probs), alone)) == 3


def test_candidates_too_cold_to_keep_are_not_read():
    settings = ReaderSettings(det_threshold=0.01)
    least = min_kept_heat(settings)
    peaks = _peaks((10, 10, 40, least * 0.9), (60, 10, 40, least * 1.5), (30, 60, 40, 0.8))
    # P(a die) 0.9: the lukewarm one's vote is 0.9 x (1.5 x 0.4 x 0.6 ** 4 / 0.4) ** 0.25
    # = 0.598, under 0.6
    probs = np.tile(np.array([[0.1, 0, 0, 0, 0, 0.9, 0]], np.float32), (2, 1))
    fake = _fake(peaks, probs)
    dice = read_dice(IMAGE, fake, settings)
    assert fake.values.inputs == [(2, 3, 64, 64)] * 2  # the coldest was never cropped
    assert len(dice) == 1  # and the lukewarm one falls short of the vote


def test_a_die_found_twice_is_read_once_the_surer_box_stays():
    # two peaks 8 px apart with 40 px boxes (IoU 0.47: through the detector's NMS at
    # 0.5, caught by the dedupe at 0.35); the second is surer of its die
    peaks = _peaks((20, 20, 40, 0.9), (22, 22, 40, 0.6))
    probs = np.array([[0.15, 0, 0.85, 0, 0, 0, 0], [0.01, 0, 0, 0, 0, 0.99, 0]], np.float32)
    once = read_dice(IMAGE, _fake(peaks, probs))
    assert [(d.value, d.bbox) for d in once] == [(5, (68.0, 68.0, 108.0, 108.0))]
    both = read_dice(IMAGE, _fake(peaks, probs), ReaderSettings(dedupe_iou=1, dedupe_inside=0))
    assert [d.value for d in both] == [2, 5]


def test_a_die_boxed_again_by_a_side_face_is_read_once():
    # A: a die 40 px wide at grid x 20; B: a 16 px box over A's right side (0.75 of B
    # inside A); C: a die touching A on the right
    heat, geom = _peaks((20, 20, 40, 0.9), (24, 20, 16, 0.6), (30, 20, 40, 0.8))
    geom[0, 3, 20, 24] = 40  # B is 16 x 40
    probs = np.array(
        [[0.01, 0, 0, 0, 0, 0.99, 0], [0.05, 0, 0, 0, 0.95, 0, 0], [0.15, 0, 0, 0, 0, 0, 0.85]],
        np.float32,
    )  # A, C, B by heat
    once = read_dice(IMAGE, _fake((heat, geom), probs))
    assert [(d.value, d.bbox[0]) for d in once] == [(5, 60.0), (4, 100.0)]
    twice = read_dice(IMAGE, _fake((heat, geom), probs), ReaderSettings(dedupe_inside=0))
    assert [(d.value, d.bbox[0]) for d in twice] == [(5, 60.0), (6, 88.0), (4, 100.0)]


def test_nms_keeps_neighbours_and_drops_a_box_inside_another():
    boxes = np.array([[100, 100, 150, 160], [108, 100, 142, 135], [151, 100, 201, 160]], np.float32)
    scores = np.array([0.9, 0.6, 0.8], np.float32)
    assert sorted(nms(boxes, scores, 0.5).tolist()) == [0, 1, 2]
    assert sorted(nms(boxes, scores, 0.5, inside=0.6).tolist()) == [0, 2]
    assert sorted(nms(boxes, scores, 0.3).tolist()) == [0, 2]
    assert nms(np.zeros((0, 4), np.float32), np.zeros(0, np.float32), 0.5).tolist() == []


def test_the_detector_input_follows_the_photo_or_a_known_die_size():
    s = DEFAULT_SETTINGS
    assert detector_scale((960, 1280, 3), s, None) == s.det_size / 1280
    # a calibrated table: a die 100 px wide shown at die_px (input a multiple of 32)
    scale = detector_scale((960, 1280, 3), s, 100.0)
    assert (1280 * scale) % 32 == 0 and 100 * scale == pytest.approx(s.die_px, rel=0.1)
    # a small region or tiny dice stay within the bounds
    assert 300 * detector_scale((200, 300, 3), s, 400.0) == MIN_DET_SIZE
    assert 1280 * detector_scale((960, 1280, 3), s, 5.0) == MAX_DET_SIZE


def test_a_known_die_size_sizes_the_detector_input():
    peaks = _peaks((10, 10, 40, 0.9), grid=40)
    probs = np.array([[0.01, 0, 0, 0.99, 0, 0, 0]], np.float32)
    fake = _fake(peaks, probs)
    read_dice(np.full((480, 640, 3), 90, np.uint8), fake, die_px=112.0)
    # 640 x 28 / 112 = 160 px wide, padded to multiples of 32
    assert fake.detector.inputs == [(1, 3, 128, 160)]


def _looks(first: tuple[np.ndarray, ...], second: tuple[np.ndarray, ...]) -> _Session:
    """A detector that sees `first` on its first look and `second` on any later one."""
    calls = iter([list(first)])
    return _Session(lambda _x: next(calls, list(second)))


def test_a_photo_with_a_small_die_gets_a_second_larger_look():
    looks = ReaderSettings(
        second_look=640, second_look_below=24.0, second_look_vote=0.8, second_look_near=100.0
    )
    # first look (416 px input, the image's own scale): one die 16 px wide there, under
    # second_look_below; second look (640 px): that die again, a new one the detector is
    # sure of and a new lukewarm one (heat 0.13: vote 0.99 x (0.13 / 0.4) ** 0.25 =
    # 0.747, enough for a first look's keep_vote 0.7, not for second_look_vote 0.8)
    first = _peaks((20, 20, 16, 0.9))
    second = _peaks((31, 31, 24, 0.9), (80, 80, 24, 0.9), (50, 10, 24, 0.13), grid=160)
    threes = np.array([[0.01, 0, 0, 0.99, 0, 0, 0]], np.float32)

    def fake() -> DiceModel:
        return DiceModel(_looks(first, second), _fake((), threes).values, threads=1)

    model = fake()
    dice = read_dice(IMAGE, model, looks)
    assert model.detector.inputs == [(1, 3, 416, 416), (1, 3, 640, 640)]
    # the die both looks found is read once, as the first look boxed it
    assert [d.bbox for d in dice][0] == (72.0, 72.0, 88.0, 88.0)
    assert len(dice) == 2 and dice[1].bbox[0] == pytest.approx(208 - 12 * 416 / 640, abs=0.1)
    # the second look crops only the new die: not the one boxed over a kept die, nor the
    # one too cold to reach second_look_vote (each crop read as cut and mirrored)
    assert model.values.inputs == [(1, 3, 64, 64)] * 4
    lenient = read_dice(IMAGE, fake(), replace(looks, second_look_vote=0.7))
    assert len(lenient) == 3
    model = fake()
    assert len(read_dice(IMAGE, model, replace(looks, second_look=0))) == 1
    assert len(model.detector.inputs) == 1
    model = fake()  # a die 16 px at the input is not small under a bar of 12 px
    assert len(read_dice(IMAGE, model, replace(looks, second_look_below=12.0))) == 1
    assert len(model.detector.inputs) == 1


def test_the_second_look_sees_only_the_parts_near_small_candidates():
    looks = ReaderSettings(second_look=640, second_look_below=24.0, second_look_near=4.0)
    # first look: one die 16 px wide at (80, 80), small; the second looks only within 4.5
    # sides of it, the 64-cell grid's cells from 6.5 to 156 px: a 150 px square seen at
    # 640 / 416 is a 231 px input, padded to 256 (a 64 x 64 map). There: that die again, a
    # new die at map (50, 50) (region px 130, image px 136), and one at map (62, 10) cut by
    # the region's edge inside the photo, left out
    first = _peaks((20, 20, 16, 0.9))
    second = _peaks((28, 28, 24, 0.9), (50, 50, 24, 0.9), (62, 10, 24, 0.9), grid=64)
    threes = np.array([[0.01, 0, 0, 0.99, 0, 0, 0]], np.float32)
    model = DiceModel(_looks(first, second), _fake((), threes).values, threads=1)
    dice = read_dice(IMAGE, model, looks)
    assert model.detector.inputs == [(1, 3, 416, 416), (1, 3, 256, 256)]
    assert len(dice) == 2 and dice[0].bbox == (72.0, 72.0, 88.0, 88.0)
    centre = (dice[1].bbox[0] + dice[1].bbox[2]) / 2
    assert centre == pytest.approx(6 + 200 * 150 / 231, abs=1)
    # the same photo seen whole when the parts would cover most of it
    model = DiceModel(_looks(first, second), _fake((), threes).values, threads=1)
    read_dice(IMAGE, model, replace(looks, second_look_near=30.0))
    assert model.detector.inputs[1] == (1, 3, 640, 640)


def _first_look(*boxes: tuple[float, float, float, float], kept: int = 1) -> object:
    """A first look's result as second_look_regions reads it: its candidates, the first
    `kept` of them kept, at the image's own scale."""
    b = np.array(boxes, np.float32).reshape(-1, 4)

    class Look:
        candidates, boxes, scale = b, b[:kept], 1.0

    return Look()


def test_second_look_regions_join_near_candidates_and_give_up_on_a_crowded_photo():
    s = ReaderSettings(second_look_below=28.0, second_look_near=2.0)
    shape = (640, 640, 3)
    # two small dice far apart: two parts, each round its die; a big one adds nothing
    far = _first_look((40, 40, 56, 56), (560, 560, 576, 576), (300, 300, 400, 400), kept=3)
    parts = second_look_regions(far, shape, s)
    assert len(parts) == 2
    for (x0, y0, x1, y1), c in zip(sorted(parts), (48, 568), strict=True):
        assert x0 <= c - 2.5 * 16 and x1 >= c + 2.5 * 16 and x1 - x0 < 140
        assert y0 <= c - 2.5 * 16 and y1 >= c + 2.5 * 16 and y1 - y0 < 140
    # two small dice side by side: one part
    assert len(second_look_regions(_first_look((40, 40, 56, 56), (70, 40, 86, 56)), shape, s)) == 1
    # small dice all over the photo: the whole photo; nothing kept: the whole photo
    spread = [(x, y, x + 16, y + 16) for x in range(20, 640, 90) for y in range(20, 640, 90)]
    assert second_look_regions(_first_look(*spread), shape, s) is None
    assert second_look_regions(_first_look((40, 40, 56, 56), kept=0), shape, s) is None


def test_no_second_look_for_big_dice_or_a_known_die_size():
    # a die 40 px at the detector's input: one look
    fake = _fake(_peaks((20, 20, 40, 0.9)), np.array([[0.01, 0, 0, 0.99, 0, 0, 0]], np.float32))
    assert len(read_dice(IMAGE, fake)) == 1 and len(fake.detector.inputs) == 1
    # the calibrated table (die_px known) sizes its one look by the die, kept or not
    empty = _fake(_peaks(grid=40), np.zeros((0, 7), np.float32))
    assert read_dice(np.full((480, 640, 3), 90, np.uint8), empty, die_px=112.0) == ()
    assert len(empty.detector.inputs) == 1
    # a photo where nothing was kept is looked at again
    empty = _fake(_peaks(), np.zeros((0, 7), np.float32))
    assert read_dice(IMAGE, empty) == () and len(empty.detector.inputs) == 2
