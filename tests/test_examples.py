"""The scripts in examples/ run and say what they should."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import cv2
import numpy as np
import pytest

from zonkcam.game import actions as A
from zonkcam.game import load_rules, parse_dice
from zonkcam.mat.calibrate import calibrate
from zonkcam.record.logged_game import LoggedGame
from zonkcam.record.store import EventLog
from zonkcam.sim import renderer
from zonkcam.sim.demo_table import DemoTable

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def example(name: str):
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.main


def test_every_example_is_tested():
    tested = {"score_roll", "read_photo", "replay_game", "watch_video"}
    assert {p.stem for p in EXAMPLES.glob("*.py")} == tested


def test_score_roll(capsys):
    assert example("score_roll")(["1", "1", "1", "5", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:6] == ["keep", "1", "1", "1", "5", "1050"]
    assert example("score_roll")(["2", "3", "4", "6", "6"]) == 0
    assert capsys.readouterr().out.startswith("zonk")
    assert example("score_roll")(["1", "1", "1", "5", "2", "3"]) == 2
    assert "played with 5 dice, not 6" in capsys.readouterr().out


def test_read_photo(tmp_path, capsys):
    scene = renderer.Scene(
        dice=tuple(
            renderer.DieSpec(value=v, color="white", x_mm=x, y_mm=0)
            for v, x in ((2, -40), (5, 0), (6, 40))
        ),
        mat=renderer.Mat("felt", (60, 110, 40)),
    )
    out = renderer.render(scene, np.random.default_rng(0))
    photo = tmp_path / "table.png"
    cv2.imwrite(str(photo), out.image)
    assert example("read_photo")([str(photo)]) == 0
    text = capsys.readouterr().out
    assert text.startswith("3 dice, total 13")


def test_replay_game(tmp_path, capsys):
    db = tmp_path / "games.db"
    with EventLog(db) as log:
        logged = LoggedGame.new(log, load_rules("classic-10000"))
        logged.play(A.Players(("Ann", "Bob")))
        logged.play(A.Roll(parse_dice([1, 1, 1, 5, 2])))
        logged.play(A.Keep((1, 1, 1, 5)))
        logged.play(A.Bank())
    assert example("replay_game")(["--db", str(db)]) == 0
    text = capsys.readouterr().out
    assert "Ann" in text and "1,050" in text
    assert example("replay_game")(["--db", str(tmp_path / "empty.db")]) == 1


@pytest.mark.slow
def test_watch_video(tmp_path, capsys):
    table = DemoTable(seed=3, autoplay=False, size=(640, 480))
    frames = tmp_path / "frames"
    frames.mkdir()
    first = table.read()
    calibrate(first.image, table.geometry).save(tmp_path / "cal.toml")
    table.throw([1, 5, 3])
    table.rest(30)
    for k in range(120):
        frame = table.read()
        cv2.imwrite(str(frames / f"{k:04d}.png"), frame.image)
        if not table.busy:
            break
    assert example("watch_video")([str(frames), "--calibration", str(tmp_path / "cal.toml")]) == 0
    settled = [line for line in capsys.readouterr().out.splitlines() if "rolled" in line]
    assert len(settled) == 1 and "roll  rolled [1 3 5]  strip []" in settled[0], settled
