"""The painter: draws a :class:`~zonkcam.display.view.ScreenView` onto a Surface of any
size, each panel (:mod:`zonkcam.display.panels`) in its place of the
:mod:`~zonkcam.display.layout`, and remembers what it drew: the texts and the dice of the
roll's row (for tests), the layout and the camera view's fit (for taps,
:mod:`zonkcam.display.taps`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pygame

from zonkcam.display import panels, taps
from zonkcam.display.draw import BACKGROUND, Pen
from zonkcam.display.layout import Layout, layout_for
from zonkcam.display.taps import CameraFit
from zonkcam.display.view import ScreenView, ShownBanner, ShownDie


class Painter(Pen):
    """Draws game screens (the drawing under GameScreen); keeps what it drew last (texts,
    camera fit) for taps and tests."""

    def __init__(self) -> None:
        super().__init__()
        self.camera_fit: CameraFit | None = None
        self.layout: Layout | None = None

    def draw(self, surface: pygame.Surface, view: ScreenView) -> Layout:
        lay = layout_for(surface.get_size(), players=len(view.board), drinks=bool(view.owed))
        self.layout, self.texts, self.faces, self.camera_fit = lay, [], [], None
        surface.fill(BACKGROUND)
        panels.header(self, surface, lay.header, view)
        self.draw_camera(surface, lay.camera, view.frame, view.dice)
        panels.roll(self, surface, lay.roll, view)
        panels.turn(self, surface, lay.turn, view)
        panels.keeps(self, surface, lay.keeps, view)
        panels.board(self, surface, lay.board, view)
        if lay.drinks is not None:
            panels.drinks(self, surface, lay.drinks, view)
        panels.footer(self, surface, lay.footer, view)
        if view.odds is not None:
            panels.odds(self, surface, lay.odds, view.odds)
        if view.banner is not None:
            self.draw_banner(surface, view.banner, lay.banner)
        return lay

    def draw_photo(self, surface: pygame.Surface, photo: np.ndarray, caption: str) -> None:
        """A roll's photo (BGR) over the whole screen, its caption along the bottom."""
        panels.photo(self, surface, photo, caption)

    def draw_camera(
        self,
        surface: pygame.Surface,
        rect: pygame.Rect,
        frame: np.ndarray | None,
        dice: Sequence[ShownDie],
    ) -> CameraFit | None:
        """The camera view (:func:`zonkcam.display.panels.camera`); its fit is kept in
        :attr:`camera_fit` for taps."""
        self.camera_fit = panels.camera(self, surface, rect, frame, dice)
        return self.camera_fit

    def draw_banner(
        self, surface: pygame.Surface, banner: ShownBanner, rect: pygame.Rect | None = None
    ) -> pygame.Rect:
        """The banner as a band across the screen, in its own colours."""
        return panels.banner(self, surface, banner, rect)

    def tapped_die(self, pos: tuple[float, float], view: ScreenView) -> int | None:
        """Which die a tap at screen position ``pos`` hit on the last drawn camera view."""
        return taps.tapped_die(self.camera_fit, pos, [d.die for d in view.dice])
