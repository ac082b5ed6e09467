"""The window adapter: the right SDL driver, and no traceback when there is no display; a
window that fits the desktop, resizes with the screen laid out again, and F11."""

from __future__ import annotations

import logging

import pygame
import pytest

from tests.display.screen_helpers import press
from zonkcam.display import window as window_module
from zonkcam.display.game_screen import GameScreen
from zonkcam.display.painter import Painter
from zonkcam.display.sounds import Sounds
from zonkcam.display.view import view_for
from zonkcam.display.window import MIN_WINDOW, Window, candidate_drivers, window_size
from zonkcam.sim import scenes
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


def test_play_fullscreen_opens_the_window_full_screen(laptop, tmp_path, monkeypatch):
    """`play --fullscreen` (the desktop's service): full screen where a desktop would give
    a window."""
    from zonkcam.app import main as app_main
    from zonkcam.cli import main

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


@pytest.fixture
def laptop(monkeypatch):
    """SDL's dummy driver standing in for a desktop whose screen is 1280x800."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setattr(window_module, "HEADLESS", ("offscreen",))
    monkeypatch.setattr(pygame.display, "get_desktop_sizes", lambda: [(1280, 800)])


def test_a_window_opens_at_a_size_that_fits_the_desktop(laptop, tmp_path):
    window = Window.open(screenshots=tmp_path)
    assert window.driver == "dummy" and not window.headless and not window.fullscreen
    assert window.size == window_size((1280, 800)) == (1152, 680)  # not 800x480 in the middle
    assert window.surface.get_flags() & pygame.RESIZABLE
    assert window.screenshots is None  # a window people see saves no screenshots


@pytest.mark.parametrize(
    "desktop", [(1280, 800), (1366, 768), (1920, 1080), (2560, 1440), (1024, 600), (800, 480)]
)
def test_the_window_size_leaves_room_for_the_desktop_and_keeps_a_sensible_shape(desktop):
    w, h = window_size(desktop)
    assert w <= desktop[0] and h <= desktop[1]
    assert (w, h) == desktop or (w < desktop[0] and h < desktop[1])  # panels, title bar
    assert 4 / 3 - 0.01 <= w / h <= 16 / 9 + 0.01 or (w, h) == desktop
    assert w >= min(800, desktop[0]) and h >= min(480, desktop[1])
    assert w * h >= 0.6 * desktop[0] * desktop[1] or (w, h) == desktop


def _text_rects_in_bounds_and_apart(screen, surface):
    rects = [t.rect for t in screen.texts]
    assert all(surface.get_rect().contains(r) for r in rects)
    overlaps = [(a, b) for i, a in enumerate(rects) for b in rects[i + 1 :] if a.colliderect(b)]
    assert overlaps == []


def _post_resize(size):
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=size, w=size[0], h=size[1]))


def test_a_resized_window_lays_the_screen_out_again(laptop, tmp_path):
    scene = scenes.SCENES["detroit"]()
    with Window.open(screenshots=tmp_path) as window:
        ui = GameScreen(window, sounds=Sounds(muted=True))
        ui.draw(scene.state, scene.camera)
        before = {t.text: t.rect.h for t in ui.painter.texts}
        faces = [f.rect.h for f in ui.painter.faces]
        _text_rects_in_bounds_and_apart(ui.painter, window.surface)
        _post_resize((1600, 1000))
        ui.commands()
        ui.draw(scene.state, scene.camera)
        assert window.size == (1600, 1000) == ui.painter.layout.size
        after = {t.text: t.rect.h for t in ui.painter.texts}
        assert after.keys() == before.keys()
        assert all(after[k] > before[k] for k in before), "every text grows with the window"
        grown = [f.rect.h for f in ui.painter.faces]
        assert len(grown) == len(faces) == 6
        assert all(a > b for a, b in zip(grown, faces, strict=True))
        assert ui.painter.camera_fit.rect.w > 1600 * 0.3
        _text_rects_in_bounds_and_apart(ui.painter, window.surface)
        _post_resize((200, 100))  # dragged down to nothing: the least size readable
        ui.commands()
        ui.draw(scene.state, scene.camera)
        assert window.size == MIN_WINDOW
        assert all(window.surface.get_rect().contains(t.rect) for t in ui.painter.texts)


def test_f11_switches_full_screen_and_back(laptop, tmp_path):
    with Window.open(screenshots=tmp_path) as window:
        ui = GameScreen(window, sounds=Sounds(muted=True))
        _post_resize((1000, 600))
        press(pygame.K_F11)
        assert ui.commands() == []  # F11 is the window's, not a command of the game
        assert window.fullscreen and window.surface.get_flags() & pygame.FULLSCREEN
        full = window.size
        assert full != (1000, 600)
        _post_resize((640, 400))  # a desktop's late word about the old window: ignored
        press(pygame.K_F11)
        window.events()
        assert not window.fullscreen and window.size == (1000, 600)
        assert window.surface.get_flags() & pygame.RESIZABLE


def test_f11_leaves_a_screen_without_a_desktop_as_it_is(tmp_path, monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    with Window.open(screenshots=tmp_path) as window:  # headless: screenshots of 800x480
        press(pygame.K_F11)
        _post_resize((1600, 1000))
        window.events()
        assert not window.fullscreen and window.size == (800, 480)
    kms = Window(pygame.Surface((800, 480)), "kmsdrm", fullscreen=True)  # a Pi's console
    assert not kms.resizable
    kms.toggle_fullscreen()
    assert kms.fullscreen and kms.size == (800, 480)


DESKTOPS = [(1280, 800), (1366, 768), (1920, 1080), (1024, 600), (2560, 1600)]


@pytest.mark.parametrize(
    "size", [(800, 480), MIN_WINDOW, *(window_size(d) for d in DESKTOPS)], ids=str
)
def test_every_scene_fits_the_windows_a_desktop_opens(size):
    """In each window size: every text inside the screen, none over another."""
    pygame.font.init()
    for name, make in scenes.SCENES.items():
        scene = make()
        view = view_for(scene.state, scene.camera, scene.selected_keep)
        surface = pygame.Surface(size)
        screen = Painter()
        lay = screen.draw(surface, view)
        try:
            _text_rects_in_bounds_and_apart(screen, surface)
        except AssertionError as exc:
            raise AssertionError(f"{name} at {size}: {exc}") from None
        assert all(lay.roll.contains(f.rect) for f in screen.faces), name
