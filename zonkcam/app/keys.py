"""What the scorekeeper's keys ask at the table, and what the digit typed next answers.

Most commands are the game's own actions (:func:`~zonkcam.controls.action_for`). A few
ask a question first, answered by the next digit (:class:`Keys`): a naming key (SPACED,
CHOOSE, DRANK, HANDED, RULED) asks which player (their number on the scoreboard; 0 for
everyone where the key allows it); a tap on a die asks its value (1-6), as does a throw
held for the value of a die no read could read (:class:`~zonkcam.app.throw.Throw`).
"""

from __future__ import annotations

from dataclasses import dataclass

from zonkcam.controls import Control, Press
from zonkcam.game import actions as A
from zonkcam.game.state import GameState

EVERYONE = {Control.DRANK: A.Drunk, Control.HANDED: A.HandedOut, Control.RULED: A.RuleMade}
"""Keys whose digit 0 names everyone: what each settles."""
NAMING = (Control.SPACED, Control.CHOOSE, *EVERYONE)
"""Keys whose next digit names a player (scoreboard order)."""


@dataclass(frozen=True)
class DieValue:
    """The value typed for a die: the die tapped (index in the dice on the camera view), or
    (``index`` None) the held throw's first unread die."""

    index: int | None
    value: int


Answer = A.Action | DieValue | str
"""What a digit answers: an action to play, a die's value, or what to say instead."""


@dataclass
class Keys:
    """The question the scorekeeper's last key asked, if any."""

    naming: Control | None = None
    """A naming key: waiting for the player's number."""
    correcting: int | None = None
    """The die (index in the dice on the camera view) tapped: waiting for its value."""

    def ask(self, command: Press) -> str | None:
        """The question ``command`` asks (a tap on a die, a naming key), to be said; None
        for any other command."""
        if command.kind is Control.TAP_DIE:
            self.correcting = command.value
            return "type the die's value (1-6) to correct it"
        if command.kind in NAMING:
            self.naming = command.kind
            everyone = ", 0 for everyone" if command.kind in EVERYONE else ""
            return f"which player? type their number on the scoreboard{everyone}"
        return None

    @property
    def asking(self) -> bool:
        """Whether a question waits for a digit."""
        return self.naming is not None or self.correcting is not None

    def answer(self, digit: int, state: GameState) -> Answer:
        """What ``digit`` answers: the question asked (a player named, a die's value), or
        else the value of the held throw's first unread die."""
        if self.naming is not None:
            kind, self.naming = self.naming, None
            return naming_action(kind, digit, state)
        index, self.correcting = self.correcting, None
        if not 1 <= digit <= 6:
            return f"a die shows 1 to 6, not {digit}"
        return DieValue(index, digit)


def naming_action(kind: Control, number: int, state: GameState) -> A.Action | str:
    """The action a naming key (:data:`NAMING`) and the player's number on the scoreboard
    stand for (0: everyone, where the key allows it); or why there is none."""
    if kind in EVERYONE and number == 0:
        return EVERYONE[kind](None)
    if not 1 <= number <= len(state.players):
        return f"no player {number}"
    name = state.players[number - 1].name
    return {
        Control.SPACED: A.Penalty(A.PenaltyKind.SPACED, name),
        Control.CHOOSE: A.Land(A.Landing.CHOOSE, name),
        Control.DRANK: A.Drunk(name),
        Control.HANDED: A.HandedOut(name),
        Control.RULED: A.RuleMade(name),
    }[kind]
