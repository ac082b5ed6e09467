"""SIGKILL the running app (the demo game, learned reader and all) and bring it back."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from zonkcam.game import Game
from zonkcam.record.store import EventLog

pytestmark = pytest.mark.slow  # whole tables, games or kills: `make check` leaves them out


def start(args, tmp_path):
    env = dict(os.environ, PYTHONUNBUFFERED="1", SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "zonkcam",
            "play",
            "--source",
            "demo",
            "--fast",
            "--db",
            str(tmp_path / "games.sqlite3"),
            "--screenshots",
            str(tmp_path / "shots"),
            *args,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )


def read_until(proc, enough, timeout=240.0) -> list[str]:
    lines: list[str] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line.rstrip("\n"))
        if enough(lines):
            return lines
    raise AssertionError("the app stopped early:\n" + "\n".join(lines[-20:]))


def assert_resumes(game_id: int, tmp_path) -> None:
    """`play --resume` comes back to that game."""
    again = start(["--resume"], tmp_path)
    try:
        lines = read_until(again, lambda lines: any(x.startswith("Game ") for x in lines))
    finally:
        again.send_signal(signal.SIGKILL)
        again.wait(timeout=30)
    assert any(x.startswith(f"Game {game_id}:") for x in lines)


def test_killed_app_loses_no_acknowledged_action_and_resumes(tmp_path):
    proc = start(["--players", "Ann", "Bob"], tmp_path)
    try:
        printed = read_until(proc, lambda lines: sum(" rolls " in x for x in lines) >= 3)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    shown = [x for x in printed if x.startswith(("Ann ", "Bob ", "Players:", "HOT DICE"))]
    assert len(shown) >= 4
    with EventLog(tmp_path / "games.sqlite3") as log:
        (record,) = log.games()
        state = Game(log.rules(record.id), log.actions(record.id)).state
    it = iter(state.log)
    assert all(any(line == entry for entry in it) for line in shown)  # in order, none lost
    assert_resumes(record.id, tmp_path)


def test_sigterm_stops_the_app_at_once_and_the_game_resumes(tmp_path):
    # systemd stops the service with SIGTERM. SDL catches it once the screen is up and
    # turns it into a quit event: the app ends its loop, prints the scores, exits 0.
    proc = start(["--players", "Ann", "Bob"], tmp_path)
    try:
        read_until(proc, lambda lines: sum(" rolls " in x for x in lines) >= 2)
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)
    assert proc.returncode == 0
    assert "  Ann: " in out and "  Bob: " in out
    with EventLog(tmp_path / "games.sqlite3") as log:
        (record,) = log.games()
        assert not Game(log.rules(record.id), log.actions(record.id)).state.finished
    assert_resumes(record.id, tmp_path)


def test_the_service_command_line_resumes_the_game_in_play(tmp_path):
    """The unit runs `zonkcam play --rules ... --players ...` at every start; on main each
    restart (a crash, a power cut) abandoned the game in play for a new one at 0-0."""
    import cv2

    from zonkcam.mat.calibrate import calibrate
    from zonkcam.sim.demo_table import DemoTable

    table = DemoTable(seed=1, autoplay=False, size=(640, 480))
    frames = tmp_path / "camera"
    frames.mkdir()
    for i in range(6):
        cv2.imwrite(str(frames / f"{i:03d}.png"), table.read().image)
    calibration = tmp_path / "calibration.json"
    calibrate(table.read().image, table.geometry).save(calibration)
    service = [
        "--source",
        str(frames),
        "--calibration",
        str(calibration),
        "--rules",
        "classic-10000",
        "--players",
        "Ann",
        "Bob",
    ]

    def run(*extra):
        proc = start([*service, *extra], tmp_path)
        out, _ = proc.communicate(timeout=120)
        assert proc.returncode == 0, out
        return out

    assert "Game 1: classic-10000, Ann, Bob" in run()
    again = run()
    assert "resuming unfinished game 1" in again and "Game 1:" in again
    assert "Game 2:" in run("--new")
