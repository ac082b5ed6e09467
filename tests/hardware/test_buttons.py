"""The arcade buttons through gpiozero's MockFactory: one press is one command, always."""

from __future__ import annotations

import time

import pytest

from zonkcam.controls import (
    BANK,
    DRUNK,
    ODDS,
    ROLL,
    SELECT,
    UNDO,
    Control,
    Press,
    action_for,
)
from zonkcam.game import PRESETS, Game, parse_dice
from zonkcam.game import actions as A
from zonkcam.hardware.buttons import ArcadeButtons, ButtonPins, PressGate, open_buttons
from zonkcam.testing import FakeClock

gpiozero = pytest.importorskip("gpiozero")
from gpiozero import Device  # noqa: E402

HOLD = 0.15
SETTLE = 0.05


@pytest.fixture
def clock():
    return FakeClock(100.0)


@pytest.fixture
def buttons(mock_pins, clock):
    with ArcadeButtons(hold_time=HOLD, settle=SETTLE, lockout=0.25, clock=clock) as b:
        yield b


def pin(mock_pins, number):
    return mock_pins.pin(number)


def drive(mock_pins, clock, number, levels, every=0.002):
    """Drive a pin through ``levels`` (True = pressed, i.e. low), one every ``every`` s."""
    p = pin(mock_pins, number)
    for down in levels:
        p.drive_low() if down else p.drive_high()
        clock.now += every


def press(mock_pins, clock, number, length=0.05):
    drive(mock_pins, clock, number, [True])
    clock.now += length
    drive(mock_pins, clock, number, [False])


def later(buttons, clock, seconds=0.2):
    """Commands once the contacts have lain still a while (the app polls every frame)."""
    out = []
    for _ in range(int(seconds / 0.02)):
        clock.now += 0.02
        out += buttons.commands()
    return out


BOUNCE = [True, False, True, False, True]
"""A noisy closing: the contact chatters before it stays closed."""
RELEASE_BOUNCE = [False, True, False, True, False]


def test_default_pins():
    assert ButtonPins() == ButtonPins(bank=17, roll=27, select=22)


def test_one_press_is_one_command(buttons, mock_pins, clock):
    press(mock_pins, clock, 17)
    assert later(buttons, clock) == [BANK]
    clock.now += 0.3
    press(mock_pins, clock, 27)
    assert later(buttons, clock) == [ROLL]
    clock.now += 0.3
    press(mock_pins, clock, 22)
    assert later(buttons, clock) == [SELECT]
    assert later(buttons, clock) == []


@pytest.mark.parametrize("number,command", [(17, BANK), (27, ROLL), (22, SELECT)])
@pytest.mark.parametrize("held", [0.05, 0.3, 0.6])
def test_a_press_bouncing_on_both_edges_is_one_command(mock_pins, clock, number, command, held):
    """A button held 0.25 s or more whose release bounces gives one command (a ghost
    SELECT would move the highlighted keep)."""
    with ArcadeButtons(hold_time=0.8, settle=SETTLE, lockout=0.25, clock=clock) as buttons:
        drive(mock_pins, clock, number, BOUNCE)
        clock.now += held
        drive(mock_pins, clock, number, RELEASE_BOUNCE)
        assert later(buttons, clock) == [command]


def test_a_hold_bouncing_on_both_edges_is_one_undo(buttons, mock_pins, clock):
    drive(mock_pins, clock, 22, BOUNCE)
    got = later(buttons, clock, HOLD + 0.1)  # held: UNDO while still down
    assert got == [UNDO]
    drive(mock_pins, clock, 22, RELEASE_BOUNCE)
    assert later(buttons, clock) == []


def test_presses_apart_count_twice_and_within_lockout_once(buttons, mock_pins, clock):
    press(mock_pins, clock, 17)
    clock.now += 0.1
    press(mock_pins, clock, 17)
    assert later(buttons, clock) == [BANK]
    clock.now += 0.3
    press(mock_pins, clock, 17)
    assert later(buttons, clock) == [BANK]


def test_buttons_are_locked_out_separately(buttons, mock_pins, clock):
    press(mock_pins, clock, 27)
    press(mock_pins, clock, 17)
    assert later(buttons, clock) == [ROLL, BANK]


def test_holding_bank_shows_the_odds_and_never_banks(buttons, mock_pins, clock):
    drive(mock_pins, clock, 17, [True])
    assert later(buttons, clock, HOLD / 2) == []  # a press or a hold? not yet
    assert later(buttons, clock, HOLD) == [ODDS]
    assert later(buttons, clock, 5) == []  # held on: nothing repeats
    drive(mock_pins, clock, 17, RELEASE_BOUNCE)
    assert later(buttons, clock) == []


def test_short_bank_press_banks_once_on_release(buttons, mock_pins, clock):
    drive(mock_pins, clock, 17, [True])
    assert buttons.commands() == []  # a press or a hold? the release tells
    clock.now += 0.05
    drive(mock_pins, clock, 17, RELEASE_BOUNCE)
    assert later(buttons, clock) == [BANK]
    assert later(buttons, clock) == []


def test_roll_counts_when_released_and_held_marks_the_drinks_drunk(buttons, mock_pins, clock):
    drive(mock_pins, clock, 27, [True])
    assert buttons.commands() == []  # a press or a hold? the release tells
    clock.now += 0.05
    drive(mock_pins, clock, 27, RELEASE_BOUNCE)
    assert later(buttons, clock) == [ROLL]
    clock.now += 0.3
    drive(mock_pins, clock, 27, BOUNCE)
    assert later(buttons, clock, HOLD + 0.1) == [DRUNK]  # held: never a ROLL
    drive(mock_pins, clock, 27, RELEASE_BOUNCE)
    assert later(buttons, clock) == []


def test_hold_select_is_undo_and_no_select(buttons, mock_pins, clock):
    drive(mock_pins, clock, 22, [True])
    assert later(buttons, clock, HOLD / 2) == []  # a press or a hold? not yet
    assert later(buttons, clock, HOLD) == [UNDO]
    drive(mock_pins, clock, 22, [False])
    assert later(buttons, clock) == []


def test_a_lost_release_edge_is_read_from_the_pin(buttons, mock_pins, clock):
    drive(mock_pins, clock, 22, [True])
    clock.now += 0.05
    p = pin(mock_pins, 22)
    p._state = True  # the pin is open again, but no edge came (gpiozero can drop one)
    assert later(buttons, clock) == [SELECT]


def test_short_select_is_select(buttons, mock_pins, clock):
    drive(mock_pins, clock, 22, [True])
    assert buttons.commands() == []  # a press or a hold? the release tells
    clock.now += 0.05
    drive(mock_pins, clock, 22, [False])
    assert buttons.commands() == []  # not before the contact has lain open a while
    assert later(buttons, clock) == [SELECT]


def test_custom_pins(mock_pins, clock):
    with ArcadeButtons(ButtonPins(bank=5, roll=6, select=13), clock=clock) as b:
        press(mock_pins, clock, 6)
        assert later(b, clock) == [ROLL]
        press(mock_pins, clock, 5)
        press(mock_pins, clock, 17)  # the default BANK pin is no button with these pins
        assert later(b, clock) == [BANK]


def test_no_gpio_is_no_buttons_not_a_traceback(monkeypatch):
    old = Device.pin_factory
    Device.pin_factory = None
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-mock_pins")
    try:
        assert open_buttons() is None
    finally:
        Device.pin_factory = old


def test_open_buttons_on_gpio(mock_pins):
    buttons = open_buttons(ButtonPins(bank=5, roll=6, select=13))
    assert buttons is not None
    mock_pins.pin(6).drive_low()
    mock_pins.pin(6).drive_high()
    time.sleep(0.1)  # the release settles
    assert buttons.commands() == [ROLL]
    buttons.close()


def test_press_gate():
    clock = FakeClock(100.0)
    gate = PressGate(0.2, clock)
    assert gate.accept("bank")
    assert not gate.accept("bank")
    assert gate.accept("roll")
    clock.now += 0.19
    assert not gate.accept("bank")
    clock.now += 0.02
    assert gate.accept("bank")


def test_command_text():
    assert str(Press(Control.DIGIT, 5)) == "digit 5"
    assert str(BANK) == "bank"


def test_action_for_buttons():
    game = Game(PRESETS["classic-10000"], [A.Players(("Ann", "Bob"))])
    state = game.play(A.Roll(parse_dice([1, 5, 5, 3, 1])))
    keeps = state.turn.score.keeps
    assert action_for(BANK, state) == A.Bank()
    assert action_for(ROLL, state, 0) == A.Keep(keeps[0].dice)
    assert action_for(ROLL, state, 1) == A.Keep(keeps[1].dice)
    assert action_for(ROLL, state, len(keeps)) == A.Keep(keeps[0].dice)
    assert action_for(UNDO, state) == A.Undo()
    assert action_for(SELECT, state) is None
    assert action_for(ODDS, state) is None  # the screen's business, not the game's
    rolled = game.play(A.Keep(keeps[0].dice))
    assert action_for(ROLL, rolled) is None  # the camera reads the next roll
