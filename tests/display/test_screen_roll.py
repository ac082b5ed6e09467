"""The roll as a row of big dice, the camera view's values where dice lie close, and the
last player's dice once the turn has passed."""

from __future__ import annotations

import dataclasses

import pygame
import pytest

from tests.display.screen_helpers import artifacts_dir, pixels, save
from zonkcam.display.draw import DIE_BODY, DIE_SWATCHES, SET_ASIDE, figure_size
from zonkcam.display.painter import Painter
from zonkcam.display.view import CameraView, view_for
from zonkcam.game import PRESETS, Die, Game, parse_dice
from zonkcam.game import actions as A
from zonkcam.sim import scenes
from zonkcam.sim.fake_table import mat_view
from zonkcam.vision import Reading

SMALL = (800, 480)
LINE_PX = 28


@pytest.fixture(scope="module", autouse=True)
def _pygame():
    pygame.init()
    yield


def _draw(view, size=SMALL, tmp_path=None, name=""):
    surface = pygame.Surface(size)
    screen = Painter()
    lay = screen.draw(surface, view)
    if tmp_path is not None:
        save(surface, artifacts_dir(tmp_path), name)
    return surface, screen, lay


def test_the_roll_shows_as_a_row_of_big_dice_the_selected_keep_ringed(tmp_path):
    scene = scenes.SCENES["roll"]()  # 1 5 5 3 1 thrown, the keep 1 1 5 selected
    view = view_for(scene.state, scene.camera, scene.selected_keep)
    surface, screen, lay = _draw(view, tmp_path=tmp_path, name="roll-row")
    assert [f.value for f in screen.faces] == [1, 5, 5, 3, 1]
    assert all(lay.roll.contains(f.rect) and f.rect.h >= LINE_PX for f in screen.faces)
    rects = [f.rect for f in screen.faces]
    assert not any(a.colliderect(b) for a in rects for b in rects if a is not b)
    ringed = sorted(f.value for f in screen.faces if f.ringed)
    assert ringed == sorted(view.selected_keep.dice) == [1, 1, 5]
    for face in screen.faces:  # drawn: the body's colour fills most of the face
        body = (pixels(surface, face.rect) == DIE_BODY).all(axis=2).mean()
        assert body > 0.5


def test_the_row_follows_the_selection():
    scene = scenes.SCENES["roll"]()
    for selected in range(4):
        view = view_for(scene.state, scene.camera, selected)
        _, screen, _ = _draw(view)
        kept = [f.value for f in screen.faces if f.ringed]
        assert sorted(kept) == sorted(view.selected_keep.dice)


def test_the_row_shows_each_die_in_its_colour_on_detroit(tmp_path):
    scene = scenes.SCENES["detroit"]()  # 1w 5w 2r 2r 5g 3g
    view = view_for(scene.state, scene.camera, scene.selected_keep)
    surface, screen, _ = _draw(view, tmp_path=tmp_path, name="roll-row-detroit")
    shown = [(f.value, f.body) for f in screen.faces]
    colours = ["white", "white", "red", "red", "green", "green"]
    assert shown == [(v, DIE_SWATCHES[c]) for v, c in zip([1, 5, 2, 2, 5, 3], colours, strict=True)]


def test_the_row_shows_the_roll_played_not_the_camera():
    """Typed in (no camera at all), the roll is the row all the same."""
    game = Game(PRESETS["classic-10000"], [A.Players(("Ann", "Bob"))])
    game.play(A.Roll(parse_dice([6, 4, 1, 2, 3])))
    _, screen, _ = _draw(view_for(game.state))
    assert [f.value for f in screen.faces] == [6, 4, 1, 2, 3]


def test_before_a_throw_the_row_has_a_place_per_die_and_the_dice_set_aside_grey():
    game = Game(PRESETS["classic-10000"], [A.Players(("Ann", "Bob"))])
    game.play(A.Roll(parse_dice([1, 5, 2, 3, 4])))
    game.play(A.Keep((1, 5)))
    view = view_for(game.state)
    assert view.roll == ()
    _, screen, lay = _draw(view)
    assert [(f.value, f.body) for f in screen.faces] == [(1, SET_ASIDE), (5, SET_ASIDE)]
    assert all(lay.roll.contains(f.rect) for f in screen.faces)


def test_the_dice_of_a_passed_turn_are_not_labelled(tmp_path):
    """Bob zonked with 2 3 4 6 6: under Ann's header his dice get no values."""
    scene = scenes.SCENES["zonk"]()
    assert scene.state.player.name == "Ann"
    camera = dataclasses.replace(scene.camera, earlier_turn=True)
    view = view_for(scene.state, camera)
    surface, screen, lay = _draw(view, tmp_path=tmp_path, name="passed-turn")
    on_camera = [t.text for t in screen.texts if lay.camera.colliderect(t.rect)]
    assert on_camera == []
    assert screen.faces == []  # Ann has not thrown: no dice in the row either
    assert len(view.dice) == 5 and not view.unsure_dice  # still there for a tap
    fit = screen.camera_fit
    box = fit.to_screen(view.dice[0].die.bbox)
    assert screen.tapped_die(box.center, view) == 0
    labelled = view_for(scene.state, dataclasses.replace(camera, earlier_turn=False))
    _, again, _ = _draw(labelled)
    assert sorted(t.text for t in again.texts if lay.camera.colliderect(t.rect)) == sorted(
        ["2", "3", "4", "6", "6"]
    )


def _crowded(side: int = 60) -> CameraView:
    """Six dice in a huddle, touching: one in the middle with a die on each side, no room
    round it for its value."""
    frame = mat_view([]).frame
    step = side + 4
    places = [(1, 1), (1, 0), (0, 1), (2, 1), (1, 2), (2, 2)]
    dice = []
    for k, (col, row) in enumerate(places):
        x, y = 220 + col * step, 150 + row * step
        dice.append(Reading(Die(k + 1), 0.95, (x, y, x + side, y + side)))
    return CameraView(frame, tuple(dice))


@pytest.mark.parametrize("size", [SMALL, (1280, 800), (1920, 1080)])
def test_values_on_the_camera_view_never_overlap(size, tmp_path):
    game = Game(PRESETS["all-johnnys"], [A.Players(("Ann", "Bob"))])
    game.play(A.Roll(parse_dice([1, 2, 3, 4, 5, 6])))
    view = view_for(game.state, _crowded())
    surface, screen, lay = _draw(view, size, tmp_path, f"crowded-{size[0]}x{size[1]}")
    fit = screen.camera_fit
    boxes = [fit.to_screen(d.die.bbox) for d in view.dice]
    values = [t for t in screen.texts if lay.camera.colliderect(t.rect)]
    assert sorted(t.text for t in values) == ["1", "2", "3", "4", "5", "6"]
    for t in values:
        assert fit.rect.contains(t.rect)
        assert not any(t.rect.colliderect(o.rect) for o in values if o is not t)
        own = next(b for b, d in zip(boxes, view.dice, strict=True) if str(d.die.value) == t.text)
        assert not any(t.rect.colliderect(b) for b in boxes if b is not own)


def test_the_tables_name_is_readable_on_a_small_screen():
    scene = scenes.SCENES["roll"]()
    _, screen, _ = _draw(view_for(scene.state, scene.camera))
    name = next(t for t in screen.texts if t.text == "classic-10000")
    assert name.rect.h >= 16  # 11 px lines were a blur from across the table
    assert name.size < figure_size(pygame.Surface(SMALL))  # a label, not a figure
