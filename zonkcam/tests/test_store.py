"""The event log: games are saved action by action and survive a SIGKILL."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from zonkcam.game import actions as A
from zonkcam.game.dice import parse_dice
from zonkcam.game.errors import IllegalKeepError
from zonkcam.game.game import Game
from zonkcam.game.rules import PRESETS, load_rules
from zonkcam.scorekeeper import Scorekeeper
from zonkcam.store import EventLog, default_db_path


def roll(*values):
    return A.Roll(parse_dice(values))


def test_default_path_follows_xdg(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_db_path() == tmp_path / "zonkcam" / "games.sqlite3"
    monkeypatch.setenv("ZONKCAM_DB", str(tmp_path / "x.db"))
    assert default_db_path() == tmp_path / "x.db"


def test_wal_and_full_sync(tmp_path):
    with EventLog(tmp_path / "g.db") as log:
        assert log._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert log._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_actions_are_saved_and_resumed(tmp_path):
    db = tmp_path / "g.db"
    with EventLog(db) as log:
        keeper = Scorekeeper.new(log, PRESETS["classic-10000"])
        for action in (A.Players(("Ann", "Bob")), roll(1, 1, 1, 4, 4), A.Keep((1, 1, 1)),
                       roll(5, 2)):
            keeper.play(action)
        with pytest.raises(IllegalKeepError):
            keeper.play(A.Keep((2,)))  # refused: nothing written
        keeper.play(A.Keep((5,)))
        game_id = keeper.game_id
        expected = keeper.state.to_json()
    with EventLog(db) as log:
        again = Scorekeeper.resume(log, game_id)
        assert again.state.to_json() == expected
        assert len(log.actions(game_id)) == 5
        assert log.latest_unfinished() == game_id


def test_undo_is_stored_and_replayed(tmp_path):
    db = tmp_path / "g.db"
    with EventLog(db) as log:
        keeper = Scorekeeper.new(log, PRESETS["chicago"])
        keeper.play(A.Players(("Ann",)))
        keeper.play(roll(1, 2, 3, 4, 6))
        keeper.play(A.Undo())
        keeper.play(roll(5, 5, 5, 2, 3))
        stored = [A.action_to_json(a) for a in log.actions(keeper.game_id)]
        assert stored[2] == {"undo": True}
        resumed = Scorekeeper.resume(log, keeper.game_id)
        assert resumed.state.turn.roll == parse_dice([5, 5, 5, 2, 3])
        assert resumed.game.events == keeper.game.events


def test_finished_flag_follows_win_and_undo(tmp_path):
    rules = load_rules("chicago")
    import dataclasses

    short = dataclasses.replace(rules, target=500)
    with EventLog(tmp_path / "g.db") as log:
        keeper = Scorekeeper.new(log, short)
        keeper.play(A.Players(("Ann", "Bob")))
        keeper.play(roll(5, 5, 5, 2, 3))
        keeper.play(A.Bank())
        assert keeper.state.finished and log.games()[0].finished
        keeper.play(A.Undo())
        assert not keeper.state.finished and not log.games()[0].finished
        # custom rules come back from the log even without their file
        assert log.rules(keeper.game_id) == short


def test_export_is_replayable(tmp_path, capsys):
    from zonkcam.cli import main

    db = tmp_path / "g.db"
    with EventLog(db) as log:
        keeper = Scorekeeper.new(log, PRESETS["drinking"])
        for action in (A.Players(("Ann", "Bob")), roll(1, 1, 1, 5, 3), A.Bank()):
            keeper.play(action)
    out_file = tmp_path / "game.jsonl"
    assert main(["games", "--db", str(db), "export", "1", "--out", str(out_file)]) == 0
    assert main(["replay", "--rules", "drinking", str(out_file)]) == 0
    out = capsys.readouterr().out.splitlines()[-1]
    assert {p["name"]: p["score"] for p in json.loads(out)["players"]} == {"Ann": 1050, "Bob": 0}
    assert main(["games", "--db", str(db), "list"]) == 0
    assert "drinking" in capsys.readouterr().out
    assert main(["games", "--db", str(db), "show", "9"]) == 2
    assert "no game 9" in capsys.readouterr().err


def test_sigkill_between_actions_loses_nothing_acknowledged(tmp_path):
    """Type actions into a real process, SIGKILL it, and resume from the log."""
    db = tmp_path / "g.db"
    lines = ["12466", "1", "1345", "15", "44", "reroll", "34",  # Ann zonks
             "44455", "44455", "44446", "4444", "b",                # Bob banks 1000
             "55512"]
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "zonkcam", "play", "--text", "--db", str(db),
         "--rules", "classic-10000", "--players", "Ann", "Bob"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env=env)
    acknowledged = 0

    def status_line() -> str:  # every accepted or refused line ends with one
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            out = proc.stdout.readline()
            if out.startswith(("Ann:", "Bob:", "! ")):
                return out
        raise AssertionError("the scorekeeper stopped answering")

    try:
        status_line()  # the opening status, before anything is typed
        for line in lines:
            proc.stdin.write(line + "\n")
            proc.stdin.flush()
            out = status_line()
            assert not out.startswith("! "), out
            acknowledged += 1
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    assert proc.returncode == -signal.SIGKILL
    with EventLog(db) as log:
        (record,) = log.games()
        stored = log.actions(record.id)
    assert len(stored) == acknowledged + 1  # the players action, then every typed one
    game = Game(PRESETS["classic-10000"], stored)
    assert {p.name: p.score for p in game.state.players} == {"Ann": 0, "Bob": 1000}
    assert game.state.turn.roll == parse_dice([5, 5, 5, 1, 2])
