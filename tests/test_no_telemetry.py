"""zonkcam phones nobody and leaves nothing behind: onnxruntime's telemetry is off before
it loads, so reading a photo under a fresh home writes no file there."""

from __future__ import annotations

import os
import subprocess
import sys

import cv2
import numpy as np

from zonkcam.vision import synth


def test_reading_a_photo_under_a_fresh_home_writes_nothing_there(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    photo = tmp_path / "table.jpg"
    rng = np.random.default_rng(3)
    cv2.imwrite(str(photo), synth.render(synth.random_scene(rng, n_dice=4), rng).image)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "ORT_"))}
    env["HOME"] = str(home)
    done = subprocess.run(
        [sys.executable, "-m", "zonkcam", "read", str(photo)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "dice" in done.stdout
    assert sorted(p.relative_to(home).as_posix() for p in home.rglob("*")) == []
