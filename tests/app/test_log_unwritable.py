"""A game log that cannot be written for a while (a full disk, a card gone read-only)
ends the demo, the table and the text mode in one line, exit status 1, saying where the
game is kept: they no longer try again at every frame for ever ("cannot save ... the disk
is full" 22,604 times a minute)."""

from __future__ import annotations

import errno
import io
import itertools
import os
import re
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from zonkcam import cli
from zonkcam.app import main as app_main
from zonkcam.app.text import TextPlay
from zonkcam.game import PRESETS, parse_dice
from zonkcam.game import actions as A
from zonkcam.record import logged_game
from zonkcam.record.logged_game import SAVE_PATIENCE_S, SAVE_TRIES, LoggedGame
from zonkcam.record.store import EventLog, StoreError

ZONK = A.Roll(parse_dice([2, 3, 4, 6, 6]))
FULL = "the disk is full; free some space and try again"


class _Clock:
    """Seconds that pass only when told to."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class _FullDisk:
    """A log's connection whose every write of an action fails as `error` says."""

    def __init__(self, db: sqlite3.Connection, error: BaseException) -> None:
        self._db, self.error, self.full = db, error, True

    def execute(self, sql: str, *args):
        if self.full and sql.startswith("INSERT INTO events"):
            raise self.error
        return self._db.execute(sql, *args)

    def __getattr__(self, name: str):
        return getattr(self._db, name)


def _full(log: EventLog, error: BaseException) -> _FullDisk:
    fake = _FullDisk(log._db, error)
    log._db = fake
    return fake


@pytest.mark.parametrize(
    "error",
    [sqlite3.OperationalError("database or disk is full"), OSError(errno.ENOSPC, "No space")],
    ids=["sqlite", "oserror"],
)
def test_saves_failing_for_a_while_stop_the_game_with_where_it_is_kept(
    tmp_path, monkeypatch, error
):
    clock = _Clock()
    monkeypatch.setattr(LoggedGame, "clock", staticmethod(clock))
    db = tmp_path / "g.db"
    with EventLog(db) as log:
        logged = LoggedGame.new(log, PRESETS["classic-10000"], [A.Players(("Ann", "Bob"))])
        logged.play(ZONK)
        disk = _full(log, error)
        for n in range(1, 30):  # many tries at once: not yet a while
            with pytest.raises(StoreError, match=FULL):
                logged.play(ZONK)
            assert not logged.saves_stuck and logged.cannot_save("R") is None, n
        clock.now += SAVE_PATIENCE_S - 1
        assert not logged.saves_stuck
        disk.full = False  # space freed: saved, and the count starts again
        logged.play(ZONK)
        disk.full = True
        for _ in range(SAVE_TRIES - 1):  # a while, but too few tries
            with pytest.raises(StoreError):
                logged.play(ZONK)
            clock.now += SAVE_PATIENCE_S
        assert not logged.saves_stuck
        with pytest.raises(StoreError):
            logged.play(ZONK)
        assert logged.saves_stuck
        line = logged.cannot_save("zonkcam play --resume 1")
        assert line == (
            f"cannot save to the game log {db}: {FULL} ({SAVE_TRIES} saves in a row failed "
            f"over 40 s); this game's 3 actions are kept in {db}: go on with "
            "zonkcam play --resume 1 once it can be written"
        )
        assert len(logged.game.events) == 3
    with EventLog(db) as log:
        assert len(log.actions(1)) == 3  # every action shown as accepted, nothing else


def test_the_text_mode_stops_in_one_line_and_exits_1(tmp_path, monkeypatch, capsys):
    clock = _Clock()
    monkeypatch.setattr(LoggedGame, "clock", staticmethod(clock))
    db = tmp_path / "g.db"
    shown: list[str] = []
    typed = iter(["23466"] * 1000)

    def read(_prompt: str) -> str:
        clock.now += 3  # someone typing
        return next(typed)

    with EventLog(db) as log:
        logged = LoggedGame.new(log, PRESETS["classic-10000"], [A.Players(("Ann", "Bob"))])
        logged.play(ZONK)
        _full(log, sqlite3.OperationalError("database or disk is full"))
        assert TextPlay(logged, read=read, write=shown.append, resume_command="R").run() is False
    refused = [line for line in shown if line.startswith("! ")]
    assert len(refused) == SAVE_TRIES + 1  # each typed line refused, then the end
    assert refused[-1] == (
        f"! cannot save to the game log {db}: {FULL} ({SAVE_TRIES} saves in a row failed over "
        f"12 s); this game's 2 actions are kept in {db}: go on with R once it can be written"
    )
    assert shown[-1] == refused[-1] and not any(" saved; resume" in line for line in shown)


def test_the_text_mode_through_the_cli_exits_1(tmp_path, monkeypatch, capsys):
    ticks = itertools.count(0, 4)
    monkeypatch.setattr(LoggedGame, "clock", staticmethod(lambda: float(next(ticks))))
    db = tmp_path / "g.db"
    real_append = EventLog.append

    def append(self, game_id, action, seq, finished=None):
        if seq > 3:
            raise StoreError(f"cannot save to the game log {self.path}: {FULL}")
        return real_append(self, game_id, action, seq, finished)

    monkeypatch.setattr(EventLog, "append", append)
    monkeypatch.setattr(sys, "stdin", io.StringIO("23466\n" * 500))
    code = cli.main(["play", "--text", "--db", str(db), "--players", "Ann", "Bob"])
    out = capsys.readouterr().out
    assert code == 1
    assert SAVE_TRIES + 1 <= out.count(FULL) <= 20  # each typed line refused, then the end
    assert out.splitlines()[-1].endswith(
        f"are kept in {db}: go on with zonkcam play --text --db {db} --resume 1 once it can "
        "be written"
    )


def test_the_headless_demo_on_a_full_disk_ends_with_exit_status_1(tmp_path, capsys, monkeypatch):
    """The disk fills mid-game (each save of an action fails): the demo says so once,
    tries on for a while, then ends in one line that says where its game is kept."""
    db = tmp_path / "g.sqlite3"
    ticks_after = []
    ticks = itertools.count()
    monkeypatch.setattr(LoggedGame, "clock", staticmethod(lambda: float(next(ticks))))

    class FillingApp(app_main.TableApp):
        def tick(self, item):
            if ticks_after:
                ticks_after.append(item)
                assert len(ticks_after) < 2000, "the demo plays on with its disk full"
            elif len(self.logged.game.events) >= 4:  # seated and a few actions in
                _full(self.logged.log, sqlite3.OperationalError("database or disk is full"))
                ticks_after.append(item)
            super().tick(item)

    monkeypatch.setattr(app_main, "TableApp", FillingApp)
    argv = ["play", "--source", "demo", "--games", "1000", "--fast", "--db", str(db)]
    assert cli.main([*argv, "--screenshots", str(tmp_path / "s"), "--mute"]) == 1
    out, err = capsys.readouterr()
    assert out.count("the disk is full") == 1  # said once, not every frame
    last = err.splitlines()[-1]
    assert last.startswith(f"zonkcam: cannot save to the game log {db}: {FULL} (")
    _tried_for_a_while(last)
    assert last.endswith(
        f"this game's {_actions(db)} actions are kept in {db}: go on with zonkcam play --db "
        f"{db} --resume 1 once it can be written"
    )


def _tried_for_a_while(line: str) -> None:
    tries, seconds = re.search(r"\((\d+) saves in a row failed over (\d+) s\)", line).groups()
    assert SAVE_TRIES <= int(tries) < 100 and SAVE_PATIENCE_S <= int(seconds) < 100, line


def _actions(db: Path) -> int:
    with EventLog(db) as log:
        return len(log.actions(max(g.id for g in log.games())))


def test_a_failed_save_is_said_once_while_the_table_tries_again(tmp_path, monkeypatch):
    from tests.app.test_app import _app_at_decision

    app, table, log, window, lines = _app_at_decision(tmp_path)
    _full(log, sqlite3.OperationalError("database or disk is full"))
    for _ in range(5):
        assert not app.play(A.Bank())
    assert sum(FULL in line for line in lines) == 1
    assert FULL in app.screen.message
    log._db.full = False
    assert app.play(A.Keep((1, 1, 1)))  # saved: a later failure is news again
    log._db.full = True
    assert not app.play(A.Bank())
    assert sum(FULL in line for line in lines) == 2
    window.close()
    log.close()


def _tmpfs(folder: Path) -> list[str] | None:
    """A command prefix that runs a command with a 1 MB tmpfs mounted on `folder`, in a
    private mount namespace; None where mounting is not allowed here."""
    script = 'mount -t tmpfs -o size=1m zonkcam-test "$0" && exec "$@"'
    for prefix in (["unshare", "-m"], ["unshare", "-Urm"]):
        if shutil.which(prefix[0]) is None:
            return None
        try:
            probe = subprocess.run(
                [*prefix, "sh", "-c", script, str(folder), "true"], capture_output=True, timeout=30
            )
        except (OSError, subprocess.TimeoutExpired):
            continue
        if probe.returncode == 0:
            return [*prefix, "sh", "-c", script, str(folder)]
    return None


FILLING = """
import errno, itertools, sys
from zonkcam.record.logged_game import LoggedGame

ticks = itertools.count()  # seconds pass as failed saves are counted: no waiting in a test
LoggedGame.clock = staticmethod(lambda: float(next(ticks)))
play = LoggedGame.play


def filling(self, action):
    state = play(self, action)
    if len(self.game.events) == 4:  # seated and a few actions in: the card fills up
        with open(sys.argv[1], "wb", buffering=0) as f:
            for size in (65536, 4096, 512):
                try:
                    while f.write(bytes(size)):
                        pass
                except OSError as exc:
                    assert exc.errno == errno.ENOSPC, exc
    return state


LoggedGame.play = filling
from zonkcam.cli import main

sys.exit(main(sys.argv[2:]))
"""


def test_the_headless_demo_on_a_real_full_tmpfs(tmp_path):
    """The game log on a small tmpfs that another program fills mid-game."""
    card = tmp_path / "card"
    card.mkdir()
    prefix = _tmpfs(card)
    if prefix is None:
        pytest.skip("mounting a tmpfs is not allowed here (needs root or user namespaces)")
    db = card / "g.sqlite3"
    argv = ["play", "--source", "demo", "--games", "100000", "--fast", "--mute"]
    argv += ["--db", str(db), "--screenshots", str(tmp_path / "s"), "--photo-budget", "0"]
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    env["PYTHONPATH"] = str(Path(logged_game.__file__).parents[2])
    proc = subprocess.run(
        [*prefix, sys.executable, "-c", FILLING, str(card / "filler"), *argv],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert proc.returncode == 1, proc.stderr[-3000:]
    assert "Traceback" not in proc.stderr
    last = proc.stderr.splitlines()[-1]
    assert last.startswith(f"zonkcam: cannot save to the game log {db}: {FULL} (")
    _tried_for_a_while(last)
    assert f"go on with zonkcam play --db {db} --resume 1 once it can be written" in last
    assert proc.stdout.count("cannot save") == 1  # said once
