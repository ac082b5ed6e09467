"""Colour names: Detroit's white, red and green dice under warm and cool light."""

import cv2
import numpy as np
import pytest

from zonkcam.sim import renderer
from zonkcam.vision import color
from zonkcam.vision.preprocess import crop_die


@pytest.mark.parametrize("body", ["white", "red", "green"])
@pytest.mark.parametrize("warmth", [-0.9, 0.0, 0.9])
@pytest.mark.parametrize("mat", ["white", "wood", "felt"])
def test_detroit_colours_under_warm_and_cool_light(body, warmth, mat):
    rng = np.random.default_rng(0)
    mats = {"white": (235, 235, 235), "wood": (80, 130, 180), "felt": (90, 90, 90)}
    dice = tuple(
        renderer.DieSpec(
            value=v, color=body, x_mm=x, y_mm=y, pip_color="white" if body != "white" else "black"
        )
        for v, (x, y) in zip(
            (1, 3, 5, 6), [(-30, -20), (30, -20), (-30, 20), (30, 20)], strict=True
        )
    )
    scene = renderer.Scene(
        dice=dice,
        camera=renderer.Camera(640, 480, tilt_deg=20),
        mat=renderer.Mat(mat, mats[mat]),
        light=renderer.Light(warmth=warmth),
        noise=3.0,
    )
    out = renderer.render(scene, rng)
    gains = color.white_balance_gains(out.image)
    names = [color.crop_color(crop_die(out.image, d.bbox), gains) for d in out.dice]
    assert names == [body] * 4


@pytest.mark.parametrize(
    ("bgr", "name"),
    [
        ((240, 240, 240), "white"),
        ((20, 20, 20), "black"),
        ((30, 30, 200), "red"),
        ((40, 170, 40), "green"),
        ((200, 90, 20), "blue"),
        ((40, 210, 235), "yellow"),
    ],
)
def test_name_color(bgr, name):
    assert color.name_color(bgr) == name


def test_grey_world_gains_undo_a_warm_cast():
    img = np.full((120, 160, 3), 200, np.float32) * np.array([0.8, 0.95, 1.15], np.float32)
    gains = color.white_balance_gains(img.astype(np.uint8))
    balanced = img[0, 0] * gains
    assert balanced.max() - balanced.min() < 0.1 * balanced.mean()


def test_a_white_face_is_white_even_where_big_pips_cover_most_of_it():
    # a small, blurred white die: its four pips cover 60% of the crop's centre, but they
    # are four spots, and the white around them is one patch
    crop = np.full((64, 64, 3), 230, np.uint8)
    for cx in (24, 40):
        for cy in (24, 40):
            cv2.circle(crop, (cx, cy), 7, (25, 25, 25), -1)
    centre = crop[16:48, 16:48].mean(axis=2)
    assert (centre < 128).mean() > 0.55
    assert color.crop_color(crop) == "white"
    # and the same spots in white on a red die leave it red
    red = np.where(crop < 128, np.uint8(235), np.array([30, 30, 190], np.uint8)).astype(np.uint8)
    assert color.crop_color(red) == "red"


def test_a_white_die_with_its_side_face_in_shade_is_white():
    # oblique and lit from above: the top face white, the side face below it in shade,
    # each about half of the crop's centre; the lit face names the die
    crop = np.full((64, 64, 3), 225, np.uint8)
    crop[31:] = 70
    for cx in (26, 38):
        cv2.circle(crop, (cx, 22), 2, (25, 25, 25), -1)
    assert color.crop_color(crop) == "white"
    # a black die lit the same way stays black
    assert color.crop_color((crop.astype(np.float32) * 0.2).astype(np.uint8)) == "black"


def test_every_die_colour_comes_from_the_one_list():
    """zonkcam.game.dice.DIE_COLOURS names every colour: what the reader says, what the
    engine takes, the detroit dice, the screen's swatches and the renderer's bodies."""
    from zonkcam.display.draw import DIE_SWATCHES
    from zonkcam.game.dice import COLOUR_NAMES, COLOURS, DETROIT_DICE

    grid = [
        (b, g, r) for b in range(0, 256, 15) for g in range(0, 256, 15) for r in range(0, 256, 15)
    ]
    said = {color.name_color(bgr) for bgr in grid}
    assert said == set(COLOUR_NAMES)  # and every listed name can be said
    assert set(DETROIT_DICE) <= set(COLOURS.values()) <= set(COLOUR_NAMES)
    assert set(DIE_SWATCHES) == set(COLOURS.values())
    assert set(renderer.DIE_COLORS) <= set(COLOUR_NAMES)
