"""What a press, a key or a tap means: the presses the app reads, and the table action
each stands for in a game state.

The arcade buttons (:mod:`zonkcam.hardware.buttons`) and the keyboard and touch screen
(:mod:`zonkcam.display.keyboard`) all turn into :class:`Press` values; the app turns
them into table actions with :func:`action_for`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol

from zonkcam.game import actions as A
from zonkcam.game.state import GameState, Phase, PlayerState


class Control(StrEnum):
    """What a button, a key or a tap on the screen asks for."""

    BANK = "bank"
    ROLL = "roll"
    """Take the selected keep and roll on; in set-up screens, confirm."""
    SELECT = "select"
    """Next keep (next item in set-up screens)."""
    BACK = "back"
    """Previous keep or item (keyboard only)."""
    UNDO = "undo"
    QUIT = "quit"
    MUTE = "mute"
    DIGIT = "digit"
    """A typed digit 1-6 (``value``): the corrected value for the die being confirmed."""
    TAP_DIE = "tap-die"
    """The touch screen was tapped on die number ``value`` (an index into the dice seen)."""
    CHAR = "char"
    """A typed character (``value``) while a set-up screen wants text."""
    ERASE = "erase"
    """Backspace while a set-up screen wants text."""
    GO_FOR_1000 = "go-for-1000"
    """Keyboard: go for 1000 (with the buttons: SELECT it after the keeps, then ROLL)."""
    PIGGYBACK = "piggyback"
    """Keyboard: piggyback (with the buttons: ROLL at the start of the turn)."""
    SPACED = "spaced"
    """Keyboard: the next digit names the player (scoreboard order) who is spaced."""
    CHOOSE = "choose"
    """Keyboard: the next digit names who drinks for a scoring die on CHOOSE."""
    PHOTO = "photo"
    """Keyboard: show (or hide) the photo of the last roll the camera read."""
    ODDS = "odds"
    """Show or hide the odds panel (keyboard o; BANK held)."""
    DRUNK = "drunk"
    """ROLL held: every drink due is drunk; with none due, every drink to hand out is
    handed out; with none of those, every drinking rule to make is made
    (:func:`settle_next`)."""
    DRANK = "drank"
    """Keyboard: the next digit names the player (scoreboard order) whose drinks due are
    drunk; 0 is everyone."""
    HANDED = "handed"
    """Keyboard: the next digit names the player whose drinks to hand out are handed out;
    0 is everyone."""
    RULED = "ruled"
    """Keyboard: the next digit names the player whose drinking rules to make are made;
    0 is everyone."""


@dataclass(frozen=True)
class Press:
    """One press of a control, with its value where it has one (a digit, a die tapped)."""

    kind: Control
    value: Any = None

    def __str__(self) -> str:
        return self.kind.value if self.value is None else f"{self.kind.value} {self.value}"


class Buttons(Protocol):
    """Buttons the screen reads presses from (the arcade buttons,
    :class:`zonkcam.hardware.buttons.ArcadeButtons`, or a stand-in)."""

    def commands(self) -> list[Press]:
        """Every press since the last call."""
        ...


BANK, ROLL, SELECT, UNDO = (
    Press(Control.BANK),
    Press(Control.ROLL),
    Press(Control.SELECT),
    Press(Control.UNDO),
)
ODDS = Press(Control.ODDS)
DRUNK = Press(Control.DRUNK)


def action_for(command: Press, state: GameState, selected_keep: int = 0) -> A.Action | None:
    """The table action a button press stands for in ``state``, or None if it is no action.

    BANK banks; ROLL takes the selected keep (after a roll) or throws the pair again; UNDO
    undoes; DRUNK settles what everyone owes, a kind at a time (:func:`settle_next`).
    SELECT only moves the selection; rolls themselves come from the camera.
    """
    kind = command.kind
    if kind is Control.UNDO:
        return A.Undo()
    if kind is Control.DRUNK:
        return settle_next(state)[0] or A.Drunk()
    if kind is Control.GO_FOR_1000:
        return A.GoFor1000()
    if kind is Control.PIGGYBACK:
        return A.Piggyback()
    phase = state.phase
    if kind is Control.BANK:
        return A.Pass() if phase is Phase.PAIR else A.Bank()
    if kind is Control.ROLL:
        if phase is Phase.DECIDE and state.turn.score is not None and state.turn.score.keeps:
            choices = decide_choices(state)
            return choices[selected_keep % len(choices)]
        if phase is Phase.ROLL and state.options.piggyback:
            return A.Piggyback()  # a fresh start needs no button: just throw
        if phase is Phase.PAIR:
            return A.Reroll()
    return None


_OWED: tuple[tuple[Callable[[PlayerState], int], Callable[[], A.Action], str], ...] = (
    (lambda p: p.drinks_due, A.Drunk, "drunk"),
    (lambda p: p.handouts_due, A.HandedOut, "handed out"),
    (lambda p: p.rules_due, A.RuleMade, "rules made"),
)


def settle_next(state: GameState) -> tuple[A.Action | None, str]:
    """What ROLL held settles now, and that in a word or two ("drunk"): everyone's drinks
    due while anyone owes one, then everyone's drinks to hand out, then everyone's
    drinking rules to make; (None, "") when nobody owes anything."""
    for due, action, words in _OWED:
        if any(due(p) for p in state.players):
            return action(), words
    return None, ""


def decide_choices(state: GameState) -> list[A.Action]:
    """What SELECT cycles through after a roll: the legal keeps, best first, then go for
    1000 where the table has it and the roll allows it."""
    assert state.turn.score is not None
    choices: list[A.Action] = [A.Keep(k.dice) for k in state.turn.score.keeps]
    if state.options.go_for_1000:
        choices.append(A.GoFor1000())
    return choices
