"""Example game moments for screenshots and tests, reached by playing real table actions.

Each scene is a :class:`Scene`: a game state from :class:`~zonkcam.game.game.Game`, a drawn
camera frame (:mod:`zonkcam.display.fake_table`) and the selected keep.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from zonkcam.display.fake_table import mat_observation
from zonkcam.display.view import TableObservation
from zonkcam.game import actions as A
from zonkcam.game.dice import parse_dice
from zonkcam.game.game import Game
from zonkcam.game.rules import PRESETS
from zonkcam.game.state import GameState


@dataclass
class Scene:
    name: str
    game: Game
    observation: TableObservation | None = None
    selected_keep: int = 0

    @property
    def state(self) -> GameState:
        return self.game.state


def _roll(values: Sequence[int | str]) -> A.Roll:
    return A.Roll(parse_dice(list(values)))


def _seen(values: Sequence[int], **kw) -> TableObservation:
    return mat_observation(values, **kw)


def roll_with_keeps() -> Scene:
    """classic-10000: Ann has thrown 1 5 5 3 1; one 5 was read with low confidence."""
    game = Game(PRESETS["classic-10000"], [A.Players(("Ann", "Bob", "Cyrus"))])
    game.play(_roll([1, 1, 1, 2, 3]))
    game.play(A.Bank())
    game.play(_roll([2, 3, 4, 6, 6]))  # Bob zonks
    game.play(_roll([1, 1, 1, 5, 3]))  # Cyrus
    game.play(A.Keep((1, 1, 1, 5)))
    game.play(A.Bank())
    game.play(_roll([1, 5, 5, 3, 1]))
    seen = _seen([1, 5, 5, 3, 1], confidences=[0.97, 0.95, 0.42, 0.9, 0.98])
    return Scene("roll", game, seen, selected_keep=1)


def hot_dice() -> Scene:
    """classic-10000: every die of 1 1 1 5 5 kept; all five dice back in hand."""
    game = Game(PRESETS["classic-10000"], [A.Players(("Ann", "Bob"))])
    game.play(_roll([1, 1, 1, 5, 5]))
    game.play(A.Keep((1, 1, 1, 5, 5)))
    return Scene("hot-dice", game, _seen([1, 1, 1, 5, 5]))


def zonk() -> Scene:
    """classic-10000: Bob throws 2 3 4 6 6, nothing scores."""
    game = Game(PRESETS["classic-10000"], [A.Players(("Ann", "Bob"))])
    game.play(_roll([1, 1, 1, 2, 3]))
    game.play(A.Bank())
    game.play(_roll([2, 3, 4, 6, 6]))
    return Scene("zonk", game, _seen([2, 3, 4, 6, 6]))


def drinking() -> Scene:
    """drinking: zonk names, a hand-out, a spaced player and a die on the LEFT image."""
    game = Game(PRESETS["drinking"], [A.Players(("Ann", "Bob", "Cy"))])
    game.play(A.ZonkName("Bob", "Noodle", "Ann"))
    game.play(A.ZonkName("Cy", "Captain", "Bob"))
    game.play(A.ZonkName("Ann", "Dizzy", "Cy"))
    game.play(_roll([1, 1, 1, 4, 6]))
    game.play(A.Bank())  # 1,000: a barrier, hand out
    game.play(A.Penalty("spaced", "Cy"))
    game.play(_roll([5, 2, 3, 4, 6]))
    game.play(A.Land("left"))
    return Scene("drinking", game, _seen([5, 2, 3, 4, 6]))


def all_johnnys() -> Scene:
    """all-johnnys: Ann banks 1,100 (+1 B); Bob's first roll scores nothing: NEWBIE."""
    game = Game(PRESETS["all-johnnys"], [A.Players(("Ann", "Bob", "Cy"))])
    game.play(_roll([1, 1, 1, 5, 5, 2]))
    game.play(A.Bank())
    game.play(_roll([2, 3, 4, 6, 6, 2]))
    return Scene("all-johnnys", game, _seen([2, 3, 4, 6, 6, 2]))


def detroit_colours() -> Scene:
    """detroit: white, red and green pairs, each read with its colour."""
    game = Game(PRESETS["detroit"], [A.Players(("Ann", "Bob"))])
    dice = ["1w", "5w", "2r", "2r", "5g", "3g"]
    game.play(_roll(dice))
    colours = ["white", "white", "red", "red", "green", "green"]
    return Scene("detroit", game, _seen([1, 5, 2, 2, 5, 3], colors=colours,
                                        confidences=[0.99, 0.9, 0.95, 0.5, 0.9, 0.9]))


def winner() -> Scene:
    """A short classic game (target 1,000, first there wins): Ann wins."""
    rules = dataclasses.replace(PRESETS["classic-10000"], name="classic-1000", target=1000,
                                end="instant")
    game = Game(rules, [A.Players(("Ann", "Bob"))])
    game.play(_roll([1, 1, 1, 2, 3]))
    game.play(A.Bank())
    return Scene("winner", game, _seen([1, 1, 1, 2, 3]))


SCENES: dict[str, Callable[[], Scene]] = {
    "roll": roll_with_keeps,
    "hot-dice": hot_dice,
    "zonk": zonk,
    "drinking": drinking,
    "all-johnnys": all_johnnys,
    "detroit": detroit_colours,
    "winner": winner,
}
