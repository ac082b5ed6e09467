"""The game's charts on the screen after a game: SELECT on the game-over screen."""

from __future__ import annotations

import dataclasses

import pygame

from tests.display.screen_helpers import artifacts_dir, find_text, press, save, share_of
from zonkcam.app.loop import TableApp
from zonkcam.controls import Control
from zonkcam.display.charts import CHARTS_PROMPT, colour_of
from zonkcam.display.game_screen import GameScreen
from zonkcam.display.sounds import Sounds
from zonkcam.game import PRESETS, parse_dice
from zonkcam.game import actions as A
from zonkcam.record.logged_game import LoggedGame
from zonkcam.record.store import EventLog

RULES = dataclasses.replace(PRESETS["classic-10000"], target=3000, end="instant")


def play_a_game(logged: LoggedGame) -> None:
    """Ann banks 1,000 three times (the third wins); Bob zonks, then banks 1,000 with a
    misread roll corrected on the way (undone and thrown again): 25 dice kept."""

    def bank_three_ones() -> None:
        logged.play(A.Roll(parse_dice([1, 1, 1, 2, 3])))
        logged.play(A.Keep((1, 1, 1)))
        logged.play(A.Bank())

    bank_three_ones()
    logged.play(A.Roll(parse_dice([2, 3, 4, 6, 6])))  # Bob zonks
    bank_three_ones()
    logged.play(A.Roll(parse_dice([6, 6, 6, 2, 3])))  # Bob: misread, corrected
    logged.play(A.Undo())
    bank_three_ones()
    assert not logged.state.finished
    bank_three_ones()
    assert logged.state.finished and logged.state.winners == ["Ann"]


def test_select_on_the_game_over_screen_shows_the_games_charts(window, tmp_path):
    with EventLog(tmp_path / "g.sqlite3") as log:
        logged = LoggedGame.new(log, RULES, [A.Players(("Ann", "Bob"))])
        play_a_game(logged)
        screen = GameScreen(window, sounds=Sounds(muted=True))
        app = TableApp(logged, watcher=None, screen=screen, say=lambda line: None)
        state = logged.state
        assert screen.draw(state).prompt.endswith("SELECT: the charts")
        press(pygame.K_s)
        for command in screen.commands():
            app.handle(command)
        assert screen.show_charts and screen.selected_keep == 0
        screen.draw(state)
        surface, painter = window.surface, screen.painter
        save(surface, artifacts_dir(tmp_path), "charts")
        texts = [t.text for t in painter.texts]
        assert f"GAME {logged.game_id}  {RULES.name}" in texts
        assert "WINNER: Ann" in texts and CHARTS_PROMPT in texts
        # each player's counts as the log has them: Bob's zonk, nobody's hot dice
        assert "zonks 0  hot dice 0" in texts and "zonks 1  hot dice 0" in texts
        # the dice as the game kept them: the corrected roll counts, the misread does not
        # (twelve 1s in 25 throws: uneven enough to say so, however few the throws)
        assert "every die: 25 throws" in texts
        lines = [t for t in painter.texts if t.rect.x > 440 and t.rect.y > 300 and not t.label]
        shown = " ".join(t.text for t in sorted(lines, key=lambda t: t.rect.y))
        assert shown.startswith("looks loaded: 12 1s in 25 throws, where a fair die")
        last = [t for t in painter.texts if t.text.endswith(")")][-1]
        assert find_text(surface, painter, last.text) is not None and last.size >= 20
        # a line per player in the player's colour, over the race's panel
        race = pygame.Rect(8, 60, 440, 350)
        assert share_of(surface, race, colour_of(0)) > 0.002
        assert share_of(surface, race, colour_of(1)) > 0.002
        press(pygame.K_s)  # and SELECT again: the scoreboard
        screen.commands()
        view = screen.draw(state)
        assert not screen.show_charts and view.banner.name == "WINNER"
        assert CHARTS_PROMPT not in [t.text for t in painter.texts]


def test_select_before_the_end_still_chooses_a_keep(window, tmp_path):
    with EventLog(tmp_path / "g.sqlite3") as log:
        logged = LoggedGame.new(log, RULES, [A.Players(("Ann", "Bob"))])
        logged.play(A.Roll(parse_dice([1, 5, 5, 3, 1])))
        screen = GameScreen(window, sounds=Sounds(muted=True))
        TableApp(logged, watcher=None, screen=screen, say=lambda line: None)
        screen.draw(logged.state)
        press(pygame.K_s)
        assert [c.kind for c in screen.commands()] == [Control.SELECT]
        assert screen.selected_keep == 1 and not screen.show_charts


def test_the_charts_count_the_nights_other_games_dice(window, tmp_path):
    with EventLog(tmp_path / "g.sqlite3") as log:
        first = LoggedGame.new(log, RULES, [A.Players(("Ann", "Bob"))])
        play_a_game(first)
        logged = LoggedGame.new(log, RULES, [A.Players(("Ann", "Bob"))])
        play_a_game(logged)
        screen = GameScreen(window, sounds=Sounds(muted=True))
        app = TableApp(logged, watcher=None, screen=screen, say=lambda line: None)
        review, pools = app.charts(logged.state)
        assert review.game_id == logged.game_id and review.winners == ["Ann"]
        assert [p.verdict.throws for p in pools] == [50]


def test_the_charts_count_only_the_nights_games_thrown_with_as_many_dice(window, tmp_path):
    """Was the dice of a six-dice game pooled with this five-dice game's."""
    six = dataclasses.replace(RULES, dice=6)
    with EventLog(tmp_path / "g.sqlite3") as log:
        other = LoggedGame.new(log, six, [A.Players(("Ann", "Bob"))])
        other.play(A.Roll(parse_dice([1, 1, 1, 2, 3, 4])))
        logged = LoggedGame.new(log, RULES, [A.Players(("Ann", "Bob"))])
        play_a_game(logged)
        screen = GameScreen(window, sounds=Sounds(muted=True))
        app = TableApp(logged, watcher=None, screen=screen, say=lambda line: None)
        review, pools = app.charts(logged.state)
        assert [(p.dice, p.verdict.throws) for p in pools] == [(5, 25)]  # this game's only


def test_a_log_that_cannot_be_read_shows_a_message_not_charts(window, tmp_path, monkeypatch):
    with EventLog(tmp_path / "g.sqlite3") as log:
        logged = LoggedGame.new(log, RULES, [A.Players(("Ann", "Bob"))])
        play_a_game(logged)
        screen = GameScreen(window, sounds=Sounds(muted=True))
        TableApp(logged, watcher=None, screen=screen, say=lambda line: None)
        from zonkcam.record.store import StoreError

        def broken(game_id):
            raise StoreError("the disk went away")

        monkeypatch.setattr(log, "action_times", broken)
        screen.draw(logged.state)
        screen.show_charts = True  # as SELECT sets it
        view = screen.draw(logged.state)
        assert not screen.show_charts
        assert screen.message == "no charts: the disk went away"
        assert view.banner.name == "WINNER"


def test_the_charts_show_each_players_final_score_in_figures(window, tmp_path):
    """Beside the race, each player's score at the end of the game, in figures read across
    the table; the winner's in the winner's yellow."""
    from zonkcam.display.draw import ACCENT, TEXT

    with EventLog(tmp_path / "g.sqlite3") as log:
        logged = LoggedGame.new(log, RULES, [A.Players(("Ann", "Bob"))])
        play_a_game(logged)
        screen = GameScreen(window, sounds=Sounds(muted=True))
        app = TableApp(logged, watcher=None, screen=screen, say=lambda line: None)
        screen.draw(logged.state)
        press(pygame.K_s)
        for command in screen.commands():
            app.handle(command)
        assert screen.show_charts
        screen.draw(logged.state)
    painter, surface = screen.painter, window.surface
    scores = {p.name: p.score for p in logged.state.players}
    assert scores == {"Ann": 3000, "Bob": 1000}
    drawn = {t.text: t for t in painter.texts if not t.label}
    for name, colour in (("Ann", ACCENT), ("Bob", TEXT)):
        score = drawn[f"{scores[name]:,}"]
        assert score.rect.h >= 28 and score.color == colour
        assert find_text(surface, painter, f"{scores[name]:,}") is not None
        assert abs(score.rect.centery - drawn[name].rect.centery) < 8  # on the name's line
