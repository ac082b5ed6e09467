"""Where a tap on the screen lands: the camera view's fit maps screen positions to the
camera frame's pixels and back, so a tap on a die picks it (to fix its value)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pygame

from zonkcam.display.view import DieReading, die_at


@dataclass(frozen=True)
class CameraFit:
    """How the camera frame was scaled into its box: maps screen taps to frame pixels."""

    rect: pygame.Rect
    """Where the frame was drawn on the screen."""
    scale: float

    def to_screen(self, bbox: tuple[float, float, float, float]) -> pygame.Rect:
        """A box in frame pixels (x0, y0, x1, y1) as a screen rectangle."""
        x0, y0, x1, y1 = bbox
        left, top = self.rect.x + round(x0 * self.scale), self.rect.y + round(y0 * self.scale)
        return pygame.Rect(
            left, top, max(1, round((x1 - x0) * self.scale)), max(1, round((y1 - y0) * self.scale))
        )

    def to_frame(self, pos: tuple[float, float]) -> tuple[float, float] | None:
        if not self.rect.collidepoint(pos):
            return None
        return ((pos[0] - self.rect.x) / self.scale, (pos[1] - self.rect.y) / self.scale)


def tapped_die(
    fit: CameraFit | None, pos: tuple[float, float], dice: Sequence[DieReading]
) -> int | None:
    """Which of ``dice`` a tap at screen position ``pos`` hit on the camera view drawn
    with ``fit`` (None: no camera view, or no die there)."""
    if fit is None:
        return None
    at = fit.to_frame(pos)
    return die_at(at, dice) if at is not None else None
