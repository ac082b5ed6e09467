"""Shared fixtures: headless SDL, and no test touches the user's real game log, cache or history."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


def pytest_collection_modifyitems(config, items):
    """Hardware tests run only on the hardware, when asked (ZONKCAM_HARDWARE=1)."""
    if os.environ.get("ZONKCAM_HARDWARE") == "1":
        return
    skip = pytest.mark.skip(reason="needs the Pi camera and buttons: ZONKCAM_HARDWARE=1")
    for item in items:
        if item.get_closest_marker("hardware"):
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _private_data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-cache"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg-state"))
    monkeypatch.delenv("ZONKCAM_DB", raising=False)


@pytest.fixture
def window(tmp_path, monkeypatch):
    """An 800x480 window on SDL's dummy driver, its event queue empty; screenshots go to
    the test's artifacts folder."""
    import pygame

    from tests.display.screen_helpers import artifacts_dir
    from zonkcam.display.window import Window

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    with Window.open((800, 480), screenshots=artifacts_dir(tmp_path) / "live") as w:
        pygame.event.clear()
        yield w


@pytest.fixture
def mock_pins():
    """gpiozero's mock pins as every device's pin factory, the one before put back after."""
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    old = Device.pin_factory
    Device.pin_factory = MockFactory()
    yield Device.pin_factory
    Device.pin_factory.reset()
    Device.pin_factory = old
