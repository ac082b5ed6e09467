"""`zonkcam bench`'s modes, each run through the CLI at tiny sizes: what each prints holds
the figures docs/measured.md quotes, counted right."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from zonkcam.cli import main
from zonkcam.game import PRESETS, Die, score_roll

DATA = Path(__file__).parents[1] / "data"


def bench(capsys, *argv: str) -> list[str]:
    assert main(["bench", *argv]) == 0
    return capsys.readouterr().out.splitlines()


def test_scoring_lists_every_legal_keep_of_every_roll(capsys):
    out = bench(capsys, "scoring", "--rules", "chicago")
    assert out[0].split()[:2] == ["rules", "cold"]
    row = out[1].split()
    rules = PRESETS["chicago"]  # five dice: the first five of each six-dice roll
    keeps = sum(
        len(score_roll(rules, tuple(map(Die, faces[:5]))).keeps)
        for faces in itertools.product(range(1, 7), repeat=6)
    )
    assert row[0] == "chicago" and int(row[-1]) == keeps
    assert row[4] == "(" and row[5] == "252)"  # the distinct sorted rolls of five dice
    assert all(float(v) > 0 for v in row[1:4])
    assert out[2].startswith("46,656 rolls per table")


def test_screen_times_one_frame_at_each_size(capsys):
    out = bench(capsys, "screen", "--frames", "2")
    sizes = [re.fullmatch(r"(\d+x\d+): (\d+\.\d\d) ms a frame", line) for line in out]
    assert [m.group(1) for m in sizes] == ["800x480", "1280x720", "1920x1080"]
    assert all(float(m.group(2)) > 0 for m in sizes)


def test_table_reports_each_throw_once_with_its_values(capsys):
    out = bench(capsys, "table", "--throws", "2", "--reader", "truth", "--size", "320x240")
    assert out[0] == (
        "demo table 320x240 (plain camera, A3 mat), 2 throws of 5 dice, reader: truth"
    )
    assert out[1] == "settled rolls reported: 2 (throws: 2); values right: 2"
    assert out[2] == "dice read with confidence under 0.6 (a '?' on the screen): 0 of 10"
    latency = re.match(r"latency, .*: median (\d+), max (\d+) ", out[3])
    assert latency and 0 < int(latency.group(2)) <= 10  # the target: at most 10 frames
    assert re.match(r"watcher ms per frame: median \d+\.\d, p95 .* \(\d+ frames\)$", out[4])


def test_app_times_rest_to_the_roll_and_the_keep_on_screen(capsys):
    out = bench(
        capsys, "app", "--throws", "1", "--reader", "truth", "--size", "320x240", "--look", "plain"
    )
    assert out[0] == "demo table 320x240 (plain camera), 1 throws, reader: truth, 1 thread(s)"
    assert out[1] == "rolls scored: 1 (1 read right, 0 wrong); keeps: 1"
    assert re.match(r"rest to roll on screen: median \d+ ms, p95 \d+ ms, max \d+ ms$", out[2])
    assert re.match(r"rest to keep on screen: median \d+ ms", out[3])
    assert out[4].startswith("processing per frame: median ")


def test_advisor_times_presets_and_rules_files_as_a_table(capsys):
    out = bench(
        capsys, "advisor", "--rules", "drinking", "--states", "5", str(DATA / "farkle.toml")
    )
    assert out[0].startswith("| rules | single-turn solve ms |") and out[1] == "|---" * 6 + "|"
    rows = [line.strip("|").split(" | ") for line in out[2:]]
    assert [r[0].strip() for r in rows] == ["drinking", "farkle.toml"]
    assert all(len(r) == 6 and all(float(v) >= 0 for v in r[1:]) for r in rows)


def test_advisor_times_a_two_player_table(capsys, tmp_path):
    rules = tmp_path / "small.toml"
    rules.write_text('name = "small"\nbase = "classic-10000"\ntarget = 600\n')
    table = tmp_path / "small.npz"
    assert main(["solve", "--rules", str(rules), "--out", str(table)]) == 0
    capsys.readouterr()
    (line,) = bench(capsys, "advisor", "--race", str(table), "--states", "20")
    assert re.match(
        r"small: \d+\.\d MB on disk, loaded in \d+ ms; turn values at \(0, 0\) in \d+ ms; "
        r"two-player advice, 20 states: median \d+\.\d\d ms, .*a turn's first \(\d+\)",
        line,
    ), line


def test_players_play_whole_games(capsys):
    (line,) = bench(capsys, "players", "--games", "2", "--rules", "chicago")
    m = re.fullmatch(
        r"chicago: (\d+) rolls a game \(sd \d+, 2 games\), decisions \d+\.\d\d ms a roll", line
    )
    assert m and int(m.group(1)) > 0


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["table", "--size", "big"], "WIDTHxHEIGHT"),
        (["app", "--throws", "0"], "give a whole number from 1 up"),
        (["scoring", "--rules", "nope"], "invalid choice"),
        (["nope"], "invalid choice"),
    ],
)
def test_a_mode_refuses_what_it_cannot_measure_in_one_line(capsys, argv, says):
    with pytest.raises(SystemExit) as exit_:
        main(["bench", *argv])
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and says in err and "Traceback" not in err


def test_the_look_option_names_every_look_of_the_demo_camera():
    from zonkcam.commands.bench import LOOK_NAMES
    from zonkcam.sim.lens import LOOKS

    assert LOOK_NAMES == tuple(LOOKS)
