"""The commands that only read the game log (`games list/show/export/dice/report`) leave
no file beside it that was not there: SQLite's -wal and -shm files go when the read
ends, unless a game is being played on the log, and then they are the game's."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from zonkcam.cli import main
from zonkcam.game import PRESETS, parse_dice
from zonkcam.game import actions as A
from zonkcam.record.logged_game import LoggedGame
from zonkcam.record.store import EventLog

ZONK = A.Roll(parse_dice([2, 3, 4, 6, 6]))


def _saved(db: Path, rolls: int = 3) -> None:
    with EventLog(db) as log:
        logged = LoggedGame.new(log, PRESETS["classic-10000"], [A.Players(("Ann", "Bob"))])
        for _ in range(rolls):
            logged.play(ZONK)


def _read_only_commands(db: Path, tmp_path: Path) -> list[list[str]]:
    games = ["games", "--db", str(db)]
    return [
        [*games, "list"],
        [*games, "show", "1"],
        [*games, "show"],
        [*games, "export", "1"],
        [*games, "export", "1", "--out", str(tmp_path / "out" / "g1.jsonl")],
        [*games, "dice"],
        [*games, "report", "--out", str(tmp_path / "out" / "night")],
    ]


def _beside(db: Path) -> list[str]:
    return sorted(p.name for p in db.parent.iterdir())


def test_read_only_commands_leave_no_file_beside_a_log_nobody_plays_on(tmp_path, capsys):
    db = tmp_path / "log" / "games.sqlite3"
    _saved(db)
    assert _beside(db) == ["games.sqlite3"]  # the writer, closed, removed its -wal and -shm
    header = db.read_bytes()[:20]
    assert header[18] == 2  # the log is in WAL mode: a read-only open would make -shm, -wal
    before = db.read_bytes()
    (tmp_path / "out").mkdir()
    for argv in _read_only_commands(db, tmp_path):
        assert main(argv) == 0, argv
        assert _beside(db) == ["games.sqlite3"], argv
        assert db.read_bytes() == before, argv  # and the log itself is as it was
    out = capsys.readouterr().out
    assert "Ann, Bob" in out and '"rules"' in out


def test_read_only_commands_beside_a_game_being_played(tmp_path, capsys):
    """A writer holds the log open: the reads see what it saved, and its -wal and -shm
    files stay (they are its own) until it closes them away."""
    db = tmp_path / "log" / "games.sqlite3"
    (tmp_path / "out").mkdir()
    with EventLog(db) as log:
        logged = LoggedGame.new(log, PRESETS["classic-10000"], [A.Players(("Ann", "Bob"))])
        logged.play(ZONK)
        assert _beside(db) == ["games.sqlite3", "games.sqlite3-shm", "games.sqlite3-wal"]
        for argv in _read_only_commands(db, tmp_path):
            logged.play(ZONK)  # the game goes on between the reads
            assert main(argv) == 0, argv
            assert _beside(db) == ["games.sqlite3", "games.sqlite3-shm", "games.sqlite3-wal"]
        capsys.readouterr()
        assert main(["games", "--db", str(db), "export", "1"]) == 0
        exported = capsys.readouterr().out.splitlines()
        assert len(exported) == 1 + 1 + 1 + len(_read_only_commands(db, tmp_path))
        logged.play(ZONK)  # and the game can still be saved to
    assert _beside(db) == ["games.sqlite3"]
    with EventLog(db, read_only=True) as log:
        assert len(log.actions(1)) == 1 + 1 + len(_read_only_commands(db, tmp_path)) + 1
    assert _beside(db) == ["games.sqlite3"]


def test_a_game_started_while_the_log_is_read_is_saved_and_read(tmp_path):
    """A reader that opened the log while nobody played on it; a game starts, saves, and
    ends while the reader still holds it: the reader keeps its snapshot until its read
    ends, sees the game after, and nothing is left when both are closed."""
    db = tmp_path / "games.sqlite3"
    _saved(db, rolls=1)
    with EventLog(db, read_only=True) as reader:
        reader.connection.execute("BEGIN")  # one read transaction: a snapshot
        assert len(reader.actions(1)) == 2
        with EventLog(db) as log:
            LoggedGame.new(log, PRESETS["classic-10000"], [A.Players(("Cy", "Di"))])
        assert [g.id for g in reader.games()] == [1]
        reader.connection.execute("COMMIT")
        assert [g.id for g in reader.games()] == [1, 2]
        with pytest.raises(Exception, match="read-only|readonly"):
            reader.connection.execute("DELETE FROM events")
    assert _beside(db) == ["games.sqlite3"]
    with sqlite3.connect(db) as check:
        assert check.execute("SELECT COUNT(*) FROM events").fetchone()[0] > 0
    check.close()


def test_a_log_not_in_wal_mode_is_read_in_sqlites_read_only_mode(tmp_path, capsys):
    db = tmp_path / "games.sqlite3"
    _saved(db)
    with sqlite3.connect(db, isolation_level=None) as con:
        con.execute("PRAGMA journal_mode=DELETE")
    con.close()
    before = db.read_bytes()
    assert before[18] == 1
    assert main(["games", "--db", str(db), "list"]) == 0
    assert "Ann, Bob" in capsys.readouterr().out
    assert _beside(db) == ["games.sqlite3"] and db.read_bytes() == before
    assert EventLog(db, read_only=True)._read_mode() == "ro"


def test_a_log_this_user_may_not_write_is_read_from_a_copy_and_left_alone(
    tmp_path, capsys, monkeypatch
):
    """Where the log or its folder may not be written (another user's log, in a folder
    this user may write or not), SQLite's read-only mode would leave -wal and -shm files
    it cannot remove: a private copy is read instead."""
    import zonkcam.record.store as store

    db = tmp_path / "games.sqlite3"
    _saved(db)
    before = db.read_bytes()
    monkeypatch.setattr(store.os, "access", lambda path, mode: False)
    assert EventLog(db, read_only=True)._read_mode() == "copy"
    assert main(["games", "--db", str(db), "list"]) == 0
    assert "Ann, Bob" in capsys.readouterr().out
    assert _beside(db) == ["games.sqlite3"] and db.read_bytes() == before
