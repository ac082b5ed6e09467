"""Every storage failure is one line that names the file, and loses nothing.

Damaged files, read-only files, a full disk, a locked file, a foreign or newer layout,
damaged rows; each through the commands a person types.
"""

from __future__ import annotations

import io
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import pytest

from tests.mounts import read_only_mount
from zonkcam.app.text import TextPlay
from zonkcam.cli import main
from zonkcam.game import PRESETS, parse_dice
from zonkcam.game import actions as A
from zonkcam.record.logged_game import LoggedGame
from zonkcam.record.schema import SCHEMA_VERSION
from zonkcam.record.store import EventLog, StoreError, local_time

ZONK = A.Roll(parse_dice([2, 3, 4, 6, 6]))


def saved_game(db: Path, rolls: int = 3) -> None:
    with EventLog(db) as log:
        logged = LoggedGame.new(log, PRESETS["classic-10000"], [A.Players(("Ann", "Bob"))])
        for _ in range(rolls):
            logged.play(ZONK)


def one_line_error(capsys, *argv: str, stdin: str = "quit\n", monkeypatch=None) -> str:
    """Run the CLI; it must fail with exit 2 and exactly one line on stderr."""
    if monkeypatch is not None:
        import io

        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    assert main(list(argv)) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    return err


def commands(db: Path) -> list[list[str]]:
    return [
        ["games", "--db", str(db), "list"],
        ["games", "--db", str(db), "show", "1"],
        ["play", "--text", "--db", str(db), "--resume", "1"],
        ["play", "--text", "--db", str(db), "--players", "Ann", "Bob"],
    ]


@pytest.mark.parametrize("page", [1, 2, 3])
def test_a_damaged_file_is_one_line_everywhere(tmp_path, capsys, monkeypatch, page):
    db = tmp_path / "g.db"
    saved_game(db)
    data = bytearray(db.read_bytes())
    data[page * 4096 : (page + 1) * 4096] = b"\xa5" * 4096
    db.write_bytes(bytes(data))
    for argv in commands(db):
        err = one_line_error(capsys, *argv, monkeypatch=monkeypatch)
        assert f"the game log {db} is damaged" in err and "recover" in err
    assert db.read_bytes() == bytes(data)  # nothing written over it


def test_a_file_that_is_not_sqlite(tmp_path, capsys, monkeypatch):
    db = tmp_path / "g.db"
    db.write_text("these are my notes, not a game log\n" * 200)
    for argv in commands(db):
        assert "is damaged (file is not a database)" in one_line_error(
            capsys, *argv, monkeypatch=monkeypatch
        )
    assert db.read_text().startswith("these are my notes")


def test_a_foreign_layout_is_refused_untouched(tmp_path, capsys, monkeypatch):
    db = tmp_path / "other.db"
    with sqlite3.connect(db) as con:
        con.execute("CREATE TABLE recipes (name TEXT)")
    before = db.read_bytes()
    for argv in commands(db):
        assert "is not a zonkcam game log (it has the tables recipes)" in one_line_error(
            capsys, *argv, monkeypatch=monkeypatch
        )
    assert db.read_bytes() == before
    db = tmp_path / "films.db"
    with sqlite3.connect(db) as con:  # games of another program, same table name
        con.execute("CREATE TABLE games (title TEXT, year INTEGER)")
    with pytest.raises(StoreError, match="its games table has no created, finished, id"):
        EventLog(db)


def test_a_newer_layout_asks_for_a_newer_zonkcam(tmp_path, capsys, monkeypatch):
    db = tmp_path / "g.db"
    saved_game(db)
    with sqlite3.connect(db) as con:
        con.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    err = one_line_error(capsys, "games", "--db", str(db), "list")
    assert "written by a newer zonkcam" in err and "upgrade zonkcam" in err


def test_a_read_only_log_refuses_the_action_and_the_session_goes_on(tmp_path):
    db = tmp_path / "g.db"
    saved_game(db, rolls=1)
    typed = iter(["23466", "board", "quit"])
    shown: list[str] = []
    with EventLog(db) as log:
        logged = LoggedGame.resume(log, 1)
        log.connection.execute("PRAGMA query_only = ON")  # SQLite's read-only refusal
        TextPlay(logged, read=lambda _: next(typed), write=shown.append).run()
        assert len(logged.game.events) == 2  # not accepted: the game is where it was
    refusal = next(line for line in shown if line.startswith("! "))
    assert f"cannot save to the game log {db}: it is read-only" in refusal
    assert "nothing was saved" in refusal
    assert shown[-1].startswith("Game 1 saved")  # the session went on to the end
    with EventLog(db) as log:
        assert len(log.actions(1)) == 2


def test_a_read_only_file_through_the_cli(tmp_path):
    """The file's permissions, as a user other than root sees them (root ignores them: as
    root the command runs as nobody where that user can run this Python)."""
    user = 65534 if os.geteuid() == 0 else None
    if user is not None:
        try:
            subprocess.run(
                [sys.executable, "-c", "pass"], user=user, check=True, capture_output=True
            )
        except (OSError, subprocess.CalledProcessError):
            pytest.skip("nobody cannot run this Python")
    folder = Path(tempfile.mkdtemp(prefix="zonkcam-ro-"))
    try:
        folder.chmod(0o777)
        db = folder / "g.db"
        saved_game(db, rolls=1)
        db.chmod(0o444)
        proc = subprocess.run(
            [sys.executable, "-m", "zonkcam", "play", "--text", "--db", str(db), "--resume", "1"],
            input="23466\nquit\n",
            capture_output=True,
            text=True,
            user=user,
            timeout=60,
            env=dict(os.environ, HOME=str(folder)),
        )
        # resuming claims the game, a write: refused there, in one line
        assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
        assert len(proc.stderr.splitlines()) == 1
        assert "it is read-only" in proc.stderr or "cannot open the game log" in proc.stderr
        db.chmod(0o644)
        with EventLog(db) as log:
            assert len(log.actions(1)) == 2
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_a_full_disk_refuses_the_action_and_keeps_what_was_saved(tmp_path):
    db = tmp_path / "g.db"
    saved_game(db, rolls=0)
    with EventLog(db) as log:
        logged = LoggedGame.resume(log, 1)
        pages = log.connection.execute("PRAGMA page_count").fetchone()[0]
        log.connection.execute(f"PRAGMA max_page_count = {pages}")  # the file may not grow
        saved = 0
        with pytest.raises(StoreError, match="the disk is full; free some space") as info:
            for _ in range(1000):
                logged.play(ZONK)
                saved += 1
        assert "nothing was saved" in str(info.value)
        assert len(logged.game.events) == 1 + saved
        log.connection.execute("PRAGMA max_page_count = 1000000")  # space freed: play goes on
        logged.play(ZONK)
    with EventLog(db) as log:
        assert len(log.actions(1)) == 2 + saved


def test_a_file_size_limit_through_the_cli(tmp_path):
    """The operating system refuses writes beyond a size (RLIMIT_FSIZE): every action
    that was shown as accepted is in the log, the refused ones are one line each."""
    db = tmp_path / "g.db"
    code = (
        "import resource, signal, sys; signal.signal(signal.SIGXFSZ, signal.SIG_IGN); "
        "resource.setrlimit(resource.RLIMIT_FSIZE, (40000, 40000)); "
        # no time passes: each refusal is a line, and the session never gives up (that it
        # does after a while: tests/app/test_log_unwritable.py)
        "from zonkcam.record.logged_game import LoggedGame; "
        "LoggedGame.clock = staticmethod(lambda: 0.0); "
        "from zonkcam.cli import main; sys.exit(main(sys.argv[1:]))"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code, "play", "--text", "--db", str(db), "--players", "Ann", "Bob"],
        input="23466\n" * 400,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    accepted = proc.stdout.count(" zonks\n")
    refused = [x for x in proc.stdout.splitlines() if x.startswith("! ")]
    assert refused and all("the disk refused" in x or "disk is full" in x for x in refused)
    assert accepted + len(refused) == 400
    with EventLog(db) as log:
        assert len(log.actions(1)) == 1 + accepted


def test_a_locked_file_is_one_line(tmp_path):
    db = tmp_path / "g.db"
    saved_game(db, rolls=0)
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another program holds the write lock
    try:
        with EventLog(db, timeout=0.2) as log:
            logged = LoggedGame.new(log, PRESETS["chicago"])
            with pytest.raises(StoreError, match="is locked by another program; try again"):
                logged.play(A.Players(("Ann",)))
            assert logged.game_id is None
    finally:
        other.execute("ROLLBACK")
        other.close()


def test_damaged_rows_are_one_line_and_export_still_rescues_the_actions(tmp_path, capsys):
    db = tmp_path / "g.db"
    saved_game(db)
    with sqlite3.connect(db) as con:
        con.execute("UPDATE games SET rules_toml = 'dice = [' WHERE id = 1")
    for argv in (
        ["games", "--db", str(db), "show", "1"],
        ["play", "--text", "--db", str(db), "--resume", "1"],
    ):
        assert "game 1: its stored rules are damaged" in one_line_error(capsys, *argv)
    assert main(["games", "--db", str(db), "export", "1"]) == 0
    assert capsys.readouterr().out.count("\n") == 4  # the players and three rolls
    with sqlite3.connect(db) as con:
        con.execute("UPDATE games SET rules_toml = ? WHERE id = 1", ('base = "classic-10000"\n',))
        con.execute("UPDATE events SET action = '[1, 2]' WHERE game_id = 1 AND seq = 1")
        con.execute("UPDATE events SET action = '{\"roll\": [7]}' WHERE seq = 3")
    assert main(["games", "--db", str(db), "list"]) == 0  # no players shown, no traceback
    assert "in play" in capsys.readouterr().out
    err = one_line_error(capsys, "games", "--db", str(db), "show", "1")
    assert "game 1: stored action 1 is damaged" in err
    with sqlite3.connect(db) as con:
        con.execute('UPDATE events SET action = \'{"players": ["Ann"]}\' WHERE seq = 1')
    err = one_line_error(capsys, "games", "--db", str(db), "show", "1")
    assert "game 1: stored action 3 is damaged: a die shows 1 to 6, not 7" in err
    with sqlite3.connect(db) as con:
        con.execute("UPDATE events SET action = '{\"keep\": [1]}' WHERE seq = 3")
    err = one_line_error(capsys, "play", "--text", "--db", str(db), "--resume", "1")
    assert "game 1: stored action 3 is refused by the rules" in err
    assert "zonkcam games export 1" in err


@pytest.mark.parametrize("bad", ["soon", b"\x00\x01", float("inf"), 1e300])
def test_a_time_that_is_not_a_time_is_unknown_everywhere(tmp_path, capsys, bad):
    """Text, a blob, an infinity or a year past 9999 where an action's time is kept: each
    command goes on, the game's times unknown (the report says so)."""
    db, out = tmp_path / "g.db", tmp_path / "report"
    saved_game(db)  # the players and three rolls: four actions
    with sqlite3.connect(db) as con:
        (readable,) = con.execute("SELECT at FROM events WHERE seq = 3").fetchone()
        con.execute("UPDATE events SET at = ? WHERE seq IN (2, 4)", (bad,))  # the last too
    for argv in (["list"], ["show", "1"], ["export", "1"], ["dice"], ["report", "--out", str(out)]):
        assert main(["games", "--db", str(db), *argv]) == 0, argv
    printed = capsys.readouterr().out
    assert local_time(readable, "%Y-%m-%d %H:%M") in printed  # the last time there is
    page = (out / "index.html").read_text()
    assert "No times kept: some of the game's times in the log are unreadable" in page
    assert "no times kept: the log&#x27;s times are unreadable (a damaged log)" in page


def test_a_game_with_no_readable_time_is_listed_as_unknown_not_1970(tmp_path, capsys):
    db = tmp_path / "g.db"
    saved_game(db)
    with sqlite3.connect(db) as con:
        con.execute("UPDATE games SET created = 'soon'")
        con.execute("UPDATE events SET at = 'later'")
    con.close()
    assert main(["games", "--db", str(db), "list"]) == 0
    row = capsys.readouterr().out.splitlines()[1]
    assert row.split()[:2] == ["1", "unknown"] and "1970" not in row
    assert main(["games", "--db", str(db), "show"]) == 0  # the game played last: this one


@pytest.mark.parametrize("game", ["0", "9223372036854775808", "99999999999999999999999"])
def test_game_numbers_out_of_range(tmp_path, capsys, game):
    db = tmp_path / "g.db"
    saved_game(db, rolls=0)
    for argv in (["play", "--text", "--db", str(db), "--resume", game],):
        err = one_line_error(capsys, *argv)
        assert "no game" in err or "takes a game number" in err
    with pytest.raises(SystemExit) as info:
        main(["games", "--db", str(db), "show", game])
    assert info.value.code == 2
    assert "invalid game_number value" in capsys.readouterr().err
    with EventLog(db) as log, pytest.raises(StoreError, match="no game"):
        log.rules(int(game))


def test_the_log_path_is_a_folder_or_cannot_be_made(tmp_path, capsys):
    assert "is a directory" in one_line_error(capsys, "games", "--db", str(tmp_path), "list")
    blocker = tmp_path / "file"
    blocker.write_text("")
    err = one_line_error(
        capsys, "play", "--text", "--db", str(blocker / "sub" / "g.db"), "--players", "Ann"
    )
    assert "cannot open the game log" in err
    assert main(["games", "--db", str(blocker / "sub" / "g.db"), "list"]) == 0  # creates nothing
    assert "there is no game log at" in capsys.readouterr().out


def test_the_exit_hint_comes_back_with_the_same_options(tmp_path):
    db = tmp_path / "my games.db"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "zonkcam",
            "play",
            "--text",
            "--db",
            str(db),
            "--players",
            "Ann",
            "Bob",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    out, err = proc.communicate("23466\nquit\n", timeout=60)
    assert proc.returncode == 0, err
    last = out.strip().splitlines()[-1]
    assert last == f"Game 1 saved; resume with: zonkcam play --text --db '{db}' --resume 1"
    again = subprocess.run(
        [
            "bash",
            "-c",
            last.split("resume with: ")[1].replace("zonkcam", f"{sys.executable} -m zonkcam", 1),
        ],
        input="quit\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert again.returncode == 0 and "Game 1: classic-10000" in again.stdout


def test_resuming_with_no_unfinished_game_names_the_log(tmp_path, capsys):
    db = tmp_path / "other games.db"
    err = one_line_error(capsys, "play", "--text", "--db", str(db), "--resume")
    assert f"no unfinished game in {db} to resume" in err and "--players" in err


# -- logs opened only to read -----------------------------------------------------------------


def test_listing_a_missing_log_creates_nothing(tmp_path, capsys):
    db = tmp_path / "not-yet" / "g.db"
    assert main(["games", "--db", str(db), "list"]) == 0
    assert f"no saved games: there is no game log at {db}" in capsys.readouterr().out
    assert not db.parent.exists()
    err = one_line_error(capsys, "games", "--db", str(db), "show", "1")
    assert f"there is no game log at {db}" in err


def test_a_log_opened_to_read_is_left_as_it_was(tmp_path):
    """An older layout is upgraded in a private copy; the file keeps its version and bytes,
    and nothing can be written through the log opened to read."""
    from zonkcam.record.schema import MIGRATIONS

    for version, db in [
        (1, tmp_path / "old" / "g.db"),
        (SCHEMA_VERSION, tmp_path / "new" / "g.db"),
    ]:
        db.parent.mkdir()
        con = sqlite3.connect(db, isolation_level=None)
        for step in MIGRATIONS[:version]:
            con.executescript(step)
        con.execute(f"PRAGMA user_version = {version}")
        con.close()
        before = db.read_bytes()
        with EventLog(db, read_only=True) as log:
            assert log.games() == []
            with pytest.raises(StoreError, match="it is read-only"):
                log.new_game(PRESETS["chicago"], [A.Players(("Cy",))], False)
        assert db.read_bytes() == before
        assert [p.name for p in db.parent.iterdir()] == ["g.db"]


def _read_only_folder_runner(folder: Path):
    """A way to run a command that sees `folder` read-only, as a read-only card: a
    read-only bind mount in a private mount namespace, else as the user nobody (root
    ignores file permissions); None where neither is possible here."""
    mounted = read_only_mount(folder)
    if mounted is not None:
        return mounted
    if os.geteuid() != 0:
        return lambda argv: subprocess.run(argv, capture_output=True, text=True, timeout=60)
    try:
        subprocess.run([sys.executable, "-c", "pass"], user=65534, check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    return lambda argv: subprocess.run(argv, capture_output=True, text=True, timeout=60, user=65534)


def test_a_log_on_read_only_media_is_listed_shown_and_exported(tmp_path):
    """The folder and file read-only, and the last actions still in the write-ahead file
    (the writer was killed)."""
    folder = Path(tempfile.mkdtemp(prefix="zonkcam-ro-"))
    try:
        db = folder / "g.db"
        writer = (
            "import os, sys\n"
            "from zonkcam.game import actions as A\n"
            "from zonkcam.game.dice import parse_dice\n"
            "from zonkcam.game.rules import PRESETS\n"
            "from zonkcam.record.logged_game import LoggedGame\n"
            "from zonkcam.record.store import EventLog\n"
            "log = EventLog(sys.argv[1])\n"
            "k = LoggedGame.new(log, PRESETS['classic-10000'], [A.Players(('Ann', 'Bob'))])\n"
            "for _ in range(3):\n"
            "    k.play(A.Roll(parse_dice([2, 3, 4, 6, 6])))\n"
            "os._exit(0)\n"  # killed: the WAL is never folded into the file
        )
        subprocess.run([sys.executable, "-c", writer, str(db)], check=True)
        assert (folder / "g.db-wal").stat().st_size > 0
        for path in folder.iterdir():
            path.chmod(0o444)
        folder.chmod(0o555)
        run = _read_only_folder_runner(folder)
        if run is None:
            pytest.skip("no way here to make a folder read-only to this Python")
        listing = sorted(p.name for p in folder.iterdir())
        zonkcam = [sys.executable, "-m", "zonkcam", "games", "--db", str(db)]
        for argv, wanted in [
            (["list"], "Ann, Bob"),
            (["show", "1"], "Ann"),
            (["export", "1"], '"rules"'),
        ]:
            proc = run([*zonkcam, *argv])
            assert proc.returncode == 0 and proc.stderr == "", proc.stderr
            assert wanted in proc.stdout
        rows = run([*zonkcam, "list"]).stdout.splitlines()
        assert rows[1].split()[:1] == ["1"] and " 4  Ann, Bob" in rows[1]  # the WAL was read
        proc = run(
            [sys.executable, "-m", "zonkcam", "play", "--text", "--db", str(db), "--resume", "1"]
        )
        assert proc.returncode == 2 and len(proc.stderr.splitlines()) == 1, proc.stderr
        assert sorted(p.name for p in folder.iterdir()) == listing
    finally:
        folder.chmod(0o755)
        shutil.rmtree(folder, ignore_errors=True)


# -- the log is the file it was -------------------------------------------------------------


def _play_and_then(db: Path, change, typed_after: list[str]) -> list[str]:
    """A text session of two actions on a new game, then `change()` (to the files), then
    `typed_after`; what it printed."""
    lines = iter(["12345", "k 1 5", "CHANGE", *typed_after])
    shown: list[str] = []

    def read(_prompt: str) -> str:
        line = next(lines)
        if line == "CHANGE":
            change()
            return "board"
        return line

    with EventLog(db) as log:
        logged = LoggedGame.new(log, PRESETS["chicago"], [A.Players(("Ann", "Bob"))])
        TextPlay(logged, read=read, write=shown.append).run()
    return shown


def _remove_log(db: Path) -> None:
    for path in db.parent.glob(db.name + "*"):
        path.unlink()


def test_a_log_deleted_mid_game_refuses_and_keeps_the_game_beside_it(tmp_path, capsys):
    db = tmp_path / "games.sqlite3"
    shown = _play_and_then(db, lambda: _remove_log(db), ["bank", "quit"])
    rescued = tmp_path / "games-game1-rescued.jsonl"
    refusal = next(line for line in shown if line.startswith("! the game log"))
    assert refusal == (
        f"! the game log {db} was deleted while it was open: nothing was saved; this game's "
        f"3 actions are kept in {rescued}: bring it back with zonkcam games import {rescued}"
    )
    assert not any(line.startswith("Game 1 saved") for line in shown)  # never a false word
    assert shown[-1].startswith(f"! the game log {db} was deleted while it was open; this")
    assert not db.exists()
    # brought back into a new log, where the game goes on from the keep
    assert main(["games", "--db", str(tmp_path / "new.db"), "import", str(rescued)]) == 0
    out = capsys.readouterr().out
    assert f"3 actions (chicago) saved as game 1 in {tmp_path / 'new.db'}" in out
    assert f"resume it at the table with: zonkcam play --db {tmp_path / 'new.db'} --resume 1" in out
    with EventLog(tmp_path / "new.db") as log:
        logged = LoggedGame.resume(log, 1)
        assert logged.state.turn.total == 150
        logged.play(A.Bank())
        assert logged.state.players[0].score == 150


def test_a_log_deleted_with_nothing_more_played_is_not_called_saved(tmp_path):
    db = tmp_path / "games.sqlite3"
    shown = _play_and_then(db, lambda: _remove_log(db), ["quit"])
    assert shown[-1].startswith(f"! the game log {db} was deleted while it was open; this game")
    assert (tmp_path / "games-game1-rescued.jsonl").is_file()


def test_another_log_moved_into_its_place_is_never_written(tmp_path):
    db, other = tmp_path / "games.sqlite3", tmp_path / "other.sqlite3"
    saved_game(other, rolls=2)
    before = other.read_bytes()

    def swap() -> None:
        _remove_log(db)
        shutil.copyfile(other, db)

    shown = _play_and_then(db, swap, ["bank", "quit"])
    assert any(
        "was replaced by another file while it was open: nothing was saved" in line
        for line in shown
    )
    with EventLog(db) as log:  # the other log's game, as it was
        assert [len(log.actions(g.id)) for g in log.games()] == [3]
    assert other.read_bytes() == before


def test_a_rescue_with_its_folder_gone_goes_to_the_temporary_folder(tmp_path, monkeypatch):
    folder = tmp_path / "card"
    folder.mkdir()
    db = folder / "g.db"
    spare = tmp_path / "tmp"
    spare.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(spare))
    shown = _play_and_then(db, lambda: shutil.rmtree(folder), ["bank", "quit"])
    rescued = spare / "g-game1-rescued.jsonl"
    assert any(f"kept in {rescued}" in line for line in shown)
    assert '{"keep": [1, 5]}' in rescued.read_text()


@pytest.mark.parametrize(
    ("text", "wanted"),
    [
        ("", "holds no actions: nothing to import"),
        ('{"roll": [1, 2, 3]}\n', "line 1:"),
        ('{"players": ["Ann"]}\n{"bank": true}\n', "line 2:"),
    ],
)
def test_an_import_that_cannot_be_played_is_one_line(tmp_path, capsys, text, wanted):
    file = tmp_path / "game.jsonl"
    file.write_text(text)
    err = one_line_error(capsys, "games", "--db", str(tmp_path / "g.db"), "import", str(file))
    assert wanted in err
    assert main(["games", "--db", str(tmp_path / "g.db"), "list"]) == 0
    assert "no saved games" in capsys.readouterr().out


# -- the log survives its own files ----------------------------------------------------------


def _line_until(proc: subprocess.Popen, wanted) -> str:
    """The first line the session prints that is ``wanted``; fails if it ends first."""
    while not wanted(line := proc.stdout.readline()):
        assert line, "the session ended without the line wanted"
    return line


def test_a_wal_file_deleted_mid_game_then_a_kill_loses_no_acknowledged_action(tmp_path):
    """A cleaner deletes the log's -wal file in the middle of a game, then the process is
    SIGKILLed: every action the scorekeeper saw accepted is in the log."""
    db = tmp_path / "g.db"
    proc = subprocess.Popen(
        [sys.executable, "-m", "zonkcam", "play", "--text", "--db", str(db)]
        + ["--players", "Ann", "Bob"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    watchdog = threading.Timer(60, proc.kill)  # a session that never answers ends the test
    watchdog.start()
    try:
        for _ in range(10):
            proc.stdin.write("23466\n")
            proc.stdin.flush()
            _line_until(proc, lambda line: line.endswith(" zonks\n"))  # acknowledged
        Path(f"{db}-wal").unlink()
        proc.stdin.write("23466\n")  # refused: the log lost its -wal file
        proc.stdin.flush()
        line = _line_until(proc, lambda line: line.startswith("! "))
        assert "lost its -wal file (deleted by another program)" in line
        assert "nothing was saved" in line and "kept in" in line
    finally:
        watchdog.cancel()
        proc.kill()
        proc.wait()
        proc.stdin.close()
        proc.stdout.close()
        proc.stderr.close()
    with EventLog(db, read_only=True) as log:
        assert len(log.actions(1)) == 1 + 10  # the seating and the ten zonks


def test_a_log_copied_over_the_open_one_in_place_is_noticed_and_never_written(tmp_path):
    db, other = tmp_path / "games.sqlite3", tmp_path / "other.sqlite3"
    saved_game(other, rolls=2)
    before = other.read_bytes()

    def copy_in_place() -> None:  # `cp other.sqlite3 games.sqlite3`: the same inode
        with open(db, "r+b") as f:
            f.write(before)
            f.truncate()

    shown = _play_and_then(db, copy_in_place, ["bank", "quit"])
    refusal = next(line for line in shown if line.startswith("! the game log"))
    assert (
        "was overwritten by another file (copied over it) while it was open: nothing was "
        "saved" in refusal
    )
    assert not any(line.startswith("Game 1 saved") for line in shown)
    assert (tmp_path / "games-game1-rescued.jsonl").is_file()
    assert db.read_bytes() == before  # the copied-in log, as it was copied


def test_an_older_copy_of_the_same_log_put_back_in_place_is_noticed(tmp_path):
    db = tmp_path / "games.sqlite3"
    saved = {}

    def keep_and_put_back() -> None:
        saved["old"] = db.read_bytes()

    lines = iter(["12345", "KEEP", "k 1 5", "PUT", "bank", "quit"])
    shown: list[str] = []

    def read(_prompt: str) -> str:
        line = next(lines)
        if line == "KEEP":
            keep_and_put_back()
            return "board"
        if line == "PUT":
            with open(db, "r+b") as f:
                f.write(saved["old"])
                f.truncate()
            return "board"
        return line

    with EventLog(db) as log:
        logged = LoggedGame.new(log, PRESETS["chicago"], [A.Players(("Ann", "Bob"))])
        assert TextPlay(logged, read=read, write=shown.append).run() is False
    assert any("was overwritten by another copy of itself while it was open" in x for x in shown)
    assert db.read_bytes() == saved["old"]


def test_a_forged_writer_claim_is_taken_over_with_a_line(tmp_path, capsys, monkeypatch):
    """A claim naming a running process (pid 1) but no start time it had locks nothing."""
    db = tmp_path / "g.db"
    saved_game(db, rolls=1)
    boot = Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    with sqlite3.connect(db) as raw:
        raw.execute("DELETE FROM writers")
        raw.execute(
            "INSERT INTO writers (game_id, process, pid, since) VALUES (1, ?, 1, 0)",
            (f"{boot}/1/?/0123456789abcdef",),
        )
    raw.close()
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(["play", "--text", "--db", str(db), "--resume", "1"]) == 0
    out = capsys.readouterr().out
    assert "game 1 was left claimed by a zonkcam that is no longer running (process 1" in out
    assert "Game 1 saved" in out


def test_play_exits_1_when_the_night_did_not_end_saved(tmp_path):
    db = tmp_path / "g.db"
    proc = subprocess.Popen(
        [sys.executable, "-m", "zonkcam", "play", "--text", "--db", str(db)]
        + ["--players", "Ann", "Bob"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    proc.stdin.write("23466\n")
    proc.stdin.flush()
    _line_until(proc, lambda line: line.endswith(" zonks\n"))
    _remove_log(db)
    out, _err = proc.communicate("23466\nquit\n", timeout=60)
    assert proc.returncode == 1
    assert "was deleted while it was open" in out and "saved; resume" not in out
