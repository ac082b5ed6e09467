"""A die as the reader reads it: the engine's die (:class:`zonkcam.game.dice.Die`: its
value and colour) with how sure the reader is and where it lies in the image. The table
places it on the mat (:class:`zonkcam.table.zones.TableDie` wraps it), and the engine
scores its ``die``: one die from the camera to the score."""

from __future__ import annotations

from dataclasses import dataclass

from zonkcam.game.dice import Die


@dataclass(frozen=True)
class Reading:
    die: Die
    """The face value 1-6 (the face turned most towards the camera) and the body colour
    named (one of zonkcam.game.dice.COLOUR_NAMES; None when not named)."""
    confidence: float
    """Probability (0-1) that this is a die showing its value."""
    bbox: tuple[float, float, float, float]
    """x0, y0, x1, y1 in pixels of the image read."""

    @property
    def value(self) -> int:
        return self.die.value

    @property
    def color(self) -> str | None:
        return self.die.color
