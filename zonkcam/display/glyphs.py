"""Text as the screen draws it, whatever a name holds.

pygame's built-in font covers Latin, Greek and Cyrillic letters; a name may be Chinese,
Arabic, an emoji or forty accents heaped on one letter. Before it is drawn, text is

- composed (NFC: ``e`` + U+0301 is ``é``, which the font has) and given at most
  :data:`MARKS_PER_BASE` combining marks after each character (a heap of them would
  stack up the screen);
- cut into runs of one font each: a character the built-in font lacks is drawn in the
  first installed font that has it (:data:`FALLBACK_FAMILIES`: DejaVu, Noto, ...),
  and where none has it, as its code point (``U+65E5``): readable, never an empty box;
  a mark no font has is left out;
- drawn run by run on one baseline, right-to-left scripts (Arabic, Hebrew) shaped and
  ordered right to left within their run, on a line as tall as the built-in font's:
  what rises above it or falls below it is cut off (:class:`~zonkcam.display.draw.Pen`
  cuts it to the width it is given too), so nothing leaves its box.

Which characters a font has is read from the font file itself (FreeType's character
map, :mod:`pygame.freetype`; where that module is missing, a glyph whose measures are
the missing-glyph box's is taken as missing).
"""

from __future__ import annotations

import functools
import unicodedata
import warnings
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pygame

MARKS_PER_BASE = 2
"""Combining marks kept after one character (Thai writes a vowel and a tone mark on one
letter; forty accents on one letter are a column up the screen)."""

FALLBACK_FAMILIES = (
    "dejavusans",
    "notosans",
    "notosansarabic",
    "notonaskharabic",
    "notosanshebrew",
    "notosanscjksc",
    "notosanscjkjp",
    "notosanscjktc",
    "notosanscjkkr",
    "notosanscjk",
    "droidsansfallbackfull",
    "droidsansfallback",
    "wenquanyizenhei",
    "wenquanyimicrohei",
    "notosansthai",
    "notosansdevanagari",
    "notosanssymbols2",
    "notoemoji",
    "notocoloremoji",
    "symbola",
    "freesans",
    "unifont",
)
"""Fonts a character the built-in font lacks is looked for in, in order (the names
:func:`pygame.font.match_font` takes); those this machine has are used."""

DEFAULT_SCALE = 0.6875
"""pygame draws its built-in font at this share of the size asked for."""

_NOT_A_CHARACTER = "\U0010fffd"
"""A code point no font draws: its glyph is the font's missing-glyph box."""

_RTL_SCRIPTS = (
    ((0x0590, 0x05FF), "Hebr"),
    ((0xFB1D, 0xFB4F), "Hebr"),
    ((0x0600, 0x08FF), "Arab"),
    ((0xFB50, 0xFDFF), "Arab"),
    ((0xFE70, 0xFEFF), "Arab"),
)


def is_mark(c: str) -> bool:
    """A combining mark drawn on the character before it (not beside it)."""
    return unicodedata.category(c) in ("Mn", "Me")


DOTTED_CIRCLE = "\u25cc"
"""What a combining mark with no character before it is drawn on (as type books show one)."""


def tamed(text: str) -> str:
    """``text`` composed (NFC), with at most :data:`MARKS_PER_BASE` combining marks
    after each character; marks at the start are drawn on a :data:`DOTTED_CIRCLE`."""
    out: list[str] = []
    marks = 0
    for c in unicodedata.normalize("NFC", text):
        if is_mark(c):
            if not out:
                out.append(DOTTED_CIRCLE)
            if marks >= MARKS_PER_BASE:
                continue
            marks += 1
        else:
            marks = 0
        out.append(c)
    return "".join(out)


def stand_in(c: str) -> str:
    """What is drawn for a character no font here has: its code point."""
    return f"U+{ord(c):04X}"


class Face:
    """One font file (None: pygame's built-in font): which characters it has, and the
    font at a size."""

    def __init__(self, path: str | None) -> None:
        self.path = path
        self._has: dict[str, bool] = {}
        self._fonts: dict[tuple[int, int, bool], pygame.font.Font] = {}
        self._probe = _probe(path)

    def has(self, c: str) -> bool:
        """Whether the file draws ``c`` (a space always: every font can leave one)."""
        if c not in self._has:
            self._has[c] = unicodedata.category(c) == "Zs" or self._probe(c)
        return self._has[c]

    def font(self, size: int, height: int, rtl: bool = False) -> pygame.font.Font:
        """The font at ``size`` (as :class:`~zonkcam.display.draw.Fonts` sizes the
        built-in one), made smaller where its lines are taller than ``height``;
        ``rtl``: set to shape and order a right-to-left run."""
        key = (size, height, rtl)
        if key not in self._fonts:
            points = max(4, round(size * DEFAULT_SCALE)) if self.path else size
            font = pygame.font.Font(self.path, points)
            if self.path and font.get_height() > height:
                points = max(4, points * height // font.get_height())
                font = pygame.font.Font(self.path, points)
            if rtl:
                font.set_direction(pygame.DIRECTION_RTL)
            self._fonts[key] = font
        return self._fonts[key]


def _probe(path: str | None) -> Callable[[str], bool]:
    """``has(c)`` for the font file at ``path``: from its character map (FreeType),
    else from the glyph's measures (the missing-glyph box's: missing)."""
    try:
        import pygame.freetype as freetype

        if not freetype.get_init():
            freetype.init()
        face = freetype.Font(path, 24)

        def in_map(c: str) -> bool:
            return face.get_metrics(c)[0] is not None

        return in_map
    except (ImportError, OSError, pygame.error):
        font = pygame.font.Font(path, 24)
        # the missing-glyph box, as a character no font has draws it (older pygame-ce
        # measures nothing past the Basic Multilingual Plane: then the BMP's own)
        boxes = (font.metrics(c)[0] for c in ("\uffff", _NOT_A_CHARACTER))
        box = next((m for m in boxes if m is not None), None)

        def measured(c: str) -> bool:
            m = font.metrics(c)[0]
            return m is not None and m != box

        return measured


@functools.cache
def fallback_faces() -> tuple[Face, ...]:
    """The fonts of :data:`FALLBACK_FAMILIES` installed here that scale (a font of
    fixed-size bitmaps, as colour emoji fonts are, is left out), found once."""
    faces: list[Face] = []
    seen: set[str] = set()
    with warnings.catch_warnings():  # no fc-list: pygame warns, and there are no fallbacks
        warnings.simplefilter("ignore")
        for family in FALLBACK_FAMILIES:
            try:
                path = pygame.font.match_font(family, bold=True) or pygame.font.match_font(family)
            except (OSError, ValueError, pygame.error):  # no font list to look in
                break
            if not path or path in seen:
                continue
            seen.add(path)
            try:
                small, big = (pygame.font.Font(path, s).get_height() for s in (20, 40))
                if small >= big:
                    continue  # the same size whatever is asked: bitmaps
                faces.append(Face(path))
            except (OSError, ValueError, pygame.error):  # a file SDL_ttf cannot open
                continue
    return tuple(faces)


@functools.cache
def builtin_face() -> Face:
    return Face(None)


def cut_to_height(
    image: pygame.Surface, height: int, background: tuple[int, int, int]
) -> pygame.Surface:
    """``image`` cut to ``height`` rows where it is taller (marks heaped above or below
    the letters): the rows that hold the most of what was drawn, the letters."""
    if image.get_height() <= height:
        return image
    drawn = np.any(pygame.surfarray.array3d(image) != np.array(background), axis=2)
    per_row = np.concatenate(([0], np.cumsum(drawn.sum(axis=0))))
    top = int(np.argmax(per_row[height:] - per_row[:-height]))
    return image.subsurface((0, top, image.get_width(), height)).copy()


@dataclass(frozen=True)
class Run:
    """Characters drawn with one font: ``face`` None for the built-in font."""

    text: str
    face: Face | None
    script: str | None = None
    """Right to left: the script it is shaped as (``Arab``, ``Hebr``, ``""`` for
    another right-to-left script); None: left to right."""


def _rtl_script(c: str) -> str | None:
    if unicodedata.bidirectional(c) not in ("R", "AL"):
        return None
    cp = ord(c)
    return next((s for (lo, hi), s in _RTL_SCRIPTS if lo <= cp <= hi), "")


@functools.lru_cache(maxsize=1024)
def runs(text: str) -> tuple[Run, ...]:
    """``text`` as :func:`tamed` makes it, in runs of one font and one direction; a
    character no font has as its :func:`stand_in` (in the built-in font)."""
    builtin = builtin_face()
    clusters: list[str] = []
    for c in tamed(text):
        if clusters and is_mark(c):
            clusters[-1] += c
        else:
            clusters.append(c)
    out: list[Run] = []
    stood_in = False
    for cluster in clusters:
        face, shown = _face_for(cluster, builtin)
        if face is None:  # no font has it composed (U+1EA1): its letter, marks apart?
            face, shown = _face_for(unicodedata.normalize("NFD", cluster), builtin)
        if face is None:  # no font has it
            shown = (" " if stood_in else "") + stand_in(cluster[0])
            face, stood_in = builtin, True
        else:
            stood_in = False
        script = _rtl_script(cluster[0])
        if script is None and out and out[-1].script is not None and not _strong(cluster[0]):
            script = out[-1].script  # a space or digit inside right-to-left text stays in it
        if out and out[-1].face is face and out[-1].script == script:
            out[-1] = Run(out[-1].text + shown, face, script)
        else:
            out.append(Run(shown, face, script))
    return tuple(out)


def _strong(c: str) -> bool:
    return unicodedata.bidirectional(c) in ("L", "R", "AL")


def _face_for(cluster: str, builtin: Face) -> tuple[Face | None, str]:
    """The first font that has the cluster's character, and the cluster less the marks
    that font lacks (preferring one that has them all); (None, "") where none has it."""
    faces = (builtin, *fallback_faces())
    base, marks = cluster[0], cluster[1:]
    having = [f for f in faces if f.has(base)]
    if not having:
        return None, ""
    whole = next((f for f in having if all(f.has(m) for m in marks)), None)
    if whole is not None:
        return whole, cluster
    face = having[0]
    return face, base + "".join(m for m in marks if face.has(m))


def _font(run: Run, size: int, builtin: pygame.font.Font, height: int) -> pygame.font.Font:
    """The font a run is drawn with, set for its script (the built-in one where the
    run's font cannot be had at this size)."""
    if run.face is None or run.face.path is None:
        return builtin
    try:
        font = run.face.font(size, height, rtl=run.script is not None)
    except (OSError, ValueError, pygame.error):
        return builtin
    if run.script:
        try:
            font.set_script(run.script)
        except (pygame.error, ValueError):  # an SDL_ttf without shaping
            pass
    return font


def width(text: str, size: int, builtin: pygame.font.Font, height: int) -> int:
    """How wide :func:`render` draws ``text`` (measured, not drawn)."""
    return sum(_font(run, size, builtin, height).size(run.text)[0] for run in runs(text))


def render(
    text: str,
    size: int,
    builtin: pygame.font.Font,
    height: int,
    color: tuple[int, int, int],
    background: tuple[int, int, int],
) -> pygame.Surface:
    """``text`` drawn run by run (:func:`runs`) on the built-in font's baseline, on a
    line ``height`` px tall: what rises above it or falls below it is cut off."""
    images: list[tuple[pygame.Surface, int]] = []
    for run in runs(text):
        font = _font(run, size, builtin, height)
        image = font.render(run.text, True, color, background)
        image = cut_to_height(image, max(font.get_linesize(), font.get_height()), background)
        images.append((image, builtin.get_ascent() - font.get_ascent()))
    width = sum(image.get_width() for image, _ in images)
    line = pygame.Surface((max(1, width), height))
    line.fill(background)
    x = 0
    for image, dy in images:
        line.blit(image, (x, dy))
        x += image.get_width()
    return line
