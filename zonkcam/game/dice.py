"""Dice as the table sees them: a face value and, for the detroit table, a colour."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from zonkcam.game.errors import BadDiceError
from zonkcam.game.names import quoted

FACES = (1, 2, 3, 4, 5, 6)


@dataclass(frozen=True)
class DieColour:
    """A body colour of a die: the one list of them is DIE_COLOURS."""

    name: str
    letter: str | None
    """Its one-letter form on the command line ("2w"), for a colour a table plays with;
    None for one the reader may name but no table plays with."""
    rgb: tuple[int, int, int]
    """How the screen and a drawn camera frame show a die of this colour."""


DIE_COLOURS = (
    DieColour("white", "w", (245, 245, 245)),
    DieColour("red", "r", (220, 30, 30)),
    DieColour("green", "g", (30, 180, 60)),
    DieColour("blue", "b", (40, 90, 230)),
    DieColour("black", "k", (20, 20, 20)),
    DieColour("yellow", "y", (250, 220, 0)),
    DieColour("orange", None, (240, 120, 30)),
    DieColour("purple", None, (110, 50, 140)),
    DieColour("pink", None, (240, 120, 170)),
)
"""Every die colour zonkcam knows: the names the reader gives (zonkcam.vision.color) and,
with a letter, the ones the engine takes."""
COLOUR_NAMES = tuple(c.name for c in DIE_COLOURS)
COLOURS = {c.letter: c.name for c in DIE_COLOURS if c.letter}
"""The colours the engine knows, by their one-letter forms."""
DETROIT_DICE = ("white", "white", "red", "red", "green", "green")
"""The detroit table's six dice: two of each colour."""
_DIE_TEXT = re.compile(r"^\s*([0-9]{1,3})\s*([a-zA-Z]{0,12})\s*$", re.ASCII)


@dataclass(frozen=True, order=True)
class Die:
    """One die as read: its upward face and, where it matters, its body colour."""

    value: int
    """Pip count of the upward face, 1-6."""
    color: str | None = None
    """Body colour (one of COLOUR_NAMES: "white", "red", ...) or None when unknown or
    irrelevant. The command line and the log take the colours with a letter (COLOURS)."""

    def __post_init__(self) -> None:
        if isinstance(self.value, bool) or not isinstance(self.value, int):
            raise BadDiceError(f"a die value must be a whole number 1-6, not {quoted(self.value)}")
        if self.value not in FACES:
            shown = self.value if -1000 < self.value < 1000 else "a number that long"
            raise BadDiceError(f"a die shows 1 to 6, not {shown}")
        if self.color is not None and self.color not in COLOUR_NAMES:
            allowed = ", ".join(sorted(COLOUR_NAMES))
            raise BadDiceError(f"unknown die colour {quoted(self.color)} (known: {allowed})")

    def __str__(self) -> str:
        if self.color is None:
            return str(self.value)
        letter = next((k for k, v in COLOURS.items() if v == self.color), None)
        return f"{self.value}{letter}" if letter else f"{self.value}{self.color}"


PLAIN_DICE = {v: Die(v) for v in FACES}
"""The die of each face with no colour (dice are values: one of each will do)."""


def parse_die(item: object) -> Die:
    """A die from ``5``, ``"5"``, ``"2w"``, ``"2white"`` or ``{"value": 2, "color": "red"}``."""
    if type(item) is int and 1 <= item <= 6:
        return PLAIN_DICE[item]
    if isinstance(item, Die):
        return item
    if isinstance(item, dict):
        unknown = set(item) - {"value", "color", "colour"}
        if unknown:
            raise BadDiceError(
                f"a die has only 'value' and 'color', not {quoted(sorted(map(str, unknown)))}"
            )
        color = item.get("color", item.get("colour"))
        return Die(item.get("value"), _colour_name(color) if color is not None else None)
    if isinstance(item, bool):
        raise BadDiceError(f"a die value must be a whole number 1-6, not {quoted(item)}")
    if isinstance(item, int):
        return Die(item)
    if isinstance(item, str):
        match = _DIE_TEXT.match(item)
        if not match:
            raise BadDiceError(
                f"cannot read {quoted(item)} as a die: write a value 1-6, e.g. 5 or 2w"
            )
        value, colour = int(match.group(1)), match.group(2)
        return Die(value, _colour_name(colour) if colour else None)
    raise BadDiceError(f"cannot read {quoted(item)} as a die")


def _colour_name(text: object) -> str:
    if not isinstance(text, str):
        raise BadDiceError(f"a die colour is a word such as 'red', not {quoted(text)}")
    word = text.strip().lower()
    if word in COLOURS:
        return COLOURS[word]
    if word in COLOURS.values():
        return word
    allowed = ", ".join(f"{k} ({v})" for k, v in COLOURS.items())
    raise BadDiceError(f"unknown die colour {quoted(text)}; use one of {allowed}")


def parse_dice(items: Iterable[object]) -> tuple[Die, ...]:
    """Dice from any iterable of die forms accepted by :func:`parse_die`."""
    if isinstance(items, str | bytes):
        raise BadDiceError("dice must be a list, e.g. [1, 5, 5, 6, 6]")
    dice = tuple(parse_die(item) for item in items)
    coloured = sum(d.color is not None for d in dice)
    if coloured not in (0, len(dice)):
        raise BadDiceError("give a colour for every die or for none")
    return dice


def counts_of(values: Iterable[int]) -> tuple[int, int, int, int, int, int]:
    """How many of each face 1..6: ``counts_of([1, 5, 5]) == (1, 0, 0, 0, 2, 0)``."""
    counts = [0, 0, 0, 0, 0, 0]
    for v in values:
        counts[v - 1] += 1
    return tuple(counts)  # type: ignore[return-value]


def values_of(counts: Sequence[int]) -> tuple[int, ...]:
    """The sorted dice values a count vector stands for."""
    return tuple(face for face, n in zip(FACES, counts, strict=True) for _ in range(n))


_TYPED_DIE = re.compile(r"([1-9])\s*([a-zA-Z]*)")


def parse_typed_dice(text: str) -> tuple[Die, ...]:
    """Dice as a person types them: ``12466``, ``1 2 4 6 6``, ``1,5,5`` or with detroit
    colours ``2w 2w 3r`` / ``2w2w3r``."""
    compact = text.replace(",", " ").strip()
    if not compact:
        raise BadDiceError("which dice? e.g. 1 5 5 or 155")
    parts = (
        compact.split() if " " in compact else [m.group(0) for m in _TYPED_DIE.finditer(compact)]
    )
    if "".join(parts).replace(" ", "") != compact.replace(" ", ""):
        raise BadDiceError(f"cannot read dice from {quoted(text)}: type values 1-6, e.g. 1 5 5")
    return parse_dice(parts)
