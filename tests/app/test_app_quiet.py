"""`make run` on a machine with no sound card and no display: a game on stdout, nothing on
stderr, and no file outside zonkcam's own folders."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # a whole demo game


@pytest.mark.skipif(Path("/dev/snd").exists(), reason="this machine has a sound card")
def test_the_demo_game_without_sound_or_display_is_quiet_and_leaves_nothing(tmp_path):
    home, tmp = tmp_path / "home", tmp_path / "tmp"
    home.mkdir()
    tmp.mkdir()
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("SDL_", "XDG_", "PULSE_")) and k not in ("DISPLAY", "WAYLAND_DISPLAY")
    }
    env.update(HOME=str(home), TMPDIR=str(tmp), PYTHONPATH=str(Path(__file__).parents[2]))
    done = subprocess.run(
        [sys.executable, "-m", "zonkcam", "play", "--source", "demo"],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert "GAME OVER" in done.stdout
    assert list(tmp.iterdir()) == []  # no /tmp/pulse-*
    assert [p.relative_to(home).as_posix() for p in home.iterdir()] == [".local"]
    assert [p.name for p in (home / ".local" / "share").iterdir()] == ["zonkcam"]
    # the game's turn screenshots in its own folder, which the closing line names
    game = home / ".local" / "share" / "zonkcam" / "screenshots" / "game-0001"
    assert (game / "turn-0001.png").exists()
    assert done.stdout.splitlines()[-1] == f"screenshots (one per turn) in {game}"
