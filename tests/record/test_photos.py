"""Roll photos beside the game log: annotated, bounded in size, exported."""

from __future__ import annotations

import subprocess
import sys

import numpy as np

from zonkcam.game import Die
from zonkcam.record.photos import RollPhotos, annotate, photo_folder
from zonkcam.table.zones import TableDie, Zone
from zonkcam.vision import Reading


def frame(seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.integers(0, 255, (960, 1280, 3), dtype=np.uint8)  # noise: JPEG keeps it big


def die(value=5, zone=Zone.ROLLING, confidence=0.95):
    read = Reading(Die(value, "white"), confidence, (100, 100, 160, 160))
    return TableDie(read, (50.0, 50.0), zone)


def test_a_photo_is_small_with_the_read_boxes_drawn():
    image = np.zeros((960, 1280, 3), np.uint8)
    out = annotate(image, [die(5), die(2, Zone.KEEP, confidence=0.3)])
    assert out.shape == (480, 640, 3)
    assert out[50:80, 50:80].any()  # the first box, scaled by a half


def test_photos_stay_within_the_budget_oldest_games_first(tmp_path):
    photos = RollPhotos(tmp_path / "p", budget_mb=0.4)
    for game in (1, 2, 3):
        for seq in range(2, 8):
            photos.save(game, seq, frame(seq), [die()])
    photos.wait()
    assert len(photos.of_game(3)) == 6  # the game in play keeps every photo
    in_play = sum(p.stat().st_size for _, p in photos.of_game(3))
    total = sum(p.stat().st_size for p in (tmp_path / "p").rglob("*.jpg"))
    assert total - in_play <= 0.4e6 < total  # the rest within the budget
    assert not photos.of_game(1)  # the oldest game went first
    assert not list((tmp_path / "p").glob("*/*.tmp"))


def test_no_budget_no_photos(tmp_path):
    photos = RollPhotos(tmp_path / "p", budget_mb=0)
    photos.save(1, 2, frame(), [die()])
    photos.wait()
    assert not (tmp_path / "p").exists()


def test_games_show_exports_the_photos(tmp_path):
    db = tmp_path / "games.sqlite3"
    replay = subprocess.run(
        [
            sys.executable,
            "-m",
            "zonkcam",
            "play",
            "--text",
            "--db",
            str(db),
            "--rules",
            "classic-10000",
            "--players",
            "Ann",
            "Bob",
        ],
        input="12345\nquit\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert replay.returncode == 0, replay.stderr
    photos = RollPhotos(photo_folder(db))
    photos.save(1, 2, frame(), [die()])
    photos.wait()
    out = tmp_path / "out"
    shown = subprocess.run(
        [
            sys.executable,
            "-m",
            "zonkcam",
            "games",
            "--db",
            str(db),
            "show",
            "1",
            "--photos",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert shown.returncode == 0, shown.stderr
    assert "1 roll photo of game 1 copied" in shown.stdout
    assert [p.name for p in out.iterdir()] == ["game-0001-roll-00002.jpg"]


def test_watch_annotates_its_frames_with_the_dice_drawn_as_on_the_roll_photos(tmp_path):
    """One way to draw dice on a frame: `watch --annotate` draws each die's box in the
    roll photos' colour for its zone (over the mat's zones it draws first)."""
    import cv2

    from zonkcam.commands.watch import _annotate
    from zonkcam.mat.calibrate import calibrate
    from zonkcam.sim.demo_table import DemoTable
    from zonkcam.table.observe import TableEvent, TableReport

    table = DemoTable(seed=2, autoplay=False, size=(640, 480))
    image = table.read().image
    cal = calibrate(image, table.geometry)
    kept = TableDie(Reading(Die(2, "red"), 0.95, (300, 300, 360, 360)), (80.0, 80.0), Zone.KEEP)
    dice = (die(5), kept)
    _annotate(tmp_path, image, cal, TableReport(TableEvent.SETTLED, 7, 0.2, dice=dice))
    watched = cv2.imread(str(next(tmp_path.glob("frame-000007-*.png"))))
    photo = annotate(image, dice)
    for y, x in ((130, 100), (330, 300)):  # the left side of each box, below its label
        assert (watched[y, x] == photo[y, x]).all() and photo[y, x].any(), (y, x)
    assert tuple(photo[130, 100]) != tuple(photo[330, 300])  # each zone in its colour
