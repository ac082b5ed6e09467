"""Example game moments for screenshots and tests, reached by playing real table actions.

Each scene is a :class:`Scene`: a game state from :class:`~zonkcam.game.game.Game`, a drawn
camera frame (:mod:`zonkcam.sim.fake_table`) and the selected keep.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from zonkcam.display.game_screen import turn_in_play
from zonkcam.display.view import CameraView
from zonkcam.game import actions as A
from zonkcam.game.dice import parse_dice
from zonkcam.game.game import Game
from zonkcam.game.rules import PRESETS, RuleSet
from zonkcam.game.state import GameState
from zonkcam.sim.fake_table import mat_view


@dataclass
class Scene:
    name: str
    game: Game
    camera: CameraView | None = None
    """The last roll's dice as the camera saw them; as the table app shows them, marked
    as a passed turn's once that roll's turn is over (zonked, banked, the game won)."""
    selected_keep: int = 0

    def __post_init__(self) -> None:
        if self.camera is not None and _turn_passed(self.game):
            self.camera = dataclasses.replace(self.camera, earlier_turn=True)

    @property
    def state(self) -> GameState:
        return self.game.state


def _turn_passed(game: Game) -> bool:
    """Whether the turn of the game's last roll is over."""
    rolls = [k for k, e in enumerate(game.events) if isinstance(e, A.Roll)]
    if not rolls:
        return False
    before = Game(game.state.rules, game.events[: rolls[-1]]).state
    return turn_in_play(before) != turn_in_play(game.state)


def _roll(values: Sequence[int | str]) -> A.Roll:
    return A.Roll(parse_dice(list(values)))


def _seen(values: Sequence[int], **kw) -> CameraView:
    return mat_view(values, **kw)


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
    game.play(A.Penalty(A.PenaltyKind.SPACED, "Cy"))
    game.play(_roll([5, 2, 3, 4, 6]))
    game.play(A.Land(A.Landing.LEFT))
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
    return Scene(
        "detroit",
        game,
        _seen([1, 5, 2, 2, 5, 3], colors=colours, confidences=[0.99, 0.9, 0.95, 0.5, 0.9, 0.9]),
    )


def winner() -> Scene:
    """A short classic game (target 1,000, first there wins): Ann wins."""
    rules = dataclasses.replace(
        PRESETS["classic-10000"], name="classic-1000", target=1000, end="instant"
    )
    game = Game(rules, [A.Players(("Ann", "Bob"))])
    game.play(_roll([1, 1, 1, 2, 3]))
    game.play(A.Bank())
    return Scene("winner", game, _seen([1, 1, 1, 2, 3]))


def final_round() -> Scene:
    """A short classic game (to 2,000): Ann banks past it; Bob and Cyrus have one more turn
    each."""
    rules = dataclasses.replace(PRESETS["classic-10000"], name="classic-2000", target=2000)
    game = Game(rules, [A.Players(("Ann", "Bob", "Cyrus"))])
    for roll in ([1, 1, 1, 2, 3], [1, 1, 1, 4, 3]):  # Ann and Bob: 1,000 each
        game.play(_roll(roll))
        game.play(A.Bank())
    game.play(_roll([2, 3, 4, 6, 6]))  # Cyrus zonks
    game.play(_roll([1, 1, 1, 5, 3]))
    game.play(A.Bank())
    return Scene("final-round", game, _seen([1, 1, 1, 5, 3]))


def sloppy() -> Scene:
    """drinking: a die falls off the table: Noodle's turn ends with no points, and a drink."""
    game = _dizzy_noodle_captain(PRESETS["drinking"])
    game.play(_roll([1, 1, 1, 5, 2]))
    game.play(A.Bank())  # 1,050: a barrier (hand out 3) and a turn over 1,000 (a rule)
    game.play(A.Penalty(A.PenaltyKind.SLOPPY))
    return Scene("sloppy", game, None)


def hand_out() -> Scene:
    """drinking: Dizzy banks 1,050 on the first turn: hand out 3 drinks, make a rule."""
    game = _dizzy_noodle_captain(PRESETS["drinking"])
    game.play(_roll([1, 1, 1, 5, 2]))
    game.play(A.Bank())
    return Scene("hand-out", game, _seen([1, 1, 1, 5, 2]))


def _dizzy_noodle_captain(rules: RuleSet) -> Game:
    """Ann, Bob and Cy seated at a drinking table as Dizzy, Noodle and Captain."""
    game = Game(rules, [A.Players(("Ann", "Bob", "Cy"))])
    game.play(A.ZonkName("Ann", "Dizzy", "Cy"))
    game.play(A.ZonkName("Bob", "Noodle", "Ann"))
    game.play(A.ZonkName("Cy", "Captain", "Bob"))
    return game


def drinking_won() -> Scene:
    """drinking to 1,000: Dizzy's first bank, 1,050, wins; it also crosses a barrier (hand
    out 3) and is a turn over 1,000 (a rule to make), both still owed at the end."""
    rules = dataclasses.replace(PRESETS["drinking"], name="drinking to 1,000", target=1000)
    game = _dizzy_noodle_captain(rules)
    game.play(_roll([1, 1, 1, 5, 2]))
    game.play(A.Bank())
    return Scene("drinking-won", game, _seen([1, 1, 1, 5, 2]))


def spaced() -> Scene:
    """drinking: Captain touched the dice out of turn: spaced (loses a turn) and drinks."""
    game = _dizzy_noodle_captain(PRESETS["drinking"])
    game.play(A.Penalty(A.PenaltyKind.SPACED, "Captain"))
    return Scene("spaced", game, None)


def piggyback() -> Scene:
    """chicago: Ann banked 1,000 with two dice left: Bob may take them over."""
    game = Game(PRESETS["chicago"], [A.Players(("Ann", "Bob"))])
    game.play(_roll([1, 1, 1, 3, 4]))
    game.play(A.Keep((1, 1, 1)))
    game.play(A.Bank())
    return Scene("piggyback", game, _seen([1, 1, 1, 3, 4]))


def go_for_1000() -> Scene:
    """all-johnnys: Ann's first roll 1 2 3 4 5 5 is one die from 1-6: she goes for 1000."""
    game = Game(PRESETS["all-johnnys"], [A.Players(("Ann", "Bob"))])
    game.play(_roll([1, 2, 3, 4, 5, 5]))
    game.play(A.GoFor1000())
    return Scene("go-for-1000", game, _seen([1, 2, 3, 4, 5, 5]))


def made_1000() -> Scene:
    """all-johnnys: the one die shows the 6: +1,000 and all six dice again."""
    scene = go_for_1000()
    scene.game.play(_roll([6]))
    return Scene("made-1000", scene.game, _seen([6]))


SCENES: dict[str, Callable[[], Scene]] = {
    "roll": roll_with_keeps,
    "hot-dice": hot_dice,
    "zonk": zonk,
    "drinking": drinking,
    "all-johnnys": all_johnnys,
    "detroit": detroit_colours,
    "winner": winner,
    "final-round": final_round,
    "sloppy": sloppy,
    "hand-out": hand_out,
    "drinking-won": drinking_won,
    "spaced": spaced,
    "piggyback": piggyback,
    "go-for-1000": go_for_1000,
    "made-1000": made_1000,
}
"""Every kind of moment at the table: zonk, hot dice, final round, winner, penalties, drinks
due and hand-outs, piggyback offer, go for 1000, B's and newbies, colour pairs."""


@dataclass(frozen=True)
class Shot:
    """One screenshot of docs/screenshots/ (scripts/screenshots.py)."""

    scene: str
    size: tuple[int, int] = (800, 480)
    banner: bool = False
    """With the banner the scene's last action raised (the first that is not ZONK)."""
    odds: bool = False


SHOTS: dict[str, Shot] = {
    "roll-800x480": Shot("roll"),
    "roll-1920x1080": Shot("roll", (1920, 1080)),
    "odds": Shot("roll", odds=True),
    "hot-dice": Shot("hot-dice", banner=True),
    "zonk": Shot("zonk", banner=True),
    "drinking": Shot("drinking"),
    "drink-left": Shot("drinking", banner=True),
    "sloppy": Shot("sloppy", banner=True),
    "hand-out": Shot("hand-out", banner=True),
    "spaced": Shot("spaced"),
    "all-johnnys": Shot("all-johnnys"),
    "newbie": Shot("all-johnnys", banner=True),
    "go-for-1000": Shot("go-for-1000"),
    "made-1000": Shot("made-1000", banner=True),
    "piggyback": Shot("piggyback"),
    "final-round": Shot("final-round"),
    "final-round-banner": Shot("final-round", banner=True),
    "detroit-colours": Shot("detroit"),
    "winner-800x480": Shot("winner", banner=True),
    "winner-1920x1080": Shot("winner", (1920, 1080), banner=True),
    "drinking-won": Shot("drinking-won", banner=True),
}
