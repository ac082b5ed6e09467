"""The drawing kit every screen uses: the colours, pygame's font at any size, and a
:class:`Pen` that draws text and panels and keeps what it drew (so taps and tests can
find it). The game screen (:mod:`zonkcam.display.panels`), the charts, the set-up
screens and "meet the dice" all draw with it.

Every font is sized from the surface's height, so the same code fills 1920x1080 and reads
from two metres on an 800x480 Pi screen: every figure a player acts on is drawn at least
:data:`FIGURE` of the height (28 px lines at 480). High contrast: white and yellow on
near-black, big digits for the totals.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pygame

from zonkcam.display import glyphs
from zonkcam.game.dice import DIE_COLOURS

RGB = tuple[int, int, int]
BACKGROUND: RGB = (12, 12, 16)
PANEL: RGB = (32, 32, 40)
TEXT: RGB = (255, 255, 255)
DIM: RGB = (150, 150, 160)
LIGHT: RGB = (215, 215, 225)
ACCENT: RGB = (255, 210, 0)
"""Yellow: the turn total, the selected keep, the current player."""
WARN: RGB = (255, 140, 0)
SURE: RGB = (0, 230, 60)
"""Outline of a die read with confidence."""
UNSURE: RGB = (255, 0, 255)
"""Outline of a die the players should confirm."""
DRINK: RGB = (200, 0, 110)
"""The drinks-due band."""
DIE_SWATCHES: dict[str, RGB] = {c.name: c.rgb for c in DIE_COLOURS if c.letter}
"""The chip beside a die's value on a table that plays with colours."""
DIE_LETTERS: dict[str, str] = {c.name: c.letter.upper() for c in DIE_COLOURS if c.letter}
"""The letter on that chip: W, R, G... (the command line's "2r" is a red 2)."""
DIE_BODY: RGB = DIE_SWATCHES["white"]
"""A die on a table that plays no colours."""
SET_ASIDE: RGB = (95, 95, 110)
"""A die set aside earlier in the turn, in the roll's row."""
PIPS = {
    1: ((0.5, 0.5),),
    2: ((0.25, 0.25), (0.75, 0.75)),
    3: ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75)),
    4: ((0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)),
    5: ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)),
    6: ((0.25, 0.25), (0.75, 0.25), (0.25, 0.5), (0.75, 0.5), (0.25, 0.75), (0.75, 0.75)),
}
"""Where a face's pips lie, as shares of the face's side."""

FIGURE = 0.0875
"""The smallest font for anything a player acts on, as a share of the screen's height:
42 at 480 px, whose lines are 28 px tall."""


def figure_size(surface: pygame.Surface) -> int:
    """The font size of a figure a player acts on, on ``surface`` (:data:`FIGURE`)."""
    return round(surface.get_height() * FIGURE)


@dataclass(frozen=True)
class DrawnText:
    """A piece of text the screen drew, and how (so tests can check the pixels)."""

    text: str
    rect: pygame.Rect
    size: int
    color: RGB
    background: RGB
    label: bool = False
    """A label (a panel's title, the table's name), not a figure anyone acts on."""


@dataclass(frozen=True)
class DrawnDie:
    """A die face the screen drew (the roll's row), for tests."""

    value: int
    rect: pygame.Rect
    body: RGB
    ringed: bool = False
    """Ringed: the highlighted keep takes it."""


def ink_on(colour: RGB) -> RGB:
    """Dark on a light colour, white on a dark one (a die's pips, a chip's letter)."""
    return BACKGROUND if sum(colour) > 380 else TEXT


class Fonts:
    """pygame's built-in font at any pixel height, cached (no font files needed)."""

    def __init__(self) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self._cache: dict[int, pygame.font.Font] = {}
        self._lines: dict[int, int] = {}

    def __call__(self, size: int) -> pygame.font.Font:
        size = max(8, int(size))
        if size not in self._cache:
            self._cache[size] = pygame.font.Font(None, size)
        return self._cache[size]

    def line_height(self, size: int) -> int:
        """The height of a line of text at ``size``, as the font draws it."""
        size = max(8, int(size))
        if size not in self._lines:
            self._lines[size] = self(size).render("Hg", True, TEXT, BACKGROUND).get_height()
        return self._lines[size]

    def render(self, text: str, size: int, color: RGB, background: RGB) -> pygame.Surface:
        """The text as the screen draws it (on a solid background, so pixels are exact):
        text beyond plain ASCII as :mod:`zonkcam.display.glyphs` draws it (characters
        the font lacks from another font or as their code point, combining marks kept
        within the line)."""
        if text.isascii():
            return self(size).render(text, True, color, background)
        size = max(8, int(size))
        return glyphs.render(text, size, self(size), self.line_height(size), color, background)

    def width(self, text: str, size: int) -> int:
        """How wide ``text`` is drawn at ``size``."""
        if text.isascii():
            return self(size).size(text)[0]
        size = max(8, int(size))
        return glyphs.width(text, size, self(size), self.line_height(size))

    def fit(self, text: str, size: int, width: int) -> int:
        """The largest size up to ``size`` at which ``text`` fits ``width`` pixels."""
        size = max(8, int(size))
        while size > 8 and self.width(text, size) > width:
            size = max(8, int(size * 0.9))
        return size


class Pen:
    """Draws text and panels; keeps every text it drew in :attr:`texts`."""

    def __init__(self) -> None:
        self.fonts = Fonts()
        self.texts: list[DrawnText] = []
        self.faces: list[DrawnDie] = []

    def text(
        self,
        surface: pygame.Surface,
        text: str,
        size: int,
        pos: tuple[int, int],
        *,
        color: RGB = TEXT,
        background: RGB = BACKGROUND,
        anchor: str = "topleft",
        width: int | None = None,
        label: bool = False,
    ) -> pygame.Rect:
        """Draw ``text`` with its ``anchor`` point at ``pos``, shrunk to fit ``width``;
        ``label``: a title or name tag, not a figure anyone acts on."""
        if width is not None:
            size = self.fonts.fit(text, size, width)
        image = self.fonts.render(text, size, color, background)
        if width is not None and image.get_width() > width > 0:  # too long even when small
            image = image.subsurface((0, 0, width, image.get_height()))
        rect = image.get_rect(**{anchor: pos})
        surface.blit(image, rect)
        self.texts.append(DrawnText(text, rect, max(8, int(size)), color, background, label))
        return rect

    def stack_up(
        self,
        surface: pygame.Surface,
        lines: Sequence[tuple[str, int, RGB, bool]],
        bottom: int,
        *,
        x: int,
        width: int,
        gap: int,
    ) -> int:
        """Draw ``lines`` (text, size, colour, label) one above the other up from
        ``bottom``, the first at the foot, left-aligned at ``x`` and shrunk to fit
        ``width``, ``gap`` apart: the hints at a screen's foot. Returns ``gap`` above the
        highest."""
        for text, size, colour, label in lines:
            rect = self.text(
                surface,
                text,
                size,
                (x, bottom),
                color=colour,
                anchor="bottomleft",
                width=width,
                label=label,
            )
            bottom = rect.top - gap
        return bottom

    def die(
        self,
        surface: pygame.Surface,
        rect: pygame.Rect,
        value: int,
        body: RGB = DIE_BODY,
        *,
        ring: RGB | None = None,
    ) -> None:
        """A die's face showing ``value`` in ``rect`` (a square): a rounded ``body`` with
        its pips, ringed in ``ring`` if given; kept in :attr:`faces`."""
        side = min(rect.w, rect.h)
        face = pygame.Rect(0, 0, side, side)
        face.center = rect.center
        radius = max(2, side // 6)
        if ring is not None:
            edge = max(3, side // 12)
            pygame.draw.rect(
                surface, ring, face.inflate(2 * edge, 2 * edge), edge, border_radius=radius
            )
        pygame.draw.rect(surface, body, face, border_radius=radius)
        pip = max(2, round(side * 0.09))
        for x, y in PIPS.get(value, ()):
            pygame.draw.circle(
                surface, ink_on(body), (face.x + round(x * side), face.y + round(y * side)), pip
            )
        self.faces.append(DrawnDie(value, face, body, ring is not None))

    def panel(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        pygame.draw.rect(surface, PANEL, rect, border_radius=max(2, rect.h // 40))
