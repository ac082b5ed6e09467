"""The screen read from two metres: every figure a player acts on is drawn at least 28 px
tall on an 800x480 screen, and nothing is drawn over it, in every moment of every table
(the scenes behind docs/screenshots/, each with every banner its last action raised).

Labels are exempt: panel titles and the table's name. The values written beside the dice
on the camera view, and the colour marks of the detroit dice, are figures like the rest
where the dice leave room for them (these scenes); where dice lie close they shrink so
as never to overlap (test_screen_roll.py), and the roll's row of big dice shows them."""

from __future__ import annotations

import dataclasses

import numpy as np
import pygame
import pytest

from tests.display.screen_helpers import artifacts_dir, pixels, save
from zonkcam.advisor.advice import Advisor
from zonkcam.display.banners import banners_for
from zonkcam.display.painter import Painter
from zonkcam.display.view import view_for
from zonkcam.sim import scenes

SIZE = (800, 480)
LINE_PX = 28
"""The smallest line height of anything a player acts on, at 800x480 (a 7-inch screen:
about 5 mm, read across a table)."""


@pytest.fixture(scope="module", autouse=True)
def _pygame():
    pygame.init()
    yield


def views():
    """(name, view) for every scene: as it stands, under each banner its last action
    raised, and the roll with the odds panel; the final round muted too."""
    advisor = Advisor()
    for name, make in scenes.SCENES.items():
        scene = make()
        view = view_for(scene.state, scene.camera, scene.selected_keep)
        yield name, view
        for banner in banners_for(scene.state):
            yield (
                f"{name}-{banner.name.lower().replace(' ', '-').replace(':', '')}",
                dataclasses.replace(view, banner=banner),
            )
        if name == "roll":
            yield (
                "roll-odds",
                view_for(
                    scene.state,
                    scene.camera,
                    scene.selected_keep,
                    odds=advisor.advise(scene.state),
                ),
            )
        if name == "final-round":
            yield "final-round-muted", dataclasses.replace(view, muted=True)


VIEWS = dict(views())


def drawn_over(surface: pygame.Surface, screen: Painter, text) -> bool:
    """Whether anything was drawn over ``text`` after it (its pixels are not its own)."""
    template = pixels(screen.fonts.render(text.text, text.size, text.color, text.background))
    return not np.array_equal(pixels(surface, text.rect), template)


@pytest.mark.parametrize("name", list(VIEWS))
def test_every_figure_reads_from_two_metres(name, tmp_path):
    view = VIEWS[name]
    surface = pygame.Surface(SIZE)
    screen = Painter()
    lay = screen.draw(surface, view)
    save(surface, artifacts_dir(tmp_path), f"readable-{name}")
    covers = [r for r, shown in ((lay.banner, view.banner), (lay.odds, view.odds)) if shown]
    figures = [
        t
        for t in screen.texts
        if not t.label and not any(r.contains(t.rect) for r in covers if r is not None)
    ]
    assert figures
    small = [(t.text, t.rect.h) for t in figures if t.rect.h < LINE_PX]
    assert small == [], f"under {LINE_PX} px"
    hidden = [t.text for t in figures if drawn_over(surface, screen, t)]
    assert hidden == [], "drawn over"
    if view.banner is not None:  # whose turn and the scores stay in sight
        assert not lay.banner.colliderect(lay.board)
        assert not lay.banner.colliderect(lay.header.inflate(0, -2))


@pytest.mark.parametrize("name", ["roll", "detroit", "hot-dice"])
def test_every_die_on_the_camera_view_has_its_value_in_figures(name):
    view = VIEWS[name]
    surface = pygame.Surface(SIZE)
    screen = Painter()
    lay = screen.draw(surface, view)
    on_camera = [t for t in screen.texts if lay.camera.contains(t.rect)]
    values = [t for t in on_camera if t.text.rstrip("?").isdigit() or t.text == "?"]
    assert len(values) == len(view.dice) > 0
    assert all(not t.label and t.rect.h >= LINE_PX for t in values)
    assert not any(drawn_over(surface, screen, t) for t in on_camera)


def test_the_scenes_cover_every_moment_of_the_tables():
    banners = {view.banner.name for view in VIEWS.values() if view.banner}
    assert banners >= {
        "ZONK",
        "HOT DICE",
        "FINAL ROUND",
        "WINNER",
        "SLOPPY",
        "SPACED",
        "NEWBIE",
        "GO FOR 1000",
        "DRINK: LEFT",
        "HAND OUT",
        "MAKE A RULE",
    }
    states = {name: scene() for name, scene in scenes.SCENES.items()}
    assert states["piggyback"].state.offer is not None
    assert states["go-for-1000"].state.phase.value == "go-for-1000"
    assert any(p.bees for p in states["all-johnnys"].state.players)
    assert any(p.drinks_due for p in states["drinking"].state.players)
    assert VIEWS["final-round-muted"].final_round and VIEWS["final-round-muted"].muted
    shots = {shot.scene for shot in scenes.SHOTS.values()}
    assert shots == set(scenes.SCENES)  # every scene has its screenshot in docs/
