"""`games report`, `show`, `export`, `list` and `dice` while another zonkcam plays on:
each reads one moment of the log (one read transaction), so a page made from several
queries never mixes two moments (the report read a game's actions and their times as two
snapshots: "zip() argument 2 is shorter than argument 1")."""

from __future__ import annotations

import re
import threading
from pathlib import Path

import pytest

from zonkcam.cli import main
from zonkcam.game import PRESETS, parse_dice
from zonkcam.game import actions as A
from zonkcam.record.logged_game import LoggedGame
from zonkcam.record.store import EventLog

ZONK = A.Roll(parse_dice([2, 3, 4, 6, 6]))
"""Classic: a zonk, so the game goes on for ever, a turn an action."""


def _started(db: Path) -> None:
    with EventLog(db) as log:
        logged = LoggedGame.new(log, PRESETS["classic-10000"], [A.Players(("Ann", "Bob"))])
        for _ in range(5):
            logged.play(ZONK)


def _commands(db: Path, out: Path) -> list[list[str]]:
    games = ["games", "--db", str(db)]
    return [
        [*games, "report", "1", "--out", str(out / "report")],
        [*games, "report", "--out", str(out / "night")],
        [*games, "show", "1"],
        [*games, "show"],
        [*games, "export", "1", "--out", str(out / "game1.jsonl")],
        [*games, "list"],
        [*games, "dice"],
    ]


def _consistent(argv: list[str], said: str, out: Path) -> None:
    """What one command said agrees with itself."""
    if "export" in argv:
        lines = (out / "game1.jsonl").read_text().splitlines()
        wrote = int(re.search(r"wrote (\d+) actions", said).group(1))
        assert wrote == len(lines) - 1  # the rules, then the actions
        assert main(["replay", str(out / "game1.jsonl")]) == 0
    if "report" in argv:
        page = (Path(argv[-1]) / "index.html").read_text()
        turns = int(re.search(r">(\d+) turns played<", page).group(1))
        zonks = [int(n) for n in re.findall(r'<text x="[\d.]+" y="\d+">(\d+)</text>', page)[:2]]
        assert sum(zonks) == turns  # every turn a zonk, counted in one moment
    if argv[-1] == "list":
        row = re.search(r"^ *1 .* (\d+)  Ann, Bob$", said, re.MULTILINE)
        assert row is not None and int(row.group(1)) >= 6, said


def test_every_read_sees_one_moment_while_each_query_finds_a_new_action(
    tmp_path, capsys, monkeypatch
):
    """Before every query of the reading command another zonkcam saves one more action:
    the queries of one command still agree."""
    db = tmp_path / "g.db"
    _started(db)
    writer = EventLog(db)
    logged = LoggedGame.resume(writer, 1)
    real_read = EventLog._read

    def racing(self, sql, args=()):
        if self is not writer:
            logged.play(ZONK)
        return real_read(self, sql, args)

    monkeypatch.setattr(EventLog, "_read", racing)
    try:
        for argv in _commands(db, tmp_path):
            before = len(logged.game.events)
            assert main(argv) == 0, argv
            said = capsys.readouterr().out
            assert len(logged.game.events) > before  # the game did go on meanwhile
            _consistent(argv, said, tmp_path)
    finally:
        monkeypatch.undo()
        writer.close()
    with EventLog(db, read_only=True) as log, log.snapshot():
        assert len(log.actions(1)) == len(log.action_times(1)) == len(logged.game.events)


def test_reports_and_exports_beside_a_fast_writer(tmp_path, capsys):
    """A thread plays on as fast as it can save while the commands run again and again."""
    db = tmp_path / "g.db"
    _started(db)
    stop = threading.Event()
    written = []
    failed: list[BaseException] = []

    def write() -> None:
        try:
            with EventLog(db) as log:
                logged = LoggedGame.resume(log, 1)
                while not stop.is_set():
                    logged.play(ZONK)
                    written.append(1)
        except BaseException as exc:  # said by the test
            failed.append(exc)

    thread = threading.Thread(target=write, daemon=True)
    thread.start()
    try:
        for _ in range(8):
            for argv in _commands(db, tmp_path):
                assert main(argv) == 0, (argv, capsys.readouterr())
                _consistent(argv, capsys.readouterr().out, tmp_path)
    finally:
        stop.set()
        thread.join(60)
    assert not failed, failed
    assert written  # the writer did write meanwhile


def test_a_snapshot_is_one_moment_and_ends_with_its_block(tmp_path):
    db = tmp_path / "g.db"
    _started(db)
    with EventLog(db) as writer, EventLog(db, read_only=True) as reader:
        logged = LoggedGame.resume(writer, 1)
        with reader.snapshot():
            before = len(reader.actions(1))
            logged.play(ZONK)
            with reader.snapshot():  # inside one already: the same moment
                assert len(reader.action_times(1)) == before
            assert len(reader.actions(1)) == before
        assert not reader.connection.in_transaction
        assert len(reader.actions(1)) == before + 1
        with pytest.raises(KeyError), reader.snapshot():
            reader.actions(1)
            raise KeyError("a failure inside the block")
        assert not reader.connection.in_transaction
