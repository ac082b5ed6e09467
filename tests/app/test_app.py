"""The table app end to end on the demo table: camera frames to scores, buttons on GPIO.

The dice are read by a stand-in that reports what the demo table drew (so a game takes
seconds, not minutes); test_table_reader.py runs the learned reader on the demo table.
"""

from __future__ import annotations

import dataclasses

import cv2
import pytest

from zonkcam.advisor.advice import Advisor
from zonkcam.app.demo import DemoDriver
from zonkcam.app.loop import TableApp
from zonkcam.app.main import demo_table
from zonkcam.app.players import AutoPlayer
from zonkcam.controls import DRUNK, Control, Press
from zonkcam.display.game_screen import GameScreen
from zonkcam.display.sounds import Sounds
from zonkcam.display.window import Window
from zonkcam.game import PRESETS, Game, parse_dice
from zonkcam.game import actions as A
from zonkcam.hardware.buttons import ArcadeButtons, ButtonPins
from zonkcam.mat.calibrate import calibrate
from zonkcam.record.logged_game import LoggedGame
from zonkcam.record.photos import RollPhotos, photo_folder
from zonkcam.record.store import EventLog
from zonkcam.record.win_tables import cached_advisor
from zonkcam.sources import Opened
from zonkcam.table.observe import TableWatcher
from zonkcam.testing import TruthReader


def play_demo(rules, tmp_path, *, seed=1, press_pins=None, max_frames=4000):
    table = demo_table(seed)
    first = table.read()
    reader = TruthReader(table)
    log = EventLog(tmp_path / "games.sqlite3")
    logged = LoggedGame.new(log, rules)
    logged.play(A.Players(("Ann", "Bob")))
    window = Window.open((800, 480), screenshots=tmp_path / "shots")
    buttons = None
    press = None
    if press_pins is not None:
        buttons = ArcadeButtons(ButtonPins(), pin_factory=press_pins, lockout=0.0, settle=0.0)
        pins = {Control.BANK: 17, Control.ROLL: 27, Control.SELECT: 22}

        def press(command: Press) -> None:
            pin = press_pins.pin(pins[command.kind])
            pin.drive_low()
            pin.drive_high()

    screen = GameScreen(window, buttons=buttons, sounds=Sounds(muted=True))
    lines: list[str] = []
    app = TableApp(
        logged,
        TableWatcher(calibrate(first.image, table.geometry), reader),
        screen,
        DemoDriver(table, AutoPlayer(cached_advisor()), press=press),
        say=lines.append,
    )
    frames = 0
    while not logged.state.finished and frames < max_frames:
        app.tick(table.read())
        frames += 1
    return app, log, window, lines


@pytest.mark.slow
def test_whole_demo_game_with_gpio_buttons_scores_like_the_engine(tmp_path, mock_pins):
    rules = dataclasses.replace(PRESETS["chicago"], target=1500)
    app, log, window, lines = play_demo(rules, tmp_path, press_pins=mock_pins)
    state = app.logged.state
    assert state.finished and state.winner in ("Ann", "Bob")
    # the engine fed the same rolls and keeps directly, and the log on disk, agree
    direct = Game(rules, app.logged.game.events).state
    assert [p.score for p in direct.players] == [p.score for p in state.players]
    stored = Game(log.rules(app.logged.game_id), log.actions(app.logged.game_id)).state
    assert stored.to_json() == state.to_json()
    banks = [line for line in state.log if " banks " in line]
    assert banks  # BANK came through the mocked GPIO buttons
    assert any(line.endswith(" wins") for line in lines)
    shots = sorted((tmp_path / "shots" / f"game-{app.logged.game_id:04d}").glob("turn-*.png"))
    assert len(shots) == app.turns > 0
    window.close()
    log.close()


@pytest.mark.slow
def test_every_roll_matches_what_the_table_drew(tmp_path):
    rules = dataclasses.replace(PRESETS["classic-10000"], target=1000, entry_minimum=300)
    app, log, window, _ = play_demo(rules, tmp_path, seed=5)
    rolls = [e for e in app.logged.game.events if isinstance(e, A.Roll)]
    assert len(rolls) >= 5
    assert app.logged.state.finished
    window.close()
    log.close()


def test_a_misread_die_is_corrected_by_tap_and_digit(tmp_path):
    rules = PRESETS["classic-10000"]
    table = demo_table(3)
    first = table.read()
    reader = TruthReader(table)
    with EventLog(tmp_path / "g.db") as log:
        logged = LoggedGame.new(log, rules)
        logged.play(A.Players(("Ann", "Bob")))
        app = TableApp(
            logged,
            TableWatcher(calibrate(first.image, table.geometry), reader),
            say=lambda line: None,
        )
        table.throw([2, 3, 4, 6, 6])  # the scorekeeper sees that the 2 is really a 1
        while table.busy:
            app.tick(table.read())
        assert app.logged.state.log[-1] == "Ann zonks"  # as read: a 2 where a 1 lies
        index = next(i for i, d in enumerate(app.last_settled.dice) if d.value == 2)
        app.handle(Press(Control.TAP_DIE, index))
        app.handle(Press(Control.DIGIT, 1))
        state = app.logged.state
        assert state.player.name == "Ann" and state.turn.score.best.points == 100
        assert sorted(d.value for d in state.turn.roll) == [1, 3, 4, 6, 6]
        kinds = [type(e).__name__ for e in log.actions(logged.game_id)]
        assert kinds[-3:] == ["Roll", "Undo", "Roll"]  # the correction is in the log
        # both keep the colours read, for the night's review to follow each die by
        read, _, fixed = log.actions(logged.game_id)[-3:]
        assert len(fixed.seen) == 5 and all(fixed.seen) and fixed.seen == read.seen


def test_every_roll_read_keeps_its_photo_and_the_screen_shows_it(tmp_path):
    rules = PRESETS["classic-10000"]
    table = demo_table(3)
    first = table.read()
    with EventLog(tmp_path / "g.db") as log:
        logged = LoggedGame.new(log, rules)
        logged.play(A.Players(("Ann", "Bob")))
        photos = RollPhotos(photo_folder(log.path))
        window = Window.open((800, 480), screenshots=tmp_path / "shots")
        screen = GameScreen(window, sounds=Sounds(muted=True))
        app = TableApp(
            logged,
            TableWatcher(calibrate(first.image, table.geometry), TruthReader(table)),
            screen,
            say=lambda line: None,
            photos=photos,
        )
        app.tick(first)
        app.handle(Press(Control.PHOTO))
        assert screen.photo is None and "no photo" in screen.message
        table.throw([2, 3, 4, 6, 6])
        while table.busy:
            app.tick(table.read())
        index = next(i for i, d in enumerate(app.last_settled.dice) if d.value == 2)
        app.handle(Press(Control.TAP_DIE, index))
        app.handle(Press(Control.DIGIT, 1))
        photos.wait()
        shots = photos.of_game(logged.game_id)
        stored = log.actions(logged.game_id)
        # the roll as read and the corrected roll, each beside its place in the log
        assert [seq for seq, _ in shots] == [
            k + 1 for k, a in enumerate(stored) if isinstance(a, A.Roll)
        ]
        image = cv2.imread(str(shots[-1][1]))
        assert image is not None and image.shape[1] == 640
        app.handle(Press(Control.PHOTO))
        assert screen.photo is not None and f"action {shots[-1][0]}" in screen.photo[1]
        app.tick(table.read())  # drawn instead of the game
        app.handle(Press(Control.PHOTO))
        assert screen.photo is None
        window.close()


def _app_at_decision(tmp_path, buttons=None):
    """An app whose first player has thrown 1 1 1 5 2 (a keep is waiting)."""
    table = demo_table(4)
    first = table.read()
    log = EventLog(tmp_path / "g.db")
    logged = LoggedGame.new(log, PRESETS["chicago"])
    logged.play(A.Players(("Ann", "Bob", "Cy")))
    window = Window.open((800, 480), screenshots=tmp_path / "shots")
    screen = GameScreen(window, buttons=buttons, sounds=Sounds(muted=True))
    lines: list[str] = []
    app = TableApp(
        logged,
        TableWatcher(calibrate(first.image, table.geometry), TruthReader(table)),
        screen,
        say=lines.append,
    )
    table.throw([1, 1, 1, 5, 2])
    while table.busy:
        app.tick(table.read())
    return app, table, log, window, lines


def test_the_last_players_dice_lose_their_values_when_the_turn_passes(tmp_path):
    app, table, log, window, _ = _app_at_decision(tmp_path)
    painter = app.screen.painter

    def on_camera() -> list[str]:
        """The values written on the camera view (the ZONK banner over it aside)."""
        camera = painter.layout.camera
        return sorted(t.text for t in painter.texts if camera.contains(t.rect) and t.text.isdigit())

    app.tick(table.read())
    assert on_camera() == ["1", "1", "1", "2", "5"]  # Ann's roll, under Ann's name
    app.handle(Press(Control.BANK))
    app.tick(table.read())
    assert app.logged.state.player.name == "Bob"
    assert on_camera() == []  # Ann's dice still lie there: no values under Bob's name
    assert app.screen.view.dice and all(d.earlier_turn for d in app.screen.view.dice)
    assert painter.faces == []  # Bob has thrown nothing yet
    table.throw([2, 3, 4, 6, 6])  # Bob zonks: the turn passes to Cy
    while table.busy:
        app.tick(table.read())
    assert app.logged.state.player.name == "Cy"
    assert on_camera() == []
    view = app.screen.view  # a misread zonk is still put right with a tap on its die
    k = next(i for i, d in enumerate(view.dice) if d.die.value == 2)
    tapped = painter.tapped_die(painter.camera_fit.to_screen(view.dice[k].die.bbox).center, view)
    assert tapped == k
    app.handle(Press(Control.TAP_DIE, tapped))
    app.handle(Press(Control.DIGIT, 1))
    app.tick(table.read())
    assert app.logged.state.player.name == "Bob"  # his turn again, with a 1 to keep
    assert on_camera() == ["1", "3", "4", "6", "6"]
    assert sorted(f.value for f in painter.faces) == [1, 3, 4, 6, 6]
    window.close()
    log.close()


def test_a_bouncing_bank_button_banks_once_and_skips_nobody(tmp_path, mock_pins):
    now = [100.0]
    buttons = ArcadeButtons(ButtonPins(), pin_factory=mock_pins, clock=lambda: now[0])
    app, table, log, window, lines = _app_at_decision(tmp_path, buttons)
    assert app.logged.state.player.name == "Ann"
    bank = mock_pins.pin(17)
    for _ in range(6):  # contact bounce: several closures within a few milliseconds
        bank.drive_low()
        now[0] += 0.002
        bank.drive_high()
        now[0] += 0.002
    bank.drive_low()  # and then held down a while (a press, not the 0.8 s hold)
    for _ in range(10):
        now[0] += 0.03
        app.tick(table.read())
    for _ in range(4):  # a bouncing release
        bank.drive_high()
        now[0] += 0.002
        bank.drive_low()
        now[0] += 0.002
    bank.drive_high()
    for _ in range(5):
        now[0] += 0.03
        app.tick(table.read())
    state = app.logged.state
    assert sum(" banks " in line for line in state.log) == 1
    assert state.player.name == "Bob"  # the next player, not the one after
    assert [p.score for p in state.players] == [1050, 0, 0]
    window.close()
    log.close()


def test_a_vanished_camera_is_shown_and_the_game_stays(tmp_path):
    from zonkcam.sources import CameraProblem

    app, table, log, window, lines = _app_at_decision(tmp_path)
    before = app.logged.state.to_json()
    app.tick(CameraProblem("the Pi camera stopped: gone", 0.5))
    assert "camera: the Pi camera stopped" in app.screen.message
    assert app.logged.state.to_json() == before
    app.tick(table.read())  # frames again
    assert app.screen.message == "camera is back"
    app.tick(CameraProblem("cannot open the Pi camera", 8.0, lost=True))
    assert app.screen.message == "camera lost: cannot open the Pi camera (trying again in 8 s)"
    assert app.logged.state.to_json() == before
    window.close()
    log.close()


def test_set_up_screens_resume_or_seat_a_new_game(tmp_path):
    import pygame

    from zonkcam.app.main import set_up_on_screen

    def key(k, text=""):
        return pygame.event.Event(pygame.KEYDOWN, key=k, unicode=text)

    def typed(word):
        return [key(pygame.key.key_code(c), c) for c in word]

    with (
        EventLog(tmp_path / "g.db") as log,
        Window.open((800, 480), screenshots=tmp_path / "shots") as window,
    ):
        ui = GameScreen(window, sounds=Sounds(muted=True))
        script = [
            [key(pygame.K_DOWN)],
            [key(pygame.K_RETURN)],  # rules: the 2nd table
            typed("Ann"),
            [key(pygame.K_RETURN)],
            typed("Bob"),
            [key(pygame.K_RETURN)],
            [key(pygame.K_RETURN)],
        ]  # an empty line starts the game
        window.events = lambda: script.pop(0) if script else []
        logged = set_up_on_screen(log, ui, [])
        assert logged.state.rules.name == "all-johnnys"
        assert [p.name for p in logged.state.players] == ["Ann", "Bob"]
        unfinished = [g for g in log.games() if not g.finished]
        script = [[key(pygame.K_RETURN)]]  # the first offer: resume that game
        window.events = lambda: script.pop(0) if script else []
        again = set_up_on_screen(log, ui, unfinished)
        assert again.game_id == logged.game_id
        script = [[key(pygame.K_ESCAPE)]]
        window.events = lambda: script.pop(0) if script else []
        assert set_up_on_screen(log, ui, []) is None  # Esc leaves


def test_scorekeeper_enters_spaced_and_choose_from_the_keyboard(tmp_path):
    table = demo_table(6)
    first = table.read()
    with EventLog(tmp_path / "g.db") as log:
        logged = LoggedGame.new(log, PRESETS["drinking"])
        logged.play(A.Players(("Ann", "Bob", "Cy")))
        app = TableApp(
            logged,
            TableWatcher(calibrate(first.image, table.geometry), TruthReader(table)),
            say=lambda line: None,
        )
        app.handle(Press(Control.SPACED))
        app.handle(Press(Control.DIGIT, 3))
        cy = app.logged.state.players[2]
        assert cy.spaced == 1 and cy.drinks == 1
        table.throw([1, 5, 2, 3, 4])
        while table.busy:
            app.tick(table.read())
        app.handle(Press(Control.CHOOSE))
        app.handle(Press(Control.DIGIT, 2))
        assert app.logged.state.players[1].drinks == 1
        assert app.logged.state.log[-1] == "DRINK CHOOSE: Player 2 drinks"  # no zonk names yet
        # d, then the player's number: their drinks due are drunk; d 0: everyone's
        app.handle(Press(Control.DRANK))
        app.handle(Press(Control.DIGIT, 2))
        assert [p.drinks_due for p in app.logged.state.players] == [0, 0, 1]
        app.handle(Press(Control.DRANK))
        app.handle(Press(Control.DIGIT, 0))
        assert app.logged.state.log[-1] == "DRUNK: Player 3 1"
        app.play(A.Land("social"))
        app.handle(Press(Control.DRUNK))  # ROLL held
        assert [p.drinks_due for p in app.logged.state.players] == [0, 0, 0]


def test_roll_held_settles_drinks_then_hand_outs_then_rules_and_keys_name_who(tmp_path):
    table = demo_table(6)
    first = table.read()
    run = [A.Roll(parse_dice([1, 2, 3, 4, 5])), A.Keep((1, 2, 3, 4, 5))]
    with EventLog(tmp_path / "g.db") as log:
        logged = LoggedGame.new(log, PRESETS["drinking"])
        for action in [
            A.Players(("Ann", "Bob", "Cy")),
            *run,
            A.Roll(parse_dice([5, 2, 3, 4, 6])),
            A.Bank(),  # Ann: 1,550, 3 drinks to hand out and a rule to make
            A.Roll(parse_dice([1, 2, 3, 4, 6])),
            A.Land("social"),
        ]:
            logged.play(action)
        app = TableApp(
            logged,
            TableWatcher(calibrate(first.image, table.geometry), TruthReader(table)),
            say=lambda line: None,
        )

        def owed():
            return [(p.drinks_due, p.handouts_due, p.rules_due) for p in app.logged.state.players]

        assert owed() == [(1, 3, 1), (1, 0, 0), (1, 0, 0)]
        app.handle(DRUNK)  # ROLL held: the drinks first
        assert owed() == [(0, 3, 1), (0, 0, 0), (0, 0, 0)]
        app.handle(DRUNK)  # then the hand-outs
        assert owed() == [(0, 0, 1), (0, 0, 0), (0, 0, 0)]
        assert app.logged.state.log[-1] == "HANDED OUT: Player 1 3"
        app.handle(Press(Control.UNDO))
        app.handle(Press(Control.HANDED))  # h, then the player's number
        app.handle(Press(Control.DIGIT, 1))
        assert owed()[0] == (0, 0, 1)
        app.handle(Press(Control.RULED))  # n, then 0: everyone's
        app.handle(Press(Control.DIGIT, 0))
        assert owed()[0] == (0, 0, 0) and app.logged.state.log[-1] == "RULES MADE: Player 1 1"
        app.handle(Press(Control.UNDO))
        app.handle(DRUNK)  # and last the rules to make
        assert owed()[0] == (0, 0, 0)
        app.handle(DRUNK)
        assert owed()[0] == (0, 0, 0)  # nothing owed: refused, nothing changes
        events = [A.action_to_json(a) for a in log.actions(logged.game_id)]
        assert {"handed": "Ann"} in events and {"ruled": True} in events


def test_a_confirm_bar_outside_0_to_1_is_refused_before_the_camera_opens(capsys, monkeypatch):
    from zonkcam import cli
    from zonkcam.app import main as app_main

    def no_camera(*_a, **_k):
        raise AssertionError("the camera was opened")

    monkeypatch.setattr(app_main, "open_table", no_camera)
    assert cli.main(["play", "--source", "demo", "--confirm-below", "1.5"]) == 2
    assert "--confirm-below 1.5: give a confidence from 0 to 1" in capsys.readouterr().err


def test_an_action_the_log_cannot_save_is_a_message_not_a_crash(tmp_path, monkeypatch):
    from zonkcam.record.store import StoreError

    app, table, log, window, lines = _app_at_decision(tmp_path)
    events = list(app.logged.game.events)

    def full(*args, **kw):
        raise StoreError(f"cannot write the game log {log.path}: the disk is full")

    monkeypatch.setattr(app.logged.log, "append", full)
    assert not app.play(A.Bank())
    assert app.logged.game.events == events  # nothing changed
    assert "the disk is full" in app.screen.message and "the disk is full" in lines[-1]
    window.close()
    log.close()


def test_the_demo_never_plays_a_game_people_played(tmp_path, capsys, monkeypatch):
    # without a camera `play --resume 1` started the demo table, and its automatic players
    # played on the saved game: 4 actions became 75
    from zonkcam import cli, sources

    monkeypatch.setattr(sources, "picamera2_available", lambda: False)  # no camera here
    db = tmp_path / "res.sqlite3"
    with EventLog(db) as log:
        logged = LoggedGame.new(log, PRESETS["classic-10000"], [A.Players(("Ann", "Bob"))])
        for action in (A.Roll(parse_dice([1, 1, 1, 2, 3])), A.Keep((1, 1, 1)), A.Bank()):
            logged.play(action)
    for which in (["1"], []):
        assert cli.main(["play", "--resume", *which, "--db", str(db)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "game 1 is played by people" in err
        assert f"zonkcam play --text --db {db} --resume 1" in err
    with EventLog(db) as log:
        assert len(log.actions(1)) == 4 and not log.games()[0].demo


def test_a_camera_table_never_comes_back_to_a_demo_game(tmp_path):
    import argparse

    from zonkcam.app.main import first_game

    with EventLog(tmp_path / "g.db") as log:
        demo = LoggedGame.new(log, PRESETS["chicago"], [A.Players(("Ann", "Bob"))], demo=True)
        assert log.games()[0].demo and LoggedGame.resume(log, demo.game_id).demo
        args = argparse.Namespace(resume=None, players=["Di", "Ed"], rules="drinking", new=False)
        ui = argparse.Namespace(window=argparse.Namespace(headless=True))
        logged = first_game(log, args, False, ui)
        assert logged.game_id != demo.game_id and not logged.demo
        assert [p.name for p in logged.state.players] == ["Di", "Ed"]


def test_the_headless_demo_plays_a_short_game_named_so():
    from zonkcam.app.main import headless_demo_rules

    short = headless_demo_rules(PRESETS["classic-10000"])
    assert (short.name, short.target) == ("classic-10000, demo to 3,000", 3000)
    johnnys = headless_demo_rules(PRESETS["all-johnnys"])
    assert (johnnys.name, johnnys.turns) == ("all-johnnys, demo 5 turns", 5)
    assert headless_demo_rules(short) == short


def test_without_anyone_watching_only_the_frames_saved_are_drawn(tmp_path):
    table = demo_table(2)
    first = table.read()
    drawn = []
    with (
        EventLog(tmp_path / "g.db") as log,
        Window.open((800, 480), screenshots=tmp_path / "shots") as window,
    ):
        logged = LoggedGame.new(log, PRESETS["chicago"], [A.Players(("Ann", "Bob"))])
        for unwatched in (False, True):
            screen = GameScreen(window, sounds=Sounds(muted=True))
            screen.draw = lambda *a, **k: (drawn.append(unwatched), window.show())  # noqa: B023
            app = TableApp(
                logged,
                TableWatcher(calibrate(first.image, table.geometry), TruthReader(table)),
                screen,
                say=lambda line: None,
                unwatched=unwatched,
            )
            window._last_shot, window.clock = None, lambda: 0.0
            for _ in range(20):  # within a second: one screen.png is due
                app.tick(table.read())
            app.play(A.Roll(parse_dice([2, 3, 4, 6, 6])))  # a turn ends: its screenshot
            app.tick(table.read())
    assert drawn.count(False) == 21 and drawn.count(True) == 2


def test_play_ends_with_exit_status_1_when_its_file_source_is_given_up(
    tmp_path, capsys, monkeypatch
):
    """A camera is tried for as long as the table runs; a file or folder that stops giving
    frames is given up after three tries, the game saved and the way back printed."""
    from zonkcam import cli
    from zonkcam.app import camera as app_camera
    from zonkcam.sim.demo_table import DemoTable
    from zonkcam.sources import CameraError

    table = DemoTable(seed=3, autoplay=False, size=(640, 480))
    first = table.read()
    calibrate(first.image, table.geometry).save(tmp_path / "cal.toml")
    folder = str(tmp_path / "frames")

    class PulledCard:
        name, fps, spec = f"folder {folder}", 30.0, folder

        def __init__(self):
            self.frames = [first] * 3

        def read(self):
            if self.frames:
                return self.frames.pop()
            raise CameraError("the card was pulled")

        def close(self):
            pass

    opened = []

    def open_source(spec, **kw):
        opened.append(spec)
        if len(opened) > 1:
            raise CameraError(f"no folder {spec}")
        return Opened(PulledCard())

    monkeypatch.setattr(app_camera, "open_spec", open_source)
    monkeypatch.setattr("time.sleep", lambda s: None)
    db = tmp_path / "g.sqlite3"
    argv = ["play", "--source", folder, "--calibration", str(tmp_path / "cal.toml")]
    argv += ["--players", "Ann", "Bob", "--db", str(db), "--screenshots", str(tmp_path / "s")]
    assert cli.main(argv) == 1
    err = capsys.readouterr().err.splitlines()[-1]
    assert err.startswith(f"zonkcam: folder {folder}: no folder {folder} (failed 3 times in a")
    assert f"game 1 is saved: go on with zonkcam play --db {db} --resume 1" in err
    assert opened == [folder] * 3
    with EventLog(db) as log:
        assert log.games()[0].players == ("Ann", "Bob")


def test_roll_on_the_game_over_screen_asks_for_a_new_game(tmp_path):
    """One press: ROLL after the game is over wants a new game with the same players (the
    app starts it, app.main); it plays nothing in the finished game."""
    from zonkcam.app.games import new_game

    rules = dataclasses.replace(PRESETS["classic-10000"], target=1000, end="instant")
    with EventLog(tmp_path / "g.sqlite3") as log:
        logged = LoggedGame.new(log, rules, [A.Players(("Ann", "Bob"))])
        logged.play(A.Roll(parse_dice([1, 1, 1, 2, 3])))
        logged.play(A.Bank())
        assert logged.state.finished
        app = TableApp(logged, watcher=None, say=lambda line: None)
        events = list(logged.game.events)
        app.handle(Press(Control.ROLL))
        assert app.new_game_wanted and logged.game.events == events
        app.next_game(new_game(log, rules, ["Ann", "Bob"]))
        assert not app.new_game_wanted and not app.logged.state.finished
        assert [p.name for p in app.logged.state.players] == ["Ann", "Bob"]


class ScriptedButtons:
    """The three buttons as a stand-in: each call to ``commands`` gives the next presses."""

    def __init__(self, *presses):
        self.script = [list(p) for p in presses]

    def commands(self):
        return self.script.pop(0) if self.script else []


def _game_over(log, rules, players, demo=False):
    logged = LoggedGame.new(log, rules, [A.Players(players)], demo=demo)
    logged.play(A.Roll(parse_dice([1, 1, 1, 2, 3])))
    logged.play(A.Bank())
    assert logged.state.finished
    return logged


def test_bank_on_the_game_over_screen_asks_for_new_players(tmp_path):
    """BANK after the game is over wants the players seated anew (app.main shows the
    set-up screen); it plays nothing in the finished game."""
    rules = dataclasses.replace(PRESETS["classic-10000"], target=1000, end="instant")
    with EventLog(tmp_path / "g.sqlite3") as log:
        logged = _game_over(log, rules, ("Ann", "Bob"))
        app = TableApp(logged, watcher=None, say=lambda line: None)
        events = list(logged.game.events)
        app.handle(Press(Control.BANK))
        assert app.players_wanted and not app.new_game_wanted
        assert logged.game.events == events and not app.screen


def test_after_a_game_the_buttons_alone_seat_the_next_one(tmp_path, monkeypatch, capsys):
    """The whole app: BANK on the game-over screen, then with the buttons only: Ann
    leaves, Di and Cy (from the games before) join, Cy moves to throw first; the next
    game is stored with them in that order."""
    from zonkcam import cli
    from zonkcam.controls import BANK, ROLL, SELECT

    rules = dataclasses.replace(PRESETS["chicago"], target=1000, end="instant")
    db = tmp_path / "g.sqlite3"
    with EventLog(db) as log:
        LoggedGame.new(log, rules, [A.Players(("Cy", "Di"))], demo=True)

    def game_over(log, *args, **kwargs):
        return _game_over(log, rules, ("Ann", "Bob"), demo=True)

    back = Press(Control.BACK)
    buttons = ScriptedButtons(
        [BANK],  # the game-over screen: new players
        [SELECT, BANK],  # Ann lit and removed
        [SELECT, ROLL],  # "+ Add a player": the names played before
        [SELECT, SELECT, ROLL],  # Di (Ann, Cy, Di, Player 1)
        [back, ROLL, BANK],  # Cy; done adding
        [SELECT, SELECT, SELECT, ROLL, SELECT, ROLL],  # Cy picked up, moved to the top
        [back, ROLL],  # "Start the game"
        [Press(Control.QUIT)],  # the next game is on: leave
    )
    monkeypatch.setattr("zonkcam.app.main.first_game", game_over)
    monkeypatch.setattr("zonkcam.app.main.on_a_pi", lambda: True)
    monkeypatch.setattr("zonkcam.app.main.open_buttons", lambda pins: buttons)
    monkeypatch.setattr("time.sleep", lambda s: None)
    argv = ["play", "--source", "demo", "--db", str(db), "--screenshots", str(tmp_path / "s")]
    assert cli.main(argv) == 0
    assert "Game 3: chicago, Cy, Bob, Di" in capsys.readouterr().out
    with EventLog(db) as log:
        assert log.games()[-1].players == ("Cy", "Bob", "Di")


def test_after_a_game_the_keyboard_seats_the_next_one_or_goes_back(tmp_path):
    import pygame

    from zonkcam.app.main import players_on_screen

    def key(k, text=""):
        return pygame.event.Event(pygame.KEYDOWN, key=k, unicode=text)

    rules = dataclasses.replace(PRESETS["classic-10000"], target=1000, end="instant")
    with (
        EventLog(tmp_path / "g.sqlite3") as log,
        Window.open((800, 480), screenshots=tmp_path / "shots") as window,
    ):
        over = _game_over(log, rules, ("Ann", "Bob")).state
        ui = GameScreen(window, sounds=Sounds(muted=True))
        script = [
            [key(pygame.K_DOWN), key(pygame.K_BACKSPACE)],  # Ann lit and removed
            [key(pygame.K_e, "E"), key(pygame.K_v, "v"), key(pygame.K_e, "e")],
            [key(pygame.K_RETURN), key(pygame.K_RETURN)],  # Eve joins; start
        ]
        window.events = lambda: script.pop(0) if script else []
        seat = players_on_screen(log, ui, over)
        assert seat.players == ["Bob", "Eve"] and not seat.went_back
        assert not ui.show_charts and not ui.keyboard.text_mode
        script = [[key(pygame.K_ESCAPE)]]
        assert players_on_screen(log, ui, over) is None  # Esc leaves the app
        script = [[key(pygame.K_DELETE)]]  # BANK: "back to the game"
        seat = players_on_screen(log, ui, over)
        assert seat.went_back and seat.players == ["Ann", "Bob"]


def test_the_names_played_before_come_from_the_log_latest_first(tmp_path):
    from zonkcam.app.games import past_players, past_zonk_names
    from zonkcam.app.main import seating

    drinking = PRESETS["drinking"]
    with EventLog(tmp_path / "g.sqlite3") as log:
        LoggedGame.new(log, drinking, seating(["Ann", "Bob"], {"Ann": "Noodle", "Bob": "Tiger"}))
        LoggedGame.new(log, PRESETS["chicago"], [A.Players(("Zed",))], demo=True)
        LoggedGame.new(log, drinking, seating(["Cy", "ann"], {"Cy": "Lucky", "ann": "Boss"}))
        assert past_players(log) == ["Cy", "ann", "Bob"]  # one Ann, as last seated
        assert past_players(log, demo=True) == ["Zed"]
        assert past_zonk_names(log) == [
            ("ann", "Boss"),
            ("Cy", "Lucky"),
            ("Bob", "Tiger"),
            ("Ann", "Noodle"),
        ]


def test_the_demo_names_its_players_and_the_next_game_keeps_the_zonk_names(tmp_path):
    from zonkcam.app.main import demo_zonk_names, seated_again

    game = Game(PRESETS["drinking"], demo_zonk_names(["Ann", "Bob", "Cy"]))
    shown = [game.state.shown_name(p) for p in game.state.players]
    assert len(set(shown)) == 3 and not {"Ann", "Bob", "Cy"} & set(shown)
    with EventLog(tmp_path / "g.sqlite3") as log:
        again = seated_again(log, game.state, demo=False)
        assert [again.state.shown_name(p) for p in again.state.players] == shown
        assert [p.name for p in again.state.players] == ["Ann", "Bob", "Cy"]


def test_each_games_turn_screenshots_go_to_a_folder_of_its_own(tmp_path):
    """Headless, a screenshot per turn: game-0001/turn-0001.png...; the next game starts
    at turn-0001 in its own folder, and a resumed game goes on from its own turns."""
    from zonkcam.app.games import new_game
    from zonkcam.sources import CameraProblem

    rules = dataclasses.replace(PRESETS["classic-10000"], target=1000, end="instant")
    shots = tmp_path / "shots"
    nothing = CameraProblem("no camera here", 0.0, repeat=True)

    def turn(app, roll, bank=False):
        app.play(A.Roll(parse_dice(roll)))
        if bank:
            app.play(A.Bank())
        app.tick(nothing)

    with (
        EventLog(tmp_path / "g.sqlite3") as log,
        Window.open((800, 480), screenshots=shots) as window,
    ):
        screen = GameScreen(window, sounds=Sounds(muted=True))
        logged = LoggedGame.new(log, rules, [A.Players(("Ann", "Bob"))])
        app = TableApp(logged, watcher=None, screen=screen, say=lambda line: None)
        turn(app, [2, 3, 4, 6, 6])  # Ann zonks
        turn(app, [1, 1, 1, 2, 3], bank=True)  # Bob banks 1,000: he wins
        assert app.logged.state.finished
        app.next_game(new_game(log, rules, ["Ann", "Bob"]))
        turn(app, [2, 3, 4, 6, 6])
        second = app.logged.game_id
        again = TableApp(
            LoggedGame.resume(log, second), watcher=None, screen=screen, say=lambda line: None
        )
        turn(again, [2, 3, 4, 6, 6])
    found = sorted(p.relative_to(shots).as_posix() for p in shots.rglob("turn-*.png"))
    assert found == [
        "game-0001/turn-0001.png",
        "game-0001/turn-0002.png",
        f"game-{second:04d}/turn-0001.png",
        f"game-{second:04d}/turn-0002.png",
    ]


def test_the_app_hands_one_advisor_to_the_odds_panel_and_the_demo_players(tmp_path, monkeypatch):
    from zonkcam import cli
    from zonkcam.app import main as app_main

    class Started(Exception):
        """Raised where the app starts its loop: what it was handed is all this test needs."""

    made: list[Advisor] = []
    handed = {}

    def table_app(logged, watcher, screen, driver, **kwargs):
        handed.update(screen=screen, driver=driver)
        raise Started

    monkeypatch.setattr(app_main, "cached_advisor", lambda: made.append(Advisor()) or made[-1])
    monkeypatch.setattr(app_main, "TableApp", table_app)
    argv = ["play", "--source", "demo", "--db", str(tmp_path / "g.db"), "--games", "1"]
    with pytest.raises(Started):
        cli.main([*argv, "--screenshots", str(tmp_path / "shots"), "--mute"])
    assert len(made) == 1
    assert handed["screen"].odds._advisor is made[0]
    assert handed["driver"].player.advisor is made[0]


def test_the_headless_demo_with_a_calibration_of_another_shape_stops_in_one_line(tmp_path):
    """A calibration made on frames of another shape (another view) cannot be scaled to
    the demo's 640x480 frames: one line and nothing played, never a game that loops on
    "recalibrate" for ever."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    from zonkcam.app.main import APP_DEMO
    from zonkcam.sim.demo_table import DemoTable

    table = DemoTable(seed=3, **APP_DEMO)
    cal = calibrate(table.read().image, table.geometry)
    dataclasses.replace(cal, image_size=(960, 540)).save(tmp_path / "cal.json")
    db = tmp_path / "g.sqlite3"
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    env["PYTHONPATH"] = str(Path(__file__).parents[2])
    argv = ["play", "--source", "demo", "--calibration", str(tmp_path / "cal.json")]
    argv += ["--games", "1", "--fast", "--db", str(db), "--screenshots", str(tmp_path / "s")]
    done = subprocess.run(
        [sys.executable, "-m", "zonkcam", *argv],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == (
        f"zonkcam play: demo table gives 640x480 frames but the calibration "
        f"{tmp_path / 'cal.json'} was made on 960x540 ones, another shape (another view): "
        "recalibrate (zonkcam calibrate)\n"
    )
    assert not db.exists()


@pytest.mark.parametrize(
    ("size", "wanted"),
    [
        ((800, 450), "they are of another shape (another view): recalibrate"),
        ((320, 240), "start zonkcam again to scale the calibration to them"),
    ],
)
def test_frames_that_change_size_mid_game_stop_play_in_one_line(
    tmp_path, capsys, monkeypatch, size, wanted
):
    """The camera's picture changes size while the table runs: play stops at the first
    such frame with one line (the game saved, the way back printed) and exit status 1,
    never a line per frame."""
    from zonkcam import cli
    from zonkcam.app import camera as app_camera
    from zonkcam.sim.demo_table import DemoTable
    from zonkcam.sources import CameraError, Frame

    table = DemoTable(seed=3, autoplay=False, size=(640, 480))
    first = table.read()
    calibrate(first.image, table.geometry).save(tmp_path / "cal.toml")
    other = Frame(cv2.resize(first.image, size), 1, 0.1)
    folder = str(tmp_path / "frames")

    class ChangingCamera:
        name, fps, spec, demo = f"folder {folder}", 30.0, folder, False

        def __init__(self):
            self.frames = [other] * 200 + [first] * 5

        def read(self):
            if self.frames:
                return self.frames.pop()
            raise CameraError("the card was pulled")

        def close(self):
            pass

    opened = []

    def open_source(spec, **kw):  # opened once; then the folder is gone
        opened.append(spec)
        if len(opened) > 1:
            raise CameraError(f"no folder {spec}")
        return Opened(ChangingCamera())

    monkeypatch.setattr(app_camera, "open_spec", open_source)
    monkeypatch.setattr("time.sleep", lambda s: None)
    db = tmp_path / "g.sqlite3"
    argv = ["play", "--source", folder, "--calibration", str(tmp_path / "cal.toml")]
    argv += ["--players", "Ann", "Bob", "--db", str(db), "--screenshots", str(tmp_path / "s")]
    assert cli.main(argv) == 1
    out, err = capsys.readouterr()
    assert "calibration is for" not in out  # no line per frame
    last = err.splitlines()[-1]
    assert last.startswith(
        f"zonkcam: folder {folder}: the frames are {size[0]}x{size[1]} but the calibration "
        "is for 640x480: "
    )
    assert wanted in last
    assert f"game 1 is saved: go on with zonkcam play --db {db} --resume 1" in last


def test_the_headless_demo_whose_log_is_deleted_ends_with_exit_status_1(
    tmp_path, capsys, monkeypatch
):
    """The game log deleted mid-game: nothing more can be saved and nobody is at a screen
    to quit, so the demo ends at once, says where the game is kept, and exits 1."""
    from zonkcam import cli
    from zonkcam.app import main as app_main

    db = tmp_path / "g.sqlite3"
    ticks_after = []

    class DeletingApp(app_main.TableApp):
        def tick(self, item):
            if ticks_after:
                ticks_after.append(item)
                assert len(ticks_after) < 2000, "the demo plays on with its log gone"
            elif len(self.logged.game.events) >= 4:  # seated and a few actions in
                for path in tmp_path.glob("g.sqlite3*"):
                    path.unlink()
                ticks_after.append(item)
            super().tick(item)

    monkeypatch.setattr(app_main, "TableApp", DeletingApp)
    argv = ["play", "--source", "demo", "--games", "1", "--fast", "--db", str(db)]
    assert cli.main([*argv, "--screenshots", str(tmp_path / "s"), "--mute"]) == 1
    out, err = capsys.readouterr()
    assert out.count("was deleted while it was open") == 1  # said once, not every frame
    rescued = tmp_path / "g-game1-rescued.jsonl"
    assert err.splitlines()[-1] == (
        f"zonkcam: the game log {db} was deleted while it was open; this game's 4 actions "
        f"are kept in {rescued}: bring it back with zonkcam games import {rescued}"
    )
    assert len(rescued.read_text().splitlines()) == 5  # the rules and the 4 actions


@pytest.mark.slow
def test_a_log_deleted_as_the_demo_seats_its_next_game_ends_with_exit_status_1(
    tmp_path, capsys, monkeypatch
):
    """The log goes away just as a game ends: the next game is not seated on it (one line
    saying where the game is kept, and exit status 1, as in the middle of a game)."""
    from zonkcam import cli
    from zonkcam.app import main as app_main

    db = tmp_path / "g.sqlite3"

    class DeletingApp(app_main.TableApp):
        def tick(self, item):
            super().tick(item)
            if self.logged.state.finished:
                for path in tmp_path.glob("g.sqlite3*"):
                    path.unlink()

    monkeypatch.setattr(app_main, "TableApp", DeletingApp)
    argv = ["play", "--source", "demo", "--games", "2", "--fast", "--db", str(db)]
    assert cli.main([*argv, "--screenshots", str(tmp_path / "s"), "--mute"]) == 1
    out, err = capsys.readouterr()
    assert "Game 2:" not in out
    assert err.splitlines()[-1].startswith(f"zonkcam: the game log {db} was deleted while")
