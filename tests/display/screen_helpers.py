"""Helpers for the headless screen tests: render, save the PNG, find text and colours."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pygame

from zonkcam.display.painter import Painter


def artifacts_dir(tmp_path: Path) -> Path:
    """``$ZONKCAM_ARTIFACTS`` (kept after the run) or the test's own tmp_path."""
    root = os.environ.get("ZONKCAM_ARTIFACTS")
    path = Path(root) if root else tmp_path
    path.mkdir(parents=True, exist_ok=True)
    return path


def save(surface: pygame.Surface, folder: Path, name: str) -> Path:
    path = folder / f"{name}.png"
    pygame.image.save(surface, str(path))
    return path


def pixels(surface: pygame.Surface, rect: pygame.Rect | None = None) -> np.ndarray:
    """RGB pixels as a (height, width, 3) array."""
    part = surface.subsurface(rect) if rect is not None else surface
    return pygame.surfarray.array3d(part).swapaxes(0, 1).copy()


def share_of(surface: pygame.Surface, rect: pygame.Rect, rgb: tuple[int, int, int]) -> float:
    """The fraction of ``rect``'s pixels that are exactly ``rgb``."""
    px = pixels(surface, rect)
    return float(np.all(px == np.array(rgb, np.uint8), axis=2).mean())


def find_text(surface: pygame.Surface, screen: Painter, text: str) -> tuple[int, int] | None:
    """Where ``text``, rendered afresh with the screen's font at the size and colours the
    screen says it used, is on ``surface`` pixel for pixel (so it was drawn and nothing was
    drawn over it), or None."""
    for d in [d for d in screen.texts if d.text == text]:
        template = pixels(screen.fonts.render(text, d.size, d.color, d.background))
        if template.shape[:2] == (d.rect.h, d.rect.w) and np.array_equal(
            pixels(surface, d.rect), template
        ):
            return d.rect.topleft
    return None


def press(*keys: int) -> None:
    """Key presses queued as the keyboard would give them."""
    for k in keys:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, unicode="", mod=0))
