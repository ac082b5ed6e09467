"""`zonkcam games ...` where a new user stands: the demo's games kept apart and said so,
export and import counting alike, and a resume hint that works (or none, for a game that
is over)."""

from __future__ import annotations

import io
import shlex

import pytest

from zonkcam.app.players import scripted_game
from zonkcam.app.text import TextPlay
from zonkcam.cli import main
from zonkcam.game import PRESETS
from zonkcam.game import actions as A
from zonkcam.record.logged_game import LoggedGame
from zonkcam.record.store import EventLog

APART = "kept apart: add --demo to see them"


def _played(log, rules, players, actions, seed, *, demo=False, undo_every=0):
    """A scripted game of `actions` actions stored in `log`; with `undo_every`, every so
    many actions one is taken back and played again (an undo is stored like any action)."""
    script = scripted_game(PRESETS[rules], players, actions, seed)
    logged = LoggedGame.new(log, PRESETS[rules], [script[0]], demo=demo)
    for i, action in enumerate(script[1:], start=1):
        logged.play(action)
        if undo_every and i % undo_every == 0:
            logged.play(A.Undo())
            logged.play(action)
    return logged


def _demo_log(db):
    with EventLog(db) as log:
        for seed in (1, 2):
            _played(log, "classic-10000", ("Robo", "Tin"), 30, seed, demo=True)


def _run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out + err


def test_each_games_command_that_finds_nothing_says_the_demos_games_are_kept_apart(
    tmp_path, capsys
):
    db = str(tmp_path / "g.db")
    _demo_log(db)
    for argv, code in (
        (["list"], 0),
        (["show"], 2),
        (["dice"], 0),
        (["report", "--out", str(tmp_path / "r")], 2),
    ):
        got, said = _run(capsys, "games", *argv, "--db", db)
        assert got == code, said
        assert f"the demo's 2 games (1, 2) are {APART}" in said, argv
        assert "Traceback" not in said and len(said.strip().splitlines()) == 1
    # --demo, after the action or before it, shows them
    assert _run(capsys, "games", "list", "--db", db, "--demo")[1].count("(demo)") == 2
    code, said = _run(capsys, "games", "--demo", "show", "--db", db)
    assert code == 0 and "Robo" in said
    code, said = _run(capsys, "games", "dice", "--demo", "--db", db)
    assert code == 0 and "games 1, 2: dice" in said
    code, said = _run(capsys, "games", "report", "--demo", "--db", db, "--out", str(tmp_path / "r"))
    assert code == 0 and "2 games" in said
    # a game named by its number is found either way; export and import take --demo too
    assert _run(capsys, "games", "export", "1", "--demo", "--db", db)[0] == 0


def test_the_list_keeps_the_demos_games_apart_from_peoples(tmp_path, capsys):
    db = str(tmp_path / "g.db")
    _demo_log(db)
    with EventLog(db) as log:
        _played(log, "chicago", ("Ann", "Bob"), 6, 3)
    code, out = _run(capsys, "games", "list", "--db", db)
    rows = out.splitlines()
    assert code == 0 and [r.split()[0] for r in rows[1:-1]] == ["3"]
    assert rows[-1] == (
        "and 2 demo games, kept apart from the games people played: add --demo to list them"
    )
    # a night with people's games but no throws yet, beside the demo's throws
    with EventLog(db) as log:
        LoggedGame.new(log, PRESETS["chicago"], [A.Players(("Cy", "Dee"))])
    code, out = _run(capsys, "games", "dice", "4", "--db", db)
    assert code == 0 and out.strip() == "no throws in games 4"  # games named: nothing to add


def test_export_and_import_count_the_same_actions_and_say_what_the_undos_took_back(
    tmp_path, capsys
):
    db, file = str(tmp_path / "g.db"), tmp_path / "g1.jsonl"
    with EventLog(db) as log:
        logged = _played(log, "chicago", ("Ann", "Bob"), 21, 5, undo_every=5)
        kept = len(logged.game.events)
    stored = 21 + 2 * 4  # the seating and 20 actions; 4 of them undone and played again
    assert kept == 21
    code, out = _run(capsys, "games", "export", "1", "--db", db, "--out", str(file))
    assert code == 0
    words = f"{stored} actions"
    undone = f"; 4 undos took back 4 other actions: {kept} kept"
    assert out.strip() == f"wrote {words} of game 1 (chicago) to {file}{undone}"
    code, out = _run(capsys, "games", "import", str(file), "--db", db)
    assert code == 0
    assert out.splitlines()[0] == (f"{file}: {words} (chicago) saved as game 2 in {db}{undone}")
    with EventLog(db) as log:
        assert [g.events for g in log.games()] == [stored, kept]


def test_the_imported_games_resume_hint_is_a_command_that_works_without_a_camera(
    tmp_path, capsys, monkeypatch
):
    db, file = str(tmp_path / "g.db"), tmp_path / "g1.jsonl"
    with EventLog(db) as log:
        _played(log, "chicago", ("Ann", "Bob"), 9, 5)
    assert main(["games", "export", "1", "--db", db, "--out", str(file)]) == 0
    assert main(["games", "import", str(file), "--db", db]) == 0
    hint = capsys.readouterr().out.splitlines()[-1]
    at_table = f"zonkcam play --db {db} --resume 2"
    typed = f"zonkcam play --text --db {db} --resume 2"
    assert hint == (
        f"resume it at the table with: {at_table}; or without a camera, typing the dice: {typed}"
    )
    # the typed one resumes here, where there is no camera
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(shlex.split(typed)[1:]) == 0
    assert "Game 2 saved; resume with:" in capsys.readouterr().out


def test_a_finished_game_offers_no_resume(tmp_path, capsys):
    db, file = str(tmp_path / "g.db"), tmp_path / "g1.jsonl"
    with EventLog(db) as log:
        logged = _played(log, "classic-10000", ("Ann", "Bob"), 10_000, 4)
        assert logged.state.finished
    assert main(["games", "export", "1", "--db", db, "--out", str(file)]) == 0
    capsys.readouterr()
    assert main(["games", "import", str(file), "--db", db]) == 0
    out = capsys.readouterr().out
    assert "resume" not in out
    assert out.splitlines()[-1] == f"game 2 is over: zonkcam games show 2 --db {db} shows it"
    # nor does the terminal scorekeeper, at the end of a session on it
    shown: list[str] = []
    with EventLog(db) as log:

        def read(_prompt):
            raise EOFError

        TextPlay(LoggedGame.resume(log, 1), read=read, write=shown.append).run()
    assert shown[-1] == "Game 1 saved: it is over"


@pytest.mark.parametrize("action", ["list", "show", "export", "import", "dice", "report"])
def test_every_games_action_takes_demo(action):
    from zonkcam.cli import build_parser

    parser = build_parser()
    extra = {"export": ["1"], "import": ["f"], "report": ["--out", "x"]}.get(action, [])
    args = parser.parse_args(["games", action, *extra, "--demo"])
    assert args.demo is True


def test_one_demo_game_kept_apart_is_named_alone(tmp_path, capsys):
    db = str(tmp_path / "g.db")
    with EventLog(db) as log:
        _played(log, "classic-10000", ("Robo", "Tin"), 10, 1, demo=True)
    code, said = _run(capsys, "games", "dice", "--db", db)
    assert code == 0
    assert said.endswith("; the demo's game 1 is kept apart: add --demo to see it\n")


def test_games_show_begins_with_a_header_naming_the_game_and_the_columns(tmp_path, capsys):
    db = str(tmp_path / "g.db")
    with EventLog(db) as log:
        logged = _played(log, "classic-10000", ("Ann", "Bob"), 12, seed=3)
        events = len(log.actions(logged.game_id))
    code, out = _run(capsys, "games", "show", "1", "--db", db)
    assert code == 0, out
    lines = out.splitlines()
    assert lines[0].startswith(f"game 1: classic-10000, in play, {events} actions, last action ")
    assert lines[1].split() == ["player", "score"]
    assert lines[1].index("score") + len("score") == lines[2].index("  zonks")  # over the scores
    assert lines[4] == "log:" and lines[5].startswith("Players: Ann, Bob")
