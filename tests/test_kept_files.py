"""Files the user keeps (an export, the service's unit, the mat, the calibration, the solved
table, the taught dice) are written whole or not at all: a full disk or a kill at the first
write leaves the old file as it was and no temporary file, a failure is one line, nothing
else in the folder is touched, two writers of one file each write a whole one, and the
file and its folder are on the disk before "wrote" is said."""

from __future__ import annotations

import errno
import os
import resource
import signal
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from zonkcam.cli import main
from zonkcam.errors import WriteFailed
from zonkcam.fileio import write_whole

OLD = b"the old file, which must survive\n" * 40


def _old(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(OLD)
    return path


def _listing(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


# -- the one way to write a kept file ----------------------------------------------------------


def _fail_write_after(monkeypatch, written: int) -> None:
    """The disk fills after `written` bytes of this write."""
    real = os.write
    left = {"n": written}

    def write(fd, data):
        if left["n"] <= 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        n = real(fd, bytes(data)[: left["n"]])
        left["n"] -= n
        return n

    monkeypatch.setattr(os, "write", write)


def _fail(monkeypatch, name: str) -> None:
    def failing(*args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, name, failing)


@pytest.mark.parametrize("where", ["first write", "half way", "fsync", "rename"])
def test_a_full_disk_leaves_the_old_file_whole_and_no_temporary_file(tmp_path, monkeypatch, where):
    path = _old(tmp_path / "export.jsonl")
    (tmp_path / "export.tmp").write_text("the user's own")  # never touched
    (tmp_path / ".export.jsonl.tmp").write_text("the user's own too")
    before = _listing(tmp_path)
    if where == "first write":
        _fail_write_after(monkeypatch, 0)
    elif where == "half way":
        _fail_write_after(monkeypatch, 4096)
    else:
        _fail(monkeypatch, {"fsync": "fsync", "rename": "replace"}[where])
    with pytest.raises(WriteFailed) as failed:
        write_whole(path, b"x" * 100_000)
    monkeypatch.undo()
    assert str(failed.value) == f"cannot write {path}: No space left on device"
    assert failed.value.errno == errno.ENOSPC
    assert path.read_bytes() == OLD
    assert _listing(tmp_path) == before
    assert (tmp_path / "export.tmp").read_text() == "the user's own"


def test_the_file_and_then_its_folder_are_put_on_the_disk(tmp_path, monkeypatch):
    path = _old(tmp_path / "unit.service")
    steps: list[str] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd):
        kind = "folder" if stat.S_ISDIR(os.fstat(fd).st_mode) else "file"
        steps.append(f"fsync {kind}")
        return real_fsync(fd)

    def replace(*args, **kwargs):
        steps.append("rename")
        return real_replace(*args, **kwargs)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    write_whole(path, "new\n")
    assert steps == ["fsync file", "rename", "fsync folder"]
    assert path.read_text() == "new\n" and _listing(tmp_path) == ["unit.service"]


def test_two_writers_of_one_file_each_write_a_whole_one(tmp_path):
    path = tmp_path / "ours.npz"
    payloads = [bytes([65 + k]) * (1 << 20) for k in range(4)]
    errors: list[BaseException] = []
    start = threading.Barrier(len(payloads))

    def writer(data: bytes) -> None:
        start.wait()
        try:
            for _ in range(5):
                write_whole(path, data)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(p,)) for p in payloads]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert path.read_bytes() in payloads
    assert _listing(tmp_path) == ["ours.npz"]


def test_a_kill_at_the_first_write_leaves_the_old_file(tmp_path):
    """SIGKILL as the first byte would go out: nothing can clean up, and the old file is
    as it was (beside it only the new file's own temporary name, never a half file)."""
    path = _old(tmp_path / "zonkcam.service")
    killer = (
        "import os, signal, sys\n"
        "from zonkcam.fileio import write_whole\n"
        "os.write = lambda fd, data: os.kill(os.getpid(), signal.SIGKILL)\n"
        "write_whole(sys.argv[1], 'x' * 10000)\n"
    )
    proc = subprocess.run([sys.executable, "-c", killer, str(path)], timeout=60)
    assert proc.returncode == -signal.SIGKILL
    assert path.read_bytes() == OLD
    others = [n for n in _listing(tmp_path) if n != "zonkcam.service"]
    assert all(n.startswith(".zonkcam.service.") and n.endswith(".tmp") for n in others)


def test_the_file_replaced_keeps_its_permissions_and_a_link_is_written_through(tmp_path):
    real = _old(tmp_path / "real" / "calibration.json")
    real.chmod(0o600)
    link = tmp_path / "calibration.json"
    link.symlink_to(real)
    write_whole(link, "{}")
    assert link.is_symlink() and real.read_text() == "{}"
    assert stat.S_IMODE(real.stat().st_mode) == 0o600
    long = tmp_path / ("n" * 250 + ".json")  # its temporary name must fit too
    write_whole(long, "{}")
    assert long.read_text() == "{}"


# -- every command that writes a kept file, on a full disk ------------------------------------


def _saved_log(db: Path) -> None:
    from zonkcam.game import PRESETS, parse_dice
    from zonkcam.game import actions as A
    from zonkcam.record.logged_game import LoggedGame
    from zonkcam.record.store import EventLog

    with EventLog(db) as log:
        logged = LoggedGame.new(log, PRESETS["classic-10000"], [A.Players(("Ann", "Bob"))])
        for _ in range(60):
            logged.play(A.Roll(parse_dice([2, 3, 4, 6, 6])))


def _on_a_full_disk(code: str, *argv: str, limit: int) -> subprocess.CompletedProcess:
    """`code` run with `argv` in a process whose files cannot grow past `limit` bytes (a
    disk that fills as it is written)."""

    def small_disk() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return subprocess.run(
        [sys.executable, "-c", code, *argv],
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=small_disk,
        env=dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy"),
    )


CLI = "import sys\nfrom zonkcam.cli import main\nsys.exit(main(sys.argv[1:]))\n"


def _refused_on_a_full_disk(proc: subprocess.CompletedProcess, path: Path) -> None:
    """The old file as it was and nothing beside it; one line that says why; exit 1."""
    assert path.read_bytes() == OLD, f"{len(path.read_bytes())} bytes"
    assert _listing(path.parent) == [path.name]  # no temporary file left
    assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    assert f"cannot write {path}: File too large" in proc.stderr, proc.stderr
    assert proc.returncode == 1, proc.stderr
    assert "wrote" not in proc.stdout


def test_games_export_on_a_full_disk_keeps_the_old_export(tmp_path):
    from zonkcam.record.store import EventLog

    db = tmp_path / "log" / "games.sqlite3"
    _saved_log(db)
    out = _old(tmp_path / "out" / "game1.jsonl")
    with EventLog(db):  # a game at the table: its -wal and -shm are there, the read writes none
        proc = _on_a_full_disk(
            CLI, "games", "--db", str(db), "export", "1", "--out", str(out), limit=len(OLD) + 1
        )
    _refused_on_a_full_disk(proc, out)


@pytest.mark.parametrize("installed", [False, True])
def test_install_service_on_a_full_disk_keeps_the_old_unit(tmp_path, installed):
    """With --out, and as installed (/etc/systemd/system/zonkcam.service, here a file in
    the test's folder)."""
    unit = _old(tmp_path / "system" / "zonkcam.service")
    me = __import__("pwd").getpwuid(os.getuid()).pw_name
    argv = ["install-service", "--console", "--allow-root", "--user", me]
    code = CLI
    if installed:
        code = (
            "import sys\nfrom pathlib import Path\n"
            "from zonkcam.commands import install_service\n"
            f"install_service.UNIT_PATH = Path({str(unit)!r})\n" + CLI
        )
    else:
        argv += ["--out", str(unit)]
    proc = _on_a_full_disk(code, *argv, limit=200)
    _refused_on_a_full_disk(proc, unit)


def test_mat_on_a_full_disk_keeps_the_old_mat(tmp_path):
    png = _old(tmp_path / "mat.png")
    proc = _on_a_full_disk(CLI, "mat", "--dpi", "50", "--out", str(tmp_path / "mat"), limit=5000)
    _refused_on_a_full_disk(proc, png)


def test_calibrate_on_a_full_disk_keeps_the_old_calibration(tmp_path):
    out = _old(tmp_path / "calibration.json")
    argv = ["calibrate", "--source", "demo", "--warmup", "1", "--out", str(out)]
    proc = _on_a_full_disk(CLI, *argv, limit=len(OLD) + 1)
    _refused_on_a_full_disk(proc, out)


# -- the solved table ---------------------------------------------------------------------------

SHORT = 'base = "classic-10000"\nname = "short classic"\ntarget = 1500\n'


def test_solve_out_leaves_a_file_of_the_users_named_like_its_own_alone(tmp_path, capsys):
    rules = tmp_path / "short.toml"
    rules.write_text(SHORT, encoding="utf-8")
    mine = tmp_path / "ours.tmp"
    mine.write_text("my notes", encoding="utf-8")
    out = tmp_path / "ours.npz"
    assert main(["solve", "--rules", str(rules), "--out", str(out)]) == 0
    assert str(out) in capsys.readouterr().out
    assert mine.read_text(encoding="utf-8") == "my notes"
    assert _listing(tmp_path) == ["ours.npz", "ours.tmp", "short.toml"]


def test_two_solves_to_one_file_both_store_a_whole_table(tmp_path):
    from zonkcam.advisor.race import build
    from zonkcam.game import load_rules
    from zonkcam.record.win_tables import read_table, save_table

    rules_file = tmp_path / "short.toml"
    rules_file.write_text(SHORT, encoding="utf-8")
    table = build(load_rules(str(rules_file)))
    out = tmp_path / "ours.npz"
    errors: list[BaseException] = []
    start = threading.Barrier(2)

    def solve() -> None:
        start.wait()
        try:
            for _ in range(20):
                save_table(table, out)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=solve) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert read_table(out).rules == table.rules
    assert _listing(tmp_path) == ["ours.npz", "short.toml"]


def test_the_taught_dice_are_written_whole(tmp_path, monkeypatch):
    import numpy as np

    from zonkcam.mat.taught import save_taught
    from zonkcam.vision import TaughtDice

    path = _old(tmp_path / "taught-dice.npz")
    taught = TaughtDice(np.zeros((3, 8), np.float32), np.array([1, 2, 3]), [None, "red", None])
    _fail_write_after(monkeypatch, 100)
    with pytest.raises(WriteFailed, match="No space left on device"):
        save_taught(path, taught, "0123")
    monkeypatch.undo()
    assert path.read_bytes() == OLD and _listing(tmp_path) == ["taught-dice.npz"]
    save_taught(path, taught, "0123")
    assert path.read_bytes() != OLD and _listing(tmp_path) == ["taught-dice.npz"]


def test_the_report_page_and_its_photos_are_put_on_the_disk(tmp_path, monkeypatch):
    from zonkcam.record.outfolder import OutFolder

    synced: list[str] = []
    real = os.fsync

    def fsync(fd):
        synced.append("folder" if stat.S_ISDIR(os.fstat(fd).st_mode) else "file")
        return real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    with OutFolder(tmp_path / "night") as folder:
        with folder.sub("photos") as photos:
            photos.write("game-0001-roll-00002.jpg", b"jpeg")
            photos.write("game-0001-roll-00005.jpg", b"jpeg")
        assert synced == ["file", "file", "folder"]  # each photo, then their folder once
        folder.write("index.html", b"<html>")
    assert synced == ["file", "file", "folder", "file", "folder"]
    assert _listing(tmp_path / "night") == ["index.html", "photos"]
