"""Table actions: the events a game is made of.

Each accepted action is stored as an event; the game state is a fold over them.
The JSON form is one object per action, as used by ``zonkcam replay`` and the event log:
``{"players": [...]}``, ``{"roll": [1, 2, 4, 6, 6]}`` (from the camera, with ``"seen": ["white",
"red", ...]``: Roll.seen), ``{"keep": [1]}``, ``{"bank": true}``,
``{"reroll": true}``, ``{"pass": true}``, ``{"go_for_1000": true}``, ``{"piggyback": true}``,
``{"penalty": "spaced" | "sloppy", "player": NAME}``,
``{"land": "left" | "right" | "choose" | "social", "player": NAME}``,
``{"join": NAME}``, ``{"leave": NAME}``, ``{"zonk_name": NAME, "player": NAME, "by": NAME}``,
``{"drunk": NAME}`` (or ``{"drunk": true}``: everyone's drinks due),
``{"handed": NAME}`` (or ``{"handed": true}``: everyone's hand-outs given),
``{"ruled": NAME}`` (or ``{"ruled": true}``: everyone's drinking rules made), ``{"undo": true}``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from zonkcam.game.dice import COLOUR_NAMES, PLAIN_DICE, Die, parse_dice
from zonkcam.game.errors import TableError
from zonkcam.game.names import counted, quoted


class PenaltyKind(StrEnum):
    SPACED = "spaced"
    """The player loses their next turn and drinks."""
    SLOPPY = "sloppy"
    """A die fell off the table: the roller's turn ends with no points and they drink."""


class Landing(StrEnum):
    """The printed die image a scoring die landed on (the drinking table's mat)."""

    LEFT = "left"
    RIGHT = "right"
    CHOOSE = "choose"
    SOCIAL = "social"


PENALTIES = tuple(PenaltyKind)
BOARD_IMAGES = tuple(Landing)


@dataclass(frozen=True)
class Players:
    """Seat the players, in turn order (play passes to the left)."""

    names: tuple[str, ...]


@dataclass(frozen=True)
class Roll:
    """The dice the current player just threw."""

    dice: tuple[Die, ...]
    seen: tuple[str | None, ...] = field(default=(), compare=False)
    """The body colour the camera read for each die, in order, where the dice themselves
    carry none (a table that scores no colours): kept in the log so that the night's
    review can follow each die (zonkcam.review.dice), never scored, and no part of what
    makes two rolls the same. Empty for a roll typed in or without colours read."""

    def __post_init__(self) -> None:
        if self.seen and len(self.seen) != len(self.dice):
            raise ActionFormatError(
                f"'seen' names {counted(len(self.seen), 'colour')} for "
                f"{counted(len(self.dice), 'die', 'dice')}"
            )
        for colour in self.seen:
            if colour is not None and colour not in COLOUR_NAMES:
                raise ActionFormatError(
                    f"unknown die colour {quoted(colour)} in 'seen' "
                    f"(known: {', '.join(COLOUR_NAMES)})"
                )


@dataclass(frozen=True)
class Keep:
    """Set aside these values from the last roll."""

    values: tuple[int, ...]


@dataclass(frozen=True)
class Bank:
    """Add the turn total to the game total (straight after a roll: its best keep first)."""


@dataclass(frozen=True)
class Reroll:
    """Two-dice pair with nothing scoring: throw the two dice again instead of zonking."""


@dataclass(frozen=True)
class Pass:
    """Decline the two-dice pair re-roll and take the zonk."""


@dataclass(frozen=True)
class GoFor1000:
    """First roll one die from 1-2-3-4-5-6: throw one die of the doubled face alone."""


@dataclass(frozen=True)
class Piggyback:
    """Take over the dice and turn total the previous player banked with."""


@dataclass(frozen=True)
class Penalty:
    """A drinking-table penalty (:class:`PenaltyKind`) for ``player`` (spaced) or the
    roller (sloppy)."""

    kind: PenaltyKind
    player: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", PenaltyKind(self.kind))


@dataclass(frozen=True)
class Land:
    """A scoring die of the last roll touched a printed board image."""

    image: Landing
    player: str | None = None
    """Who drinks, for "choose"."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "image", Landing(self.image))


@dataclass(frozen=True)
class Join:
    name: str


@dataclass(frozen=True)
class Leave:
    """The player is crossed off the score card."""

    name: str


@dataclass(frozen=True)
class ZonkName:
    """``by`` gives ``player`` a zonk name (nobody names themself)."""

    player: str
    name: str
    by: str


@dataclass(frozen=True)
class Drunk:
    """The drinks due are drunk: ``player``'s, or without one everyone's."""

    player: str | None = None


@dataclass(frozen=True)
class HandedOut:
    """The drinks to hand out are handed out: ``player``'s, or without one everyone's."""

    player: str | None = None


@dataclass(frozen=True)
class RuleMade:
    """The drinking rules to make are made: ``player``'s, or without one everyone's."""

    player: str | None = None


@dataclass(frozen=True)
class Undo:
    """Take back the last accepted action."""


Action = (
    Players
    | Roll
    | Keep
    | Bank
    | Reroll
    | Pass
    | GoFor1000
    | Piggyback
    | Penalty
    | Land
    | Join
    | Leave
    | ZonkName
    | Drunk
    | HandedOut
    | RuleMade
    | Undo
)

_FLAGS = {
    "bank": Bank,
    "reroll": Reroll,
    "pass": Pass,
    "go_for_1000": GoFor1000,
    "piggyback": Piggyback,
    "undo": Undo,
}


class ActionFormatError(TableError):
    """A line that is not a table action at all."""


def action_from_json(obj: Any) -> Action:
    """Parse one JSON object into an action; ActionFormatError says what is wrong."""
    if type(obj) is dict and len(obj) == 1:  # the usual forms, read fast (a resume reads
        ((key, value),) = obj.items()  # thousands); anything else takes the long way
        if value is True and key in _FLAGS:
            return _FLAGS[key]()
        if (
            key in ("roll", "keep")
            and type(value) is list
            and all(type(v) is int and 1 <= v <= 6 for v in value)
        ):
            return (
                Roll(tuple(PLAIN_DICE[v] for v in value))
                if key == "roll"
                else Keep(tuple(sorted(value)))
            )
    if not isinstance(obj, dict) or not obj:
        raise ActionFormatError(
            f'an action is a JSON object such as {{"roll": [1, 5]}}, not {quoted(obj)}'
        )
    keys = set(obj)

    def only(*allowed: str) -> None:
        extra = keys - set(allowed)
        if extra:
            raise ActionFormatError(f"unexpected {quoted(sorted(extra))} in {quoted(obj)}")

    def name(key: str) -> str:
        value = obj.get(key)
        if not isinstance(value, str) or not value.strip():
            raise ActionFormatError(f"{key!r} must be a player's name, not {quoted(value)}")
        return value.strip()

    for key, cls in _FLAGS.items():
        if key in keys:
            only(key)
            if obj[key] is not True:
                raise ActionFormatError(f'write {{"{key}": true}}')
            return cls()
    if "players" in keys:
        only("players")
        names = obj["players"]
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise ActionFormatError("'players' must be a list of names")
        return Players(tuple(n.strip() for n in names))
    if "roll" in keys:
        only("roll", "seen")
        seen = obj.get("seen", [])
        if not isinstance(seen, list):
            raise ActionFormatError(
                "'seen' must be a list of colour names (null for a die whose colour was not read)"
            )
        return Roll(parse_dice(_list(obj["roll"], "roll")), tuple(seen))
    if "keep" in keys:
        only("keep")
        dice = parse_dice(_list(obj["keep"], "keep"))
        return Keep(tuple(sorted(d.value for d in dice)))
    if "penalty" in keys:
        only("penalty", "player")
        if obj["penalty"] not in PENALTIES:
            raise ActionFormatError(f"penalty must be one of {', '.join(PENALTIES)}")
        return Penalty(obj["penalty"], name("player") if "player" in obj else None)
    if "land" in keys:
        only("land", "player")
        if obj["land"] not in BOARD_IMAGES:
            raise ActionFormatError(f"land must be one of {', '.join(BOARD_IMAGES)}")
        return Land(obj["land"], name("player") if "player" in obj else None)
    if "join" in keys:
        only("join")
        return Join(name("join"))
    if "leave" in keys:
        only("leave")
        return Leave(name("leave"))
    if "zonk_name" in keys:
        only("zonk_name", "player", "by")
        return ZonkName(name("player"), name("zonk_name"), name("by"))
    for key, owed in (("drunk", Drunk), ("handed", HandedOut), ("ruled", RuleMade)):
        if key in keys:
            only(key)
            return owed(None if obj[key] is True else name(key))
    raise ActionFormatError(f"unknown action {quoted(sorted(keys))}")


def _list(value: Any, key: str) -> list:
    if not isinstance(value, list):
        raise ActionFormatError(f"{key!r} must be a list of dice, e.g. [1, 5, 5]")
    return value


def action_to_json(action: Action) -> dict[str, Any]:
    """The JSON object for an action (inverse of :func:`action_from_json`)."""
    for key, cls in _FLAGS.items():
        if isinstance(action, cls):
            return {key: True}
    match action:
        case Players(names):
            return {"players": list(names)}
        case Roll(dice, seen):
            roll = [str(d) for d in dice] if any(d.color for d in dice) else [d.value for d in dice]
            return {"roll": roll} | ({"seen": list(seen)} if any(seen) else {})
        case Keep(values):
            return {"keep": list(values)}
        case Penalty(kind, player):
            return {"penalty": kind} | ({"player": player} if player else {})
        case Land(image, player):
            return {"land": image} | ({"player": player} if player else {})
        case Join(name):
            return {"join": name}
        case Leave(name):
            return {"leave": name}
        case ZonkName(player, name, by):
            return {"zonk_name": name, "player": player, "by": by}
        case Drunk(player):
            return {"drunk": player if player else True}
        case HandedOut(player):
            return {"handed": player if player else True}
        case RuleMade(player):
            return {"ruled": player if player else True}
    raise TypeError(f"not an action: {action!r}")  # pragma: no cover


def describe(action: Action, shown: Callable[[str], str] = str) -> str:
    """The action in a few words, as the log and the terminal say it; ``shown`` gives the
    name to say for a player's name in the action (the zonk name on the drinking table)."""
    match action:
        case Players(names):
            return "seating " + ", ".join(map(shown, names))
        case Roll(dice):
            return "roll " + " ".join(map(str, dice))
        case Keep(values):
            return "keep " + " ".join(map(str, values))
        case Penalty(kind, player):
            return kind + (f" {shown(player)}" if player else "")
        case Land(image, player):
            return f"land {image}" + (f" {shown(player)}" if player else "")
        case Join(name):
            return f"{shown(name)} joining"
        case Leave(name):
            return f"{shown(name)} leaving"
        case ZonkName(player, name, by):
            return f"{shown(by)} naming {shown(player)} {name!r}"
        case Drunk(player):
            return f"{shown(player)}'s drinks drunk" if player else "drinks drunk"
        case HandedOut(player):
            return f"{shown(player)}'s hand-outs given" if player else "hand-outs given"
        case RuleMade(player):
            return f"{shown(player)}'s rules made" if player else "rules made"
    words = {
        Bank: "bank",
        Reroll: "re-roll",
        Pass: "pass",
        GoFor1000: "go for 1000",
        Piggyback: "piggyback",
        Undo: "undo",
    }
    return words[type(action)]
