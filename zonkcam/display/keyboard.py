"""Keyboard and touch screen: pygame events into the same commands as the arcade buttons.

==============  ============================================
key             command
==============  ============================================
b               BANK
r, space, Enter ROLL (take the selected keep and roll on)
s, Tab, Down    SELECT (next keep); Up = BACK (previous keep)
u, Backspace    UNDO
0-9             DIGIT (the corrected value of a die, a player's number)
m               MUTE
o               ODDS (show or hide the odds panel)
g               GO FOR 1000
p               PIGGYBACK
x, then 1-9     SPACED: that player (scoreboard order) loses a turn and drinks
c, then 1-9     CHOOSE: that player drinks for a die on the CHOOSE image
d, then 0-9     DRANK: that player's drinks due are drunk (0: everyone's)
h, then 0-9     HANDED: that player's drinks to hand out are handed out (0: everyone's)
n, then 0-9     RULED: that player's drinking rules to make are made (0: everyone's)
v               PHOTO: the photo of the last roll read (again: back to the game)
Esc             QUIT (closing the window too)
F11             full screen and back (the window's own: no command)
==============  ============================================

While a set-up screen wants text (``text_mode``), printable keys become CHAR, Backspace
ERASE and Delete BANK (the b key types a b); Enter, Tab, arrows and Esc keep their meaning.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import pygame

from zonkcam.controls import Control, Press

_KEYS = {
    pygame.K_b: Control.BANK,
    pygame.K_r: Control.ROLL,
    pygame.K_SPACE: Control.ROLL,
    pygame.K_RETURN: Control.ROLL,
    pygame.K_KP_ENTER: Control.ROLL,
    pygame.K_s: Control.SELECT,
    pygame.K_TAB: Control.SELECT,
    pygame.K_DOWN: Control.SELECT,
    pygame.K_UP: Control.BACK,
    pygame.K_u: Control.UNDO,
    pygame.K_BACKSPACE: Control.UNDO,
    pygame.K_m: Control.MUTE,
    pygame.K_o: Control.ODDS,
    pygame.K_g: Control.GO_FOR_1000,
    pygame.K_p: Control.PIGGYBACK,
    pygame.K_x: Control.SPACED,
    pygame.K_c: Control.CHOOSE,
    pygame.K_d: Control.DRANK,
    pygame.K_h: Control.HANDED,
    pygame.K_n: Control.RULED,
    pygame.K_v: Control.PHOTO,
    pygame.K_ESCAPE: Control.QUIT,
}
_ALWAYS = {
    pygame.K_RETURN,
    pygame.K_KP_ENTER,
    pygame.K_TAB,
    pygame.K_DOWN,
    pygame.K_UP,
    pygame.K_ESCAPE,
}
"""Keys that keep their meaning while typing."""
_DIGITS = {getattr(pygame, f"K_{n}"): n for n in range(10)}
_DIGITS.update({getattr(pygame, f"K_KP{n}"): n for n in range(10)})


class KeyboardInput:
    """Turns pygame events into :class:`~zonkcam.controls.Press` values.

    ``tap_to_die`` maps a tap's screen position to a die index (or None); the app passes
    the screen's :meth:`~zonkcam.display.painter.Painter.tapped_die` bound to the current view.
    ``tap_to_command``, while set, maps a tap to a whole command first (a set-up screen's
    own touch buttons: the same commands as the arcade buttons).
    """

    def __init__(
        self,
        tap_to_die: Callable[[tuple[float, float]], int | None] | None = None,
        text_mode: bool = False,
        tap_to_command: Callable[[tuple[float, float]], Press | None] | None = None,
    ) -> None:
        self.tap_to_die = tap_to_die
        self.text_mode = text_mode
        self.tap_to_command = tap_to_command

    def commands(self, events: Iterable[pygame.event.Event]) -> list[Press]:
        out = []
        for event in events:
            command = self.command(event)
            if command is not None:
                out.append(command)
        return out

    def command(self, event: pygame.event.Event) -> Press | None:
        if event.type == pygame.QUIT:
            return Press(Control.QUIT)
        if event.type == pygame.KEYDOWN:
            return self._key(event)
        # SDL turns a touch into a left click too; taking only the click avoids doubles
        if event.type == pygame.MOUSEBUTTONDOWN and getattr(event, "button", 1) == 1:
            return self._tap(event.pos)
        return None

    def _key(self, event: pygame.event.Event) -> Press | None:
        if self.text_mode and event.key not in _ALWAYS:
            if event.key == pygame.K_BACKSPACE:
                return Press(Control.ERASE)
            if event.key == pygame.K_DELETE:
                return Press(Control.BANK)
            text = getattr(event, "unicode", "")
            if text and text.isprintable():
                return Press(Control.CHAR, text)
            return None
        if event.key in _DIGITS:
            return Press(Control.DIGIT, _DIGITS[event.key])
        kind = _KEYS.get(event.key)
        return Press(kind) if kind is not None else None

    def _tap(self, pos: tuple[float, float]) -> Press | None:
        if self.tap_to_command is not None:
            return self.tap_to_command(pos)
        if self.tap_to_die is None:
            return None
        index = self.tap_to_die(pos)
        return Press(Control.TAP_DIE, index) if index is not None else None
