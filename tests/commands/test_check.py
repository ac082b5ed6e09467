"""`zonkcam check`: the camera, the mat, the three buttons and the screen tried before the
service, each faked (an image folder or the demo table, gpiozero's MockFactory, SDL's dummy
driver, a window drawn off screen), and one closing line on what is missing."""

from __future__ import annotations

import functools

import cv2
import numpy as np
import pygame
import pytest

from tests.mat.test_calibration import photograph_whole
from zonkcam import cli, sources
from zonkcam.commands import check
from zonkcam.display.draw import ACCENT, PANEL
from zonkcam.display.window import Window
from zonkcam.fileio import write_image
from zonkcam.mat.layout import SIZES, draw_mat, load_geometry
from zonkcam.testing import FakeClock

gpiozero = pytest.importorskip("gpiozero")
from gpiozero import Device  # noqa: E402

PINS = (17, 27, 22)


@pytest.fixture
def no_gpio(monkeypatch):
    """No pin library gpiozero can load: a laptop (on a Pi as anywhere)."""
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-pin-library")


def folder_with(tmp_path, image):
    """An image folder (a --source) holding one photo."""
    folder = tmp_path / "camera"
    folder.mkdir(exist_ok=True)
    write_image(folder / "frame.png", image)
    return str(folder)


class Presses:
    """A sleep for check_buttons on a fake clock that works the mock pins as it goes:
    ``script`` is (time, pin, pressed) from the wait's start; raises ``interrupt`` (Ctrl-C)
    at that time if given."""

    def __init__(self, mock_pins, clock, script, interrupt=None):
        self.mock_pins, self.clock, self.script = mock_pins, clock, sorted(script)
        self.start, self.interrupt = clock.now, interrupt

    def __call__(self, seconds):
        self.clock.now += seconds
        elapsed = self.clock.now - self.start
        if self.interrupt is not None and elapsed >= self.interrupt:
            raise KeyboardInterrupt
        while self.script and self.script[0][0] <= elapsed:
            _, number, down = self.script.pop(0)
            pin = self.mock_pins.pin(number)
            pin.drive_low() if down else pin.drive_high()


def tap(at, number, length=0.1):
    return [(at, number, True), (at + length, number, False)]


class FakeDisplay:
    """A window as a desktop gives one: drawn off screen, its events given by the test."""

    def __init__(self, size=(1024, 600), events=()):
        self.surface = pygame.Surface(size)
        self.driver, self.headless, self.fullscreen = "x11", False, False
        self.pending = list(events)
        self.shown = 0

    @property
    def size(self):
        return self.surface.get_size()

    def events(self):
        out, self.pending = self.pending, []
        return out

    def show(self):
        self.shown += 1

    def close(self):
        pass


# -- off a Pi ------------------------------------------------------------------------------


def test_off_a_pi_it_says_what_is_missing_in_one_line_and_no_traceback(
    tmp_path, capsys, monkeypatch, no_gpio
):
    monkeypatch.setattr(sources, "picamera2_available", lambda: False)
    out = tmp_path / "check.png"
    assert cli.main(["check", "--out", str(out)]) == 1
    printed, err = capsys.readouterr()
    assert err == ""
    lines = printed.strip().splitlines()
    assert lines[-1] == (
        "missing: camera (no picamera2: not a Raspberry Pi?), buttons (no GPIO), "
        "screen (no display: SDL dummy driver)"
    )
    assert "camera: none (picamera2 is not installed: not a Raspberry Pi?)" in printed
    assert "screen: none (no display to show on: SDL's dummy driver)" in printed
    assert not out.exists()


def test_a_camera_that_does_not_open_is_missing_not_a_failure(tmp_path, capsys, no_gpio):
    assert cli.main(["check", "--source", "usb:9", "--out", str(tmp_path / "c.png")]) == 1
    printed, err = capsys.readouterr()
    assert "Traceback" not in err
    assert (
        printed.strip()
        .splitlines()[-1]
        .startswith("missing: camera (cannot open USB camera 9), buttons (no GPIO)")
    )


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--out", "frame.gif"], "--out frame.gif: a .gif image cannot be written"),
        (["--pins", "17,17,22"], "--pins takes three different BCM pin numbers"),
        (["--seconds", "-1"], "--seconds takes 0 to 3600"),
        (["--source", "no/such/folder"], "unknown source 'no/such/folder'"),
    ],
)
def test_a_wrong_option_is_one_line(tmp_path, capsys, monkeypatch, args, said):
    monkeypatch.chdir(tmp_path)
    assert cli.main(["check", *args]) == 2
    printed, err = capsys.readouterr()
    assert printed == "" and said in err and len(err.strip().splitlines()) == 1


# -- the camera and the mat ----------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_the_frame_is_saved_with_the_markers_and_the_mat_is_named(tmp_path, capsys, size):
    geo = load_geometry(size)
    image, truth = photograph_whole(size)
    out = tmp_path / "seen.png"
    missing, mat = check.check_camera(folder_with(tmp_path, image), out)
    assert (missing, mat) == ([], geo.name)
    printed = capsys.readouterr().out
    ids = [m.id for m in geo.markers]
    assert f"mat: found the {geo.name} mat by its markers (ids {ids[0]}-{ids[-1]})" in printed
    assert f"a frame saved with the markers found drawn on it: {out}" in printed
    saved = cv2.imread(str(out))
    assert saved.shape == image.shape
    for marker in geo.markers:  # each marker's outline drawn green on its corner
        x, y = truth(marker.corners)[0].round().astype(int)
        patch = saved[y - 2 : y + 3, x - 2 : x + 3].reshape(-1, 3)
        assert any(tuple(p) == (0, 255, 0) for p in patch), (size, marker.id)


def test_the_demo_table_is_known_by_its_mat(tmp_path, capsys):
    missing, mat = check.check_camera("demo:a4", tmp_path / "demo.png", warmup=1)
    assert (missing, mat) == ([], "A4")
    assert "camera: demo table" in capsys.readouterr().out


def test_two_mats_or_no_mat_in_view_is_missing_the_mat(tmp_path, capsys):
    a3, a4 = draw_mat(load_geometry("a3"), dpi=40), draw_mat(load_geometry("a4"), dpi=40)
    both = np.full((a3.shape[0] + a4.shape[0] + 40, a3.shape[1] + 40, 3), 120, np.uint8)
    both[20 : 20 + a3.shape[0], 20 : 20 + a3.shape[1]] = a3
    both[-20 - a4.shape[0] : -20, 20 : 20 + a4.shape[1]] = a4
    missing, mat = check.check_camera(folder_with(tmp_path, both), tmp_path / "both.png")
    assert mat is None and missing == ["mat (markers of 2 mats in view)"]
    assert "mat: markers of 2 mats in view (the A3 mat's" in capsys.readouterr().out
    assert (tmp_path / "both.png").exists()  # the frame is saved all the same, to look at
    empty = np.full((480, 640, 3), 90, np.uint8)
    missing, mat = check.check_camera(folder_with(tmp_path, empty), tmp_path / "empty.png")
    assert mat is None and missing == ["mat (no mat in view)"]


def test_a_frame_that_cannot_be_saved_is_said_and_the_check_goes_on(tmp_path, capsys):
    image, _ = photograph_whole("a3")
    blocker = tmp_path / "file"
    blocker.write_text("not a folder", encoding="utf-8")
    missing, mat = check.check_camera(folder_with(tmp_path, image), blocker / "seen.png")
    assert (missing, mat) == ([], "A3")
    assert "a frame not saved (" in capsys.readouterr().out


# -- the buttons ---------------------------------------------------------------------------


def test_each_button_press_is_shown_as_it_happens_and_all_three_end_the_wait(mock_pins, capsys):
    clock = FakeClock(100.0)
    script = tap(1.0, 17) + tap(2.0, 27, length=1.5) + tap(5.0, 22)
    sleep = Presses(mock_pins, clock, script)
    assert check.check_buttons(PINS, 30, clock=clock, sleep=sleep) == []
    printed = capsys.readouterr().out.splitlines()
    assert [line for line in printed if line.startswith("button: ")] == [
        "button: BANK pressed (GPIO 17)",
        "button: ROLL held (drinks settled) (GPIO 27)",
        "button: SELECT pressed (GPIO 22)",
    ]
    assert clock.now - 100.0 < 6  # it ended with the third press, not after 30 s


def test_a_button_never_pressed_is_missing_when_the_time_is_up(mock_pins, capsys):
    clock = FakeClock(0.0)
    sleep = Presses(mock_pins, clock, tap(1.0, 27))
    assert check.check_buttons(PINS, 10, clock=clock, sleep=sleep) == [
        "buttons (BANK, SELECT not pressed)"
    ]
    assert clock.now >= 10
    assert "button: ROLL pressed (GPIO 27)" in capsys.readouterr().out


def test_ctrl_c_ends_the_wait_and_frees_the_pins(mock_pins, capsys):
    clock = FakeClock(0.0)
    sleep = Presses(mock_pins, clock, tap(0.5, 22), interrupt=2.0)
    assert check.check_buttons(PINS, 30, clock=clock, sleep=sleep) == [
        "buttons (BANK, ROLL not pressed)"
    ]
    assert clock.now < 3
    from gpiozero import Button

    Button(17, pin_factory=mock_pins).close()  # the pins are free again


def test_no_gpio_is_missing_buttons_without_waiting(no_gpio, capsys):
    clock = FakeClock(0.0)
    assert check.check_buttons(PINS, 30, clock=clock, sleep=clock.sleep) == ["buttons (no GPIO)"]
    assert clock.sleeps == []
    assert "buttons: none (no GPIO to read them on" in capsys.readouterr().out


# -- the screen ----------------------------------------------------------------------------


def test_no_display_is_missing_the_screen(capsys):
    window, missing = check.open_screen(None)
    try:
        assert window.headless and missing == ["screen (no display: SDL dummy driver)"]
    finally:
        window.close()


def test_a_display_says_its_size_and_driver_as_the_app_opens_it(capsys, monkeypatch):
    opened = []

    def open_window(cls, size=None, **kw):
        opened.append(size)
        return Window(pygame.Surface(size or (1280, 800)), "x11")

    monkeypatch.setattr(Window, "open", classmethod(open_window))
    window, missing = check.open_screen((1024, 600))
    window.close()
    assert missing == [] and opened == [(1024, 600)]
    assert "screen: 1024x600 in a window, SDL video driver x11" in capsys.readouterr().out


def test_the_screen_lights_each_button_pressed_and_escape_ends_the_page(mock_pins, capsys):
    clock = FakeClock(0.0)
    display = FakeDisplay()
    sleep = Presses(mock_pins, clock, tap(1.0, 17))
    escape = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE)

    def sleep_then_escape(seconds):
        sleep(seconds)
        if clock.now >= 2.0 and not display.pending:
            display.pending.append(escape)

    missing = check.check_buttons(PINS, 30, display, clock=clock, sleep=sleep_then_escape)
    assert missing == ["buttons (ROLL, SELECT not pressed)"]
    assert clock.now < 3 and display.shown > 0
    pen = check_page_pen(display.surface, {"BANK": "pressed"})
    lit = {t.text: t.background for t in pen.texts if t.text in check.BUTTONS}
    assert lit == {"BANK": ACCENT, "ROLL": PANEL, "SELECT": PANEL}
    # what the fake display showed last is that page, BANK lit
    shown = pygame.surfarray.array3d(display.surface)
    assert (shown == ACCENT).all(axis=2).any()


def check_page_pen(surface, pressed):
    from zonkcam.display.draw import Pen

    pen = Pen()
    check.draw_page(surface.copy(), pen, pressed, "x11")
    return pen


def test_the_page_names_the_screen_and_says_what_each_button_did():
    pen = check_page_pen(pygame.Surface((800, 480)), {"ROLL": "held (drinks settled)"})
    texts = [t.text for t in pen.texts]
    assert "screen 800x480, SDL x11" in texts
    assert texts.count("press me") == 2 and "held (drinks settled)" in texts


# -- all of it -------------------------------------------------------------------------------


def test_all_ready_is_one_line_naming_the_mat(tmp_path, capsys, monkeypatch, mock_pins):
    image, _ = photograph_whole("letter")
    clock = FakeClock(0.0)
    presses = Presses(mock_pins, clock, tap(1.0, 17) + tap(2.0, 27) + tap(3.0, 22))
    monkeypatch.setattr(
        check, "check_buttons", functools.partial(check.check_buttons, clock=clock, sleep=presses)
    )
    monkeypatch.setattr(Window, "open", classmethod(lambda cls, size=None, **kw: FakeDisplay()))
    out = tmp_path / "seen.png"
    args = ["check", "--source", folder_with(tmp_path, image), "--out", str(out)]
    assert cli.main(args) == 0
    printed = capsys.readouterr().out.strip().splitlines()
    assert printed[-1] == "ready: camera, Letter mat, buttons and screen; next: zonkcam calibrate"
    assert out.exists()
