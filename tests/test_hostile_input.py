"""Hostile input: each ends in a result or one line, never a traceback or unbounded memory."""

from __future__ import annotations

import io
import json
import sqlite3
import struct
import zlib

import cv2
import numpy as np
import pytest

from zonkcam.cli import main
from zonkcam.game import actions as A
from zonkcam.game.errors import PlayerError, RulesError
from zonkcam.game.rules import PRESETS, load_rules, rules_to_toml
from zonkcam.record.logged_game import LoggedGame
from zonkcam.record.store import EventLog
from zonkcam.vision.imageio import ImageFileError, load_image, load_image_scaled

LONG_DIE = "9" * 5000


def one_line(capsys, *argv: str, code: int = 2) -> str:
    assert main(list(argv)) == code
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    return err


# -- dice and JSON ---------------------------------------------------------------------------


def test_a_five_thousand_digit_die(tmp_path, capsys, monkeypatch):
    assert "cannot read '99999" in one_line(capsys, "score", "1", "2", LONG_DIE)
    replay = tmp_path / "game.jsonl"
    replay.write_text('{"players": ["Ann"]}\n{"roll": [' + LONG_DIE + ", 1, 2, 3, 4]}\n")
    assert "line 2: not JSON zonkcam can read" in one_line(capsys, "replay", str(replay))
    replay.write_text('{"players": ["Ann"]}\n{"roll": ["' + LONG_DIE + '", 1, 2, 3, 4]}\n')
    assert "line 2: cannot read '9999" in one_line(capsys, "replay", str(replay))
    monkeypatch.setattr(
        "sys.stdin", io.StringIO(f"roll {LONG_DIE} 1 2 3 4\n{LONG_DIE}\n#{LONG_DIE}\n12346\nquit\n")
    )
    assert main(["play", "--text", "--db", str(tmp_path / "g.db"), "--players", "Ann"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n! ") == 3 and "Ann rolls 1 2 3 4 6" in out  # the session went on


def test_deeply_nested_json(tmp_path, capsys):
    deep = "[" * 30_000 + "]" * 30_000
    replay = tmp_path / "game.jsonl"
    replay.write_text('{"players": ["Ann"]}\n' + deep + "\n")
    assert "line 2: not JSON zonkcam can read (nested too deeply)" in one_line(
        capsys, "replay", str(replay)
    )
    from zonkcam.mat.calibrate import CalibrationError, load_calibration

    calibration = tmp_path / "calibration.json"
    deep = "[" * 3000 + "]" * 3000  # deeper holds more values than a calibration may
    calibration.write_text('{"format": "zonkcam-calibration-1", "homography": ' + deep + "}")
    with pytest.raises(CalibrationError, match="is damaged .nested too deeply."):
        load_calibration(calibration)


def test_a_replay_line_too_long_or_not_utf8(tmp_path, capsys):
    replay = tmp_path / "game.jsonl"
    replay.write_text('{"players": ["' + "A" * 100_000 + '"]}\n')
    assert "line 1: longer than 65536 bytes" in one_line(capsys, "replay", str(replay))
    replay.write_bytes(b'{"players": ["Ann"]}\n{"join": "\xff"}\n')
    assert "line 2: not UTF-8 text" in one_line(capsys, "replay", str(replay))


@pytest.mark.parametrize(
    ("obj", "message"),
    [
        ({"roll": [1, 2], "seen": ["red"]}, "'seen' names 1 colour for 2 dice"),
        ({"roll": [1], "seen": ["tartan"]}, "unknown die colour 'tartan' in 'seen'"),
        ({"roll": [1], "seen": "red"}, "'seen' must be a list of colour names"),
        ({"roll": [1], "seen": [7]}, "unknown die colour 7 in 'seen'"),
    ],
)
def test_a_roll_with_bad_colours_read_is_one_line(obj, message):
    with pytest.raises(A.ActionFormatError, match=message):
        A.action_from_json(obj)


def test_action_errors_quote_hostile_values_short():
    with pytest.raises(A.ActionFormatError) as info:
        A.action_from_json([1] * 10_000)
    assert len(str(info.value)) < 200


# -- rules files -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("toml", "message"),
    [
        ('base = ["chicago"]', "base must be one of classic-10000"),
        (
            'base = "classic-10000"\n[points]\nstraights = [{faces = "12345", points = -1000}]',
            "straight 1-2-3-4-5 must score 1 to 1,000,000,000 points, not -1000",
        ),
        (
            'base = "classic-10000"\n[points]\nstraights = [{faces = "12345", points = 1000}, '
            '{faces = "54321", points = 500}]',
            "straight 5-4-3-2-1 is listed twice",
        ),
        ('[points]\nstraights = [{faces = "²", points = 10}]', "straights must be a list"),
        ("target = " + "9" * 5000, "not TOML zonkcam can read"),
        ("target = 99999999999999", "target must be a whole number from 0 to 1,000,000,000"),
        ("x = " + "[" * 5000 + "]" * 5000, "not TOML zonkcam can read (nested too deeply)"),
        ('name = "Our\\ntable"', "the table's name 'Our\\ntable' has an unprintable character"),
        ('name = "a\\u0000b"', "unprintable character"),
        ('name = "\\u001b[2J"', "unprintable character"),
    ],
)
def test_hostile_rules_files_are_one_line(tmp_path, capsys, toml, message):
    path = tmp_path / "ours.toml"
    path.write_text(toml + "\n")
    with pytest.raises(RulesError) as info:
        load_rules(str(path))
    assert message in str(info.value)
    assert message in one_line(capsys, "rules", "check", str(path))


def test_a_huge_rules_file(tmp_path):
    path = tmp_path / "big.toml"
    path.write_text("# " + "x" * 2_000_000 + "\n")
    with pytest.raises(RulesError, match="over 1,000,000 bytes"):
        load_rules(str(path))


# -- names that reach the terminal ---------------------------------------------------------------

ESC_NAME = "Eve\x1b[2J\x1b[31m"


def test_unprintable_names_are_refused_where_they_enter(tmp_path, capsys):
    assert "has an unprintable character" in one_line(
        capsys, "play", "--text", "--db", str(tmp_path / "g.db"), "--players", "Ann", ESC_NAME
    )
    with EventLog(tmp_path / "g.db") as log:
        assert log.games() == []
        for bad in ("a\nb", "a\x00b", "\u202eevil", "x" * 41):
            with pytest.raises(PlayerError, match="unprintable|longer than 40"):
                LoggedGame.new(log, PRESETS["chicago"], [A.Players(("Ann", bad))])
            keeper = LoggedGame.new(log, PRESETS["chicago"], [A.Players(("Ann", "Bob"))])
            with pytest.raises(PlayerError, match="unprintable|longer than 40"):
                keeper.play(A.Join(bad))
        assert len(log.games()) == 4 and all(len(log.actions(g.id)) == 1 for g in log.games())


def _first_release_game(db, table_name: str, players: list[str]) -> None:
    """A game as the first release stored it: names unchecked, the table name unescaped."""
    import dataclasses

    with EventLog(db):
        pass  # the current layout; the rows below are what the first release wrote
    rules = dataclasses.replace(PRESETS["chicago"], name="ok")
    toml = rules_to_toml(rules).replace('name = "ok"', f'name = "{table_name}"')
    with sqlite3.connect(db) as con:
        con.execute(
            "INSERT INTO games (id, created, rules_name, rules_toml, finished) "
            "VALUES (1, 1.7e9, ?, ?, 0)",
            (table_name, toml),
        )
        for seq, obj in enumerate(
            [{"players": players}, {"roll": [1, 2, 3, 4, 6]}, {"keep": [1]}], start=1
        ):
            con.execute("INSERT INTO events VALUES (1, ?, 1.7e9, ?)", (seq, json.dumps(obj)))


def test_a_stored_game_with_escapes_in_its_names_is_shown_escaped_and_plays_on(
    tmp_path, capsys, monkeypatch
):
    db = tmp_path / "g.db"
    _first_release_game(db, "Our\ntable\x1b[5m", [ESC_NAME, "Bob"])
    assert main(["games", "--db", str(db), "list"]) == 0
    assert main(["games", "--db", str(db), "show", "1"]) == 0
    assert main(["games", "--db", str(db), "export", "1"]) == 0
    monkeypatch.setattr("sys.stdin", io.StringIO("b\nlog\nquit\n"))
    assert main(["play", "--text", "--db", str(db), "--resume", "1"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out.replace("\\u001b", "")  # JSON export escapes it as \u001b
    assert "Eve\\x1b[2J\\x1b[31m" in out and "Our\\ntable\\x1b[5m" in out
    assert "Eve\\x1b[2J\\x1b[31m banks 100" in out


# -- images --------------------------------------------------------------------------------------


def _png(width: int, height: int) -> bytes:
    """A PNG header claiming width x height, with one row of data."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (
            struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
        )

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", zlib.compress(b"\x00" * (1 + 3 * min(width, 4096))))
        + chunk(b"IEND", b"")
    )


def test_a_small_png_of_16000_by_16000_is_refused_before_decoding(tmp_path, capsys):
    path = tmp_path / "bomb.png"
    path.write_bytes(_png(16000, 16000))
    assert path.stat().st_size < 300_000
    for load in (load_image, lambda p: load_image_scaled(p)[0]):
        with pytest.raises(
            ImageFileError,
            match="a PNG of 16000x16000 .256 MP. would take about 1,526 MB to read, over the 250",
        ):
            load(path)


GIF_1X1 = (
    b"GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01\x00\x00\x00"
    b"\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;"
)
"""A whole one-pixel GIF, written by hand: OpenCV below 4.12 has no GIF encoder."""


def _with_size(ext: str, width: int, height: int) -> bytes:
    """A real file of the format, its header changed to claim width x height."""
    img = np.zeros((20, 30, 3), np.uint8)
    data = bytearray(GIF_1X1 if ext == ".gif" else cv2.imencode(ext, img)[1].tobytes())
    if ext == ".png":
        data[16:24] = struct.pack(">II", width, height)
    elif ext == ".bmp":
        data[18:26] = struct.pack("<ii", width, height)
    elif ext == ".gif":
        data[6:10] = struct.pack("<HH", width, height)
    elif ext == ".ppm":
        data = bytearray(f"P6\n{width} {height}\n255\n".encode()) + data[data.index(b"255\n") + 4 :]
    elif ext == ".jpg":
        at = next(i for i in range(2, len(data)) if data[i] == 0xFF and data[i + 1] == 0xC0)
        data[at + 5 : at + 9] = struct.pack(">HH", height, width)
    elif ext == ".webp":
        data[12:16] = b"VP8X"
        data[24:30] = (width - 1).to_bytes(3, "little") + (height - 1).to_bytes(3, "little")
    elif ext == ".tif":
        order = "<"
        (ifd,) = struct.unpack(order + "I", data[4:8])
        (count,) = struct.unpack(order + "H", data[ifd : ifd + 2])
        for k in range(count):
            at = ifd + 2 + 12 * k
            tag, kind = struct.unpack(order + "HH", data[at : at + 4])
            if tag in (256, 257):
                value = width if tag == 256 else height
                data[at + 2 : at + 12] = struct.pack(order + "HII", 4, 1, value)
    return bytes(data)


@pytest.mark.parametrize(
    ("ext", "width", "height"),
    [
        (".png", 16000, 16000),
        (".bmp", 9000, 9000),
        (".gif", 65535, 65535),
        (".ppm", 100000, 100000),
        (".jpg", 65500, 65500),
        (".webp", 16383, 16383),
        (".tif", 30000, 30000),
    ],
)
def test_every_format_is_sized_before_it_is_decoded(tmp_path, ext, width, height):
    path = tmp_path / f"big{ext}"
    path.write_bytes(_with_size(ext, width, height))
    with pytest.raises(
        ImageFileError,
        match=f"of {width}x{height} .* would take about .* MB to read, over the 250 MB",
    ):
        load_image(path)


def test_formats_whose_size_is_not_read_are_refused(tmp_path):
    path = tmp_path / "a.hdr"
    path.write_bytes(cv2.imencode(".hdr", np.zeros((20, 30, 3), np.float32))[1].tobytes())
    with pytest.raises(ImageFileError, match="not an image zonkcam reads .a JPEG, PNG"):
        load_image(path)


def test_a_symlink_loop_is_not_called_missing(tmp_path):
    loop = tmp_path / "loop.jpg"
    loop.symlink_to(tmp_path / "loop.jpg")
    with pytest.raises(ImageFileError, match="a loop of symbolic links"):
        load_image(loop)


def test_read_exits_1_when_no_image_could_be_read(tmp_path, capsys):
    (tmp_path / "a.jpg").write_bytes(b"not a picture")
    assert main(["read", str(tmp_path / "a.jpg"), str(tmp_path / "missing.png")]) == 1
    captured = capsys.readouterr()
    assert "2 of 2 images could not be read" in captured.err
    assert "missing.png: error: no such file" in captured.out


def test_calibration_with_a_huge_reference_image(tmp_path):
    import base64

    from zonkcam.mat.calibrate import CalibrationError, load_calibration
    from zonkcam.mat.layout import load_geometry

    path = tmp_path / "calibration.json"
    path.write_text(
        json.dumps(
            {
                "format": "zonkcam-calibration-1",
                "image_size": [640, 480],
                "homography": [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
                "marker_corners": {},
                "reprojection_px": 0.1,
                "edge_width_px": 1.0,
                "geometry": load_geometry().to_dict(),
                "reference_png": base64.b64encode(_png(16000, 16000)).decode(),
            }
        )
    )
    with pytest.raises(
        CalibrationError,
        match="its reference image is 16000x16000, not the mat's 420x297 px",
    ):
        load_calibration(path)


# -- pipes where files were expected, and FFmpeg's own words ---------------------------------


def _fifo(tmp_path, name: str):
    import os

    path = tmp_path / name
    os.mkfifo(path)
    return path


@pytest.mark.parametrize(
    ("argv", "wanted"),
    [
        (["rules", "check", "{p}"], "cannot read rules file {p}: not a regular file"),
        (["mat", "--geometry", "{p}", "--out", "{d}/m"], "cannot read mat geometry {p}: not a"),
        (["play", "--text", "--rules", "{p}", "--players", "Ann"], "not a regular file"),
        (["watch", "--source", "demo", "--calibration", "{p}"], "not a regular file"),
    ],
)
def test_a_pipe_where_a_file_belongs_is_refused_at_once(tmp_path, capsys, argv, wanted):
    """Nothing ever writes to these pipes: opened as files they would wait forever."""
    fifo = _fifo(tmp_path, "f.toml")
    fill = {"p": str(fifo), "d": str(tmp_path)}
    assert main([a.format(**fill) for a in argv]) == 2
    err = capsys.readouterr().err.splitlines()
    assert wanted.format(**fill) in err[-1]
    assert len(err) == 1 or err[0] == "zonkcam watch: reading demo table"


def test_an_image_that_is_a_pipe_is_an_error_line_and_the_batch_goes_on(tmp_path, capsys):
    fifo = _fifo(tmp_path, "f.jpg")
    good = tmp_path / "g.png"
    cv2.imwrite(str(good), np.full((64, 64, 3), 90, np.uint8))
    assert main(["read", "--json", str(fifo), str(good)]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert rows[0]["error"] == "cannot read: not a regular file (a pipe or a device)"
    assert rows[1]["dice"] == []


def test_a_replay_pipe_is_read_and_a_silent_one_given_up(tmp_path, capsys, monkeypatch):
    import threading

    from zonkcam import fileio

    fifo = _fifo(tmp_path, "game.jsonl")

    def write() -> None:
        with open(fifo, "w") as f:
            f.write('{"players": ["Ann", "Bob"]}\n{"roll": [1, 1, 1, 2, 3]}\n')

    writer = threading.Thread(target=write)
    writer.start()
    assert main(["replay", str(fifo)]) == 0  # as `zonkcam replay <(...)`
    writer.join()
    assert json.loads(capsys.readouterr().out)["log"][-1] == "Ann rolls 1 1 1 2 3"
    monkeypatch.setattr(fileio, "PIPE_WAIT_S", 0.2)
    err = one_line(capsys, "replay", str(fifo))
    assert "nothing came through the pipe in 0.2 s" in err


def test_a_file_that_is_no_video_is_one_line_without_ffmpegs_own(tmp_path):
    import subprocess
    import sys

    bad = tmp_path / "table.mp4"
    bad.write_bytes(b"not a video at all" * 10)
    proc = subprocess.run(
        [sys.executable, "-m", "zonkcam", "watch", "--source", str(bad)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2
    assert proc.stderr == f"zonkcam watch: cannot open video {bad}\n"  # no "moov atom" line
