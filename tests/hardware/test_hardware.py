"""On the real hardware: the Pi camera and the GPIO buttons.

Marked ``hardware``: skipped unless run on a Pi with ``ZONKCAM_HARDWARE=1`` (camera
connected, buttons wired to the default pins 17, 27, 22), e.g.
``ZONKCAM_HARDWARE=1 .venv/bin/python -m pytest -m hardware``.
"""

from __future__ import annotations

import time

import numpy as np
import pytest

pytestmark = pytest.mark.hardware


def test_the_pi_camera_gives_steady_bgr_frames():
    from zonkcam.sources.pi import PiCameraSource

    cam = PiCameraSource(1280, settle_s=2.0)
    try:
        frames = [cam.read() for _ in range(10)]
    finally:
        cam.close()
    assert all(f is not None for f in frames)
    first = frames[0].image
    assert first.dtype == np.uint8 and first.ndim == 3 and first.shape[1] == 1280
    assert [f.index for f in frames] == list(range(10))
    # exposure and white balance are locked: a still view keeps its brightness
    means = [float(f.image.mean()) for f in frames[2:]]
    assert max(means) - min(means) < 8


def test_the_gpio_buttons_open_and_stay_quiet_when_untouched():
    from zonkcam.hardware.buttons import open_buttons

    buttons = open_buttons()
    assert buttons is not None, "no GPIO pin factory (on a Pi 5: sudo apt install python3-lgpio)"
    try:
        time.sleep(0.5)
        assert buttons.commands() == []  # pulled up, nobody pressing: no command
    finally:
        buttons.close()
