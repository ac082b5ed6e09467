"""Fuzzing the places hostile input comes in: the replay parser, the TOML loader, the
calibration loader, the text-mode command line and the image decoder. Every input ends
in a result or the module's own one-line error, never another exception."""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
import tomllib

import cv2
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from zonkcam.app.text import TextPlay
from zonkcam.app.text_grammar import parse_line
from zonkcam.cli import main
from zonkcam.errors import UserError
from zonkcam.game import PRESETS, Game, RulesError, TableError, load_rules
from zonkcam.game import actions as A
from zonkcam.game.rules import rules_from_dict, rules_to_toml, toml_string
from zonkcam.mat.calibrate import CalibrationError, load_calibration
from zonkcam.vision import ImageFileError, opencv
from zonkcam.vision.imageio import MAX_DECODE_PIXELS, decode_image

pytestmark = (
    pytest.mark.slow
)  # generated hostile inputs by the thousand: `make check` leaves them out


FUZZ = settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.function_scoped_fixture,
        HealthCheck.data_too_large,
    ],
)

KEYS = [
    "players",
    "roll",
    "keep",
    "bank",
    "reroll",
    "pass",
    "go_for_1000",
    "piggyback",
    "penalty",
    "land",
    "join",
    "leave",
    "zonk_name",
    "player",
    "by",
    "undo",
    "value",
    "color",
    "colour",
]
scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(10**20), 10**20)
    | st.sampled_from([0, 1, 5, 6, 7, 10**4000, -1, 2**63])
    | st.floats(allow_nan=True)
    | st.text(max_size=12)
    | st.sampled_from(["1", "5w", "2r", "9" * 50, "spaced", "left", "choose", "Ann", ""])
)
json_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=7)
        | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=25,
)


@FUZZ
@given(obj=json_values)
def test_any_json_is_an_action_or_a_table_error(obj):
    try:
        action = A.action_from_json(obj)
    except TableError as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 400
        return
    assert A.action_from_json(A.action_to_json(action)) == action
    game = Game(PRESETS["chicago"], [A.Players(("Ann", "Bob"))])
    try:
        game.play(action)
    except TableError:
        pass


@FUZZ
@given(
    lines=st.lists(
        st.one_of(
            json_values.map(json.dumps),
            st.binary(max_size=40).map(lambda b: b.decode("latin-1")),
            st.sampled_from(
                ['{"players": ["Ann", "Bob"]}', '{"roll": [1, 2, 3, 4, 6]}', "[" * 3000]
            ),
        ),
        max_size=8,
    )
)
def test_any_replay_file_ends_in_a_result_or_one_line(tmp_path, capsys, lines):
    path = tmp_path / "game.jsonl"
    path.write_bytes("\n".join(lines).encode("utf-8", "surrogateescape"))
    code = main(["replay", "--rules", "chicago", str(path)])
    out, err = capsys.readouterr()
    assert code in (0, 2)
    if code == 0:
        json.loads(out)
    else:
        assert len(err.strip().splitlines()) == 1 and err.startswith("zonkcam replay: ")


toml_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**12), 10**12)
    | st.floats(allow_nan=False)
    | st.text(max_size=10)
    | st.sampled_from(
        ["classic-10000", "chicago", "12345", "123456", "final-round", "turns", "bees", "must"]
    ),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                [
                    "faces",
                    "points",
                    "name",
                    "dice",
                    "target",
                    "end",
                    "turns",
                    "base",
                    "straights",
                    "extra_die",
                    "winner_by",
                    "bees",
                    "hot_dice",
                    "penalties",
                    "rule_first_to",
                    "zonk_names",
                ]
            )
            | st.text(max_size=5),
            inner,
            max_size=4,
        )
    ),
    max_leaves=20,
)
tables = st.dictionaries(
    st.sampled_from(
        [
            "base",
            "name",
            "dice",
            "target",
            "end",
            "turns",
            "winner_by",
            "entry_minimum",
            "hot_dice",
            "bees",
            "newbie",
            "frames",
            "go_for_1000",
            "straight_completion",
            "carry_over_extras",
            "points",
            "drinking",
        ]
    ),
    toml_values,
    max_size=6,
)


@FUZZ
@given(data=tables)
def test_any_rules_table_is_rules_or_a_rules_error(data):
    try:
        rules = rules_from_dict(data)
    except RulesError as exc:
        assert "\n" not in str(exc)
        return
    again = rules_from_dict(tomllib.loads(rules_to_toml(rules)))
    assert again == rules


def toml_text(value) -> str:
    """``value`` written as TOML (floats and None as the nearest thing TOML has)."""
    if value is None or isinstance(value, float):
        return "nan" if value is None or value != value else repr(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_text(v) for v in value) + "]"
    return "{" + ", ".join(f"{toml_string(k)} = {toml_text(v)}" for k, v in value.items()) + "}"


rules_texts = st.one_of(
    tables.map(lambda t: "".join(f"{toml_string(k)} = {toml_text(v)}\n" for k, v in t.items())),
    st.text(max_size=200),
    st.sampled_from(
        [
            "target = " + "9" * 5000,
            "x = " + "[" * 3000 + "]" * 3000,
            'base = ["chicago"]',
            "[points]\nstraights = [{faces = '\u00b2', points = 1}]",
            'name = "a\\u0000b"',
            "dice = 1e400",
        ]
    ),
)


@FUZZ
@given(text=rules_texts)
def test_any_rules_file_is_rules_or_a_rules_error(tmp_path, text):
    path = tmp_path / "ours.toml"
    path.write_text(text, encoding="utf-8")
    try:
        rules = load_rules(str(path))
    except RulesError as exc:
        assert "\n" not in str(exc)
        return
    assert tomllib.loads(rules_to_toml(rules))


@FUZZ
@given(text=st.text())
def test_any_text_is_a_valid_toml_string(text):
    expected = "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in text)
    assert tomllib.loads("k = " + toml_string(text))["k"] == expected


def _calibration() -> dict:
    from zonkcam.mat.layout import load_geometry

    return {
        "format": "zonkcam-calibration-1",
        "created": 1.0,
        "image_size": [640, 480],
        "homography": [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
        "marker_corners": {"0": [[0, 0], [1, 0], [1, 1], [0, 1]]},
        "reprojection_px": 0.2,
        "edge_width_px": 1.5,
        "geometry": load_geometry().to_dict(),
        "reference_png": None,
    }


def _poke(data: dict, path: list, value) -> dict:
    node = data
    for key in path[:-1]:
        node = node[key] if isinstance(node, dict) and key in node else node
        if not isinstance(node, dict):
            return data
    if isinstance(node, dict):
        node[path[-1]] = value
    return data


@FUZZ
@given(
    path=st.lists(
        st.sampled_from(
            [
                "format",
                "image_size",
                "homography",
                "marker_corners",
                "reprojection_px",
                "edge_width_px",
                "geometry",
                "reference_png",
                "markers",
                "ids",
                "positions",
                "rolling_area",
                "rect",
                "board_images",
                "width_mm",
                "dictionary",
                "size_mm",
            ]
        ),
        min_size=1,
        max_size=3,
    ),
    value=json_values
    | st.sampled_from(
        [
            base64.b64encode(b"\x89PNG\r\n\x1a\n").decode(),
            "!!!",
            "DICT_4X4_50",
            "__class__",
            [[1e308, 0, 0], [0, 1e308, 0], [0, 0, 1]],
        ]
    ),
)
def test_any_calibration_file_is_a_calibration_or_one_line(tmp_path, path, value):
    file = tmp_path / "calibration.json"
    file.write_text(json.dumps(_poke(_calibration(), path, value)))
    try:
        load_calibration(file)
    except (CalibrationError, UserError) as exc:
        assert "\n" not in str(exc)


@FUZZ
@given(
    raw=st.binary(max_size=200)
    | st.sampled_from(
        [
            b"[" * 5000,
            b'{"format": "zonkcam-calibration-1", "image_size": ' + b"9" * 5000 + b"}",
            b'{"format": "zonkcam-calibration-1", "homography": ' + b"[" * 3000 + b"}",
            b"[]",
            b'"zonkcam-calibration-1"',
            b"\xff\xfe",
        ]
    )
)
def test_any_calibration_bytes_are_one_line(tmp_path, raw):
    file = tmp_path / "calibration.json"
    file.write_bytes(raw)
    try:
        load_calibration(file)
    except CalibrationError as exc:
        assert "\n" not in str(exc)


typed_lines = st.one_of(
    st.text(max_size=40),
    st.sampled_from(
        [
            "12466",
            "b",
            "u",
            "keeps",
            "board",
            "log",
            "help",
            "#1",
            "#99",
            "roll",
            "keep 1",
            "join Cy",
            "leave Bob",
            "spaced Ann",
            "land choose",
            "pig",
            "go",
            "reroll",
            "pass",
            "sloppy",
            "9" * 5000,
            "roll 2w 2w 3r 3r 4g 4g",
            f"roll {'9' * 5000} 1 2 3 4",
            f"keep 1 {'5' * 5000}",
            "#" + "9" * 5000,
            "join \x1b[2J",
            "join " + "x" * 500,
        ]
    ),
    st.binary(max_size=20).map(lambda b: b.decode("utf-8", "surrogateescape")),
)


@FUZZ
@given(lines=st.lists(typed_lines, max_size=12))
def test_any_typed_lines_keep_the_session_going(tmp_path, lines):
    from zonkcam.record.logged_game import LoggedGame
    from zonkcam.record.store import EventLog

    shown: list[str] = []
    feed = iter([*lines, "quit"])
    with EventLog(tmp_path / "g.db") as log:
        logged = LoggedGame.new(log, PRESETS["drinking"], [A.Players(("Ann", "Bob"))])
        TextPlay(logged, read=lambda _: next(feed), write=shown.append).run()
        stored = log.actions(logged.game_id)
    assert shown[-1].startswith(f"Game {logged.game_id} saved")
    assert all("\x1b" not in line for line in shown)
    assert len(stored) == len(logged.game.events) + sum(isinstance(a, A.Undo) for a in stored) * 2


@FUZZ
@given(line=typed_lines)
def test_any_line_parses_to_an_action_a_view_or_an_input_error(line):
    game = Game(PRESETS["detroit"], [A.Players(("Ann", "Bob"))])
    try:
        parse_line(line, game.state)
    except TableError as exc:
        assert "\n" not in str(exc)


def _image(ext: str) -> bytes:
    img = (np.random.default_rng(0).random((24, 32, 3)) * 255).astype(np.uint8)
    return cv2.imencode(ext, img)[1].tobytes()


SAMPLES = {
    ext: _image(ext)
    for ext in (".jpg", ".png", ".bmp", ".webp", ".gif", ".tif", ".ppm")
    if opencv.can_encode(ext)  # GIF only from OpenCV 4.12
}


@st.composite
def damaged_images(draw):
    data = bytearray(SAMPLES[draw(st.sampled_from(sorted(SAMPLES)))])
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, min(len(data) - 1, 64)))  # the header, where sizes are
        data[at] = draw(st.integers(0, 255))
    if draw(st.booleans()):
        data = data[: draw(st.integers(0, len(data)))]
    return bytes(data)


@FUZZ
@given(data=damaged_images() | st.binary(max_size=100))
def test_any_bytes_decode_to_a_bounded_image_or_one_line(data):
    try:
        img, factor = decode_image(data)
    except ImageFileError as exc:
        assert "\n" not in str(exc)
        return
    assert img.ndim == 3 and img.shape[2] == 3 and img.dtype == np.uint8
    assert img.shape[0] * img.shape[1] <= MAX_DECODE_PIXELS


def test_decoding_damaged_images_keeps_memory_bounded():
    """Hundreds of damaged headers in a fresh process: its peak memory stays far below
    what one 16000x16000 decode takes (768 MB)."""
    code = """
import random, resource, sys
from tests.test_fuzz import SAMPLES
from zonkcam.vision.imageio import ImageFileError, decode_image
rng = random.Random(1)
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
for _ in range(400):
    data = bytearray(SAMPLES[rng.choice(sorted(SAMPLES))])
    for _ in range(rng.randint(1, 6)):
        data[rng.randrange(min(len(data), 40))] = rng.choice([0, 0xFF, 0x7F, rng.randrange(256)])
    try:
        decode_image(bytes(data))
    except ImageFileError:
        pass
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base)
"""
    proc = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        env=dict(os.environ),
    )
    assert proc.returncode == 0, proc.stderr
    grown_kb = int(proc.stdout.split()[-1])
    assert grown_kb < 400_000, f"peak memory grew {grown_kb} KB"


@FUZZ
@given(
    h=st.lists(
        st.floats(allow_nan=True, allow_infinity=True, width=64)
        | st.sampled_from([0.0, 1.0, -1.0, 1e-9, 1e9, 2.0, 300.0]),
        min_size=9,
        max_size=9,
    )
)
def test_any_homography_is_refused_or_maps_the_mat_into_view(tmp_path, h):
    """What a calibration file's homography can be: refused in one line, or one that puts
    the whole mat in view, unmirrored, with dice big enough to read."""
    from zonkcam.mat.calibrate import IN_VIEW, MIN_DIE_PX

    file = tmp_path / "calibration.json"
    data = _calibration() | {"homography": [h[0:3], h[3:6], h[6:9]]}
    file.write_text(json.dumps(data))
    try:
        cal = load_calibration(file)
    except CalibrationError as exc:
        assert "\n" not in str(exc)
        return
    w, h_px = cal.image_size
    corners = cal.mat_to_image(cal.geometry.corners)
    assert np.all(corners >= -IN_VIEW * np.array([w, h_px]))
    assert np.all(corners <= (1 + IN_VIEW) * np.array([w, h_px]))
    assert cal.px_per_mm * cal.geometry.die_mm >= MIN_DIE_PX
    top = cal.top_down(np.zeros((h_px, w, 3), np.uint8))
    assert top.shape == (round(cal.geometry.height_mm), round(cal.geometry.width_mm), 3)
