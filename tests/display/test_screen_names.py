"""Names on the screen, whatever they hold: combining marks stay in their line, and a
character the font lacks is drawn from a font that has it or as its code point, never
as an empty box."""

from __future__ import annotations

import sys

import numpy as np
import pygame
import pytest

from tests.display.screen_helpers import artifacts_dir, find_text, pixels, save
from zonkcam.display.draw import Pen
from zonkcam.display.painter import Painter
from zonkcam.display.view import view_for
from zonkcam.game import PRESETS, Game
from zonkcam.game import actions as A
from zonkcam.game.names import MAX_NAME, name_problem

HEAPED = "a" + "\u0301" * (MAX_NAME - 1)
"""A name of 40 characters: one letter and 39 acute accents on it."""
HEAPED_BELOW = "a" + "\u0323" * (MAX_NAME - 1)
ONLY_MARKS = "\u0301" * MAX_NAME
WORLD = ("日本語", "علي", "😀🎲", "Zoë", "ที่นี่", "שלום", "Ali علي 12", "x\u20dd\u20dd")
SENTINEL = (1, 2, 3)


@pytest.fixture(scope="module", autouse=True)
def _pygame():
    pygame.init()
    yield


def _line(fonts, size: int) -> int:
    """The height of a line of plain text at ``size``."""
    return fonts(size).render("Hg", True, (255, 255, 255)).get_height()


def _no_box(text: str) -> bool:
    """Whether every character drawn for `text` is in the font that draws it."""
    from zonkcam.display import glyphs

    return all(run.face.has(c) or c == " " for run in glyphs.runs(text) for c in run.text) and bool(
        glyphs.runs(text)
    )


def test_these_names_are_names_the_game_takes():
    for name in (HEAPED, HEAPED_BELOW, ONLY_MARKS, *WORLD):
        assert name_problem(name, "a name") is None, name


@pytest.mark.parametrize("name", [HEAPED, HEAPED_BELOW, ONLY_MARKS, *WORLD])
def test_a_name_drawn_stays_in_its_box(name):
    pen = Pen()
    surface = pygame.Surface((800, 480))
    surface.fill(SENTINEL)
    box = pygame.Rect(100, 200, 300, _line(pen.fonts, 42))
    rect = pen.text(surface, name, 42, box.midleft, anchor="midleft", width=box.w)
    assert box.contains(rect), (rect, box)
    outside = pixels(surface).copy()
    outside[box.top : box.bottom, box.left : box.right] = SENTINEL
    assert np.all(outside == SENTINEL), "drawn outside the name's box"
    assert not np.all(pixels(surface, rect) == SENTINEL), "nothing drawn"


def test_a_name_of_forty_accents_stays_in_its_row_on_the_game_screen(tmp_path):
    game = Game(PRESETS["classic-10000"], [A.Players((HEAPED, "Bob", HEAPED_BELOW))])
    surface = pygame.Surface((800, 480))
    painter = Painter()
    lay = painter.draw(surface, view_for(game.state))
    save(surface, artifacts_dir(tmp_path), "heaped-accents")
    for name in (HEAPED, HEAPED_BELOW):
        drawn = [d for d in painter.texts if d.text == name]
        assert drawn, name
        for d in drawn:
            assert lay.board.contains(d.rect), (d.rect, lay.board)
            assert d.rect.h <= _line(painter.fonts, d.size)
            assert find_text(surface, painter, name)
    bob = next(d for d in painter.texts if d.text == "Bob")
    assert find_text(surface, painter, "Bob") == bob.rect.topleft  # nothing drawn over it


@pytest.mark.parametrize("name", WORLD)
def test_a_character_the_font_lacks_is_no_empty_box(name):
    fonts = Pen().fonts
    drawn = fonts.render(name, 42, (255, 255, 255), (0, 0, 0))
    boxes = fonts(42).render("\U0010fffd" * len(name), True, (255, 255, 255), (0, 0, 0))
    assert drawn.get_size() != boxes.get_size() or not np.array_equal(
        pixels(drawn), pixels(boxes)
    ), "drawn as the font's missing-glyph boxes"
    assert _no_box(name)  # each character drawn is one its font has


def test_with_no_other_font_a_missing_character_is_its_code_point(monkeypatch):
    from zonkcam.display import glyphs

    monkeypatch.setattr(glyphs, "fallback_faces", lambda: ())
    glyphs.runs.cache_clear()
    try:
        assert [r.text for r in glyphs.runs("Bo 日本")] == ["Bo U+65E5 U+672C"]
        assert [r.text for r in glyphs.runs("a\u0323\u0323")] == ["a"]  # no font has the mark
        fonts = Pen().fonts
        drawn = fonts.render("日本", 42, (255, 255, 255), (0, 0, 0))
        plain = fonts(42).render("U+65E5 U+672C", True, (255, 255, 255), (0, 0, 0))
        assert np.array_equal(pixels(drawn), pixels(plain))
    finally:
        glyphs.runs.cache_clear()


def test_which_glyphs_a_font_has_is_read_without_freetype_too(monkeypatch):
    from zonkcam.display import glyphs

    # where pygame has no freetype module, a glyph measured as the missing-glyph box is
    # taken as missing (pygame.font.Font.metrics)
    monkeypatch.setitem(sys.modules, "pygame.freetype", None)
    face = glyphs.Face(None)
    assert face.has("a") and face.has("é") and face.has(" ")
    assert not face.has("日") and not face.has("\u0301") and not face.has("😀")


def test_marks_are_composed_and_at_most_two_kept_per_letter():
    from zonkcam.display import glyphs

    assert glyphs.tamed("Zoe\u0308") == "Zoë"
    assert glyphs.tamed(HEAPED) == "á\u0301\u0301"
    assert glyphs.tamed("\u0e17\u0e35\u0e48") == "\u0e17\u0e35\u0e48"  # Thai: vowel and tone
    assert glyphs.tamed(ONLY_MARKS) == glyphs.DOTTED_CIRCLE + "\u0301\u0301"


def test_a_name_too_long_even_at_the_smallest_size_is_cut_to_its_width():
    pen = Pen()
    surface = pygame.Surface((800, 480))
    rect = pen.text(surface, "W" * 40, 42, (0, 0), width=60)
    assert rect.w <= 60


def test_plain_text_is_drawn_as_before():
    fonts = Pen().fonts
    for text in ("Ann", "1,000", "Bank 350"):
        drawn = fonts.render(text, 42, (255, 255, 255), (0, 0, 0))
        plain = fonts(42).render(text, True, (255, 255, 255), (0, 0, 0))
        assert np.array_equal(pixels(drawn), pixels(plain))
    assert fonts.render("Zoë", 42, (255, 255, 255), (0, 0, 0)).get_height() == _line(fonts, 42)
