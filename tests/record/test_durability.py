"""Nothing acknowledged is ever lost: random SIGKILLs of text-mode games, and a kill at
every commit point of the event log."""

from __future__ import annotations

import dataclasses
import signal
import subprocess
import sys

import pytest

from zonkcam.game import PRESETS, Game, parse_dice
from zonkcam.game import actions as A
from zonkcam.record.logged_game import LoggedGame
from zonkcam.record.store import EventLog
from zonkcam.testing.durability import run

pytestmark = pytest.mark.slow  # whole tables, games or kills: `make check` leaves them out


def test_random_sigkills_lose_no_acknowledged_action(tmp_path):
    report = run(tmp_path / "games.sqlite3", kills=12, seed=1, target=5000)
    assert report.kills == 12 and report.checked > 500
    assert set(report.modes) == {"idle", "in flight", "starting"}


# -- a kill at every commit point ------------------------------------------------------------

SHORT = dataclasses.replace(PRESETS["chicago"], target=1000)
SEATING = A.Players(("Ann", "Bob"))
STEPS = [A.Roll(parse_dice([1, 1, 1, 2, 3])), A.Bank(), A.Undo(), A.Bank()]
"""Three 1s banked win at once; the win is taken back and banked again."""

CHILD = """
import os, signal, sqlite3, sys
from zonkcam.record import store
from zonkcam.game import actions as A
from tests.record.test_durability import SEATING, SHORT, STEPS
from zonkcam.record.logged_game import LoggedGame

kill_at, when = int(sys.argv[2]), sys.argv[3]
commits = 0
connect = sqlite3.connect

def trace(sql):  # called as each statement starts
    global commits
    if when == "after" and commits == kill_at:
        os.kill(os.getpid(), signal.SIGKILL)  # the commit before this statement is done
    if sql.split()[0].upper() == "COMMIT":
        commits += 1
        if when == "before" and commits == kill_at:
            os.kill(os.getpid(), signal.SIGKILL)  # this commit never runs

def traced(*args, **kwargs):
    con = connect(*args, **kwargs)
    con.set_trace_callback(trace)
    return con

store.sqlite3.connect = traced
log = store.EventLog(sys.argv[1])
logged = LoggedGame.new(log, SHORT, [SEATING])
for action in STEPS:
    logged.play(action)
if when == "after" and commits == kill_at:
    os.kill(os.getpid(), signal.SIGKILL)
print(commits)
"""


def _child(db, kill_at: int, when: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", CHILD, str(db), str(kill_at), when],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_kill_at_every_commit_point_leaves_whole_steps(tmp_path):
    dry = _child(tmp_path / "dry.db", 0, "never")
    assert dry.returncode == 0, dry.stderr
    commits = int(dry.stdout)
    assert commits >= 1 + len(STEPS)  # the layout steps, the new game, each action
    whole = [[SEATING, *STEPS[:n]] for n in range(len(STEPS) + 1)]
    seen = set()
    for kill_at in range(1, commits + 1):
        for when in ("before", "after"):
            db = tmp_path / f"{kill_at}-{when}.db"
            proc = _child(db, kill_at, when)
            assert proc.returncode == -signal.SIGKILL, proc.stderr
            with EventLog(db) as log:  # opens (and finishes the layout) after any kill
                games = log.games()
                if not games:
                    seen.add(0)
                    continue
                (record,) = games
                stored = log.actions(record.id)
                assert stored in whole, stored  # a game only with its players, whole steps
                state = Game(SHORT, stored).state
                assert record.finished == state.finished  # the flag with its action
                seen.add(len(stored))
                logged = LoggedGame.resume(log, record.id)  # the killed claim is no block
                for action in STEPS[len(stored) - 1 :]:
                    logged.play(action)
                assert logged.state.finished and log.games()[0].finished
    assert seen == {0, *range(1, len(STEPS) + 2)}  # every step boundary was hit


@pytest.mark.parametrize("when", ["before", "after"])
def test_the_finished_flag_follows_the_winning_action_through_a_kill(tmp_path, when):
    """The win (step 2 of STEPS) killed around its commit: won with it, or not at all."""
    dry = _child(tmp_path / "dry.db", 0, "never")
    win_commit = int(dry.stdout) - len(STEPS) + 2  # the commits of the steps are last
    db = tmp_path / "g.db"
    assert _child(db, win_commit, when).returncode == -signal.SIGKILL
    with EventLog(db) as log:
        (record,) = log.games()
        assert record.events == (3 if when == "after" else 2)
        assert record.finished == (when == "after")
