"""The set-up screens: resume, choose the rules, seat the players (with zonk names)."""

from __future__ import annotations

import pygame
import pytest

from tests.display.screen_helpers import artifacts_dir, find_text, save
from zonkcam.controls import BANK, ROLL, SELECT, Control, Press
from zonkcam.display.draw import ACCENT
from zonkcam.display.painter import Painter
from zonkcam.display.setup import ChooseGame, ChooseRules, EnterPlayers, ResumableGame
from zonkcam.game.game import Game
from zonkcam.game.rules import PRESETS

BACK = Press(Control.BACK)
QUIT = Press(Control.QUIT)
ERASE = Press(Control.ERASE)


@pytest.fixture(scope="module", autouse=True)
def _pygame():
    pygame.init()
    yield


def type_line(screen, text):
    for ch in text:
        screen.handle(Press(Control.CHAR, ch))
    screen.handle(ROLL)


def draw(setup_screen, size=(800, 480)):
    surface = pygame.Surface(size)
    screen = Painter()
    setup_screen.draw(surface, screen)
    return surface, screen


def test_choose_rules_with_select_and_roll(tmp_path):
    menu = ChooseRules()
    assert menu.rules is PRESETS["classic-10000"]
    menu.handle(SELECT)
    menu.handle(SELECT)
    assert menu.rules is PRESETS["chicago"]
    menu.handle(BACK)
    assert menu.rules is PRESETS["all-johnnys"]
    surface, screen = draw(menu)
    save(surface, artifacts_dir(tmp_path), "setup-rules")
    for name in PRESETS:
        assert find_text(surface, screen, name), name
    chosen = next(d for d in screen.texts if d.text == "all-johnnys")
    assert chosen.background == ACCENT
    assert not menu.done
    menu.handle(BANK)  # not a menu button: nothing happens
    assert not menu.done
    menu.handle(ROLL)
    assert menu.done and not menu.cancelled and menu.rules is PRESETS["all-johnnys"]


def test_choose_rules_wraps_and_takes_digits():
    menu = ChooseRules(selected="drinking")
    assert menu.rules is PRESETS["drinking"]
    menu.handle(SELECT)
    assert menu.rules is PRESETS["classic-10000"]
    menu.handle(Press(Control.DIGIT, 4))
    assert menu.rules is PRESETS["detroit"]
    menu.handle(Press(Control.DIGIT, 6))  # no sixth table
    assert menu.rules is PRESETS["detroit"]
    menu.handle(QUIT)
    assert menu.done and menu.cancelled


def test_resume_list(tmp_path):
    games = [
        ResumableGame(3, "chicago", ("Ann", "Bob"), 17),
        ResumableGame(5, "drinking", ("Cy", "Di", "Ed"), 4),
    ]
    menu = ChooseGame(games)
    assert menu.game_id == 3
    surface, screen = draw(menu)
    save(surface, artifacts_dir(tmp_path), "setup-resume")
    assert find_text(surface, screen, "#3 chicago: Ann, Bob (17 actions)")
    assert find_text(surface, screen, "New game")
    menu.handle(SELECT)
    assert menu.game_id == 5
    menu.handle(SELECT)
    assert menu.game_id is None  # a new game
    menu.handle(ROLL)
    assert menu.done


def test_resume_with_nothing_saved_offers_a_new_game():
    menu = ChooseGame([])
    menu.handle(SELECT)
    menu.handle(ROLL)
    assert menu.done and menu.game_id is None


def test_enter_players_by_typing(tmp_path):
    seat = EnterPlayers(PRESETS["classic-10000"])
    assert seat.wants_text
    type_line(seat, "Ann")
    type_line(seat, "Bobb")
    assert seat.players == ["Ann", "Bobb"]
    seat.handle(ERASE)  # on an empty line: takes back the last player
    assert seat.players == ["Ann"]
    for ch in "Bobb":
        seat.handle(Press(Control.CHAR, ch))
    seat.handle(ERASE)  # on a typed line: one letter
    seat.handle(ROLL)
    for ch in "Cy":
        seat.handle(Press(Control.CHAR, ch))
    surface, screen = draw(seat)
    save(surface, artifacts_dir(tmp_path), "setup-players")
    assert find_text(surface, screen, "1. Ann")
    assert find_text(surface, screen, "2. Bob")
    assert find_text(surface, screen, "Cy_")  # what is being typed
    seat.handle(ROLL)
    seat.handle(ROLL)  # an empty line: start
    assert seat.done
    game = Game(PRESETS["classic-10000"], seat.actions)
    assert [p.name for p in game.state.players] == ["Ann", "Bob", "Cy"]


def test_a_name_the_engine_refuses_is_refused_with_its_reason(tmp_path):
    seat = EnterPlayers(PRESETS["chicago"])
    type_line(seat, "Ann")
    type_line(seat, "ann")
    assert seat.players == ["Ann"]
    assert "two players are called" in seat.message
    surface, screen = draw(seat)
    assert find_text(surface, screen, seat.message)
    seat.handle(ERASE)  # mend the typed line
    type_line(seat, "e")
    assert seat.players == ["Ann", "ane"]
    assert seat.message == ""


def test_no_start_without_players():
    seat = EnterPlayers(PRESETS["chicago"])
    seat.handle(ROLL)
    assert not seat.done and seat.message


def test_names_are_capped():
    seat = EnterPlayers(PRESETS["chicago"])
    type_line(seat, "x" * 40)
    assert len(seat.players[0]) == 16


def test_drinking_table_asks_each_player_to_name_their_left_neighbour(tmp_path):
    seat = EnterPlayers(PRESETS["drinking"])
    for name in ("Ann", "Bob", "Cy"):
        type_line(seat, name)
    seat.handle(ROLL)
    assert not seat.done
    assert seat.prompt == "Ann, a zonk name for Bob:"
    type_line(seat, "Noodle")
    assert seat.prompt == "Bob, a zonk name for Cy:"
    type_line(seat, "Ann")  # a real name: the engine refuses it
    assert "already a player's name" in seat.message
    assert seat.prompt == "Bob, a zonk name for Cy:"
    surface, screen = draw(seat)
    save(surface, artifacts_dir(tmp_path), "setup-zonk-names")
    assert find_text(surface, screen, "Bob, a zonk name for Cy:")
    for _ in "Ann":
        seat.handle(ERASE)
    type_line(seat, "Captain")
    seat.handle(ROLL)  # Cy may not skip naming Ann: every player gets a zonk name
    assert not seat.done and seat.message.startswith("Ann needs a zonk name")
    assert seat.prompt == "Cy, a zonk name for Ann:"
    type_line(seat, "Dice Queen")
    assert seat.done
    game = Game(PRESETS["drinking"], seat.actions)
    shown = [game.state.shown_name(p) for p in game.state.players]
    assert shown == ["Dice Queen", "Noodle", "Captain"]  # only zonk names are shown
    assert [p.name for p in game.state.players] == ["Ann", "Bob", "Cy"]  # the log keeps both


def test_players_seated_on_the_command_line_are_asked_their_zonk_names():
    seat = EnterPlayers.naming_zonk_names(PRESETS["drinking"], ["Ann", "Bob"])
    assert seat.prompt == "Ann, a zonk name for Bob:"
    type_line(seat, "Noodle")
    type_line(seat, "Captain")
    assert seat.done and [type(a).__name__ for a in seat.actions] == ["Players"] + ["ZonkName"] * 2


def test_quit_cancels_player_entry():
    seat = EnterPlayers(PRESETS["chicago"])
    seat.handle(QUIT)
    assert seat.done and seat.cancelled
