"""Photoreal dice (zonkcam.sim.photoreal) and the render step (`zonkcam train render`)."""

from __future__ import annotations

import dataclasses
import json
import math

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zonkcam import cli
from zonkcam.sim import photoreal as P


def needs_mitsuba(test):
    """Renders with Mitsuba 3, the train extra's: `make test-train` runs it."""
    skip = pytest.mark.skipif(not P.mitsuba_installed(), reason="Mitsuba 3 is the train extra's")
    return pytest.mark.train(skip(test))


@given(
    value=st.integers(1, 6),
    yaw=st.floats(0, 2 * math.pi),
    lean=st.tuples(st.floats(-0.1, 0.1), st.floats(-0.1, 0.1)),
)
@settings(max_examples=200, deadline=None)
def test_the_face_turned_up_is_the_value_whatever_the_yaw_and_a_slight_lean(value, yaw, lean):
    R = P.rotation_for(value, yaw, lean)
    assert np.allclose(R @ R.T, np.eye(3), atol=1e-9)
    assert P.top_value(R) == value
    # opposite faces sum to 7: the face on the table is 7 - value
    down = {v: (R @ np.array(n, float))[2] for v, n in P.FACE_NORMAL.items()}
    assert min(down, key=down.__getitem__) == 7 - value


def test_a_die_mesh_is_a_closed_rounded_box_with_its_pips_cut_in():
    flat = P.DieShape(rounding=0.3, pip_radius=0.18, spread=0.55, depth=0.0)
    v, n, uv, f = P.die_mesh(flat, grid=24)
    assert v.shape[1] == 3 and n.shape == v.shape and uv.shape == (len(v), 2)
    assert f.min() == 0 and f.max() == len(v) - 1
    assert np.abs(v).max() == pytest.approx(1.0)
    corner = v[np.argmax(v.sum(axis=1))]
    assert corner.sum() < 3 - 0.05  # the corners are rounded off
    assert np.allclose(np.linalg.norm(n, axis=1), 1)
    assert uv.min() >= 0 and uv.max() <= 1
    cut = dataclasses.replace(flat, depth=0.1)
    vc, *_ = P.die_mesh(cut, grid=24)
    moved = np.linalg.norm(vc - v, axis=1) > 1e-6
    # only points inside pips move, and only inwards (the die's top, the 1 face: +z)
    assert 0 < moved.mean() < 0.3
    top = np.abs(v[:, 2] - 1) < 1e-9
    assert (vc[top & moved, 2] < 1).all()


def test_the_texture_paints_each_face_with_its_own_number_of_pips():
    look = P.Look("white", (0.9, 0.9, 0.9), (0.02, 0.02, 0.02), "painted", 0.1)
    shape = P.DieShape(rounding=0.2, pip_radius=0.17, spread=0.55, depth=0.0)
    albedo, mask = P.face_atlas(look, shape, (0, 1, 2, 3, 0, 1), np.random.default_rng(0))
    for k, value in enumerate((1, 2, 3, 4, 5, 6)):
        col, row = k % 3, k // 3
        tile = mask[row * P.TEX : (row + 1) * P.TEX, col * P.TEX : (col + 1) * P.TEX]
        count, _ = cv2.connectedComponents((tile > 0.5).astype(np.uint8))
        assert count - 1 == value
    assert albedo[mask > 0.99].max() < 0.05 and albedo[mask < 0.01].min() > 0.85


def test_unknown_looks_are_refused_and_every_look_is_drawn():
    with pytest.raises(ValueError, match="no such look"):
        P.random_look(np.random.default_rng(0), "plaid")
    rng = np.random.default_rng(1)
    drawn = {P.random_look(rng).kind for _ in range(400)}
    assert drawn == set(P.LOOKS)
    assert set(P.BODY_KIND) == set(P.LOOKS)


def _one_die_scene(
    value: int, look: P.Look, size: int = 96, spp: int = 8, yaw: float = 0.4
) -> P.Scene:
    base = P.random_scene(np.random.default_rng([0, 29, 3]))
    die = P.PlacedDie(value, look, P.DieShape(0.2, 0.17, 0.55, 0.0), 0.0, 0.0, yaw)
    return dataclasses.replace(
        base,
        dice=(die,),
        elevation=90.0,
        azimuth=0.0,
        distance=7.0,
        look_at=(0.0, 0.0),
        width=size,
        height=size,
        fov=40.0,
        light="lamp",
        spp=spp,
        background=np.full((64, 64, 3), 60, np.uint8),
    )


@needs_mitsuba
@pytest.mark.parametrize("value", [1, 2, 3, 4, 5, 6])
def test_a_render_from_above_shows_the_labelled_value_in_pips(value):
    """The label comes from the geometry; the picture must agree with it: counted as dark
    spots on the top face of a white die."""
    look = P.Look("white", (0.85, 0.85, 0.85), (0.01, 0.01, 0.01), "painted", 0.3)
    img, dice = P.render(_one_die_scene(value, look, size=128, spp=16, yaw=0.0), seed=value)
    assert [d.value for d in dice] == [value] and dice[0].look == "white"
    x0, y0, x1, y1 = (int(round(c)) for c in dice[0].bbox)
    face = cv2.cvtColor(img[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY)
    assert 0.4 * 128 < x1 - x0 < 0.8 * 128  # the box is the die, which fills it
    pad = (x1 - x0) // 8  # the rounded rim, darker at the edge
    inner = face[pad:-pad, pad:-pad]
    dark = (inner < 0.5 * np.median(inner)).astype(np.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStats(dark)
    spots = [s for s in stats[1:] if s[cv2.CC_STAT_AREA] >= 8]
    assert len(spots) == value


@needs_mitsuba
@pytest.mark.parametrize("kind", P.LOOKS)
def test_every_look_renders_a_die_unlike_the_table_with_its_value(kind):
    rng = np.random.default_rng([7, P.LOOKS.index(kind)])
    scene = _one_die_scene(4, P.random_look(rng, kind), size=72, spp=4)
    img, dice = P.render(scene, seed=3)
    assert img.shape == (72, 72, 3) and img.dtype == np.uint8
    assert [(d.value, d.look) for d in dice] == [(4, kind)]
    assert dice[0].visible == 1.0
    x0, y0, x1, y1 = (int(c) for c in dice[0].bbox)
    inside = img[y0:y1, x0:x1].reshape(-1, 3).astype(float)
    table = np.concatenate([img[:, :4], img[:, -4:]], axis=1).reshape(-1, 3).astype(float)
    assert (
        np.abs(inside.mean(axis=0) - table.mean(axis=0)).max() > 8 or inside.std() > 2 * table.std()
    )


@needs_mitsuba
def test_a_scene_renders_the_same_picture_each_time_and_another_scene_does_not():
    from zonkcam.train.render import scene_of

    s = dataclasses.replace(scene_of(0, 4), width=64, height=48, spp=4)
    a, da = P.render(s, seed=11)
    b, db = P.render(s, seed=11)
    assert np.array_equal(a, b) and da == db
    c, _ = P.render(dataclasses.replace(scene_of(0, 5), width=64, height=48, spp=4), seed=11)
    assert not np.array_equal(a, c)


@pytest.fixture
def small_renders(monkeypatch):
    """Render steps in tests: small pictures, few samples."""
    from zonkcam.train import render as R

    real = R.scene_of

    def small(seed, index, look=None):
        return dataclasses.replace(real(seed, index, look), width=80, height=64, spp=2)

    monkeypatch.setattr(R, "scene_of", small)
    return R


@needs_mitsuba
def test_render_writes_a_labelled_set_that_training_loads(tmp_path, small_renders, capsys):
    from zonkcam.train import data as D
    from zonkcam.train.dataset import load_labels

    out = tmp_path / "set"
    assert cli.main(["train", "render", "--out", str(out), "--count", "9", "--workers", "1"]) == 0
    err = capsys.readouterr().err
    assert "dice" in err and "min left" in err
    records = load_labels(out)
    assert sum(len(r.dice) for r in records) >= 9
    assert {r.source for r in records} == {"photoreal"}
    for r in records:
        assert r.image.is_file() and r.width and r.height
        for d in r.dice:
            assert 1 <= d.value <= 6 and d.look in P.LOOKS
            x0, y0, x1, y1 = d.bbox
            assert 0 <= x0 < x1 <= r.width and 0 <= y0 < y1 <= r.height
    photos = D.load_photoreal(out, lambda _: None)
    assert len(photos) == len(records) and {p.source for p in photos} == {D.PHOTOREAL}
    assert not list(out.rglob("*.tmp"))


@needs_mitsuba
def test_a_stopped_render_goes_on_to_the_same_set_and_more_dice_add_scenes(tmp_path, small_renders):
    R = small_renders
    whole = R.render_set(R.RenderConfig(tmp_path / "whole", 14, seed=3, workers=1), print)
    # stopped: a scene without its record, a record cut short, a temporary file left
    part = tmp_path / "part"
    R.render_set(R.RenderConfig(part, 8, seed=3, workers=1), print)
    scenes = sorted((part / "scenes").glob("*.json"))
    scenes[-1].unlink()
    scenes[-2].write_text('{"image": "images/')
    (part / "images" / ".000009.jpg.0123456789ab.tmp").write_bytes(b"\xff\xd8")
    again = R.render_set(R.RenderConfig(part, 14, seed=3, workers=1), print)
    assert again.read_text() == whole.read_text()
    for img in (tmp_path / "whole" / "images").glob("*.jpg"):
        assert (part / "images" / img.name).read_bytes() == img.read_bytes()


@needs_mitsuba
def test_render_step_refuses_bad_options_in_one_line(tmp_path, small_renders, capsys):
    def refused(*argv: str) -> str:
        try:
            code = cli.main(["train", "render", *argv])
        except SystemExit as exc:  # argparse's own refusal
            code = exc.code
        assert code == 2
        err = capsys.readouterr().err.strip()
        assert "Traceback" not in err
        return err.splitlines()[-1]

    assert "--count" in refused("--out", str(tmp_path / "a"), "--count", "0")
    assert "--count" in refused("--out", str(tmp_path / "a"), "--count", "lots")
    assert "--workers" in refused("--count", "3", "--workers", "0")
    assert "no such look" in refused(
        "--out", str(tmp_path / "a"), "--count", "3", "--look", "plaid"
    )
    afile = tmp_path / "file"
    afile.write_text("x")
    assert "not a folder" in refused("--out", str(afile), "--count", "3")
    out = str(tmp_path / "set")
    assert cli.main(["train", "render", "--out", out, "--count", "2", "--workers", "1"]) == 0
    capsys.readouterr()
    assert "other settings" in refused("--out", out, "--count", "2", "--seed", "1")
    assert json.loads((tmp_path / "set" / "render.json").read_text())["settings"]["seed"] == 0


def test_photoreal_dice_take_their_share_of_each_batch():
    from zonkcam.train import data as D

    dice = {"a": 400, "b": 100, D.RENDERED: 900, D.PHOTOREAL: 5000}
    w = D.source_weights(sorted(dice), dice, 0.25)
    assert w[D.PHOTOREAL] == pytest.approx(0.25)
    assert sum(w.values()) == pytest.approx(1)
    plain = D.source_weights(["a", "b", D.RENDERED], dice)
    for k, v in plain.items():
        assert w[k] == pytest.approx(0.75 * v)
    assert D.source_weights([D.PHOTOREAL], dice, 0.25) == {D.PHOTOREAL: 1.0}


def test_train_refuses_a_share_without_a_set_and_a_folder_without_labels(tmp_path, capsys):
    assert cli.main(["train", "--photoreal-share", "0.3", "--out", str(tmp_path / "o")]) == 2
    assert "--photoreal-share needs --photoreal" in capsys.readouterr().err
    assert cli.main(["train", "--photoreal", str(tmp_path), "--out", str(tmp_path / "o")]) == 2
    assert "no labels.jsonl there" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        cli.main(["train", "--photoreal", str(tmp_path), "--photoreal-share", "1.5"])
    assert exc.value.code == 2
    assert "above 0 and under 1" in capsys.readouterr().err


def test_the_default_share_is_the_one_training_uses():
    from zonkcam.commands.train import PHOTOREAL_SHARE_DEFAULT
    from zonkcam.train import data as D

    assert PHOTOREAL_SHARE_DEFAULT == D.PHOTOREAL_SHARE
