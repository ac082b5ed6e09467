"""The terminal and the environment: a full or closed output, a closed input, a terminal
that cannot encode a name, a file name too long to open, no home folder and no account.
Each is one line on stderr, never a traceback."""

from __future__ import annotations

import os
import pwd
import subprocess
import sys
from pathlib import Path

import pytest

from zonkcam.cli import main
from zonkcam.game import PRESETS, parse_dice
from zonkcam.game import actions as A
from zonkcam.record.logged_game import LoggedGame
from zonkcam.record.store import EventLog

DATA = Path(__file__).parents[1] / "data"
REPO = Path(__file__).parents[2]
LONG = "a" * 300
"""A file name longer than any file system takes (255 bytes): ENAMETOOLONG."""


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        XDG_DATA_HOME=str(tmp_path / "xdg-data"),
        XDG_CONFIG_HOME=str(tmp_path / "xdg-config"),
        XDG_CACHE_HOME=str(tmp_path / "xdg-cache"),
        XDG_STATE_HOME=str(tmp_path / "xdg-state"),
        PYTHONPATH=str(REPO),
    )
    env.update(extra)
    return env


def _zonkcam(
    tmp_path: Path, argv: list[str], *, shell: str = "", stdin: bytes | None = b"", **kw
) -> subprocess.CompletedProcess:
    """`python -m zonkcam ARGV`, its streams redirected as the shell `shell` says
    (``>&-``: stdout closed, ``<&-``: stdin closed, ``>/dev/full``)."""
    cmd = [sys.executable, "-m", "zonkcam", *argv]
    if shell:
        cmd = ["sh", "-c", f'exec "$@" {shell}', "sh", *cmd]
    return subprocess.run(
        cmd,
        input=None if "<&-" in shell else stdin,
        capture_output=True,
        timeout=120,
        cwd=tmp_path,
        env=_env(tmp_path, **kw.pop("env", {})),
        **kw,
    )


def _one_line(proc: subprocess.CompletedProcess) -> str:
    err = proc.stderr.decode(errors="replace")
    assert "Traceback" not in err, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


def _saved_game(db: Path, names: tuple[str, ...] = ("Ann", "Bob")) -> None:
    with EventLog(db) as log:
        logged = LoggedGame.new(log, PRESETS["classic-10000"], [A.Players(names)])
        logged.play(A.Roll(parse_dice([1, 5, 5, 6, 6])))


# -- output that cannot be written -----------------------------------------------------------

WRITERS = {
    "help": ["--help"],
    "version": ["--version"],
    "command help": ["games", "list", "--help"],
    "rules list": ["rules", "list"],
    "rules show": ["rules", "show", "chicago"],
    "rules show toml": ["rules", "show", "--toml", "chicago"],
    "score": ["score", "--rules", "classic-10000", "1", "5", "5", "6", "6"],
    "replay": ["replay", str(DATA / "narrated-classic.jsonl")],
    "games list": ["games", "list", "--db", "g.db"],
    "games show": ["games", "show", "--db", "g.db"],
    "games export": ["games", "export", "1", "--db", "g.db"],
    "games dice": ["games", "dice", "--db", "g.db"],
    "advise": ["advise", "--roll", "1", "5", "5", "6", "6"],
    "install-service": ["install-service", "--print", "--console", "--user", "nobody"],
    "play --text": ["play", "--text", "--db", "g.db", "--players", "Ann", "Bob"],
}


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("played")
    _saved_game(folder / "g.db")
    return folder


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full on this system")
@pytest.mark.parametrize("argv", WRITERS.values(), ids=WRITERS.keys())
def test_output_to_a_full_device_is_one_line(played, argv):
    proc = _zonkcam(played, argv, shell=">/dev/full", stdin=b"quit\n")
    assert proc.returncode == 1
    assert _one_line(proc).endswith("cannot write standard output: No space left on device")


@pytest.mark.parametrize("argv", WRITERS.values(), ids=WRITERS.keys())
def test_output_to_a_closed_stdout_is_one_line(played, argv):
    proc = _zonkcam(played, argv, shell=">&-", stdin=b"quit\n")
    assert proc.returncode == 1
    assert _one_line(proc).endswith("cannot write standard output: it is closed")


def test_an_export_with_stdout_closed_still_writes_its_file(tmp_path):
    _saved_game(tmp_path / "g.db")
    proc = _zonkcam(
        tmp_path,
        ["games", "export", "1", "--db", "g.db", "--out", "x.jsonl"],
        shell=">&- 2>err.txt",
    )
    assert proc.returncode == 1  # "wrote ..." could not be said
    assert (tmp_path / "x.jsonl").read_text().count("\n") == 3
    assert "Traceback" not in (tmp_path / "err.txt").read_text()


def test_stderr_full_too_is_no_traceback_and_exit_1(played):
    proc = _zonkcam(played, ["rules", "list"], shell=">/dev/full 2>/dev/full")
    assert proc.returncode == 1
    proc = _zonkcam(played, ["rules", "list"], shell=">&- 2>&-")
    assert proc.returncode == 1


# -- input that cannot be read ---------------------------------------------------------------

READERS = {
    "play --text": ["play", "--text", "--db", "g.db", "--players", "Ann", "Bob"],
    "play --text asks the rules": ["play", "--text", "--db", "g.db", "--new"],
    "play --text --resume": ["play", "--text", "--db", "g.db", "--resume", "1"],
    "replay -": ["replay", "-"],
    "games import -": ["games", "import", "-", "--db", "g.db"],
}


@pytest.mark.parametrize("argv", READERS.values(), ids=READERS.keys())
def test_a_closed_stdin_is_one_line(tmp_path, argv):
    _saved_game(tmp_path / "g.db")
    proc = _zonkcam(tmp_path, argv, shell="<&-")
    assert proc.returncode in (1, 2)
    line = _one_line(proc)
    assert "standard input" in line or "no such file" in line, line


def test_watch_meeting_the_dice_with_stdin_closed_ends_in_one_line(tmp_path):
    proc = _zonkcam(
        tmp_path,
        ["watch", "--source", "demo", "--meet-dice", "throws", "--frames", "50"],
        shell="<&-",
    )
    err = proc.stderr.decode()
    assert proc.returncode == 1 and "Traceback" not in err, err
    assert err.strip().splitlines()[-1].endswith("cannot read standard input: it is closed")


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs /proc (Linux)")
def test_closed_standard_streams_never_lend_their_descriptors_to_a_file(tmp_path):
    # a file opened with 0, 1 or 2 closed would get that descriptor, and whatever writes
    # to it (a library's warning on stderr) would land in the file: zonkcam keeps them taken
    probe = (
        "import os; from zonkcam import streams; streams.keep_descriptors_taken(); "
        "fd = os.open('f.txt', os.O_CREAT | os.O_WRONLY); "
        "os.write(fd, str(fd).encode()); "
        "os.write(fd, b' ' + os.readlink('/proc/self/fd/1').encode())"
    )
    proc = subprocess.run(
        ["sh", "-c", 'exec "$@" <&- >&- 2>&-', "sh", sys.executable, "-c", probe],
        cwd=tmp_path,
        env=_env(tmp_path),
        timeout=60,
    )
    assert proc.returncode == 0
    fd, one = (tmp_path / "f.txt").read_text().split()
    assert int(fd) >= 3 and one == os.devnull


# -- a terminal that cannot encode a name ----------------------------------------------------


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
@pytest.mark.parametrize(
    "argv",
    [
        ["games", "list", "--db", "g.db"],
        ["games", "show", "--db", "g.db"],
        ["games", "show", "1", "--db", "g.db"],
        ["play", "--text", "--db", "g.db", "--resume", "1"],
        ["play", "--text", "--db", "g.db", "--resume"],
    ],
    ids=["list", "show", "show 1", "resume 1", "resume"],
)
def test_a_name_the_terminal_cannot_encode_is_escaped(tmp_path, argv, encoding):
    _saved_game(tmp_path / "g.db", ("Zoë", "日本", "Ann"))
    proc = _zonkcam(tmp_path, argv, stdin=b"1\nquit\n", env={"PYTHONIOENCODING": encoding})
    assert proc.returncode == 0 and b"Traceback" not in proc.stderr, proc.stderr.decode()
    out = proc.stdout.decode(encoding)
    assert "\\u65e5\\u672c" in out
    assert ("Zo\\xeb" if encoding == "ascii" else "Zoë") in out
    if argv[0] == "play":  # the game went on: the keep was played and saved
        with EventLog(tmp_path / "g.db") as log:
            assert log.actions(1)[-1] == A.Keep((1,))


# -- file names too long to open -------------------------------------------------------------

LONG_OPTIONS = {
    "rules show": ["rules", "show", f"{LONG}.toml"],
    "rules check": ["rules", "check", f"{LONG}.toml"],
    "score --rules": ["score", "--rules", f"{LONG}.toml", "1", "5"],
    "replay": ["replay", f"{LONG}.jsonl"],
    "replay --rules": ["replay", "--rules", f"{LONG}.toml", str(DATA / "narrated-classic.jsonl")],
    "advise --rules": ["advise", "--rules", f"{LONG}.toml"],
    "solve --rules": ["solve", "--rules", f"{LONG}.toml"],
    "solve --out": ["solve", "--rules", "chicago", "--out", LONG],
    "games list --db": ["games", "list", "--db", LONG],
    "games show --db": ["games", "show", "--db", LONG],
    "games dice --db": ["games", "dice", "--db", LONG],
    "games report --db": ["games", "report", "--db", LONG, "--out", "night"],
    "games import": ["games", "import", LONG],
    "games export --out": ["games", "export", "1", "--db", "g.db", "--out", LONG],
    "games show --photos": ["games", "show", "1", "--db", "g.db", "--photos", LONG],
    "games report --out": ["games", "report", "--db", "g.db", "--out", LONG],
    "mat --out": ["mat", "--out", LONG],
    "calibrate --image": ["calibrate", "--image", f"{LONG}.png"],
    "read": ["read", f"{LONG}.png"],
    "read --model-dir": ["read", "--model-dir", LONG, str(DATA)],
    "read --annotate": ["read", "--annotate", LONG, str(DATA)],
    "watch --source": ["watch", "--source", LONG],
    "watch --calibration": ["watch", "--calibration", LONG, "--source", LONG],
    "eval": ["eval", LONG],
    "eval --model-dir": ["eval", "--model-dir", LONG, LONG],
    "bench --model-dir": ["bench", "--model-dir", LONG],
    "play --text --db": ["play", "--text", "--db", LONG, "--players", "A", "B"],
    "play --text --rules": ["play", "--text", "--rules", f"{LONG}.toml", "--players", "A", "B"],
    "play --source": ["play", "--source", LONG],
}


@pytest.mark.parametrize("argv", LONG_OPTIONS.values(), ids=LONG_OPTIONS.keys())
def test_a_file_name_too_long_is_one_line(capsys, monkeypatch, tmp_path, argv):
    monkeypatch.chdir(tmp_path)
    _saved_game(tmp_path / "g.db")
    code = main(argv)
    _, err = capsys.readouterr()
    assert code == 2, err
    assert len(err.strip().splitlines()) == 1, err
    assert "aaaa" in err or "File name too long" in err


@pytest.mark.parametrize(
    "argv",
    [
        ["watch", "--source", "demo", "--annotate", LONG, "--frames", "2"],
        ["watch", "--source", "demo", "--model-dir", LONG, "--frames", "2"],
        ["play", "--source", "demo", "--model-dir", LONG, "--games", "1", "--fast"],
    ],
    ids=["watch --annotate", "watch --model-dir", "play --model-dir"],
)
def test_a_file_name_too_long_on_the_demo_table_is_one_line(capsys, monkeypatch, tmp_path, argv):
    monkeypatch.chdir(tmp_path)
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 2, err
    lines = err.strip().splitlines()
    assert "aaaa" in lines[-1] and ("too long" in lines[-1] or "cannot" in lines[-1]), err


@pytest.mark.parametrize("out", ["", "/", ".", ".."])
def test_mat_out_without_a_file_name_is_one_line(capsys, monkeypatch, tmp_path, out):
    monkeypatch.chdir(tmp_path)
    code = main(["mat", "--out", out, "--dpi", "50"])
    _, err = capsys.readouterr()
    assert code == 2 and "--out needs a file name" in err and len(err.splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


# -- no home folder, no account --------------------------------------------------------------


@pytest.fixture
def homeless(monkeypatch, tmp_path):
    """A user id with no account and no HOME, in an empty folder."""

    def no_account(uid):
        raise KeyError(f"getpwuid(): uid not found: {uid}")

    monkeypatch.setattr(pwd, "getpwuid", no_account)
    for name in (
        "HOME",
        "XDG_DATA_HOME",
        "XDG_CONFIG_HOME",
        "XDG_CACHE_HOME",
        "XDG_STATE_HOME",
        "ZONKCAM_DB",
        "ZONKCAM_CALIBRATION",
        "SUDO_USER",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_no_home_and_no_account_keeps_no_game_log_in_a_tilde_folder(homeless, capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", __import__("io").StringIO("quit\n"))
    code = main(["play", "--text", "--players", "Ann", "Bob"])
    _, err = capsys.readouterr()
    assert code == 2
    assert err.strip() == (
        f"zonkcam play: no home folder for the game log: HOME is not set and user id "
        f"{os.getuid()} has no account; set HOME or XDG_DATA_HOME, or give --db FILE"
    )
    assert list(homeless.iterdir()) == []  # no folder named ~


@pytest.mark.parametrize(
    "argv, variable",
    [
        (["games", "list"], "XDG_DATA_HOME"),
        (["solve", "--rules", "chicago"], "XDG_CACHE_HOME"),
        (["calibrate", "--source", "demo"], "XDG_CONFIG_HOME"),
    ],
    ids=["games", "solve", "calibrate"],
)
def test_no_home_and_no_account_is_one_line_everywhere(homeless, capsys, argv, variable):
    code = main(argv)
    _, err = capsys.readouterr()
    assert code == 2 and "no home folder" in err and variable in err, err
    assert list(homeless.iterdir()) == []


def test_no_home_but_an_xdg_folder_is_enough(homeless, capsys, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(homeless / "data"))
    monkeypatch.setattr(sys, "stdin", __import__("io").StringIO("quit\n"))
    assert main(["play", "--text", "--players", "Ann", "Bob"]) == 0
    assert (homeless / "data" / "zonkcam" / "games.sqlite3").is_file()
    assert sorted(p.name for p in homeless.iterdir()) == ["data"]


def test_install_service_as_a_user_id_with_no_account_is_one_line(homeless, capsys):
    code = main(["install-service", "--print"])
    _, err = capsys.readouterr()
    assert code == 2
    assert err.strip() == (
        f"zonkcam install-service: user id {os.getuid()} has no account to run the service "
        "as: give the user who plays (--user NAME)"
    )


# -- long typed input echoed back -------------------------------------------------------------


def test_a_keep_typed_100000_digits_long_is_refused_in_a_short_line(tmp_path):
    from zonkcam.app.text import TextPlay

    typed = iter(["15566", "1" * 100_000, "keep " + "5" * 100_000, "7" * 100_000, "quit"])
    shown: list[str] = []
    with EventLog(tmp_path / "g.db") as log:
        logged = LoggedGame.new(log, PRESETS["classic-10000"], [A.Players(("Ann", "Bob"))])
        TextPlay(logged, read=lambda _: next(typed), write=shown.append).run()
    refusals = [line for line in shown if line.startswith("! ")]
    assert len(refusals) == 3
    assert all(len(line) < 200 for line in refusals), [len(x) for x in refusals]
    assert refusals[0].startswith("! cannot keep 1 1 1 1 1 1 1 1 1 1 1 1 ... (100,000 dice)")


def test_an_argument_line_refused_by_argparse_is_cut(capsys):
    with pytest.raises(SystemExit):
        main(["advise", "--keep", "1" * 100_000])
    _, err = capsys.readouterr()
    assert "unrecognized arguments" in err and len(err) < 1000


def test_install_service_with_a_home_of_no_user_is_one_line(capsys):
    argv = ["install-service", "--print", "--console", "--user", "nobody"]
    argv += ["--", "--db", "~no-such-user/g.db"]
    assert main(argv) == 2
    _, err = capsys.readouterr()
    assert err.strip() == (
        "zonkcam install-service: the service's arguments name '~no-such-user': no user by "
        "that name to find the home folder of"
    )
