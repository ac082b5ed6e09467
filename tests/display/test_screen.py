"""Headless screenshots of the game screen, checked on what was actually drawn.

Every rendered screen is saved as a PNG under $ZONKCAM_ARTIFACTS (or the test's tmp_path).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pygame
import pytest

from tests.display.screen_helpers import artifacts_dir, find_text, pixels, save, share_of
from zonkcam.display.banners import banner
from zonkcam.display.draw import ACCENT, SURE, UNSURE
from zonkcam.display.layout import layout_for
from zonkcam.display.painter import Painter
from zonkcam.display.view import CameraView, die_at, view_for
from zonkcam.game import PRESETS, Die, Game, Phase, parse_dice
from zonkcam.game import actions as A
from zonkcam.sim import scenes
from zonkcam.sim.fake_table import MAT_BGR, mat_view
from zonkcam.table.zones import TableDie
from zonkcam.vision import Reading

SMALL, BIG = (800, 480), (1920, 1080)


@pytest.fixture(scope="module", autouse=True)
def _pygame():
    pygame.init()
    yield


@pytest.fixture
def out(tmp_path):
    return artifacts_dir(tmp_path)


def render(view, size=SMALL):
    surface = pygame.Surface(size)
    screen = Painter()
    screen.draw(surface, view)
    return surface, screen


# -- the view model ------------------------------------------------------------------------


def test_view_of_a_roll_lists_the_legal_keeps_with_the_selected_one():
    scene = scenes.roll_with_keeps()
    keeps = scene.state.turn.score.keeps
    view = view_for(scene.state, scene.camera, selected_keep=1)
    assert view.phase is Phase.DECIDE
    assert [(k.dice, k.points) for k in view.keeps] == [(k.dice, k.points) for k in keeps]
    assert [k.selected for k in view.keeps].count(True) == 1
    assert view.selected_keep.dice == keeps[1].dice
    assert view_for(scene.state, selected_keep=len(keeps) + 1).selected_keep.dice == keeps[1].dice
    assert view.player == "Ann"
    assert view.dice_to_roll == 5
    assert view.dice_after_keep == 5 - len(keeps[1].dice)
    assert view.unsure_dice == (2,)


def test_view_columns_follow_the_table():
    classic = view_for(scenes.zonk().state)
    assert [p.bees for p in classic.board] == [None, None]
    assert [p.drinks for p in classic.board] == [None, None]
    assert [(p.name, p.score, p.zonks, p.on_board) for p in classic.board] == [
        ("Ann", 1000, 0, True),
        ("Bob", 0, 1, False),
    ]

    johnnys = view_for(scenes.all_johnnys().state)
    assert [(p.name, p.bees) for p in johnnys.board] == [("Ann", 1), ("Bob", 1), ("Cy", 0)]

    drinking = view_for(scenes.drinking().state)
    rows = {p.name: p for p in drinking.board}
    assert set(rows) == {"Dizzy", "Noodle", "Captain"}  # only zonk names are shown
    assert rows["Dizzy"].handouts == 3
    assert rows["Captain"].drinks == 2 and rows["Captain"].spaced
    assert drinking.player == "Noodle"


def test_view_of_the_end():
    view = view_for(scenes.winner().state)
    assert view.finished and view.player is None
    assert view.winners == ("Ann",)
    assert [p.winner for p in view.board] == [True, False]
    assert view.keeps == ()


def test_final_round_flag():
    game = Game(
        dataclasses.replace(PRESETS["classic-10000"], target=1000), [A.Players(("Ann", "Bob"))]
    )
    game.play(A.Roll(parse_dice([1, 1, 1, 2, 3])))
    state = game.play(A.Bank())
    assert view_for(state).final_round
    surface, screen = render(view_for(state))
    assert find_text(surface, screen, "FINAL ROUND")


def test_the_tables_dice_show_as_read_and_cocked_ones_are_flagged():
    cocked = TableDie(Reading(Die(4), 0.99, (10, 10, 60, 60)), (0, 0), "rolling", cocked=True)
    flat = TableDie(Reading(Die(2, "red"), 0.99, (100, 10, 150, 60)), (0, 0), "rolling")
    view = view_for(scenes.zonk().state, CameraView(None, (cocked, flat)))
    assert [(d.die.value, d.unsure) for d in view.dice] == [(4, True), (2, False)]
    assert die_at((120, 30), [d.die for d in view.dice]) == 1


def test_die_at_hit_test():
    dice = [Reading(Die(1), 0.9, (10, 10, 60, 60)), Reading(Die(5), 0.9, (100, 10, 150, 60))]
    assert die_at((35, 35), dice) == 0
    assert die_at((149, 59), dice) == 1
    assert die_at((155, 35), dice) == 1  # just outside the box, within the slack
    assert die_at((300, 300), dice) is None
    assert die_at((80, 35), dice) is None  # between the two
    overlapping = [Reading(Die(1), 0.9, (0, 0, 60, 60)), Reading(Die(2), 0.9, (40, 0, 100, 60))]
    assert die_at((55, 30), overlapping) == 1  # nearer the second die's centre
    assert die_at((45, 30), overlapping) == 0
    assert die_at((5, 5), []) is None


# -- drawing -------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [SMALL, BIG], ids=["800x480", "1920x1080"])
def test_roll_screen_shows_the_keeps_total_and_players(out, size):
    scene = scenes.roll_with_keeps()
    view = view_for(scene.state, scene.camera, selected_keep=1)
    surface, screen = render(view, size)
    save(surface, out, f"roll-{size[0]}x{size[1]}")
    for text in [
        "Ann's turn",
        "0",
        "Ann",
        "Bob",
        "Cyrus",
        "1,000",
        "1,050",
        "classic-10000",
        "SELECT a keep, ROLL on or BANK",
        f"keep +{view.selected_keep.points}",
    ]:
        assert find_text(surface, screen, text), text
    for keep in view.keeps[:3]:
        assert find_text(surface, screen, keep.label), keep.label
        assert find_text(surface, screen, f"{keep.points:,}"), keep.points
    # the selected keep sits on a yellow bar
    lay = layout_for(size)
    selected = next(d for d in screen.texts if d.text == view.selected_keep.label)
    assert selected.background == ACCENT
    assert lay.keeps.contains(selected.rect)
    others = [
        d
        for d in screen.texts
        if d.text in {k.label for k in view.keeps} and d.text != view.selected_keep.label
    ]
    assert others and all(d.background != ACCENT for d in others)


def test_a_long_keep_list_scrolls_to_the_selected_keep():
    scene = scenes.roll_with_keeps()
    last = len(scene.state.turn.score.keeps) - 1
    view = view_for(scene.state, scene.camera, selected_keep=last)
    surface, screen = render(view)
    assert len(view.keeps) > 5  # more than fit on 800x480
    assert find_text(surface, screen, view.keeps[last].label)
    assert not find_text(surface, screen, view.keeps[0].label)


def test_dice_set_aside_show_while_the_player_rolls_on():
    game = Game(PRESETS["classic-10000"], [A.Players(("Ann", "Bob"))])
    game.play(A.Roll(parse_dice([1, 5, 2, 3, 4])))
    state = game.play(A.Keep((1,)))
    view = view_for(state)
    assert view.keeps == () and view.set_aside == (1,)
    surface, screen = render(view)
    assert find_text(surface, screen, "SET ASIDE") and find_text(surface, screen, "1")
    state = game.play(A.Roll(parse_dice([5, 5, 3, 2])))
    state = game.play(A.Keep((5, 5)))
    assert view_for(state).set_aside == (1, 5, 5)
    _, fresh = render(view_for(scenes.zonk().state))
    assert not any(d.text == "SET ASIDE" for d in fresh.texts)


def test_fonts_scale_with_the_surface():
    scene = scenes.roll_with_keeps()
    view = view_for(scene.state, scene.camera)
    heights = []
    for size in (SMALL, BIG):
        _, screen = render(view, size)
        total = next(d for d in screen.texts if d.text == f"{view.turn_total:,}")
        heights.append(total.rect.h)
    assert heights[1] / heights[0] == pytest.approx(1080 / 480, rel=0.15)
    assert heights[0] >= 480 * 0.12  # big digits: readable from two metres


def test_selecting_another_keep_changes_only_the_keeps_and_turn_panels():
    scene = scenes.roll_with_keeps()
    a, _ = render(view_for(scene.state, scene.camera, selected_keep=0))
    b, _ = render(view_for(scene.state, scene.camera, selected_keep=2))
    lay = layout_for(SMALL)
    assert not np.array_equal(pixels(a, lay.keeps), pixels(b, lay.keeps))
    assert np.array_equal(pixels(a, lay.board), pixels(b, lay.board))
    assert np.array_equal(pixels(a, lay.camera), pixels(b, lay.camera))


def test_scoreboard_differs_when_scores_differ(out):
    game = Game(PRESETS["classic-10000"], [A.Players(("Ann", "Bob"))])
    before = view_for(game.state)
    game.play(A.Roll(parse_dice([1, 1, 1, 2, 3])))
    after = view_for(game.play(A.Bank()))
    lay = layout_for(SMALL)
    a1, _ = render(before)
    a2, _ = render(before)
    b, screen = render(after)
    save(b, out, "board-after-bank")
    assert np.array_equal(pixels(a1, lay.board), pixels(a2, lay.board))  # drawing is stable
    assert not np.array_equal(pixels(a1, lay.board), pixels(b, lay.board))
    at = find_text(b, screen, "1,000")
    assert at and lay.board.collidepoint(at)


def test_camera_view_marks_each_die_and_flags_the_unsure_one(out):
    scene = scenes.roll_with_keeps()
    view = view_for(scene.state, scene.camera)
    surface, screen = render(view)
    save(surface, out, "camera-unsure")
    lay = layout_for(SMALL)
    mat_rgb = tuple(reversed(MAT_BGR))
    assert share_of(surface, lay.camera, mat_rgb) > 0.3  # the frame is drawn, RGB not BGR
    assert find_text(surface, screen, "5?")
    at = find_text(surface, screen, "CHECK 5?")  # and named big over the keeps
    assert at and lay.keeps.collidepoint(at)
    fit = screen.camera_fit
    for i, shown in enumerate(view.dice):
        box = fit.to_screen(shown.die.bbox).inflate(10, 10)
        colour = UNSURE if shown.unsure else SURE
        assert share_of(surface, box, colour) > 0.05, i
        other = SURE if shown.unsure else UNSURE
        assert share_of(surface, box, other) == 0, i


def test_no_unsure_outline_when_every_die_is_sure():
    scene = scenes.hot_dice()
    surface, _ = render(view_for(scene.state, mat_view([1, 5, 3], confidences=[0.9] * 3)))
    assert share_of(surface, layout_for(SMALL).camera, UNSURE) == 0
    assert share_of(surface, layout_for(SMALL).camera, SURE) > 0


def test_detroit_dice_show_their_colour(out):
    scene = scenes.detroit_colours()
    surface, screen = render(view_for(scene.state, scene.camera))
    save(surface, out, "detroit")
    red = (220, 30, 30)  # the chip beside each red die's value
    assert share_of(surface, layout_for(SMALL).camera, red) > 0


def test_detroit_colour_marks_read_across_the_table_each_with_its_letter(out):
    """Each die's colour is a chip as tall as its value, with the colour's letter on it:
    white, red and green told apart by letter as well as by colour."""
    from zonkcam.display.draw import DIE_SWATCHES

    scene = scenes.detroit_colours()
    view = view_for(scene.state, scene.camera)
    surface, screen = render(view)
    camera = layout_for(SMALL).camera
    marks = {
        t.text: t
        for t in screen.texts
        if camera.contains(t.rect) and t.background in DIE_SWATCHES.values()
    }
    assert set(marks) == {"W", "R", "G"}
    for letter, name in (("W", "white"), ("R", "red"), ("G", "green")):
        mark = marks[letter]
        assert mark.background == DIE_SWATCHES[name]
        assert mark.rect.h >= 28
        assert find_text(surface, screen, letter) is not None
    values = [t for t in screen.texts if camera.contains(t.rect) and t.text[0].isdigit()]
    assert len(values) == len(view.dice)
    assert all(v.rect.h >= 28 and not v.label for v in values)


def test_the_turn_total_is_not_named_like_the_turn_counter():
    """'TURN 1 OF 21' counts the rounds; the turn's points are the TURN TOTAL."""
    state = scenes.all_johnnys().state
    surface, screen = render(view_for(state, None))
    texts = [t.text for t in screen.texts]
    assert "TURN TOTAL" in texts and "TURN" not in texts
    assert any(t.startswith("TURN ") and " OF " in t for t in texts)


def test_no_camera_placeholder():
    scene = scenes.zonk()
    surface, screen = render(view_for(scene.state, None))
    assert find_text(surface, screen, "no camera")
    assert screen.camera_fit is None


def test_tap_on_a_die_finds_it():
    scene = scenes.roll_with_keeps()
    view = view_for(scene.state, scene.camera)
    surface, screen = render(view)
    fit = screen.camera_fit
    for i, shown in enumerate(view.dice):
        centre = fit.to_screen(shown.die.bbox).center
        assert screen.tapped_die(centre, view) == i
    assert screen.tapped_die((fit.rect.x + 1, fit.rect.y + 1), view) is None
    assert screen.tapped_die((SMALL[0] - 5, SMALL[1] - 5), view) is None  # off the camera


def test_a_frame_of_any_shape_fits_the_camera_box():
    frame = np.zeros((100, 1000, 3), np.uint8)
    frame[:] = (0, 0, 255)  # red in BGR
    view = view_for(scenes.zonk().state, CameraView(frame, ()))
    surface, screen = render(view)
    cam = layout_for(SMALL).camera
    assert cam.contains(screen.camera_fit.rect)
    assert share_of(surface, screen.camera_fit.rect, (255, 0, 0)) == 1.0


def test_message_line(out):
    view = view_for(scenes.roll_with_keeps().state, message="no bank under 300")
    surface, screen = render(view)
    assert find_text(surface, screen, "no bank under 300")


@pytest.mark.parametrize("name", list(scenes.SCENES))
def test_every_scene_renders_at_both_sizes(out, name):
    scene = scenes.SCENES[name]()
    view = view_for(scene.state, scene.camera, scene.selected_keep)
    for size in (SMALL, BIG):
        surface, screen = render(view, size)
        save(surface, out, f"scene-{name}-{size[0]}x{size[1]}")
        for row in view.board:
            assert find_text(surface, screen, row.name), row.name


def test_banner_over_the_game_screen(out):
    scene = scenes.zonk()
    view = view_for(scene.state, scene.camera, banner=banner("ZONK", "Bob zonks"))
    surface, screen = render(view)
    save(surface, out, "zonk-banner")
    assert share_of(surface, layout_for(SMALL).banner, view.banner.background) > 0.5
    assert find_text(surface, screen, "ZONK!")
    assert find_text(surface, screen, "Bob zonks")
    plain, _ = render(dataclasses.replace(view, banner=None))
    assert share_of(plain, layout_for(SMALL).banner, view.banner.background) == 0


def test_bees_are_shown_big_where_the_table_has_them():
    scene = scenes.all_johnnys()
    surface, screen = render(view_for(scene.state, scene.camera))
    assert find_text(surface, screen, "1 B")
    assert find_text(surface, screen, "0 B")
    classic, classic_screen = render(view_for(scenes.zonk().state))
    assert not any(d.text.endswith(" B") for d in classic_screen.texts)


def test_screenshots_script(tmp_path):
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "scripts" / "screenshots.py"
    spec = importlib.util.spec_from_file_location("screenshots", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main(["--out", str(tmp_path)]) == 0
    written = sorted(p.name for p in tmp_path.glob("*.png"))
    assert written == sorted(
        [f"{name}.png" for name in module.SHOTS]
        + ["setup-rules.png", "setup-players.png", "setup-zonk-names.png"]
        + ["meet-the-dice.png", "meet-faces.png"]
        + ["game-charts.png"]
    )
    for png in tmp_path.glob("*.png"):
        assert png.stat().st_size < 300_000, png.name
    assert pygame.image.load(str(tmp_path / "roll-1920x1080.png")).get_size() == BIG


def test_before_seating_and_with_a_full_table(out):
    surface, screen = render(view_for(Game(PRESETS["chicago"]).state))
    assert find_text(surface, screen, "zonkcam")
    names = tuple(f"Player number {i}" for i in range(1, 9))  # zonk names: the drinking table
    seats = tuple("ABCDEFGH")
    game = Game(PRESETS["drinking"], [A.Players(seats)])
    for i, (seat, name) in enumerate(zip(seats, names, strict=True)):
        game.play(A.ZonkName(seat, name, seats[i - 1]))
    view = view_for(game.state)
    surface, screen = render(view)
    save(surface, out, "eight-players")
    lay = screen.layout  # the scoreboard grows for more than three players
    assert lay.board.h > layout_for(SMALL).board.h
    for name in names:
        at = find_text(surface, screen, name)
        assert at and lay.board.collidepoint(at), name


def test_the_band_shows_hand_outs_then_rules_once_the_drinks_are_drunk():
    game = scenes.drinking().game
    game.play(A.Drunk())
    view = view_for(game.state)
    assert (view.owed, view.hold_roll) == ("TO HAND OUT: Dizzy 3", "handed out")
    rows = {row.name: row for row in view.board}
    assert rows["Dizzy"].handouts == 3 and "hand out 3" in rows["Dizzy"].badges
    surface, screen = render(view)
    assert find_text(surface, screen, "TO HAND OUT: Dizzy 3")
    assert find_text(surface, screen, "hold ROLL: handed out")
    game.play(A.HandedOut("Ann"))  # the player behind Dizzy
    view = view_for(game.state)
    rows = {row.name: row for row in view.board}
    assert rows["Dizzy"].handouts == 0 and not any("hand out" in b for b in rows["Dizzy"].badges)
    assert (view.owed, view.hold_roll) == ("", "")  # Dizzy's 1,000 made no rule
    surface, screen = render(view)
    assert screen.layout.drinks is None
    game.play(A.Keep((5,)))  # Noodle: 5 2 3 4 6, then 1 1 1 4 (1,050 in a turn): a rule
    game.play(A.Roll(parse_dice([1, 1, 1, 4])))
    game.play(A.Bank())
    view = view_for(game.state)  # the hand-outs of Noodle's barrier first, then the rule
    assert (view.owed, view.hold_roll) == ("TO HAND OUT: Noodle 3", "handed out")
    game.play(A.HandedOut())
    view = view_for(game.state)
    assert (view.owed, view.hold_roll) == ("RULES TO MAKE: Noodle 1", "rules made")
    assert "1 rule to make" in {row.name: row for row in view.board}["Noodle"].badges


def test_big_numbers_have_thousands_separators():
    scene = scenes.hot_dice()
    surface, screen = render(view_for(scene.state))
    assert find_text(surface, screen, "1,100")  # the turn total


def test_dice_get_a_colour_chip_only_where_the_table_plays_colours():
    # the reader names a colour for every die; a white chip sat beside every die on
    # tables without colours
    seen = mat_view([1, 5, 2, 3, 4], colors=["white"] * 5)
    classic = view_for(scenes.zonk().state, seen)
    assert [d.colour for d in classic.dice] == [None] * 5
    white = (245, 245, 245)
    plain, _ = render(classic)
    chips, _ = render(
        dataclasses.replace(
            classic, dice=tuple(dataclasses.replace(d, colour="white") for d in classic.dice)
        )
    )
    camera = layout_for(SMALL, players=2).camera
    assert share_of(chips, camera, white) > share_of(plain, camera, white)
    detroit = scenes.detroit_colours()
    assert [d.colour for d in view_for(detroit.state, detroit.camera).dice] == [
        "white",
        "white",
        "red",
        "red",
        "green",
        "green",
    ]


def test_the_start_of_a_turn_says_what_to_do_in_the_keeps_panel():
    # before the first roll the keeps panel says what to do, rather than staying empty
    view = view_for(scenes.zonk().state)
    assert view.keeps == () and view.next_step == ("ROLL 5 DICE",)
    surface, screen = render(view)
    at = find_text(surface, screen, "ROLL 5 DICE")
    assert at and screen.layout.keeps.collidepoint(at)
    piggy = view_for(scenes.piggyback().state)
    assert piggy.next_step == ("ROLL 5 DICE", "or PIGGYBACK 1,000", "on 2 dice: press ROLL")
    fresh = Game(PRESETS["classic-10000"], [A.Players(("Ann",))])
    assert view_for(fresh.state).next_step == ("ROLL 5 DICE", "1,000 TO GET ON")
    going = view_for(scenes.go_for_1000().state)
    assert going.next_step == ("ROLL 1 DIE", "NEEDS A 6") and going.dice_to_roll == 1


def test_bank_is_offered_only_where_the_rules_allow_it():
    # "SELECT a keep, ROLL on or BANK" for a player not yet on the board
    game = Game(PRESETS["classic-10000"], [A.Players(("Ann", "Bob"))])
    state = game.play(A.Roll(parse_dice([1, 2, 3, 4, 6])))
    assert view_for(state).prompt == "SELECT a keep, ROLL on"
    state = game.play(A.Keep((1,)))
    assert view_for(state).prompt == "roll 4 dice"
    assert not any("BANK" in line for line in view_for(state).next_step)


def test_all_johnnys_shows_the_turn_of_21_and_the_score_sheet():
    view = view_for(scenes.all_johnnys().state)
    assert view.turn_of == "TURN 1 OF 21"
    rows = {p.name: p.badges for p in view.board}
    assert rows["Ann"] == ("last 1100 (+1)",)
    assert rows["Bob"] == ("not on board", "last Z (newbie) (+1)", "zonks 1/3")
    surface, screen = render(view)
    for text in ("TURN 1 OF 21", "last 1100 (+1)"):
        assert find_text(surface, screen, text), text


def test_drinks_due_are_a_band_of_their_own():
    view = view_for(scenes.drinking().state)
    assert view.drinks_due == (("Captain", 2),)
    surface, screen = render(view)
    assert find_text(surface, screen, "DRINKS DUE: Captain 2")
    assert screen.layout.drinks is not None and find_text(surface, screen, "hold ROLL: drunk")
    assert view_for(scenes.zonk().state).drinks_due == ()
