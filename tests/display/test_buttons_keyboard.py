"""The keyboard and touch screen give the same commands as the arcade buttons."""

from __future__ import annotations

import pygame
import pytest

from zonkcam.controls import BANK, ROLL, SELECT, UNDO, Control, Press
from zonkcam.display.keyboard import KeyboardInput
from zonkcam.display.painter import Painter
from zonkcam.display.view import view_for
from zonkcam.sim import scenes


def key(k, text=""):
    return pygame.event.Event(pygame.KEYDOWN, key=k, unicode=text, mod=0)


def click(pos, button=1):
    return pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button)


@pytest.mark.parametrize(
    "k,command",
    [
        (pygame.K_b, BANK),
        (pygame.K_r, ROLL),
        (pygame.K_SPACE, ROLL),
        (pygame.K_RETURN, ROLL),
        (pygame.K_s, SELECT),
        (pygame.K_TAB, SELECT),
        (pygame.K_u, UNDO),
        (pygame.K_BACKSPACE, UNDO),
        (pygame.K_m, Press(Control.MUTE)),
        (pygame.K_o, Press(Control.ODDS)),
        (pygame.K_ESCAPE, Press(Control.QUIT)),
        (pygame.K_UP, Press(Control.BACK)),
        (pygame.K_5, Press(Control.DIGIT, 5)),
        (pygame.K_KP3, Press(Control.DIGIT, 3)),
        (pygame.K_7, Press(Control.DIGIT, 7)),
        (pygame.K_0, Press(Control.DIGIT, 0)),
        (pygame.K_d, Press(Control.DRANK)),
    ],
)
def test_keys(k, command):
    assert KeyboardInput().commands([key(k)]) == [command]


def test_other_keys_and_events_give_nothing():
    events = [
        key(pygame.K_z, "z"),
        key(pygame.K_F1),
        pygame.event.Event(pygame.KEYUP, key=pygame.K_b, mod=0),
        pygame.event.Event(pygame.MOUSEMOTION, pos=(1, 1), rel=(0, 0), buttons=(0, 0, 0)),
    ]
    assert KeyboardInput().commands(events) == []


def test_closing_the_window_quits():
    assert KeyboardInput().commands([pygame.event.Event(pygame.QUIT)]) == [Press(Control.QUIT)]


def test_text_mode_types_letters_but_keeps_enter_and_escape():
    keyboard = KeyboardInput(text_mode=True)
    got = keyboard.commands(
        [
            key(pygame.K_b, "B"),
            key(pygame.K_r, "r"),
            key(pygame.K_SPACE, " "),
            key(pygame.K_BACKSPACE),
            key(pygame.K_RETURN, "\r"),
            key(pygame.K_TAB, "\t"),
            key(pygame.K_ESCAPE, "\x1b"),
        ]
    )
    assert got == [
        Press(Control.CHAR, "B"),
        Press(Control.CHAR, "r"),
        Press(Control.CHAR, " "),
        Press(Control.ERASE),
        ROLL,
        SELECT,
        Press(Control.QUIT),
    ]


def test_delete_is_bank_while_names_are_typed():
    """The set-up screen's BANK (remove the player lit, go back) from a keyboard, where
    the b key types a b."""
    keyboard = KeyboardInput(text_mode=True)
    assert keyboard.commands([key(pygame.K_DELETE), key(pygame.K_b, "b")]) == [
        BANK,
        Press(Control.CHAR, "b"),
    ]


def test_tapping_a_die_on_the_screen():
    pygame.init()
    scene = scenes.roll_with_keeps()
    view = view_for(scene.state, scene.camera)
    screen = Painter()
    screen.draw(pygame.Surface((800, 480)), view)
    fit = screen.camera_fit
    on_die = fit.to_screen(view.dice[3].die.bbox).center
    keyboard = KeyboardInput(tap_to_die=lambda pos: screen.tapped_die(pos, view))
    assert keyboard.commands([click(on_die)]) == [Press(Control.TAP_DIE, 3)]
    assert keyboard.commands([click((fit.rect.x + 2, fit.rect.y + 2))]) == []  # the bare mat
    assert keyboard.commands([click(on_die, button=3)]) == []  # right button
    assert KeyboardInput().commands([click(on_die)]) == []  # no tap handler: no taps
