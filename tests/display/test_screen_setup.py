"""The set-up screens: resume, choose the rules, seat the players (with zonk names), by
keyboard and by the three buttons alone."""

from __future__ import annotations

import pygame
import pytest

from tests.display.screen_helpers import artifacts_dir, find_text, save
from zonkcam.controls import BANK, ROLL, SELECT, UNDO, Control, Press
from zonkcam.display.draw import ACCENT
from zonkcam.display.painter import Painter
from zonkcam.display.setup import (
    ADD_PLAYER,
    START,
    ChooseGame,
    ChooseRules,
    ResumableGame,
    SeatPlayers,
)
from zonkcam.game import PRESETS, Game

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
    seat = SeatPlayers(PRESETS["classic-10000"])
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
    seat = SeatPlayers(PRESETS["chicago"])
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
    seat = SeatPlayers(PRESETS["chicago"])
    assert seat.rows[seat.row] == ADD_PLAYER  # nobody seated: adding comes first
    seat.handle(BACK)  # up from the top: the last row
    assert seat.rows[seat.row] == START
    seat.handle(ROLL)
    assert not seat.done and seat.message == "add a player first"


def test_names_are_capped():
    seat = SeatPlayers(PRESETS["chicago"])
    type_line(seat, "x" * 40)
    assert len(seat.players[0]) == 16


def test_drinking_table_asks_each_player_to_name_their_left_neighbour(tmp_path):
    seat = SeatPlayers(PRESETS["drinking"])
    for name in ("Ann", "Bob", "Cy"):
        type_line(seat, name)
    seat.handle(ROLL)
    assert not seat.done
    assert seat.title == "Ann, a zonk name for Bob"
    type_line(seat, "Noodle")
    assert seat.title == "Bob, a zonk name for Cy"
    type_line(seat, "Ann")  # a real name: the engine refuses it
    assert "already a player's name" in seat.message
    assert seat.title == "Bob, a zonk name for Cy"
    surface, screen = draw(seat)
    save(surface, artifacts_dir(tmp_path), "setup-zonk-names")
    assert find_text(surface, screen, "Bob, a zonk name for Cy")
    for _ in "Ann":
        seat.handle(ERASE)
    type_line(seat, "Captain")
    seat.handle(ROLL)  # Cy may not skip naming Ann: every player gets a zonk name
    assert not seat.done and seat.message.startswith("Ann needs a zonk name")
    assert seat.title == "Cy, a zonk name for Ann"
    type_line(seat, "Dice Queen")
    assert seat.done
    game = Game(PRESETS["drinking"], seat.actions)
    shown = [game.state.shown_name(p) for p in game.state.players]
    assert shown == ["Dice Queen", "Noodle", "Captain"]  # only zonk names are shown
    assert [p.name for p in game.state.players] == ["Ann", "Bob", "Cy"]  # the log keeps both


def test_players_seated_on_the_command_line_are_asked_their_zonk_names():
    seat = SeatPlayers.naming_zonk_names(PRESETS["drinking"], ["Ann", "Bob"])
    assert seat.title == "Ann, a zonk name for Bob"
    type_line(seat, "Noodle")
    type_line(seat, "Captain")
    assert seat.done and [type(a).__name__ for a in seat.actions] == ["Players"] + ["ZonkName"] * 2


def test_quit_cancels_player_entry():
    seat = SeatPlayers(PRESETS["chicago"])
    seat.handle(QUIT)
    assert seat.done and seat.cancelled


def hint_drawn(seat):
    """The hint line as drawn (found pixel for pixel: nothing covers it)."""
    surface, screen = draw(seat)
    assert find_text(surface, screen, seat.hint), seat.hint
    return seat.hint


def test_the_buttons_alone_add_remove_and_reorder_players_from_names_played_before(tmp_path):
    """ROLL acts on the row lit, SELECT goes down, BANK removes or goes back; names come
    from the games before; the bottom line says what each button does at each moment."""
    known = ["Ann", "Bob", "Cy", "Di"]  # the latest game's first
    seat = SeatPlayers(PRESETS["chicago"], ["Ann", "Bob"], known, back="the game")
    assert seat.rows[seat.row] == START  # the same players: one press starts
    assert hint_drawn(seat) == "SELECT: next   ROLL: start the game   BANK: back to the game"
    seat.handle(SELECT)  # down from the bottom: the first player
    assert hint_drawn(seat) == "SELECT: next   ROLL: move Ann   BANK: remove Ann"
    seat.handle(BANK)
    assert seat.players == ["Bob"] and seat.message == "Ann removed (hold SELECT to undo)"
    seat.handle(SELECT)
    assert seat.rows[seat.row] == ADD_PLAYER
    assert hint_drawn(seat) == "SELECT: next   ROLL: add a player   BANK: back to the game"
    seat.handle(ROLL)  # the names played before, not seated, then a name that is free
    assert seat.adding and seat.choices == ["Ann", "Cy", "Di", "Player 1"]
    assert hint_drawn(seat) == "SELECT: next name   ROLL: add Ann   BANK: done"
    for command in (SELECT, SELECT, ROLL, BACK, ROLL):  # Di, then Cy
        seat.handle(command)
    assert seat.players == ["Bob", "Di", "Cy"] and seat.choices == ["Ann", "Player 1"]
    surface, screen = draw(seat)
    save(surface, artifacts_dir(tmp_path), "setup-add-player")
    assert find_text(surface, screen, "playing: Bob, Di, Cy")
    seat.handle(BANK)  # done adding: back on the seating, at "Start the game"
    assert not seat.adding and seat.rows[seat.row] == START
    for command in (SELECT, SELECT, SELECT, ROLL):  # pick up Cy
        seat.handle(command)
    assert hint_drawn(seat) == "SELECT: move down   ROLL: put Cy here"
    seat.handle(SELECT)  # down from the bottom: to the top, the first to throw
    assert seat.players == ["Cy", "Bob", "Di"]
    surface, screen = draw(seat)
    save(surface, artifacts_dir(tmp_path), "setup-seating")
    assert find_text(surface, screen, "1. Cy  <- moving")
    seat.handle(ROLL)  # put down
    seat.handle(BACK)  # up from the top: "Start the game"
    seat.handle(ROLL)
    assert seat.done and not seat.cancelled and not seat.went_back
    game = Game(PRESETS["chicago"], seat.actions)
    assert [p.name for p in game.state.players] == ["Cy", "Bob", "Di"]


def test_select_held_takes_back_the_last_change():
    seat = SeatPlayers(PRESETS["chicago"], ["Ann", "Bob", "Cy"])
    seat.handle(SELECT)  # Ann
    seat.handle(SELECT)  # Bob
    seat.handle(BANK)
    assert seat.players == ["Ann", "Cy"]
    seat.handle(UNDO)
    assert seat.players == ["Ann", "Bob", "Cy"]
    assert seat.rows[seat.row] == "2. Bob"


def test_the_table_row_changes_the_table_with_the_buttons():
    seat = SeatPlayers(PRESETS["chicago"], ["Ann", "Bob"])
    seat.handle(BACK)  # from "Start the game" up to the table
    assert seat.rows[seat.row] == "Table: chicago"
    assert seat.hint == "SELECT: next   ROLL: change the table"
    seat.handle(ROLL)
    seat.handle(SELECT)
    seat.handle(BANK)  # back: the table stays
    assert seat.tables is None and seat.rules is PRESETS["chicago"]
    seat.handle(ROLL)
    assert seat.tables.rules is PRESETS["chicago"]  # the list opens at the table chosen
    seat.handle(SELECT)
    seat.handle(ROLL)
    assert seat.rules is PRESETS["detroit"] and seat.rows[-2] == "Table: detroit"
    assert seat.players == ["Ann", "Bob"] and not seat.done


def test_bank_goes_back_only_where_the_screen_has_somewhere_to_go():
    first_night = SeatPlayers(PRESETS["chicago"], ["Ann"])
    first_night.handle(BANK)  # on "Start the game", with nowhere to go back to
    assert not first_night.done and first_night.players == ["Ann"]
    assert "BANK" not in first_night.hint
    after_a_game = SeatPlayers(PRESETS["chicago"], ["Ann"], back="the game")
    after_a_game.handle(BANK)
    assert after_a_game.done and after_a_game.went_back and not after_a_game.cancelled


def test_names_to_add_leave_out_who_is_seated_whatever_the_case():
    seat = SeatPlayers(PRESETS["chicago"], ["ann", "Player 1"], ["Ann", "Bob"])
    seat.handle(SELECT)
    seat.handle(SELECT)
    seat.handle(SELECT)  # "+ Add a player"
    seat.handle(ROLL)
    assert seat.choices == ["Bob", "Player 2"]
    seat.handle(ROLL)
    seat.handle(ROLL)  # the next free "Player N"
    assert seat.players == ["ann", "Player 1", "Bob", "Player 2"]
    assert seat.choices == ["Player 3"]
    type_line(seat, "BOB")  # typed: the engine refuses a second Bob in any case
    assert "two players are called" in seat.message and len(seat.players) == 4


def test_the_buttons_alone_give_zonk_names_theirs_from_before_first(tmp_path):
    stock = ("Captain", "Snake Eyes", "Lucky")
    seat = SeatPlayers(
        PRESETS["drinking"],
        ["Ann", "Bob", "Cy"],
        zonk_names=[("Cy", "Tiger"), ("Bob", "Noodle"), ("Cy", "Old Tiger")],
        stock_zonk_names=stock,
    )
    seat.handle(ROLL)  # start: each names their left neighbour
    assert seat.title == "Ann, a zonk name for Bob"
    assert seat.choices == ["Noodle", "Tiger", "Old Tiger", *stock]
    assert hint_drawn(seat) == "SELECT: next name   ROLL: Bob is Noodle   BANK: back"
    seat.handle(ROLL)
    assert seat.title == "Bob, a zonk name for Cy"
    assert seat.choices[:2] == ["Tiger", "Old Tiger"]  # Noodle is taken
    seat.handle(SELECT)
    seat.handle(ROLL)  # Old Tiger
    assert seat.title == "Cy, a zonk name for Ann"
    seat.handle(BANK)  # back a player: Cy's name is chosen again
    assert seat.title == "Bob, a zonk name for Cy" and "Cy" not in seat.zonk_names
    seat.handle(ROLL)  # Tiger
    seat.handle(SELECT)
    surface, screen = draw(seat)
    save(surface, artifacts_dir(tmp_path), "setup-zonk-names-buttons")
    assert find_text(surface, screen, "Cy, a zonk name for Ann")
    seat.handle(ROLL)  # Captain (Old Tiger first; SELECT went past it)
    assert seat.done
    game = Game(PRESETS["drinking"], seat.actions)
    shown = [game.state.shown_name(p) for p in game.state.players]
    assert shown == ["Captain", "Noodle", "Tiger"]


def test_while_a_name_is_typed_the_hint_says_enter_takes_it():
    seat = SeatPlayers(PRESETS["drinking"], ["Ann", "Bob"], ["Cy"])
    for ch in "Eve":
        seat.handle(Press(Control.CHAR, ch))
    assert hint_drawn(seat) == "Enter: add Eve   Backspace: erase"
    seat.handle(ROLL)
    seat.handle(ROLL)  # start: the zonk names
    assert hint_drawn(seat) == "SELECT: next name   ROLL: choose   BANK: back"
    for ch in "Capt":
        seat.handle(Press(Control.CHAR, ch))
    assert hint_drawn(seat) == "Enter: Bob is Capt   Backspace: erase"
