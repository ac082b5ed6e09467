"""The CLI contract: `zonkcam score` and `zonkcam replay` output and exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from zonkcam.cli import main

DATA = Path(__file__).parents[1] / "data"


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_score_prints_every_keep_best_first(capsys):
    code, out, _ = run_cli(capsys, "score", "--rules", "classic-10000", "1", "5", "5", "6", "6")
    assert code == 0
    result = json.loads(out)
    assert result["rules"] == "classic-10000"
    assert result["dice"] == [1, 5, 5, 6, 6]
    assert result["zonk"] is False
    assert result["best"] == {"keep": [1, 5, 5], "points": 200}
    keeps = {tuple(k["keep"]): k["points"] for k in result["keeps"]}
    assert keeps == {(1, 5, 5): 200, (1, 5): 150, (5, 5): 100, (1,): 100, (5,): 50}
    points = [k["points"] for k in result["keeps"]]
    assert points == sorted(points, reverse=True)


def test_score_names_combinations(capsys):
    _, out, _ = run_cli(capsys, "score", "--rules", "detroit", "2", "2", "2", "5", "1", "3")
    best = json.loads(out)["keeps"][0]
    assert best["points"] == 350
    assert sorted(best["combos"]) == ["single 1", "single 5", "three 2s"]


def test_score_detroit_colours(capsys):
    _, out, _ = run_cli(capsys, "score", "--rules", "detroit", "2w", "2w", "3r", "3r", "4g", "4g")
    result = json.loads(out)
    assert result["dice"] == ["2w", "2w", "3r", "3r", "4g", "4g"]
    assert result["best"] == {"keep": [2, 2, 3, 3, 4, 4], "points": 1000}
    assert result["keeps"][0]["combos"] == ["colour pairs"]


def test_score_zonk(capsys):
    _, out, _ = run_cli(capsys, "score", "--rules", "chicago", "2", "3", "4", "6", "6")
    assert json.loads(out) == {
        "rules": "chicago",
        "dice": [2, 3, 4, 6, 6],
        "zonk": True,
        "best": None,
        "keeps": [],
    }


def test_score_takes_a_toml_file(capsys, tmp_path):
    rules = tmp_path / "table.toml"
    rules.write_text('base = "chicago"\n[points]\nsingle_five = 0\n')
    _, out, _ = run_cli(capsys, "score", "--rules", str(rules), "5", "2", "3", "4", "6")
    result = json.loads(out)
    assert result["keeps"] == [
        {"keep": [2, 3, 4, 5, 6], "points": 1500, "combos": ["straight 2-3-4-5-6"]}
    ]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["score", "--rules", "classic-10000", "7"], "1 to 6"),
        (["score", "--rules", "classic-10000", "1", "2", "3", "4", "5", "6"], "5 dice"),
        (["score", "--rules", "nope", "1"], "unknown rules"),
        (["score", "--rules", "detroit", "2x"], "colour"),
    ],
)
def test_score_bad_input_is_one_clear_line(capsys, argv, message):
    code, out, err = run_cli(capsys, *argv)
    assert code == 2
    assert out == ""
    assert message in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_replay_narrated_game(capsys):
    code, out, _ = run_cli(
        capsys, "replay", "--rules", "classic-10000", str(DATA / "narrated-classic.jsonl")
    )
    assert code == 0
    state = json.loads(out)
    scores = {p["name"]: p["score"] for p in state["players"]}
    assert scores == {"Nathan": 0, "Chris": 3550, "Miguel": 0}
    assert state["current"] == "Nathan"
    assert state["finished"] is False and state["winner"] is None
    assert "Chris banks 1000 (total 1000)" in state["log"]
    assert "Nathan zonks" in state["log"]
    assert "HOT DICE" in state["log"]
    for player in state["players"]:
        assert set(player) >= {
            "name",
            "score",
            "bees",
            "zonks",
            "drinks",
            "handouts",
            "rules",
            "on_board",
        }


def test_replay_stops_at_an_illegal_line(capsys, tmp_path):
    game = tmp_path / "game.jsonl"
    game.write_text(
        '{"players": ["Ann", "Bob"]}\n{"roll": [1, 2, 3, 4, 6]}\n{"keep": [1, 2]}\n{"bank": true}\n'
    )
    code, out, err = run_cli(capsys, "replay", "--rules", "classic-10000", str(game))
    assert code == 2
    assert out == ""
    assert "line 3" in err and "2" in err
    assert len(err.strip().splitlines()) == 1


def test_replay_bad_json_and_missing_file(capsys, tmp_path):
    game = tmp_path / "game.jsonl"
    game.write_text('{"players": ["Ann"]}\n{"roll": [1, 2,\n')
    code, _, err = run_cli(capsys, "replay", str(game))
    assert code == 2 and "line 2" in err and "not JSON" in err
    code, _, err = run_cli(capsys, "replay", str(tmp_path / "missing.jsonl"))
    assert code == 2 and "no such file" in err


def test_replay_undo_line(capsys, tmp_path):
    game = tmp_path / "game.jsonl"
    game.write_text(
        '{"players": ["Ann", "Bob"]}\n{"roll": [1, 1, 1, 2, 3]}\n'
        '{"undo": true}\n{"roll": [5, 2, 3, 4, 6]}\n{"keep": [5]}\n'
    )
    _, out, _ = run_cli(capsys, "replay", str(game))
    state = json.loads(out)
    assert state["turn_total"] == 50
    assert state["current"] == "Ann"


def test_console_script_entry_point_runs():
    result = subprocess.run(
        [sys.executable, "-m", "zonkcam", "score", "--rules", "drinking", "1", "2", "3", "4", "5"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(result.stdout)["best"]["points"] == 1500


def test_rules_show_round_trips_through_a_file(capsys, tmp_path):
    code, out, _ = run_cli(capsys, "rules", "show", "--toml", "all-johnnys")
    assert code == 0
    path = tmp_path / "aj.toml"
    path.write_text(out.replace('name = "all-johnnys"', 'name = "ours"'))
    code, out, _ = run_cli(capsys, "rules", "check", str(path))
    assert code == 0 and "ours" in out


@pytest.mark.parametrize("name", ["classic-10000", "all-johnnys", "chicago", "detroit", "drinking"])
def test_rules_show_says_the_rules_in_words(capsys, name):
    import tomllib

    from zonkcam.game import PRESETS

    rules = PRESETS[name]
    code, out, _ = run_cli(capsys, "rules", "show", name)
    assert code == 0 and out.startswith(f"{name}: {rules.dice} dice\n")
    with pytest.raises(tomllib.TOMLDecodeError):
        tomllib.loads(out)
    words = " ".join(out.split())  # lines wrap at 88 characters
    assert f"{rules.turns} turns each" in words if rules.turns else f"{rules.target:,}" in words
    assert ("the first bank needs" in words) == bool(rules.entry_minimum)
    if rules.entry_minimum:
        assert f"the first bank needs {rules.entry_minimum:,} or more" in words
    assert f"roll all {rules.dice} again" in words  # hot dice
    for straight in rules.points.straights:
        assert f"straight {straight.label}" in words
    assert ("go for 1000" in words) == bool(rules.go_for_1000)
    assert ("piggyback" in words) == rules.piggyback
    assert ("colour pairs" in words) == bool(rules.points.colour_pairs)
    assert ("Drinking" in words) == rules.drinking.penalties
    if name == "drinking":
        assert "being the first to reach 2,500, 5,000, 7,500" in words
        assert "a total of exactly 5,150" in words
    assert all(len(line) <= 88 for line in out.splitlines())
    code, toml, _ = run_cli(capsys, "rules", "show", name, "--toml")
    assert code == 0 and tomllib.loads(toml)["name"] == name


def test_rules_check_names_the_wrong_key(capsys, tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('base = "classic-10000"\nhot_dcie = "must"\n')
    code, _, err = run_cli(capsys, "rules", "check", str(path))
    assert code == 2
    assert "hot_dcie" in err and "hot_dice" in err


def test_output_cut_short_by_a_closed_pipe_is_no_traceback():
    # `zonkcam rules show --toml classic-10000 | head -1`: the reader goes away mid-output
    cmd = [sys.executable, "-m", "zonkcam", "rules", "show", "--toml", "classic-10000"]
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as proc:
        proc.stdout.close()  # nobody reads what it prints
        err = proc.stderr.read().decode()
        code = proc.wait(timeout=60)
    assert "Traceback" not in err and "BrokenPipeError" not in err, err
    assert code == 1


# -- the command line as a new user meets it ------------------------------------------------


def _saved_drinking_game(db) -> None:
    from zonkcam.game import PRESETS, parse_dice
    from zonkcam.game import actions as A
    from zonkcam.record.logged_game import LoggedGame
    from zonkcam.record.store import EventLog

    with EventLog(db) as log:
        logged = LoggedGame.new(log, PRESETS["drinking"], [A.Players(("Ann", "Bob"))])
        for action in (A.Roll(parse_dice([1, 1, 1, 4, 5])), A.Land("left"), A.Bank()):
            logged.play(action)


def test_an_export_carries_its_rules_into_replay(capsys, tmp_path):
    # an export starts with the game's rules, so a drinking game does not replay under
    # the default classic-10000 rules
    db, out_file = tmp_path / "g.db", tmp_path / "game.jsonl"
    _saved_drinking_game(db)
    assert main(["games", "export", "1", "--db", str(db), "--out", str(out_file)]) == 0
    capsys.readouterr()
    first = json.loads(out_file.read_text().splitlines()[0])
    assert first["rules"]["name"] == "drinking"
    code, out, _ = run_cli(capsys, "replay", str(out_file))
    state = json.loads(out)
    assert code == 0 and state["rules"] == "drinking"
    assert [(p["score"], p["drinks_due"]) for p in state["players"]] == [(1050, 0), (0, 1)]
    code, _, err = run_cli(capsys, "replay", "--rules", "chicago", str(out_file))
    assert code == 2 and "line 4: the chicago table has no board images" in err  # --rules
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"rules": {"dice": 9}}\n{"players": ["Ann"]}\n')
    code, _, err = run_cli(capsys, "replay", str(bad))
    assert code == 2 and "line 1" in err and "dice must be 2 to 6" in err


def test_games_takes_db_before_or_after_the_action(capsys, tmp_path):
    db = tmp_path / "g.db"
    _saved_drinking_game(db)
    for argv in (["games", "--db", str(db), "list"], ["games", "list", "--db", str(db)]):
        code, out, err = run_cli(capsys, *argv)
        assert code == 0 and "drinking" in out, err
    assert run_cli(capsys, "games", "show", "1", "--db", str(db))[0] == 0


def test_games_list_columns_line_up(capsys, tmp_path):
    from zonkcam.game import PRESETS, RuleSet
    from zonkcam.game import actions as A
    from zonkcam.record.logged_game import LoggedGame
    from zonkcam.record.store import EventLog

    db = tmp_path / "g.db"
    with EventLog(db) as log:
        LoggedGame.new(log, PRESETS["chicago"], [A.Players(("Ann",))])
        LoggedGame.new(
            log, RuleSet(name="a table with a long name"), [A.Players(("Bob", "Cy"))], demo=True
        )
    code, out, _ = run_cli(capsys, "games", "list", "--demo", "--db", str(db))
    header, *rows = out.splitlines()
    assert header.split() == ["game", "last", "action", "table", "status", "actions", "players"]
    for word in ("table", "status", "players"):
        assert {
            row.find(w)
            for row, w in zip(
                rows,
                {
                    "table": ["chicago", "a table"],
                    "status": ["in play", "in play"],
                    "players": ["Ann", "Bob"],
                }[word],
                strict=True,
            )
        } == {header.find(word)}
    assert "in play (demo)" in rows[1]


def test_zonkcam_alone_shows_what_it_can_do_and_succeeds(capsys):
    code, out, _ = run_cli(capsys)
    assert code == 0 and "COMMAND" in out and "play" in out


def test_score_takes_the_dice_as_typed_in_text_mode(capsys):
    for dice in (["12345"], ["1", "2", "3", "4", "5"], ["1,2,3,4,5"]):
        code, out, _ = run_cli(capsys, "score", *dice)
        assert code == 0 and json.loads(out)["best"]["points"] == 1000
    code, out, _ = run_cli(capsys, "score", "--rules", "detroit", "2w2w3r3r4g4g")
    assert code == 0 and json.loads(out)["dice"] == ["2w", "2w", "3r", "3r", "4g", "4g"]


@pytest.mark.parametrize("argv", [["--games", "-1"], ["--threads", "0"], ["--threads", "x"]])
def test_play_refuses_counts_below_their_least(capsys, argv):
    with pytest.raises(SystemExit) as exit_:
        main(["play", "--source", "demo", *argv])
    assert exit_.value.code == 2
    assert "give a whole number from" in capsys.readouterr().err


READER_COMMANDS = {"read", "eval", "bench", "train"}
"""The dice reader's own commands, kept by the reader's engineer."""


def _options(parser, path):
    import argparse

    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                if name not in READER_COMMANDS:
                    yield from _options(sub, [*path, name])
        elif not isinstance(action, argparse._HelpAction):
            yield " ".join(path), action


def test_every_option_says_what_it_is_for():
    from zonkcam.cli import build_parser

    silent = [
        f"{cmd} {action.option_strings or action.dest}"
        for cmd, action in _options(build_parser(), ["zonkcam"])
        if not action.help
    ]
    assert silent == []


def test_help_texts_print_percent_signs_once(capsys):
    for command in ("mat", "play", "solve"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        out = capsys.readouterr().out
        assert "%%" not in out and "%(" not in out
    with pytest.raises(SystemExit):
        main(["mat", "--help"])
    assert "100% (actual size" in capsys.readouterr().out


def test_games_show_says_in_words_what_an_undo_took_back(capsys, tmp_path):
    from zonkcam.game import PRESETS, parse_dice
    from zonkcam.game import actions as A
    from zonkcam.record.logged_game import LoggedGame
    from zonkcam.record.store import EventLog

    db = tmp_path / "g.db"
    with EventLog(db) as log:
        logged = LoggedGame.new(log, PRESETS["chicago"], [A.Players(("Ann", "Bob"))])
        for action in (A.Roll(parse_dice([1, 1, 1, 2, 3])), A.Keep((1, 1, 1)), A.Undo()):
            logged.play(action)
    code, out, _ = run_cli(capsys, "games", "--db", str(db), "show", "1")
    assert code == 0 and "UNDO: keep 1 1 1" in out and "{" not in out


@pytest.mark.parametrize("at", [1e18, float("inf"), -1e18])
def test_games_list_shows_a_time_beyond_the_platform_as_unknown(capsys, tmp_path, at):
    """A clock that was wrong (or a log edited by hand) is shown as unknown, not a traceback."""
    import sqlite3

    db = tmp_path / "g.db"
    _saved_drinking_game(db)
    with sqlite3.connect(db) as raw:
        raw.execute("UPDATE events SET at = ?", (at,))
        raw.execute("UPDATE games SET created = ?", (at,))
    code, out, err = run_cli(capsys, "games", "list", "--db", str(db))
    assert code == 0 and err == ""
    assert out.splitlines()[1].split()[1] == "unknown"
    assert run_cli(capsys, "games", "show", "1", "--db", str(db))[0] == 0


def test_the_help_and_the_commands_page_name_every_games_action(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    line = next(x for x in capsys.readouterr().out.splitlines() if x.strip().startswith("games"))
    page = (Path(__file__).resolve().parents[2] / "docs" / "commands.md").read_text()
    row = next(x for x in page.splitlines() if x.startswith("| `zonkcam games "))
    for action in ("list", "show", "export", "import", "dice", "report"):
        assert action in row
    for action in ("list", "show", "export", "import"):
        assert action in line
    with pytest.raises(SystemExit):
        main(["games", "--help"])
    out = capsys.readouterr().out
    assert all(a in out for a in ("dice", "report"))


def test_one_of_a_thing_is_said_in_the_singular(capsys):
    from zonkcam.display.setup import ResumableGame
    from zonkcam.game import PRESETS, Game, parse_dice
    from zonkcam.game import actions as A
    from zonkcam.game.names import counted

    assert [counted(n, "die", "dice") for n in (0, 1, 2)] == ["0 dice", "1 die", "2 dice"]
    assert counted(1, "throw") == "1 throw" and counted(3, "throw") == "3 throws"
    # advise with one die in --roll where --dice says two
    code, _, err = run_cli(capsys, "advise", "--dice", "2", "--roll", "5")
    assert code == 2 and "--roll has 1 die," in err
    # one player on the drinking table crossing 1,000 hands out one drink
    game = Game(PRESETS["drinking"], [A.Players(("Ann",))])
    game.play(A.Roll(parse_dice([1, 1, 1, 2, 3])))
    game.play(A.Bank())
    assert "Player 1 hands out 1 drink" in game.state.log  # no zonk name yet: the seat
    # a resumable game with only its players seated
    assert ResumableGame(1, "chicago", ("Ann",), 1).label.endswith("(1 action)")


@pytest.mark.parametrize("command", [["score"], ["advise", "--roll"]])
def test_a_detroit_roll_that_colour_pairs_would_score_is_asked_with_colours(capsys, command):
    code, out, err = run_cli(capsys, *command[:1], "--rules", "detroit", *command[1:], *"223344")
    assert code == 2 and not out and len(err.strip().splitlines()) == 1
    assert "as colour pairs it scores 1,000" in err and "2w 2w 3r 3r 4g 4g" in err
    code, out, _ = run_cli(
        capsys, *command[:1], "--rules", "detroit", *command[1:], *"2w 2w 3r 3r 4g 4g".split()
    )
    assert code == 0 and json.loads(out).get("zonk", False) is False
    code, out, _ = run_cli(capsys, *command[:1], "--rules", "detroit", *command[1:], *"223346")
    assert code == 0 and json.loads(out).get("zonk") is True


SHARED_OPTIONS = {
    "--source": {"play", "watch", "calibrate", "check"},
    "--calibration": {"play", "watch"},
    "--model-dir": {"play", "watch", "read", "eval", "bench"},
    "--threads": {"play", "watch", "read", "eval", "bench", "bench app"},
    "--db": {"play", "games", "games list", "games show"},
    "--seed": {"play", "watch"},
    "--pins": {"play", "check"},
}
"""The options several commands take, and (some of) the commands that take them."""
OWN_MEANING = {"--seed": ("bench", "train"), "--model-dir": ("train",), "--threads": ("train",)}
"""Where a lab command's option of the same name means something else (the seed of a
benchmark's throws; the models `train` writes beside; its CPU threads)."""


def _commands(parser, path=()):
    """Every command's parser, by its words (``games list``)."""
    import argparse

    yield " ".join(path), parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _commands(sub, (*path, name))


def test_each_shared_option_says_the_same_in_every_commands_help():
    from zonkcam.cli import build_parser

    shown: dict[str, dict[str, str]] = {option: {} for option in SHARED_OPTIONS}
    for command, parser in _commands(build_parser()):
        text = " ".join(parser.format_help().split())
        for action in parser._actions:
            for option in set(action.option_strings) & set(SHARED_OPTIONS):
                if not command.startswith(OWN_MEANING.get(option, ("-",))):
                    shown[option][command] = action.help
                    assert " ".join(action.help.split()) in text, (command, option)
    for option, commands in SHARED_OPTIONS.items():
        assert commands <= set(shown[option]), option
        assert len(set(shown[option].values())) == 1, (option, shown[option])
