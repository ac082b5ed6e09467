"""The demo game: automatic players at the demo table.

:class:`DemoDriver` looks at the game and, when the table is idle, does what a player
would: throws the dice the game is waiting for, slides the chosen keep into the keep
strip, or presses BANK (or takes over the last bank's dice, or goes for 1000), as the
advisor says is best. The camera (the demo table's frames), the reader, the table logic
and the rules engine do the rest, exactly as for real players.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from zonkcam.app.players import AutoPlayer
from zonkcam.controls import BANK, ROLL, Control, Press
from zonkcam.game.state import GameState, Phase
from zonkcam.table.zones import TableDie
from zonkcam.vision.geometry import die_at_box

if TYPE_CHECKING:
    from zonkcam.sim.demo_table import DemoTable, DemoTruth


class DemoDriver:
    def __init__(
        self,
        table: DemoTable,
        player: AutoPlayer,
        press: Callable[[Press], None] | None = None,
    ) -> None:
        self.table = table
        self.player = player
        """Decides for the players, with the advisor the app hands it."""
        self.press = press
        """Presses a button for real (e.g. a mocked GPIO pin); None: hand back commands."""
        self._asked: tuple | None = None
        """The state in which the last physical move was made (to notice a stuck table)."""

    def step(self, state: GameState) -> list[Press]:
        """What the players do next: table moves are scripted on the table; button presses
        are returned (or pressed through ``press``)."""
        commands = self._decide(state)
        if self.press is None:
            return commands
        for command in commands:
            self.press(command)
        return []

    def _decide(self, state: GameState) -> list[Press]:
        if self.table.busy or state.finished or state.player is None:
            return []
        here = (len(state.log), state.phase)
        stuck = here == self._asked  # the table did its part but nothing happened
        self._asked = here
        t = state.turn
        if state.phase is Phase.ROLL:
            if t.bank_ok and self.player.wants_to_bank(state):
                return [BANK]
            if self.player.wants_piggyback(state):
                return [ROLL]  # ROLL at the start of a turn takes over the offered dice
            if stuck:  # the camera did not see this throw as the game expects: throw again
                self.table.throw(n=t.dice_to_roll)
                return []
            if t.dice_to_roll == state.rules.dice:
                self.table.pick_up()
            self.table.throw(n=t.dice_to_roll)
            return []
        if state.phase is Phase.DECIDE:
            if self.player.wants_to_bank(state):
                return [BANK]
            if self.player.wants_go_for_1000(state):
                return [Press(Control.GO_FOR_1000)]
            if stuck:  # the keep strip was not read as this keep: choose it with the button
                return [ROLL]
            self.table.keep(self.player.choose_keep(state).dice)
            return []
        if state.phase is Phase.PAIR:
            self.table.throw(n=2)
            return []
        if state.phase is Phase.GO_FOR_1000:
            self.table.throw(n=1)
            return []
        return []


def confirm_from_truth(dice: Sequence[TableDie], truth: DemoTruth | None) -> list[Press]:
    """What the demo's scorekeeper presses on "meet the dice" with nobody at the screen:
    each die read wrong is fixed to the value the demo table drew (tapped, its value
    typed), then ROLL confirms the throw. A die the table did not draw is left as read."""
    out: list[Press] = []
    for k, die in enumerate(dice):
        drawn = _drawn_value(die.bbox, truth)
        if drawn is not None and (die.cocked or drawn != die.value):
            out += [Press(Control.TAP_DIE, k), Press(Control.DIGIT, drawn)]
    return [*out, ROLL]


def _drawn_value(bbox: Sequence[float], truth: DemoTruth | None) -> int | None:
    """The value of the die the demo table drew where ``bbox`` is (geometry.die_at_box),
    or None."""
    if truth is None:
        return None
    k = die_at_box(truth.boxes[: len(truth.dice)], bbox)
    return None if k is None else truth.dice[k].value
