"""`zonkcam advise` and `zonkcam solve`: JSON, figures, table files, one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from zonkcam.advisor.race import build
from zonkcam.cli import main
from zonkcam.game import load_rules
from zonkcam.game.rules import rules_from_dict
from zonkcam.record.win_tables import cached_advisor, load_table, read_table, save_table, table_path

DATA = Path(__file__).parents[1] / "data"
SHORT = 'base = "classic-10000"\nname = "short classic"\ntarget = 1500\n'


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_advise_values_every_keep_of_a_roll(capsys):
    code, out, _ = run_cli(
        capsys,
        "advise",
        "--rules",
        "classic-10000",
        "--turn-total",
        "350",
        "--dice",
        "3",
        "--roll",
        "1",
        "5",
        "2",
    )
    assert code == 0
    result = json.loads(out)
    assert result["objective"] == "points" and result["thrown"] == [1, 5, 2]
    assert result["bank"] == 500  # taking the points: 350 + 1 and 5
    assert {tuple(k["keep"]) for k in result["keeps"]} == {(1, 5), (1,), (5,)}
    keep = {tuple(k["keep"]): k for k in result["keeps"]}
    assert keep[(1,)]["dice_left"] == 2 and keep[(1,)]["zonk_chance"] == pytest.approx(4 / 9)
    assert keep[(1,)]["value"] == max(keep[(1,)]["bank"], keep[(1,)]["roll"])
    best = max(result["bank"], max(k["value"] for k in result["keeps"]))
    assert result["best"] == ("bank" if result["bank"] == best else "keep")


def test_advise_before_a_throw_gives_the_zonk_chance_and_the_optimum(capsys):
    _, out, _ = run_cli(capsys, "advise", "--rules", str(DATA / "farkle.toml"))
    result = json.loads(out)
    assert result["zonk_chance"] == pytest.approx(5 / 162, abs=1e-6)
    assert round(result["roll"], 3) == 446.571 and result["bank"] is None
    assert result["best"] == "roll"


def test_advise_without_a_table_says_how_to_build_one(capsys):
    _, out, _ = run_cli(
        capsys, "advise", "--rules", "chicago", "--score", "7500", "--opponent", "9000"
    )
    result = json.loads(out)
    assert result["win_chance"] is None
    assert "zonkcam solve --rules chicago" in result["note"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--dice", "7"], "--dice must be 1 to 5"),
        (["--turn-total", "333"], "multiple of 50"),
        (["--turn-total", "-50"], "0 or more"),
        (["--dice", "3", "--roll", "1", "5"], "--roll has 2 dice"),
        (["--score", "500"], "--score and --opponent together"),
        (["--roll", "1", "9", "2", "3", "4"], "1 to 6"),
        (["--rules", "yahtzee"], "unknown rules"),
    ],
)
def test_advise_bad_input_is_one_clear_line(capsys, argv, message):
    code, out, err = run_cli(capsys, "advise", *argv)
    assert code == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1


def test_solve_prints_the_published_optimum(capsys):
    code, out, _ = run_cli(capsys, "solve", "--rules", str(DATA / "zilch.toml"))
    assert code == 0
    assert "623.017 on average" in out  # one turn
    assert "620.855 a turn" in out  # Busche's long run with the penalty
    assert "no two-player table" in out  # the penalty leaves scores unbounded below


def test_solve_builds_stores_and_reuses_a_table(capsys, tmp_path):
    rules_file = tmp_path / "short.toml"
    rules_file.write_text(SHORT, encoding="utf-8")
    code, out, err = run_cli(capsys, "solve", "--rules", str(rules_file))
    assert code == 0 and "100%" in err
    rules = load_rules(str(rules_file))
    path = table_path(rules)
    assert path.exists() and str(path) in out
    table = load_table(rules)
    assert table is not None and table.win.shape == (30, 30)
    assert 0.5 < table.chance(0, 0) < 0.6
    _, out, err = run_cli(capsys, "solve", "--rules", str(rules_file))
    assert "stored" in out and err == ""
    # advise finds it: the chance to win from these scores
    _, out, _ = run_cli(
        capsys, "advise", "--rules", str(rules_file), "--score", "1000", "--opponent", "500"
    )
    result = json.loads(out)
    assert result["objective"] == "win"
    assert result["win_chance"] == pytest.approx(table.chance(1000, 500), abs=1e-6)
    assert cached_advisor().win_table(rules) is not None


def test_a_table_of_other_rules_or_a_broken_file_is_never_used(tmp_path):
    rules_file = tmp_path / "short.toml"
    rules_file.write_text(SHORT, encoding="utf-8")
    rules = load_rules(str(rules_file))
    path = table_path(rules)
    path.parent.mkdir(parents=True)
    path.write_bytes(b"not a table")
    assert load_table(rules) is None
    with pytest.raises(Exception, match="not a zonkcam table"):
        read_table(path)
    np.savez(path.with_suffix(""), format=np.array(99))
    assert load_table(rules) is None


def test_solve_refuses_what_it_cannot_race_in_one_line(capsys):
    code, out, _ = run_cli(capsys, "solve", "--rules", "all-johnnys")
    assert code == 0
    assert "524.644 on average" in out and "no two-player table" in out


def test_a_stored_piggyback_table_gives_the_turns_it_was_built_with(tmp_path):
    rules = rules_from_dict(
        {"name": "tiny pig", "dice": 3, "target": 600, "end": "instant", "piggyback": True}
    )
    table = build(rules)
    path = tmp_path / "pig.npz"
    save_table(table, path)
    stored = read_table(path)
    assert stored.rules == rules and stored.pig.dtype == np.uint16
    assert np.array_equal(stored.win, table.win)
    start = table.solver.model.start
    for me, them in [(0, 0), (100, 450), (500, 50)]:
        built = table.turn_values(me, them).X
        again = stored.turn_values(me, them).X
        assert np.allclose(again, built, atol=1e-4)
        assert stored.turn_values(me, them).roll(start, 0) == pytest.approx(
            table.chance(me, them), abs=1e-4
        )


def test_advise_for_a_player_not_on_the_board_yet(capsys):
    def advise(*argv: str) -> dict:
        code, out, err = run_cli(capsys, "advise", *argv)
        assert code == 0, err
        return json.loads(out)

    on = advise("--turn-total", "350", "--dice", "3")
    off = advise("--turn-total", "350", "--dice", "3", "--not-on-board")
    assert on["on_board"] is True and on["bank"] == 350
    # 350 is under classic-10000's 1,000 to get on the board: no bank, and less to hope for
    assert off["on_board"] is False and off["bank"] is None and off["best"] == "roll"
    assert off["roll"] < on["roll"]
    # a 1 on 900 makes the 1,000: bank it
    off = advise("--turn-total", "900", "--dice", "2", "--roll", "1", "3", "--not-on-board")
    assert off["best"] == "bank" and off["bank"] == 1000
    # the same as --score 0 against an opponent
    a = advise("--turn-total", "350", "--dice", "3", "--score", "0", "--opponent", "0")
    b = advise(
        "--turn-total", "350", "--dice", "3", "--score", "0", "--opponent", "0", "--not-on-board"
    )
    assert a == b and a["on_board"] is False
    for argv, words in (
        (["--rules", "chicago", "--not-on-board"], "chicago has no entry minimum"),
        (["--not-on-board", "--score", "500", "--opponent", "0"], "a player with points"),
    ):
        code, _, err = run_cli(capsys, "advise", *argv)
        assert code == 2 and words in err and len(err.strip().splitlines()) == 1


def test_solve_says_up_front_how_long_and_shows_progress(capsys, tmp_path):
    import io

    from zonkcam.commands.solve import Progress

    rules_file = tmp_path / "short.toml"
    rules_file.write_text(SHORT, encoding="utf-8")
    code, out, err = run_cli(capsys, "solve", "--rules", str(rules_file))
    lines = err.splitlines()
    path = table_path(load_rules(str(rules_file)))
    assert code == 0 and "this takes minutes" in lines[0] and f"stored in {path}" in lines[0]
    # piped: a line every 10%, each with the time taken
    steps = lines[1:]
    assert 2 <= len(steps) <= 11 and steps[-1].split()[0] == "100%"
    assert all(line.endswith((" s", " s left")) for line in steps)
    _, out, err = run_cli(capsys, "solve", "--rules", str(rules_file))
    assert "stored: built before, nothing to solve" in out and err == ""

    # at a terminal: one line written over, a guess at the time left, ended at 100%
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen = Terminal()
    ticks = iter(range(0, 1000, 2))  # a call every 2 s
    progress = Progress(0.0, screen, clock=lambda: float(next(ticks)))
    for done in range(0, 101, 5):
        progress(done, 100)
    shown = screen.getvalue()
    assert shown.count("\n") == 1 and shown.endswith("\n") and shown.count("\r") == 21
    assert "about" in shown and "left" in shown and shown.rstrip().endswith("s")


def test_advise_offers_go_for_1000_on_a_first_roll_of_all_johnnys(capsys):
    code, out, _ = run_cli(capsys, "advise", "--rules", "all-johnnys", "--roll", *"123455")
    go = [k for k in json.loads(out)["keeps"] if k["go_for_1000"]]
    assert code == 0 and len(go) == 1
    assert go[0]["points"] == 1000 and go[0]["dice_left"] == 1
    assert go[0]["zonk_chance"] == pytest.approx(5 / 6)
    # not after the first roll of the turn
    code, out, _ = run_cli(
        capsys, "advise", "--rules", "all-johnnys", "--turn-total", "100", "--roll", *"123455"
    )
    assert code == 0 and not any(k["go_for_1000"] for k in json.loads(out)["keeps"])
