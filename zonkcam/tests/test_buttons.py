"""The arcade buttons through gpiozero's MockFactory: one press is one command, always."""

from __future__ import annotations

import time

import pytest

from zonkcam.buttons import (
    BANK,
    ODDS,
    ROLL,
    SELECT,
    UNDO,
    ArcadeButtons,
    ButtonPins,
    Command,
    InputCommand,
    PressGate,
    action_for,
    open_buttons,
)
from zonkcam.game import actions as A
from zonkcam.game.dice import parse_dice
from zonkcam.game.game import Game
from zonkcam.game.rules import PRESETS

gpiozero = pytest.importorskip("gpiozero")
from gpiozero import Device  # noqa: E402
from gpiozero.pins.mock import MockFactory  # noqa: E402

HOLD = 0.15


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def factory():
    old = Device.pin_factory
    Device.pin_factory = MockFactory()
    yield Device.pin_factory
    Device.pin_factory.reset()
    Device.pin_factory = old


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def buttons(factory, clock):
    with ArcadeButtons(hold_time=HOLD, lockout=0.25, clock=clock) as b:
        yield b


def pin(factory, number):
    return factory.pin(number)


def press(factory, number):
    p = pin(factory, number)
    p.drive_low()
    p.drive_high()


def bounce(factory, number, toggles=5):
    """A noisy contact: several rapid closings and openings for one real press."""
    p = pin(factory, number)
    for _ in range(toggles):
        p.drive_low()
        p.drive_high()


def test_default_pins():
    assert ButtonPins() == ButtonPins(bank=17, roll=27, select=22)


def test_one_press_is_one_command(buttons, factory):
    press(factory, 17)
    assert buttons.commands() == [BANK]
    press(factory, 27)
    assert buttons.commands() == [ROLL]
    press(factory, 22)
    assert buttons.commands() == [SELECT]
    assert buttons.commands() == []


@pytest.mark.parametrize("number,command", [(17, BANK), (27, ROLL), (22, SELECT)])
def test_a_bouncing_press_is_one_command(buttons, factory, clock, number, command):
    bounce(factory, number, toggles=6)
    assert buttons.commands() == [command]


def test_presses_apart_count_twice_and_within_lockout_once(buttons, factory, clock):
    press(factory, 17)
    clock.now += 0.1
    press(factory, 17)
    assert buttons.commands() == [BANK]
    clock.now += 0.3
    press(factory, 17)
    assert buttons.commands() == [BANK]


def test_buttons_are_locked_out_separately(buttons, factory):
    press(factory, 17)
    press(factory, 27)
    assert buttons.commands() == [BANK, ROLL]


def test_holding_bank_shows_the_odds_and_never_banks(buttons, factory, clock):
    p = pin(factory, 17)
    p.drive_low()
    deadline = time.monotonic() + 3
    got = []
    while not got and time.monotonic() < deadline:  # gpiozero's hold thread fires
        time.sleep(0.02)
        got = buttons.commands()
    assert got == [ODDS]
    clock.now += 5
    time.sleep(HOLD * 2.5)  # held on: nothing repeats
    p.drive_high()
    assert buttons.commands() == []


def test_long_bank_press_is_odds_even_before_the_hold_thread_runs(buttons, factory, clock):
    p = pin(factory, 17)
    p.drive_low()
    clock.now += HOLD + 0.05
    p.drive_high()
    assert buttons.commands() == [ODDS]


def test_short_bank_press_banks_once_on_release(buttons, factory, clock):
    p = pin(factory, 17)
    p.drive_low()
    assert buttons.commands() == []  # a press or a hold? the release tells
    clock.now += 0.05
    p.drive_high()
    assert buttons.commands() == [BANK]
    for _ in range(3):  # bounces of the same press: nothing more
        p.drive_low()
        p.drive_high()
    assert buttons.commands() == []


def test_command_on_press_not_on_release(buttons, factory):
    p = pin(factory, 27)
    p.drive_low()
    assert buttons.commands() == [ROLL]
    p.drive_high()
    assert buttons.commands() == []


def test_hold_select_is_undo_and_no_select(buttons, factory, clock):
    p = pin(factory, 22)
    p.drive_low()
    deadline = time.monotonic() + 3
    got = []
    while not got and time.monotonic() < deadline:  # gpiozero's hold thread fires
        time.sleep(0.02)
        got = buttons.commands()
    assert got == [UNDO]
    clock.now += 1
    p.drive_high()
    assert buttons.commands() == []


def test_long_select_press_is_undo_even_before_the_hold_thread_runs(buttons, factory, clock):
    p = pin(factory, 22)
    p.drive_low()
    clock.now += HOLD + 0.05  # our clock says held; gpiozero's real-time thread has not run
    p.drive_high()
    assert buttons.commands() == [UNDO]


def test_short_select_is_select(buttons, factory, clock):
    p = pin(factory, 22)
    p.drive_low()
    assert buttons.commands() == []  # a press or a hold? the release tells
    clock.now += 0.05
    p.drive_high()
    assert buttons.commands() == [SELECT]


def test_custom_pins(factory, clock):
    with ArcadeButtons(ButtonPins(bank=5, roll=6, select=13), clock=clock) as b:
        press(factory, 5)
        press(factory, 6)
        press(factory, 17)  # not a button any more
        assert b.commands() == [BANK, ROLL]


def test_no_gpio_is_no_buttons_not_a_traceback(monkeypatch):
    old = Device.pin_factory
    Device.pin_factory = None
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-factory")
    try:
        assert open_buttons() is None
    finally:
        Device.pin_factory = old


def test_open_buttons_on_gpio(factory):
    buttons = open_buttons(ButtonPins(bank=5, roll=6, select=13))
    assert buttons is not None
    press(factory, 5)
    assert buttons.commands() == [BANK]
    buttons.close()


def test_press_gate():
    clock = FakeClock()
    gate = PressGate(0.2, clock)
    assert gate.accept("bank")
    assert not gate.accept("bank")
    assert gate.accept("roll")
    clock.now += 0.19
    assert not gate.accept("bank")
    clock.now += 0.02
    assert gate.accept("bank")


def test_command_text():
    assert str(Command(InputCommand.DIGIT, 5)) == "digit 5"
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
