"""A die as the reader reads it: the engine's die (:class:`zonkcam.game.dice.Die`: its
value and colour) with how sure the reader is and where it lies in the image. The table
places it on the mat (:class:`zonkcam.table.zones.TableDie` wraps it), and the engine
scores its ``die``: one die from the camera to the score. A reading of the table's reader
carries its :class:`Sight` too: what teaching the table that die needs."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from zonkcam.game.dice import Die


@dataclass(frozen=True, eq=False)
class Sight:
    """What the value net saw of a die: the crop it read and that crop's feature (the
    net's ``features`` output). A die the scorekeeper confirms is taught with it
    (zonkcam.table.teaching): the feature as it is, or the crop in its eight turns."""

    feature: np.ndarray
    crop: np.ndarray
    """The value net's crop of the die (CROP_SIZE px square, BGR)."""


@dataclass(frozen=True)
class Reading:
    die: Die
    """The face value 1-6 (the face turned most towards the camera) and the body colour
    named (one of zonkcam.game.dice.COLOUR_NAMES; None when not named)."""
    confidence: float
    """Probability (0-1) that this is a die showing its value."""
    bbox: tuple[float, float, float, float]
    """x0, y0, x1, y1 in pixels of the image read."""
    sight: Sight | None = field(default=None, compare=False, repr=False)
    """What the value net saw of it, where the reader keeps that (the table's reader,
    with a value net that gives features); None otherwise. Not part of what the reading
    says: two readings of the same die, value, confidence and box are equal."""

    @property
    def value(self) -> int:
        return self.die.value

    @property
    def color(self) -> str | None:
        return self.die.color
