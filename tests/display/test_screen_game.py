"""The game screen wired up as the app will: keys in, table actions played, banners out."""

from __future__ import annotations

import time

import pygame

from tests.display.screen_helpers import artifacts_dir, find_text, press, share_of
from tests.display.test_screen_sounds import FakeMixer
from zonkcam.advisor.advice import Advisor, Best, best_words
from zonkcam.controls import BANK, ODDS, ROLL, SELECT, Control, action_for
from zonkcam.display.banners import BannerQueue
from zonkcam.display.draw import ACCENT, SURE
from zonkcam.display.game_screen import GameScreen
from zonkcam.display.layout import layout_for
from zonkcam.display.odds_worker import OddsWorker
from zonkcam.display.sounds import Sounds
from zonkcam.game import PRESETS, Game, TableError, parse_dice
from zonkcam.game import actions as A
from zonkcam.sim.fake_table import mat_view


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def run_commands(ui, game):
    for command in ui.commands():
        action = action_for(command, game.state, ui.selected_keep)
        if action is not None:
            try:
                ui.played(game.play(action))
            except TableError as exc:
                ui.message = str(exc)


def test_select_then_roll_takes_the_selected_keep(window):
    game = Game(PRESETS["classic-10000"], [A.Players(("Ann", "Bob"))])
    game.play(A.Roll(parse_dice([1, 5, 5, 3, 1])))
    ui = GameScreen(window, sounds=Sounds(mixer=FakeMixer()))
    view = ui.draw(game.state, mat_view([1, 5, 5, 3, 1]))
    assert view.selected_keep.dice == game.state.turn.score.keeps[0].dice
    press(pygame.K_s, pygame.K_s)
    assert ui.commands() == [SELECT, SELECT]
    chosen = game.state.turn.score.keeps[2]
    assert ui.draw(game.state).selected_keep.dice == chosen.dice
    press(pygame.K_r)
    run_commands(ui, game)
    assert game.events[-1] == A.Keep(chosen.dice)
    assert game.state.turn.total == chosen.points
    assert ui.selected_keep == 0


def test_the_confirm_bar_decides_which_dice_get_a_question_mark(window):
    game = Game(PRESETS["classic-10000"], [A.Players(("Ann", "Bob"))])
    game.play(A.Roll(parse_dice([1, 5, 5, 3, 1])))
    seen = mat_view([1, 5, 5, 3, 1], confidences=[0.97, 0.95, 0.42, 0.7, 0.98])
    assert GameScreen(window, sounds=Sounds(mixer=FakeMixer())).draw(
        game.state, seen
    ).unsure_dice == (2,)  # the default bar, 0.6
    strict = GameScreen(window, sounds=Sounds(mixer=FakeMixer()), confirm_below=0.96)
    assert strict.draw(game.state, seen).unsure_dice == (1, 2, 3)


def test_a_refused_bank_is_a_message_not_a_traceback(window):
    game = Game(PRESETS["classic-10000"], [A.Players(("Ann", "Bob"))])
    game.play(A.Roll(parse_dice([5, 2, 3, 4, 4])))
    ui = GameScreen(window, sounds=Sounds(mixer=FakeMixer()))
    press(pygame.K_b)
    run_commands(ui, game)
    assert "1000" in ui.message  # not on the board yet
    assert isinstance(game.events[-1], A.Roll)  # nothing was played
    ui.draw(game.state)
    assert find_text(window.surface, ui.painter, ui.message)


def test_zonk_shows_its_banner_plays_its_sound_then_clears(window):
    clock = Clock()
    mixer = FakeMixer()
    ui = GameScreen(window, sounds=Sounds(mixer=mixer), banners=BannerQueue(2.0, clock))
    game = Game(PRESETS["classic-10000"], [A.Players(("Ann", "Bob"))])
    ui.played(game.play(A.Roll(parse_dice([2, 3, 4, 6, 6]))))
    view = ui.draw(game.state)
    assert view.banner.name == "ZONK"
    assert len(mixer.played) == 1
    banner_area = layout_for(window.size).banner
    assert share_of(window.surface, banner_area, view.banner.background) > 0.5
    clock.now = 2.5
    assert ui.draw(game.state).banner is None
    assert share_of(window.surface, banner_area, view.banner.background) == 0


def test_mute_key(window):
    ui = GameScreen(window, sounds=Sounds(mixer=FakeMixer()))
    press(pygame.K_m)
    assert [c.kind for c in ui.commands()] == [Control.MUTE]
    assert ui.sounds.muted
    game = Game(PRESETS["classic-10000"], [A.Players(("Ann",))])
    assert ui.draw(game.state).muted
    assert find_text(window.surface, ui.painter, "MUTED")


def test_buttons_and_keys_share_one_stream(window):
    class Buttons:
        def commands(self):
            return [BANK]

    ui = GameScreen(window, buttons=Buttons(), sounds=Sounds(mixer=FakeMixer()))
    press(pygame.K_r)
    assert ui.commands() == [ROLL, BANK]


def test_headless_window_saves_what_is_shown(window):
    ui = GameScreen(window, sounds=Sounds(mixer=FakeMixer()))
    game = Game(PRESETS["chicago"], [A.Players(("Ann", "Bob"))])
    ui.draw(game.state)
    saved = window.screenshots / "screen.png"
    assert saved.exists()
    assert pygame.image.load(str(saved)).get_size() == (800, 480)


# -- the odds panel -------------------------------------------------------------------------


class SlowAdvisor:
    """An advisor that takes its time: the frame must not wait for it."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.inner = Advisor()

    def advise(self, state):
        time.sleep(self.seconds)
        return self.inner.advise(state)


def test_the_odds_panel_is_off_until_asked_for_and_o_toggles_it(window):
    game = Game(PRESETS["classic-10000"], [A.Players(("Ann", "Bob"))])
    ui = GameScreen(window, sounds=Sounds(mixer=FakeMixer()), odds=OddsWorker(Advisor()))
    assert ui.draw(game.state).odds is None
    press(pygame.K_o)
    assert [c.kind for c in ui.commands()] == [Control.ODDS]
    assert ui.draw(game.state).odds is not None
    press(pygame.K_o)
    ui.commands()
    assert ui.draw(game.state).odds is None


def test_holding_bank_toggles_the_odds_panel(window):
    class Buttons:  # what ArcadeButtons gives for a held BANK (test_buttons.py)
        def commands(self):
            return [ODDS]

    ui = GameScreen(window, buttons=Buttons(), sounds=Sounds(mixer=FakeMixer()))
    ui.commands()
    assert ui.show_odds
    game = Game(PRESETS["classic-10000"], [A.Players(("Ann", "Bob"))])
    assert action_for(ODDS, game.state) is None  # it never reaches the game


def test_the_odds_panel_never_waits_for_the_advice(window):
    game = Game(PRESETS["chicago"], [A.Players(("Ann", "Bob"))])
    game.play(A.Roll(parse_dice([1, 5, 5, 3, 4])))
    worker = OddsWorker(SlowAdvisor(0.5))
    ui = GameScreen(window, sounds=Sounds(mixer=FakeMixer()), odds=worker)
    ui.show_odds = True
    start = time.perf_counter()
    view = ui.draw(game.state)
    assert time.perf_counter() - start < 0.25  # a frame, not the half second of advice
    assert view.odds is not None and not view.odds.ready
    assert find_text(window.surface, ui.painter, "working them out")
    assert worker.wait(game.state) is not None
    view = ui.draw(game.state)
    assert view.odds.ready


def test_loading_a_win_table_happens_off_the_frame(window):
    # the two-player table is read from disk the first time its rules are advised on: on
    # the odds thread, while frames go on being drawn
    loads = []

    def slow_load(rules):
        loads.append(rules.name)
        time.sleep(0.5)
        return None  # no table stored: points advice

    game = Game(PRESETS["chicago"], [A.Players(("Ann", "Bob"))])
    worker = OddsWorker(Advisor(load=slow_load))
    ui = GameScreen(window, sounds=Sounds(mixer=FakeMixer()), odds=worker)
    ui.show_odds = True
    start = time.perf_counter()
    assert not ui.draw(game.state).odds.ready
    assert time.perf_counter() - start < 0.25
    assert worker.wait(game.state) is not None and loads == ["chicago"]


def test_the_odds_panel_shows_the_advice_and_marks_the_best_keep(window, tmp_path):
    game = Game(PRESETS["chicago"], [A.Players(("Ann", "Bob"))])
    game.play(A.Roll(parse_dice([1, 5, 5, 3, 4])))
    advisor = Advisor()
    worker = OddsWorker(advisor)
    ui = GameScreen(window, sounds=Sounds(mixer=FakeMixer()), odds=worker)
    ui.show_odds = True
    advice = worker.wait(game.state)
    view = ui.draw(game.state, mat_view([1, 5, 5, 3, 4]))
    assert advice == advisor.advise(game.state)
    assert advice.best is Best.KEEP
    odds = view.odds
    highlighted = next(k for k in view.keeps if k.selected)  # the first keep: 1 5 5
    row = next(k for k in advice.keeps if k.dice == highlighted.dice)
    assert odds.ready and odds.title == f"keep 1 5 5, {row.points:,}"
    assert odds.lines == (  # each figure for the highlighted keep, saying what it is for
        f"next roll, {row.dice_left} dice: zonk {row.zonk_chance:.0%}",
        f"bank now: {row.bank:,.0f}",
        f"roll on: {row.roll:,.0f} expected",
    )
    assert odds.advised == f"advised: {best_words(advice, game.state)}: {advice.value:,.0f}"
    for line in (odds.title.upper(), *odds.lines, odds.advised):
        assert find_text(window.surface, ui.painter, line), line
    marked = [k for k in view.keeps if k.best]
    assert [k.dice for k in marked] == [advice.best_keep] and marked[0] != highlighted
    keeps = layout_for(window.size).keeps  # the advice a solid bar, the highlight an outline
    assert share_of(window.surface, keeps, SURE) > 2 * share_of(window.surface, keeps, ACCENT)
    pygame.image.save(window.surface, str(artifacts_dir(tmp_path) / "odds-panel.png"))


def test_the_odds_panel_says_why_there_is_no_bank_figure():
    from zonkcam.display.view import odds_view

    game = Game(PRESETS["classic-10000"], [A.Players(("Ann", "Bob"))])
    game.play(A.Roll(parse_dice([1, 5, 2, 3, 4])))  # Ann is not on the board (1,000)
    advice = Advisor().advise(game.state)
    view = view_for_keep(game, advice, (1,))
    assert view.lines[1] == "bank: not under 1,000"
    assert view.lines[0].startswith("next roll, 4 dice: zonk")
    game.play(A.Keep((1, 5)))
    advice = Advisor().advise(game.state)  # before the next roll: the turn as it stands
    assert odds_view(advice, game.state).lines[1] == "bank: not under 1,000"
    game.play(A.Roll(parse_dice([2, 3, 4])))  # a zonk: Bob's turn, nothing to bank yet
    lines = odds_view(Advisor().advise(game.state), game.state).lines
    assert not any(line.startswith("bank") for line in lines)


def view_for_keep(game, advice, dice):
    from zonkcam.display.view import KeepRow, odds_view

    keep = next(k for k in game.state.turn.score.keeps if k.dice == dice)
    return odds_view(advice, game.state, KeepRow(keep.dice, keep.points, (), True))


def test_banners_go_once_the_next_turn_plays(window):
    # a turn's banners (ZONK, FINAL ROUND, HAND OUT, HOT DICE, ...) stayed up while the
    # next player threw and kept; within one turn HOT DICE stays for its time
    clock = Clock()
    ui = GameScreen(window, sounds=Sounds(mixer=FakeMixer()), banners=BannerQueue(2.5, clock))
    game = Game(PRESETS["classic-10000"], [A.Players(("Ann", "Bob"))])
    ui.draw(game.state)
    ui.played(game.play(A.Roll(parse_dice([2, 3, 4, 6, 6]))))  # Ann zonks
    assert ui.draw(game.state).banner.name == "ZONK"  # until Bob acts
    clock.now = 0.5
    ui.played(game.play(A.Roll(parse_dice([1, 1, 1, 5, 5]))))  # Bob throws
    assert ui.draw(game.state).banner is None
    ui.played(game.play(A.Keep((1, 1, 1, 5, 5))))  # Bob: hot dice
    assert ui.draw(game.state).banner.name == "HOT DICE"
    clock.now = 1.0
    ui.played(game.play(A.Roll(parse_dice([1, 3, 4, 6, 6]))))  # Bob again, in his turn
    assert ui.draw(game.state).banner.name == "HOT DICE"
    ui.played(game.play(A.Bank()))  # the turn ends: its banners with it
    assert ui.draw(game.state).banner is None


def test_muted_shows_beside_the_final_round(window):
    from zonkcam.sim import scenes

    ui = GameScreen(window, sounds=Sounds(mixer=FakeMixer(), muted=True))
    ui.draw(scenes.final_round().state)
    for flag in ("FINAL ROUND", "MUTED"):
        assert find_text(window.surface, ui.painter, flag), flag  # drawn, and not covered
