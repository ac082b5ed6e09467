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
from zonkcam.game import PRESETS, RulesError, load_rules
from zonkcam.game import actions as A
from zonkcam.game.errors import PlayerError
from zonkcam.game.rules import rules_to_toml
from zonkcam.record.logged_game import LoggedGame
from zonkcam.record.store import EventLog
from zonkcam.vision import ImageFileError, load_image
from zonkcam.vision.imageio import load_image_scaled

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
            logged = LoggedGame.new(log, PRESETS["chicago"], [A.Players(("Ann", "Bob"))])
            with pytest.raises(PlayerError, match="unprintable|longer than 40"):
                logged.play(A.Join(bad))
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
            match="a PNG of 16000x16000 .256 MP. would take about 1,526 MB to read, over the "
            r"\d+ MB left of the 250 MB zonkcam allows itself",
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
        match=f"of {width}x{height} .* would take about .* MB to read, over the .* of the 250 MB",
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


def _calibration_file(path, **change) -> None:
    """A usable calibration (an A3 mat seen from straight above), with `change` made."""
    from zonkcam.mat.layout import load_geometry

    data = {
        "format": "zonkcam-calibration-1",
        "created": 1.0,
        "image_size": [640, 480],
        "homography": [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
        "marker_corners": {"0": [[8, 8], [48, 8], [48, 48], [8, 48]]},
        "reprojection_px": 0.1,
        "edge_width_px": 1.0,
        "geometry": load_geometry().to_dict(),
        "reference_png": None,
    }
    path.write_text(json.dumps(data | change))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            {"homography": [[True, False, False], [False, True, False], [False, False, True]]},
            "(homography must be 3 rows of 3 numbers)",
        ),
        ({"homography": [[1, 0, 0], [0, 1, 0], [0, 0, 10**400]]}, "(its homography is not a val"),
        (
            {"marker_corners": [[8, 8]]},
            "(marker_corners must be a table of at most 4 marker ids, each with 4 [x, y] corners)",
        ),
        ({"marker_corners": {"top": [[8, 8]] * 4}}, "marker_corners: 'top' is not a marker id"),
        ({"marker_corners": {"0": [[8, 8]] * 4 + [[9, 9]]}}, "marker 0's corners must be 4"),
        ({"junk": [[]] * 100}, "(unknown key 'junk'; allowed: format, created, image_size"),
        ({"homography": None} | {"format": "zonkcam-calibration-1"}, "homography must be 3"),
        ({"reference_png": "not base64!"}, "reference_png must be a PNG image in base64"),
        ({"reference_png": 7}, "reference_png must be a PNG image in base64"),
    ],
)
def test_a_calibration_file_is_held_to_its_schema(tmp_path, capsys, change, message):
    """Wrong types are refused in the file's own words, never Python's ("'list' object
    has no attribute 'items'"), and nothing it does not know is accepted."""
    from zonkcam.mat.calibrate import CalibrationError, load_calibration

    path = tmp_path / "calibration.json"
    _calibration_file(path)
    assert load_calibration(path).image_size == (640, 480)  # the file as made is usable
    _calibration_file(path, **change)
    with pytest.raises(CalibrationError) as info:
        load_calibration(path)
    assert message in str(info.value) and "\n" not in str(info.value)
    assert main(["watch", "--source", "demo", "--calibration", str(path)]) == 2
    assert message in capsys.readouterr().err.splitlines()[-1]


def test_a_calibration_missing_a_key_says_which(tmp_path):
    from zonkcam.mat.calibrate import CalibrationError, load_calibration

    path = tmp_path / "calibration.json"
    _calibration_file(path)
    data = json.loads(path.read_text())
    del data["homography"]
    path.write_text(json.dumps(data))
    with pytest.raises(CalibrationError, match=r"is not usable \(it has no homography\)"):
        load_calibration(path)


@pytest.mark.parametrize(
    "change",
    [
        {"junk": [[]] * 100_000},  # 300 KB of lists: tens of MB parsed
        {"marker_corners": {str(k): [[8, 8]] * 4 for k in range(20_000)}},
    ],
)
def test_a_calibration_with_more_values_than_one_has_is_refused_unparsed(
    tmp_path, monkeypatch, change
):
    import zonkcam.mat.calibrate as calibrate

    path = tmp_path / "calibration.json"
    _calibration_file(path, **change)
    monkeypatch.setattr(calibrate.json, "loads", None)  # never reached
    with pytest.raises(calibrate.CalibrationError, match="over the 4,096 a calibration may have"):
        calibrate.load_calibration(path)


def test_a_calibration_reference_image_is_a_png_of_the_mats_size_before_it_is_decoded(
    tmp_path, monkeypatch
):
    """A reference image in any other format (a JPEG can carry a header that lies) or
    of any other size is refused from its first bytes; a PNG of the mat's size is decoded
    within that many pixels."""
    import base64

    import zonkcam.vision.imageio as imageio
    from zonkcam.mat.calibrate import CalibrationError, load_calibration

    path = tmp_path / "calibration.json"
    mat = np.full((297, 420, 3), 90, np.uint8)
    for ext, wanted in ((".jpg", "its reference image is not a PNG"), (".bmp", "not a PNG")):
        data = base64.b64encode(cv2.imencode(ext, mat)[1].tobytes()).decode()
        _calibration_file(path, reference_png=data)
        with pytest.raises(CalibrationError, match=wanted):
            load_calibration(path)
    data = base64.b64encode(cv2.imencode(".png", mat[:100])[1].tobytes()).decode()
    _calibration_file(path, reference_png=data)
    with pytest.raises(CalibrationError, match="reference image is 420x100, not the mat's 420x297"):
        load_calibration(path)
    asked = []
    decode = imageio.decode_image
    monkeypatch.setattr(
        imageio, "decode_image", lambda data, max_pixels: asked.append(max_pixels) or decode(data)
    )
    data = base64.b64encode(cv2.imencode(".png", mat)[1].tobytes()).decode()
    _calibration_file(path, reference_png=data)
    assert load_calibration(path).reference.shape == (297, 420, 3)
    assert asked == [420 * 297]


def test_a_calibration_file_over_its_size_is_refused_unread(tmp_path):
    from zonkcam.mat.calibrate import MAX_CALIBRATION_BYTES, CalibrationError, load_calibration

    path = tmp_path / "calibration.json"
    _calibration_file(path, reference_png="A" * MAX_CALIBRATION_BYTES)
    with pytest.raises(CalibrationError, match="is over 20 MB"):
        load_calibration(path)


# -- geometry files ----------------------------------------------------------------------------


def _a3_toml() -> str:
    from zonkcam.data import LAYOUTS

    return (LAYOUTS / "a3.toml").read_text()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("x = " + "[" * 30_000 + "]" * 30_000, "is not TOML zonkcam can read (nested too deeply)"),
        ("x = " + "{a = " * 10_000 + "1" + "}" * 10_000, "not TOML zonkcam can read (nested too"),
        ("width_mm = 1" + "0" * 5000, "is not TOML zonkcam can read (Exceeds the limit"),
        (_a3_toml() + "# " + "x" * 70_000, "is over 64 KB; a mat's geometry is a few dozen lines"),
        (
            _a3_toml().replace("size_mm = 40\n", "size_mm = 40\nsizes = [40, 40]\n"),
            "unknown key 'sizes' in markers; allowed: dictionary, ids, positions, size_mm",
        ),
        (
            _a3_toml().replace('label = "LEFT"', 'label = "LEFT"\ncolour = "red"'),
            "unknown key 'colour' in board_images[0]; allowed: center, label, size_mm",
        ),
        (
            _a3_toml().replace("rect = [56, 8, 308, 205]", "rect = [56, 8, 308, 205]\nz = 1"),
            "unknown key 'z' in rolling_area; allowed: rect",
        ),
    ],
)
def test_hostile_geometry_files_are_one_line(tmp_path, capsys, text, message):
    """`calibrate --geometry` and `mat --geometry`: nesting (RecursionError inside
    tomllib), numbers too long, files too large, keys it does not know."""
    path = tmp_path / "mat.toml"
    path.write_text(text + "\n")
    for argv in (
        ["mat", "--geometry", str(path), "--out", str(tmp_path / "printed")],
        ["calibrate", "--geometry", str(path), "--image", str(tmp_path / "none.png")],
    ):
        assert message in one_line(capsys, *argv)
    assert not list(tmp_path.glob("printed*"))


def test_a_rules_file_nested_100000_deep_is_one_line(tmp_path, capsys):
    path = tmp_path / "ours.toml"
    path.write_text("x = " + "[" * 100_000 + "]" * 100_000 + "\n")
    assert "not TOML zonkcam can read (nested too deeply)" in one_line(
        capsys, "rules", "check", str(path)
    )
    assert "nested too deeply" in one_line(
        capsys, "play", "--text", "--rules", str(path), "--players", "Ann"
    )


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


def test_calibrate_image_is_bounded_and_refuses_a_pipe_at_once(tmp_path, capsys):
    import os
    import time

    small = cv2.imencode(".jpg", np.zeros((48, 64), np.uint8), [cv2.IMWRITE_JPEG_PROGRESSIVE, 1])
    data = bytearray(small[1].tobytes())
    at = next(i for i in range(2, len(data)) if data[i] == 0xFF and data[i + 1] == 0xC2)
    data[at + 5 : at + 9] = struct.pack(">HH", 40000, 40000)
    bomb = tmp_path / "bomb.jpg"
    bomb.write_bytes(bytes(data))
    out = str(tmp_path / "cal.json")
    err = one_line(capsys, "calibrate", "--image", str(bomb), "--out", out)
    assert "a progressive JPEG of 40000x40000" in err
    fifo = tmp_path / "mat.jpg"
    os.mkfifo(fifo)
    t0 = time.monotonic()
    err = one_line(capsys, "calibrate", "--image", str(fifo), "--out", out)
    assert "not a regular file" in err and time.monotonic() - t0 < 5
    assert not (tmp_path / "cal.json").exists()


@pytest.mark.parametrize("kind", ["fifo", "/dev/zero", "/dev/null"])
def test_a_pipe_or_a_device_is_refused_before_it_is_opened(tmp_path, monkeypatch, kind):
    """Opening a device can itself do something (a tape rewinds, a modem hangs up): a
    FIFO, a device or a symlink to one is refused from its stat, never opened."""
    import os

    from zonkcam import fileio

    path = tmp_path / "calibration.json"
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to(kind)
    opened = []
    real_open = os.open
    monkeypatch.setattr(fileio.os, "open", lambda p, *a: opened.append(p) or real_open(p, *a))
    with pytest.raises(OSError, match="not a regular file .a pipe or a device."):
        fileio.open_to_read(path)
    assert opened == []
    regular = tmp_path / "rules.toml"
    regular.write_text("target = 5000\n")
    with fileio.open_to_read(regular) as f:
        assert f.read() == b"target = 5000\n"
    assert opened == [regular]


@pytest.mark.slow
def test_reading_any_crafted_file_stays_within_250_mb():
    """Calibration, geometry, rules and taught-dice files, honest and crafted
    (tests/tools/file_memory.py, each read in a fresh process): the honest ones read, every
    crafted one refused in one line, none a traceback, a hang or over 250 MB of peak
    memory for the whole process."""
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).parent / "tools" / "file_memory.py"
    proc = subprocess.run(
        [sys.executable, str(script), "--json"], capture_output=True, text=True, timeout=900
    )
    assert proc.returncode == 0, proc.stderr
    rows = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(rows) == 23
    for row in rows:
        assert row["mb_peak"] <= 250, row
        honest = "honest" in row["file"]
        assert row["answer"].startswith("read" if honest else "refused: "), row
