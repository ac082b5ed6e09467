"""The event log: games are saved action by action and survive a SIGKILL."""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from zonkcam.errors import UserError
from zonkcam.game import PRESETS, Game, TableError, load_rules, parse_dice
from zonkcam.game import actions as A
from zonkcam.game.errors import IllegalKeepError
from zonkcam.record.logged_game import LoggedGame
from zonkcam.record.store import EventLog, default_db_path


def roll(*values):
    return A.Roll(parse_dice(values))


def test_default_path_follows_xdg(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_db_path() == tmp_path / "zonkcam" / "games.sqlite3"
    monkeypatch.setenv("ZONKCAM_DB", str(tmp_path / "x.db"))
    assert default_db_path() == tmp_path / "x.db"


def test_wal_and_full_sync(tmp_path):
    with EventLog(tmp_path / "g.db") as log:
        assert log.connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert log.connection.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_actions_are_saved_and_resumed(tmp_path):
    db = tmp_path / "g.db"
    with EventLog(db) as log:
        logged = LoggedGame.new(log, PRESETS["classic-10000"])
        for action in (
            A.Players(("Ann", "Bob")),
            roll(1, 1, 1, 4, 4),
            A.Keep((1, 1, 1)),
            roll(5, 2),
        ):
            logged.play(action)
        with pytest.raises(IllegalKeepError):
            logged.play(A.Keep((2,)))  # refused: nothing written
        logged.play(A.Keep((5,)))
        game_id = logged.game_id
        expected = logged.state.to_json()
    with EventLog(db) as log:
        again = LoggedGame.resume(log, game_id)
        assert again.state.to_json() == expected
        assert len(log.actions(game_id)) == 5
        assert log.latest_unfinished() == game_id


def test_undo_is_stored_and_replayed(tmp_path):
    db = tmp_path / "g.db"
    with EventLog(db) as log:
        logged = LoggedGame.new(log, PRESETS["chicago"])
        logged.play(A.Players(("Ann",)))
        logged.play(roll(1, 2, 3, 4, 6))
        logged.play(A.Undo())
        logged.play(roll(5, 5, 5, 2, 3))
        stored = [A.action_to_json(a) for a in log.actions(logged.game_id)]
        assert stored[2] == {"undo": True}
        resumed = LoggedGame.resume(log, logged.game_id)
        assert resumed.state.turn.roll == parse_dice([5, 5, 5, 2, 3])
        assert resumed.game.events == logged.game.events


def test_finished_flag_follows_win_and_undo(tmp_path):
    rules = load_rules("chicago")
    short = dataclasses.replace(rules, target=500)
    with EventLog(tmp_path / "g.db") as log:
        logged = LoggedGame.new(log, short)
        logged.play(A.Players(("Ann", "Bob")))
        logged.play(roll(5, 5, 5, 2, 3))
        logged.play(A.Bank())
        assert logged.state.finished and log.games()[0].finished
        logged.play(A.Undo())
        assert not logged.state.finished and not log.games()[0].finished
        # custom rules come back from the log even without their file
        assert log.rules(logged.game_id) == short


def test_export_is_replayable(tmp_path, capsys):
    from zonkcam.cli import main

    db = tmp_path / "g.db"
    with EventLog(db) as log:
        logged = LoggedGame.new(log, PRESETS["drinking"])
        for action in (A.Players(("Ann", "Bob")), roll(1, 1, 1, 5, 3), A.Bank()):
            logged.play(action)
    out_file = tmp_path / "game.jsonl"
    assert main(["games", "--db", str(db), "export", "1", "--out", str(out_file)]) == 0
    assert main(["replay", "--rules", "drinking", str(out_file)]) == 0
    out = capsys.readouterr().out.splitlines()[-1]
    assert {p["name"]: p["score"] for p in json.loads(out)["players"]} == {"Ann": 1050, "Bob": 0}
    assert main(["games", "--db", str(db), "list"]) == 0
    assert "drinking" in capsys.readouterr().out
    assert main(["games", "--db", str(db), "show", "9"]) == 2
    assert "no game 9" in capsys.readouterr().err


def test_games_show_with_no_number_shows_the_game_played_last(tmp_path, capsys):
    from zonkcam.cli import main

    db = tmp_path / "g.db"
    assert main(["games", "--db", str(db), "show"]) == 2  # no log yet: one line
    assert "Traceback" not in capsys.readouterr().err
    with EventLog(db) as log:
        for names in (("Ann", "Bob"), ("Cy", "Dee")):
            logged = LoggedGame.new(log, PRESETS["classic-10000"])
            logged.play(A.Players(names))
            logged.play(roll(1, 1, 1, 5, 3))
        first = LoggedGame.resume(log, 1)
        first.play(A.Bank())  # game 1 played last
    assert main(["games", "--db", str(db), "show"]) == 0
    out = capsys.readouterr().out
    assert "Ann" in out and "Dee" not in out
    assert main(["games", "--db", str(db), "show", "2"]) == 0
    assert "Dee" in capsys.readouterr().out


def test_sigkill_between_actions_loses_nothing_acknowledged(tmp_path):
    """Type actions into a real process, SIGKILL it, and resume from the log."""
    db = tmp_path / "g.db"
    lines = [
        "12466",
        "1",
        "1345",
        "15",
        "44",
        "reroll",
        "34",  # Ann zonks
        "44455",
        "44455",
        "44446",
        "4444",
        "b",  # Bob banks 1000
        "55512",
    ]
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
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
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
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


# -- the layout and its versions ------------------------------------------------------------

FIRST_RELEASED_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    created REAL NOT NULL,
    rules_name TEXT NOT NULL,
    rules_toml TEXT NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS events (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    at REAL NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""
"""The layout zonkcam first shipped, exactly as it created it (no version number)."""


def first_released_log(db) -> None:
    """A log as the first release left it: one finished game and one in play."""
    import sqlite3

    from zonkcam.game.rules import rules_to_toml

    con = sqlite3.connect(db, isolation_level=None)
    con.execute("PRAGMA journal_mode=WAL")
    con.executescript(FIRST_RELEASED_SCHEMA)
    rows = [
        [{"players": ["Ann", "Bob"]}, {"roll": [1, 1, 1, 2, 3]}, {"bank": True}],
        [{"players": ["Cy", "Di"]}, {"roll": [5, 2, 3, 4, 6]}, {"keep": [5]}],
    ]
    for gid, (actions, finished) in enumerate(zip(rows, (1, 0), strict=True), start=1):
        rules = dataclasses.replace(PRESETS["chicago"], target=1000)
        con.execute(
            "INSERT INTO games VALUES (?, ?, ?, ?, ?)",
            (gid, 1.7e9, rules.name, rules_to_toml(rules), finished),
        )
        for seq, obj in enumerate(actions, start=1):
            con.execute(
                "INSERT INTO events VALUES (?, ?, ?, ?)", (gid, seq, 1.7e9 + seq, json.dumps(obj))
            )
    con.close()


def test_a_log_of_the_first_release_is_upgraded_and_plays_on(tmp_path):
    from zonkcam.record.schema import SCHEMA_VERSION

    db = tmp_path / "g.db"
    first_released_log(db)
    with EventLog(db) as log:
        assert log.connection.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        games = log.games()
        assert [(g.id, g.finished, g.events, g.players) for g in games] == [
            (1, True, 3, ("Ann", "Bob")),
            (2, False, 3, ("Cy", "Di")),
        ]
        assert log.latest_unfinished() == 2
        logged = LoggedGame.resume(log, 2)
        assert logged.state.turn.total == 50
        logged.play(roll(5, 5, 2, 3))
        won = LoggedGame.resume(log, 1).state
        assert won.finished and won.winner == "Ann"
    with EventLog(db) as log:  # opening an upgraded log again changes nothing
        assert len(log.actions(2)) == 4


def test_every_layout_version_upgrades_to_the_current_one(tmp_path):
    """A file at any earlier version (every prefix of the steps) comes up to date."""
    import sqlite3

    from zonkcam.record.schema import MIGRATIONS, SCHEMA_VERSION

    for version in range(SCHEMA_VERSION + 1):
        db = tmp_path / f"v{version}.db"
        con = sqlite3.connect(db, isolation_level=None)
        for step in MIGRATIONS[:version]:
            con.executescript(step)
        con.execute(f"PRAGMA user_version = {version}")
        con.close()
        with EventLog(db) as log:
            assert log.connection.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
            logged = LoggedGame.new(log, PRESETS["chicago"], [A.Players(("Ann",))])
            logged.play(roll(1, 2, 3, 4, 6))
            assert len(log.actions(logged.game_id)) == 2


def test_a_new_layout_step_is_one_more_sql_step(tmp_path, monkeypatch):
    from zonkcam.record import schema, store

    db = tmp_path / "g.db"
    with EventLog(db) as log:
        LoggedGame.new(log, PRESETS["chicago"], [A.Players(("Ann",))])
    photos = "CREATE TABLE roll_photos (game_id INTEGER, seq INTEGER, path TEXT);"
    monkeypatch.setattr(schema, "MIGRATIONS", (*schema.MIGRATIONS, photos))
    for module in (schema, store):
        monkeypatch.setattr(module, "SCHEMA_VERSION", len(schema.MIGRATIONS))
    with EventLog(db) as log:
        assert log.connection.execute("PRAGMA user_version").fetchone()[0] == schema.SCHEMA_VERSION
        assert log.connection.execute("SELECT COUNT(*) FROM roll_photos").fetchone() == (0,)
        assert len(log.actions(1)) == 1


# -- one writer per game ----------------------------------------------------------------------


def test_a_second_log_on_the_same_game_is_refused_until_the_first_closes(tmp_path):
    from zonkcam.record.store import GameBusyError

    db = tmp_path / "g.db"
    first = EventLog(db)
    logged = LoggedGame.new(first, PRESETS["chicago"], [A.Players(("Ann", "Bob"))])
    with EventLog(db) as second:
        with pytest.raises(GameBusyError, match="game 1 is being played by another zonkcam"):
            LoggedGame.resume(second, 1)
        assert [g.id for g in second.games()] == [1]  # reading is always fine
        other = LoggedGame.new(second, PRESETS["chicago"], [A.Players(("Cy",))])
        other.play(roll(1, 2, 3, 4, 6))  # another game: another writer
    logged.play(roll(5, 2, 3, 4, 6))
    first.close()
    with EventLog(db) as second:
        again = LoggedGame.resume(second, 1)
        again.play(A.Keep((5,)))
        assert len(second.actions(1)) == 3


def test_an_old_copy_of_a_game_cannot_write_over_newer_actions(tmp_path):
    db = tmp_path / "g.db"
    with EventLog(db) as log:
        logged = LoggedGame.new(log, PRESETS["chicago"], [A.Players(("Ann", "Bob"))])
        stale = LoggedGame.resume(log, logged.game_id)
        logged.play(roll(5, 2, 3, 4, 6))
        with pytest.raises(
            UserError,
            match="game 1 was changed by another zonkcam .2 actions "
            "stored, this one expected 1.: nothing was saved",
        ):
            stale.play(roll(1, 2, 3, 4, 6))
        assert len(stale.game.events) == 1
        assert log.actions(1)[1] == roll(5, 2, 3, 4, 6)


def _holder(db, game_id: int):
    """Another process that resumes the game and holds it until it is killed."""
    code = (
        "import sys; from zonkcam.record.store import EventLog; "
        "from zonkcam.record.logged_game import LoggedGame; "
        "log = EventLog(sys.argv[1]); LoggedGame.resume(log, int(sys.argv[2])); "
        "print('holding', flush=True); sys.stdin.read()"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code, str(db), str(game_id)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout.readline() == "holding\n"
    return proc


def test_a_live_writer_in_another_process_is_refused_and_a_killed_one_is_not(tmp_path):
    from zonkcam.record.store import GameBusyError

    db = tmp_path / "g.db"
    with EventLog(db) as log:
        LoggedGame.new(log, PRESETS["chicago"], [A.Players(("Ann", "Bob"))])
    holder = _holder(db, 1)
    try:
        with EventLog(db) as log, pytest.raises(GameBusyError) as info:
            LoggedGame.resume(log, 1)
        message = str(info.value)
        assert f"(process {holder.pid}, since " in message and "close that one first" in message
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait(timeout=10)
    with EventLog(db) as log:  # the killed writer's claim is left behind, and taken over
        assert log.connection.execute("SELECT pid FROM writers").fetchall() == [(holder.pid,)]
        LoggedGame.resume(log, 1).play(roll(1, 2, 3, 4, 6))


def test_a_claim_from_before_a_reboot_is_taken_over(tmp_path):
    import sqlite3

    db = tmp_path / "g.db"
    with EventLog(db) as log:
        LoggedGame.new(log, PRESETS["chicago"], [A.Players(("Ann",))])
    with sqlite3.connect(db) as con:  # a claim by this very pid, but in an earlier boot
        con.execute(
            "INSERT INTO writers VALUES (1, ?, ?, 0)",
            (f"earlier-boot/{os.getpid()}/1/x", os.getpid()),
        )
    with EventLog(db) as log:
        LoggedGame.resume(log, 1).play(roll(1, 2, 3, 4, 6))


def test_a_writer_whose_claim_was_taken_over_is_refused(tmp_path):
    import sqlite3

    from zonkcam.record.store import GameBusyError

    db = tmp_path / "g.db"
    log = EventLog(db)
    logged = LoggedGame.new(log, PRESETS["chicago"], [A.Players(("Ann",))])
    taker = subprocess.Popen(
        [sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE
    )
    try:
        start = open(f"/proc/{taker.pid}/stat").read().rsplit(")", 1)[1].split()[19]
        boot = open("/proc/sys/kernel/random/boot_id").read().strip()
        with sqlite3.connect(db) as con:
            con.execute(
                "UPDATE writers SET process = ?, pid = ?",
                (f"{boot}/{taker.pid}/{start}/x", taker.pid),
            )
        with pytest.raises(GameBusyError):
            logged.play(roll(1, 2, 3, 4, 6))
        assert len(log.actions(1)) == 1
    finally:
        taker.kill()
        taker.wait(timeout=10)
        log.close()


# -- one transaction per step ------------------------------------------------------------------


def test_a_game_is_stored_only_with_its_players(tmp_path):
    db = tmp_path / "g.db"
    with EventLog(db) as log:
        logged = LoggedGame.new(log, PRESETS["chicago"])
        assert log.games() == []  # nothing yet: no game without players
        with pytest.raises(TableError):
            logged.play(roll(1, 2, 3, 4, 6))  # not seated: refused, nothing stored
        assert log.games() == []
        logged.play(A.Players(("Ann", "Bob")))
        (record,) = log.games()
        assert record.players == ("Ann", "Bob") and logged.game_id == record.id


def _transactions(log) -> list[list[str]]:
    """Trace the statements each write transaction runs."""
    out: list[list[str]] = []
    open_ = [False]

    def trace(sql: str) -> None:
        word = sql.split()[0].upper()
        if word == "BEGIN":
            out.append([])
            open_[0] = True
        elif word in ("COMMIT", "ROLLBACK"):
            open_[0] = False
        elif open_[0] and word != "SELECT":
            out[-1].append(" ".join(sql.split()[:3]))

    log.connection.set_trace_callback(trace)
    return out


def test_the_winning_action_and_the_finished_flag_are_one_transaction(tmp_path):
    short = dataclasses.replace(PRESETS["chicago"], target=500)
    with EventLog(tmp_path / "g.db") as log:
        seen = _transactions(log)
        logged = LoggedGame.new(log, short, [A.Players(("Ann", "Bob"))])
        assert seen[-1][:2] == ["INSERT INTO games", "INSERT INTO events"]
        logged.play(roll(5, 5, 5, 2, 3))
        logged.play(A.Bank())
        assert logged.state.finished
        assert seen[-1][-2:] == ["INSERT INTO events", "UPDATE games SET"]
        logged.play(A.Undo())
        assert seen[-1][-2:] == ["INSERT INTO events", "UPDATE games SET"]
        assert len(seen) == 4
