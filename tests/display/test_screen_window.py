"""The window adapter: the right SDL driver, and no traceback when there is no display."""

from __future__ import annotations

import logging

import pygame
import pytest

from zonkcam.display.window import Window, candidate_drivers
from zonkcam.testing import FakeClock


@pytest.fixture(autouse=True)
def _close_display():
    yield
    pygame.display.quit()


def test_driver_order():
    assert candidate_drivers({"SDL_VIDEODRIVER": "kmsdrm"}) == ["kmsdrm", "dummy"]
    assert candidate_drivers({"SDL_VIDEODRIVER": "dummy"}) == ["dummy"]
    assert candidate_drivers({"DISPLAY": ":0"}) == [None, "kmsdrm", "dummy"]
    assert candidate_drivers({"WAYLAND_DISPLAY": "wayland-0"}) == [None, "kmsdrm", "dummy"]


def test_sdls_own_choice_is_tried_only_where_a_wayland_desktop_could_be(tmp_path):
    # without a runtime folder SDL's own choice finds no desktop and its Wayland try
    # prints "XDG_RUNTIME_DIR is invalid" on stderr
    assert candidate_drivers({}) == ["kmsdrm", "dummy"]  # a Pi console, no login session
    assert candidate_drivers({"XDG_RUNTIME_DIR": str(tmp_path / "gone")}) == ["kmsdrm", "dummy"]
    assert candidate_drivers({"XDG_RUNTIME_DIR": str(tmp_path)}) == ["kmsdrm", None, "dummy"]


def test_the_offscreen_driver_is_headless_and_saves_screenshots(tmp_path, monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "offscreen")
    window = Window.open((320, 200), screenshots=tmp_path / "shots")
    assert window.driver == "offscreen" and window.headless
    window.show()
    assert (tmp_path / "shots" / "screen.png").exists()


def test_dummy_driver_saves_screenshots(tmp_path, monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    window = Window.open((320, 200), screenshots=tmp_path / "shots")
    assert window.headless and window.driver == "dummy"
    assert window.size == (320, 200)
    window.surface.fill((255, 0, 0))
    window.show()
    saved = pygame.image.load(str(tmp_path / "shots" / "screen.png"))
    assert saved.get_size() == (320, 200)
    assert saved.get_at((5, 5))[:3] == (255, 0, 0)


def test_a_driver_that_does_not_exist_falls_back_to_dummy(tmp_path, monkeypatch, caplog):
    caplog.set_level(logging.INFO, logger="zonkcam.display.window")
    Window.open(screenshots=tmp_path)  # a display already up keeps its driver through init()
    monkeypatch.setenv("SDL_VIDEODRIVER", "no-such-driver")
    window = Window.open(screenshots=tmp_path)
    assert window.driver == "dummy"
    assert window.size == (800, 480)
    assert "no-such-driver" in caplog.text


def test_no_display_at_all_is_the_dummy_driver(tmp_path, monkeypatch):
    monkeypatch.delenv("SDL_VIDEODRIVER", raising=False)
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    window = Window.open(screenshots=tmp_path)
    if window.driver != "dummy":  # pragma: no cover - a machine with a console screen
        pytest.skip(f"this machine has a display ({window.driver})")
    assert window.headless


def test_screenshots_are_taken_now_and_then(tmp_path):
    pygame.display.init()
    surface = pygame.Surface((64, 48))
    clock = FakeClock()
    window = Window(surface, "dummy", screenshots=tmp_path, screenshot_every=1.0, clock=clock)
    window.show()
    window.show()
    clock.now = 0.5
    window.show()
    assert window.shots == 1
    clock.now = 1.0
    window.show()
    assert window.shots == 2
    assert window.screenshot("named.png") == tmp_path / "named.png"
    assert (tmp_path / "named.png").exists()


def test_a_screenshot_folder_that_cannot_be_written_is_not_a_crash(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    window = Window(pygame.Surface((8, 8)), "dummy", screenshots=blocker / "shots")
    assert window.screenshot("x.png") is None
    window.show()  # no traceback


def test_sigterm_is_a_quit_event_while_the_window_is_open(tmp_path, monkeypatch):
    import os
    import signal

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_NO_SIGNAL_HANDLERS", "1")  # not SDL's own handler: ours
    before = signal.getsignal(signal.SIGTERM)
    with Window.open((64, 48), screenshots=tmp_path) as window:
        window.events()
        os.kill(os.getpid(), signal.SIGTERM)  # systemd stopping the service
        assert pygame.QUIT in [e.type for e in window.events()]
    assert signal.getsignal(signal.SIGTERM) == before


def test_a_list_of_drivers_is_tried_in_turn(tmp_path, monkeypatch):
    """The desktop's service asks for ``wayland,x11``: X11 (Xwayland) where this SDL has no
    Wayland driver."""
    assert candidate_drivers({"SDL_VIDEODRIVER": "wayland,x11"}) == ["wayland", "x11", "dummy"]
    monkeypatch.setenv("SDL_VIDEODRIVER", "no-such-driver, offscreen")
    window = Window.open((320, 200), screenshots=tmp_path / "shots")
    assert window.driver == "offscreen"


def test_play_fullscreen_opens_the_window_full_screen(tmp_path, monkeypatch):
    """`play --fullscreen` (the desktop's service): full screen where a desktop would give
    a window."""
    from zonkcam.app import main as app_main
    from zonkcam.cli import main

    monkeypatch.setenv("SDL_VIDEODRIVER", "offscreen")
    opened, real_open = [], Window.open

    class Opened(Exception):
        pass

    def open_window(size, **options):
        opened.append(real_open(size, **options))
        raise Opened

    monkeypatch.setattr(app_main.Window, "open", open_window)
    for argv, full in ((["--fullscreen"], True), ([], False)):
        with pytest.raises(Opened):
            main(["play", "--source", "demo", "--db", str(tmp_path / "g.db"), *argv])
        assert opened.pop().fullscreen is full
