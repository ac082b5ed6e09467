"""The table renderer: deterministic, truthful boxes and values, real 3-D dice."""

from dataclasses import replace

import cv2
import numpy as np
import pytest

from zonkcam.sim import renderer


def _scene(**kw):
    dice = kw.pop("dice", (renderer.DieSpec(value=3, color="red", x_mm=0, y_mm=0),))
    return renderer.Scene(dice=dice, camera=renderer.Camera(640, 480, **kw))


def test_same_seed_same_image():
    scene = renderer.random_scene(np.random.default_rng(3))
    a = renderer.render(scene, np.random.default_rng(7))
    b = renderer.render(scene, np.random.default_rng(7))
    assert np.array_equal(a.image, b.image)
    assert a.dice == b.dice


def test_truth_follows_the_specs():
    specs = (
        renderer.DieSpec(value=1, color="white", x_mm=-40, y_mm=0),
        renderer.DieSpec(value=6, color="green", x_mm=40, y_mm=0, yaw_deg=30),
    )
    out = renderer.render(_scene(dice=specs), np.random.default_rng(0))
    assert out.image.shape == (480, 640, 3) and out.image.dtype == np.uint8
    assert [(d.value, d.color) for d in out.dice] == [(1, "white"), (6, "green")]
    left, right = out.dice
    assert left.bbox[2] < 320 < right.bbox[0]  # x_mm < 0 is left of centre


def test_box_encloses_the_painted_die():
    spec = renderer.DieSpec(value=5, color="red", x_mm=0, y_mm=0, size_mm=20)
    scene = renderer.Scene(
        dice=(spec,), camera=renderer.Camera(640, 480), mat=renderer.Mat("white")
    )
    out = renderer.render(scene, np.random.default_rng(0))
    img = out.image.astype(int)
    red = (img[..., 2] > 120) & (img[..., 1] < 90) & (img[..., 0] < 90)
    ys, xs = np.nonzero(red)
    x0, y0, x1, y1 = out.dice[0].bbox
    assert xs.min() >= x0 - 1 and xs.max() <= x1 + 1
    assert ys.min() >= y0 - 1 and ys.max() <= y1 + 1
    assert (xs.max() - xs.min()) > 0.8 * (x1 - x0)  # and the box is not loose


def test_oblique_view_shows_side_faces():
    spec = renderer.DieSpec(value=2, x_mm=0, y_mm=0)
    top = renderer.render(_scene(dice=(spec,), tilt_deg=0), np.random.default_rng(0)).dice[0]
    tilted = renderer.render(_scene(dice=(spec,), tilt_deg=50), np.random.default_rng(0)).dice[0]
    assert top.bbox == pytest.approx(top.top_bbox, abs=0.5)
    height = tilted.bbox[3] - tilted.bbox[1]
    assert height > 1.3 * (tilted.top_bbox[3] - tilted.top_bbox[1])


def test_pixel_to_mat_inverts_projection():
    cam = renderer.Camera(1280, 960, tilt_deg=35, distance_mm=500, focal_px=900)
    x, y = cam.pixel_to_mat(900, 300)
    u, v = cam.project(np.array([[x, y, 0.0]]))[0]
    assert (u, v) == pytest.approx((900, 300), abs=1e-6)


def test_random_scenes_place_separate_dice_in_view():
    rng = np.random.default_rng(11)
    for _ in range(20):
        scene = renderer.random_scene(rng, 640, 480, n_dice=12)
        out = renderer.render(scene, rng)
        assert len(out.dice) == len(scene.dice) > 0
        for d in out.dice:
            assert 1 <= d.value <= 6 and d.color in renderer.DIE_COLORS
            cx, cy = (d.bbox[0] + d.bbox[2]) / 2, (d.bbox[1] + d.bbox[3]) / 2
            assert 0 <= cx <= 640 and 0 <= cy <= 480
        pts = np.array([(s.x_mm, s.y_mm) for s in scene.dice if not s.stacked])
        gaps = np.linalg.norm(pts[:, None] - pts[None], axis=-1) + np.eye(len(pts)) * 1e9
        assert gaps.min() >= 0.99 * min(s.size_mm for s in scene.dice)


def test_stacked_die_sits_on_top():
    base = renderer.DieSpec(value=4, x_mm=0, y_mm=0)
    top = renderer.DieSpec(value=6, x_mm=0, y_mm=0, stacked=True)
    out = renderer.render(_scene(dice=(base, top), tilt_deg=30), np.random.default_rng(0))
    assert out.dice[1].top_bbox[1] < out.dice[0].top_bbox[1]  # higher in the image


def test_distractors_are_drawn_but_never_counted_as_dice():
    die = renderer.DieSpec(value=4, color="white", x_mm=0, y_mm=0, size_mm=20)
    plain = renderer.Scene(dice=(die,), camera=renderer.Camera(640, 480), mat=renderer.Mat("white"))
    busy = renderer.Scene(
        dice=(die,), camera=renderer.Camera(640, 480), mat=renderer.Mat("white"), distractors=40
    )
    a = renderer.render(plain, np.random.default_rng(1))
    b = renderer.render(busy, np.random.default_rng(1))
    assert [d.value for d in b.dice] == [4]
    assert b.dice[0].bbox == pytest.approx(a.dice[0].bbox)
    changed = np.abs(a.image.astype(int) - b.image.astype(int)).max(axis=2) > 40
    assert changed.mean() > 0.05  # coins, keys, cards and pieces on the mat
    empty = renderer.Scene(dice=(), camera=renderer.Camera(640, 480), distractors=40)
    assert renderer.render(empty, np.random.default_rng(2)).dice == ()


def test_every_distractor_kind_can_be_drawn():
    rng = np.random.default_rng(0)
    for kind in renderer.DISTRACTOR_KINDS:
        if kind == "dot":
            continue
        tex, alpha, size = renderer.flat_texture(kind, rng)
        assert tex.dtype == np.float32 and tex.shape[:2] == alpha.shape
        assert 0.1 < alpha.mean() < 1.0 and min(size) > 5


def test_printed_boards_include_tiles_with_number_tokens():
    rng = np.random.default_rng(3)
    board = renderer.tiled_board(480, 640, rng)
    assert board.dtype == np.float32 and board.shape == (480, 640, 3)
    assert board.std() > 20  # tiles of several colours, borders, tokens
    assert (renderer.tiled_board(480, 640, np.random.default_rng(3)) == board).all()
    # the token discs: light round blobs inside the tiles
    grey = cv2.cvtColor(np.clip(board, 0, 255).astype(np.uint8), cv2.COLOR_BGR2GRAY)
    circles = cv2.HoughCircles(
        cv2.GaussianBlur(grey, (5, 5), 1.5),
        cv2.HOUGH_GRADIENT,
        1.2,
        20,
        param1=80,
        param2=25,
        minRadius=4,
        maxRadius=60,
    )
    assert circles is not None and len(circles[0]) >= 3


def test_board_mats_are_tiled_boards_about_half_the_time(monkeypatch):
    calls = []
    real = renderer.tiled_board
    monkeypatch.setattr(renderer, "tiled_board", lambda *a: calls.append(1) or real(*a))
    for seed in range(40):
        renderer.mat_image(
            renderer.Mat("board", (120, 140, 160)), 90, 120, np.random.default_rng(seed)
        )
    n = len(calls)
    assert 8 <= n <= 32
    for kind in ("desk", "felt", "wood", "white", "cloth"):  # only boards get tiles
        renderer.mat_image(renderer.Mat(kind, (120, 140, 160)), 90, 120, np.random.default_rng(0))
    assert len(calls) == n


def test_board_tiles_can_carry_busy_terrain(monkeypatch):
    strokes = []
    real_line = cv2.line

    def line(img, *a, **k):
        strokes.append(1)
        return real_line(img, *a, **k)

    monkeypatch.setattr(renderer.cv2, "line", line)
    monkeypatch.setattr(renderer, "TERRAIN_DETAIL_SHARE", 0.0)
    renderer.tiled_board(480, 640, np.random.default_rng(5))
    assert strokes == []
    monkeypatch.setattr(renderer, "TERRAIN_DETAIL_SHARE", 1.0)
    board = renderer.tiled_board(480, 640, np.random.default_rng(5))
    assert len(strokes) >= 5 * 12  # 5-30 strokes on every tile, and a 640 px board has 12+
    assert np.isfinite(board).all()


def test_a_fifth_of_the_views_are_steep_and_none_sees_the_horizon():
    rng = np.random.default_rng(0)
    cams = [renderer.random_scene(rng, 640, 480, n_dice=0).camera for _ in range(400)]
    tilts = np.array([c.tilt_deg for c in cams])
    assert tilts.min() >= 0 and tilts.max() <= renderer.MAX_TILT_DEG
    assert 0.12 < (tilts > renderer.STEEP_FROM_DEG).mean() < 0.28
    assert (tilts > 50).sum() > 20
    for c in cams:  # the far edge of the picture still looks down at the table
        assert c.tilt_deg + np.degrees(np.arctan(c.height / 2 / c.focal_px)) <= 80 + 1e-6


def test_tiled_boards_name_their_token_tiles_as_decoys_without_changing_the_board():
    found = []
    with_decoys = renderer.tiled_board(480, 640, np.random.default_rng(3), found)
    plain = renderer.tiled_board(480, 640, np.random.default_rng(3))
    np.testing.assert_array_equal(with_decoys, plain)  # the same random draws
    assert len(found) >= 5
    boxes = np.array(found)
    cx, cy = (boxes[:, 0] + boxes[:, 2]) / 2, (boxes[:, 1] + boxes[:, 3]) / 2
    assert ((cx >= 0) & (cx < 640) & (cy >= 0) & (cy < 480)).all()
    sides = boxes[:, 2] - boxes[:, 0]
    assert np.allclose(sides, sides[0])  # one board, one tile size
    assert np.allclose(boxes[:, 3] - boxes[:, 1], sides)


def test_rendered_tables_carry_decoys_only_from_tiled_boards(monkeypatch):
    monkeypatch.setattr(renderer, "TILED_BOARD_SHARE", 1.0)
    rng = np.random.default_rng(0)
    cam = renderer.Camera(320, 240, 0.0, 400.0, 400.0)
    die = renderer.random_die(rng, x_mm=0.0, y_mm=0.0)
    board = renderer.Scene((die,), cam, renderer.Mat("board", (90, 120, 60)))
    out = renderer.render(board, np.random.default_rng(1))
    assert len(out.decoys) >= 3
    felt = renderer.render(replace(board, mat=renderer.Mat("felt", (90, 120, 60))), rng)
    assert felt.decoys == ()
    ready = replace(board, background=renderer.render_background(board, np.random.default_rng(1)))
    assert renderer.render(ready, rng).decoys == ()  # a ready table image says nothing


def test_tonal_pips_are_the_body_colour_a_shade_off():
    # light bodies get darker pips, dark bodies lighter ones
    white = np.array(renderer.DIE_COLORS["white"], np.float32)
    black = np.array(renderer.DIE_COLORS["black"], np.float32)
    assert (renderer.pip_rgb(renderer.TONAL_PIPS, white) < white - 50).all()
    assert (renderer.pip_rgb(renderer.TONAL_PIPS, black) > black).all()
    assert renderer.pip_rgb("black", white).tolist() == list(renderer.PIP_COLORS["black"])

    def centre(pips):  # the one pip of a 1 seen from straight above, and the body beside it
        spec = renderer.DieSpec(value=1, color="white", pip_color=pips, size_mm=30)
        scene = renderer.Scene(dice=(spec,), mat=renderer.Mat("felt"))
        out = renderer.render(scene, np.random.default_rng(0))
        x0, y0, x1, y1 = (int(v) for v in out.dice[0].top_bbox)
        grey = out.image.mean(axis=2)
        return grey[(y0 + y1) // 2, (x0 + x1) // 2], grey[y0 + (y1 - y0) // 5, (x0 + x1) // 2]

    black_pip, body = centre("black")
    tonal_pip, body_too = centre(renderer.TONAL_PIPS)
    assert body == pytest.approx(body_too, abs=2)
    assert black_pip + 60 < tonal_pip < body - 40  # still a pip, but a faint one


def test_a_rounded_die_has_round_corners_and_a_box_round_it():
    def die(rounding):  # a big die straight from above, on a plain white mat
        spec = renderer.DieSpec(value=5, color="red", size_mm=40, rounding=rounding)
        scene = renderer.Scene(dice=(spec,), mat=renderer.Mat("white", (235, 235, 235)))
        return renderer.render(scene, np.random.default_rng(0))

    sharp, round_ = die(0.0), die(0.5)
    for out in (sharp, round_):
        x0, y0, x1, y1 = (int(v) for v in out.dice[0].bbox)
        red = (out.image[..., 2].astype(int) - out.image[..., 0]) > 80
        ys, xs = np.nonzero(red)
        # the box holds the whole painted die, and no more than a px or two of table
        assert xs.min() >= x0 - 1 and xs.max() <= x1 + 1 and ys.min() >= y0 - 1
        assert ys.max() <= y1 + 1 and xs.max() - xs.min() >= (x1 - x0) - 4

    # the corner of the box is the die's own on a sharp cube, the table's on a rounded one
    def corner_red(out):
        x0, y0 = (int(v) + 2 for v in out.dice[0].bbox[:2])
        patch = out.image[y0 : y0 + 3, x0 : x0 + 3].astype(int)
        return float((patch[..., 2] - patch[..., 0]).mean())

    assert corner_red(sharp) > 80 > 20 > corner_red(round_)

    # the pips are drawn in towards the middle: the five's outer pips lie nearer its centre
    def pip_spread(out):
        x0, y0, x1, y1 = (int(v) for v in out.dice[0].bbox)
        grey = out.image[y0:y1, x0:x1].mean(axis=2)
        ys, xs = np.nonzero(grey < 40)
        return (xs.max() - xs.min()) / (x1 - x0)

    assert pip_spread(round_) < pip_spread(sharp) - 0.1


def test_rounded_dice_leave_the_sharp_dice_renders_as_they_were():
    # a die of rounding 0 takes the old path: the demo table and bench frames are unchanged
    scene = renderer.random_scene(np.random.default_rng(5))
    zero = replace(scene, dice=tuple(replace(d, rounding=0.0) for d in scene.dice))
    a = renderer.render(scene, np.random.default_rng(2))
    b = renderer.render(zero, np.random.default_rng(2))
    assert np.array_equal(a.image, b.image)
    rounded = replace(scene, dice=tuple(replace(d, rounding=0.4) for d in scene.dice))
    c = renderer.render(rounded, np.random.default_rng(2))
    assert not np.array_equal(a.image, c.image)
    assert [(d.value, d.color) for d in c.dice] == [(d.value, d.color) for d in a.dice]
