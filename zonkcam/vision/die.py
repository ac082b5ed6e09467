"""A die as the reader reads it: the one type a read die has from the reader to the table
(which places it on the mat: :class:`zonkcam.table.zones.TableDie`)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Die:
    value: int
    """Face value 1-6 (the face turned most towards the camera)."""
    confidence: float
    """Probability (0-1) that this is a die showing `value`."""
    bbox: tuple[float, float, float, float]
    """x0, y0, x1, y1 in pixels of the image read."""
    color: str | None = None
    """Body colour name (one of zonkcam.game.dice.COLOUR_NAMES); None when not named."""
