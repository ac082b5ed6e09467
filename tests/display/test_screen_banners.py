"""Banners: the engine's banner names dressed for the screen, timed by a queue, drawn big."""

from __future__ import annotations

import dataclasses

import pygame
import pytest

from tests.display.screen_helpers import artifacts_dir, find_text, save, share_of
from zonkcam.display.banners import STYLES, BannerQueue, banner, banners_for
from zonkcam.display.layout import layout_for
from zonkcam.display.painter import Painter
from zonkcam.display.view import view_for
from zonkcam.game import PRESETS, Game, parse_dice
from zonkcam.game import actions as A
from zonkcam.sim import scenes
from zonkcam.testing import FakeClock

REQUIRED = [
    "ZONK",
    "HOT DICE",
    "NEWBIE",
    "FRAME",
    "GO FOR 1000",
    "SLOPPY",
    "DRINK: LEFT",
    "DRINK: RIGHT",
    "DRINK: CHOOSE",
    "DRINK: SOCIAL",
    "MAKE A RULE",
    "FINAL ROUND",
    "WINNER",
]


@pytest.fixture(scope="module", autouse=True)
def _pygame():
    pygame.init()
    yield


def test_every_banner_has_its_own_colour():
    assert set(REQUIRED) <= set(STYLES)
    colours = [STYLES[name].background for name in REQUIRED]
    assert len(set(colours)) == len(colours)


@pytest.mark.parametrize("name", REQUIRED)
def test_banner_drawn_in_its_colour(tmp_path, name):
    scene = scenes.roll_with_keeps()
    shown = banner(name, "Ann" if name == "WINNER" else "")
    for size in ((800, 480), (1920, 1080)):
        surface = pygame.Surface(size)
        screen = Painter()
        screen.draw(surface, view_for(scene.state, scene.camera, banner=shown))
        if size[0] == 800:  # one PNG a banner keeps the run quick
            save(surface, artifacts_dir(tmp_path), f"banner-{name.replace(': ', '-')}")
        assert share_of(surface, layout_for(size).banner, STYLES[name].background) > 0.5
        assert find_text(surface, screen, STYLES[name].title)
        if shown.subtitle:
            assert find_text(surface, screen, shown.subtitle)


def test_banner_title_fits_the_screen():
    surface = pygame.Surface((320, 240))
    screen = Painter()
    rect = screen.draw_banner(surface, banner("DRINK: CHOOSE", "Captain chooses who drinks"))
    for drawn in screen.texts:
        assert rect.contains(drawn.rect), drawn.text


def test_banners_from_real_actions():
    zonk = banners_for(scenes.zonk().state)
    assert [(b.name, b.subtitle) for b in zonk] == [("ZONK", "Bob zonks")]

    won = banners_for(scenes.winner().state)
    assert [(b.name, b.subtitle) for b in won] == [("WINNER", "Ann")]

    drink = banners_for(scenes.drinking().state)
    assert [(b.name, b.subtitle) for b in drink] == [("DRINK: LEFT", "Captain drinks")]

    newbie = banners_for(scenes.all_johnnys().state)
    assert [b.name for b in newbie] == ["ZONK", "NEWBIE"]
    assert newbie[1].subtitle == "Bob +1 B"

    hot = banners_for(scenes.hot_dice().state)
    assert [b.name for b in hot] == ["HOT DICE"]


def test_frame_banner_says_whose_frame():
    game = Game(PRESETS["all-johnnys"], [A.Players(("Ann",))])
    for _ in range(3):
        state = game.play(A.Roll(parse_dice([2, 3, 4, 6, 6, 2])))  # newbie zonks
    frame = [b for b in banners_for(state) if b.name == "FRAME"]
    assert frame and frame[0].subtitle == "Ann's newbie closes an unearned frame, +1 B"


def test_winner_banner_uses_the_zonk_name():
    rules = dataclasses.replace(PRESETS["drinking"], target=1000)
    game = Game(rules, [A.Players(("Ann", "Bob")), A.ZonkName("Ann", "Dizzy", "Bob")])
    game.play(A.Roll(parse_dice([1, 1, 1, 2, 3])))
    state = game.play(A.Bank())
    won = [b for b in banners_for(state) if b.name == "WINNER"]
    assert won and won[0].subtitle == "Dizzy"


def test_queue_shows_each_banner_for_its_time():
    clock = FakeClock()
    q = BannerQueue(seconds=2.0, clock=clock, durations={"WINNER": 5.0})
    assert q.current() is None
    q.push([banner("ZONK"), banner("NEWBIE")])
    assert len(q) == 2
    assert q.current().name == "ZONK"
    clock.now = 1.9
    assert q.current().name == "ZONK"
    clock.now = 2.0
    assert q.current().name == "NEWBIE"
    q.push([banner("WINNER")])
    clock.now = 3.99
    assert q.current().name == "NEWBIE"
    clock.now = 4.0
    assert q.current().name == "WINNER"
    clock.now = 8.9
    assert q.current().name == "WINNER"
    clock.now = 9.0
    assert q.current() is None
    assert len(q) == 0


def test_queue_time_starts_when_a_banner_is_first_shown():
    clock = FakeClock()
    q = BannerQueue(seconds=2.0, clock=clock)
    clock.now = 100.0
    q.push([banner("ZONK")])
    clock.now = 150.0  # nobody asked for a while (e.g. the set-up screen was up)
    assert q.current().name == "ZONK"
    clock.now = 151.5
    assert q.current().name == "ZONK"


def test_queue_from_state_and_clear():
    clock = FakeClock()
    q = BannerQueue(clock=clock)
    q.push_state(scenes.all_johnnys().state)
    assert q.current().name == "ZONK"
    q.clear()
    assert q.current() is None


def test_the_game_over_screen_names_the_winner_in_the_big_banner(tmp_path):
    """The last action's WINNER comes first, whatever else it raised (a hand-out), and the
    game-over screen keeps it up once the queue has run out."""
    from zonkcam.display.banners import winner_banner
    from zonkcam.display.game_screen import GameScreen
    from zonkcam.display.sounds import Sounds
    from zonkcam.display.window import Window

    state = scenes.winner().state
    state.banners = ["HAND OUT", "WINNER"]  # as the drinking table's winning bank raises them
    assert [b.name for b in banners_for(state)] == ["WINNER", "HAND OUT"]
    assert (winner_banner(state).name, winner_banner(state).subtitle) == ("WINNER", "Ann")
    clock = FakeClock()
    with Window.open((800, 480), screenshots=tmp_path) as window:
        screen = GameScreen(window, sounds=Sounds(muted=True))
        screen.banners = BannerQueue(seconds=2, clock=clock)
        screen.played(state)
        assert screen.draw(state).banner.name == "WINNER"
        clock.now = 2.5
        assert screen.draw(state).banner.name == "HAND OUT"
        clock.now = 60
        view = screen.draw(state)  # the queue is empty: the winner stays
        assert (view.banner.name, view.banner.subtitle) == ("WINNER", "Ann")
        assert view.next_step == ("GAME OVER", "ROLL: same players", "BANK: new players")


def test_the_final_scoreboard_keeps_what_is_still_owed():
    from zonkcam.display.view import view_for

    state = scenes.winner().state
    ann, bob = state.players
    ann.handouts, bob.rules = 2, 2
    rows = {row.name: row.badges for row in view_for(state).board}
    assert rows == {"Ann": ("hand out 2", "WINNER"), "Bob": ("2 rules to make",)}
