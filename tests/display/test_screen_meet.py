""" "Meet the dice" on the screen: face by face, each scene taken with ROLL teaches its face;
by throws, only a confirmed throw teaches, with its fixed values."""

from __future__ import annotations

import dataclasses

import numpy as np
import pygame
import pytest

from tests.display.screen_helpers import artifacts_dir, find_text, save
from zonkcam.app.main import demo_table, meet_on_screen
from zonkcam.controls import BANK, ROLL, SELECT, UNDO, Control, Press
from zonkcam.display.draw import ACCENT
from zonkcam.display.game_screen import GameScreen
from zonkcam.display.meet import MeetFaces, MeetTheDice, Stage
from zonkcam.display.painter import Painter
from zonkcam.display.setup import MEET_THE_DICE, ChooseRules
from zonkcam.display.sounds import Sounds
from zonkcam.display.window import Window
from zonkcam.game import PRESETS
from zonkcam.mat.calibrate import calibrate
from zonkcam.table.observe import TableWatcher
from zonkcam.table.teaching import Meet, Meeting, Teacher
from zonkcam.testing import TruthReader
from zonkcam.vision import TaughtDice

QUIT = Press(Control.QUIT)


@pytest.fixture(scope="module", autouse=True)
def _pygame():
    pygame.init()
    yield


class _LearningReader:
    """Stands in for OnnxReader's teaching side (the dice come with their sights), and what it was
    taught (with the turns flag the lesson came with)."""

    def __init__(self) -> None:
        self.asking = True
        self.taught: TaughtDice | None = None
        self.turns: list[bool] = []

    def teach(self, seen, values, colours=None, turns=False):
        self.turns.append(turns)
        if self.taught is None:
            self.taught = TaughtDice()
        return self.taught.teach(np.stack([s.feature for s in seen]), list(values), colours)

    def values(self) -> list[int]:
        return sorted(self.taught.values.tolist()) if self.taught is not None else []


class _Table:
    """The demo table, its watcher and the step."""

    def __init__(self, throws: int = 3, seed: int = 4) -> None:
        self.table = demo_table(seed)
        first = self.table.read()
        self.watcher = TableWatcher(
            calibrate(first.image, self.table.geometry), TruthReader(self.table, sights=True)
        )
        self.learner = _LearningReader()
        teacher = Teacher(self.learner, None, "fp")  # type: ignore[arg-type]
        self.meet = MeetTheDice(teacher, throws)
        self.meet.frame = first.image

    def throw(self, values) -> None:
        self.table.throw(values)
        for _ in range(300):
            frame = self.table.read()
            self.meet.frame = frame.image
            for report in self.watcher.process(frame):
                self.meet.observe(report)
            if self.meet.stage is Stage.CHECK and not self.table.busy:
                return
        raise AssertionError("the throw never settled")

    def index_of(self, value: int) -> int:
        return next(i for i, d in enumerate(self.meet.dice) if d.value == value)


def _draw(meet, size=(800, 480)):
    surface = pygame.Surface(size)
    screen = Painter()
    meet.draw(surface, screen)
    return surface, screen


def test_a_confirmed_throw_teaches_its_dice_as_read(tmp_path):
    t = _Table()
    surface, screen = _draw(t.meet)
    assert find_text(surface, screen, "THROW ALL YOUR DICE")
    assert find_text(surface, screen, "throw 1 of 3")
    t.meet.handle(ROLL)  # nothing on the mat yet: nothing to confirm
    assert t.learner.taught is None and t.meet.thrown == 0
    t.throw([1, 2, 3, 4, 6])
    assert sorted(t.meet.values) == [1, 2, 3, 4, 6]
    surface, screen = _draw(t.meet)
    save(surface, artifacts_dir(tmp_path), "meet-the-dice")
    assert find_text(surface, screen, "ALL RIGHT?")
    for v in "12346":
        assert find_text(surface, screen, v)  # the row of values (and on the camera view)
    assert find_text(surface, screen, "the table knows: no taught dice")
    t.meet.handle(ROLL)
    assert t.learner.values() == [1, 2, 3, 4, 6] and t.learner.turns == [True]
    assert t.meet.taught == 5 and t.meet.thrown == 1 and t.meet.stage is Stage.THROW
    surface, screen = _draw(t.meet)
    assert find_text(surface, screen, "throw 2 of 3")
    assert find_text(surface, screen, f"the table knows: {t.meet.summary}")
    assert "5 taught examples" in t.meet.summary


def test_a_die_fixed_with_the_buttons_alone_teaches_its_fixed_value():
    t = _Table()
    t.throw([2, 2, 3, 5, 5])
    k = t.index_of(3)
    for _ in range(k + 1):
        t.meet.handle(SELECT)  # SELECT picks die 1, 2, ...
    assert t.meet.picked == k
    t.meet.handle(BANK)  # 3 -> 4
    t.meet.handle(BANK)  # 4 -> 5
    t.meet.handle(ROLL)
    assert t.learner.values() == [2, 2, 5, 5, 5]


def test_a_die_tapped_and_typed_teaches_its_typed_value(tmp_path):
    t = _Table()
    t.throw([1, 1, 4, 6, 6])
    surface, screen = _draw(t.meet)
    k = t.index_of(4)
    centre = screen.camera_fit.to_screen(t.meet.dice[k].bbox).center
    tap = t.meet.tapped(centre)  # a tap on the die on the camera view
    assert tap == Press(Control.TAP_DIE, k)
    t.meet.handle(tap)
    t.meet.handle(Press(Control.DIGIT, 2))
    assert t.meet.values[k] == 2 and t.meet.picked is None
    surface, screen = _draw(t.meet)
    fixed = [d for d in screen.texts if d.text == "2" and d.color == ACCENT]
    assert fixed, "the fixed value stands out in the row"
    t.meet.handle(t.meet.tapped(_button(screen, "TEACH")))  # the touch button
    assert t.learner.values() == [1, 1, 2, 6, 6]


def test_a_die_tapped_twice_counts_its_value_up_without_keys():
    t = _Table()
    t.throw([6, 3, 3, 2, 1])
    k = t.index_of(6)
    t.meet.handle(Press(Control.TAP_DIE, k))
    t.meet.handle(Press(Control.TAP_DIE, k))  # 6 -> 1
    t.meet.handle(ROLL)
    assert t.learner.values() == [1, 1, 2, 3, 3]


def test_a_skipped_throw_teaches_nothing():
    t = _Table()
    t.throw([5, 5, 5, 1, 2])
    t.meet.handle(Press(Control.TAP_DIE, 0))
    t.meet.handle(Press(Control.DIGIT, 3))
    t.meet.handle(UNDO)  # SELECT held, u, or the SKIP button
    assert t.learner.taught is None and t.meet.taught == 0
    assert t.meet.thrown == 1 and "skipped" in t.meet.message


def test_a_throw_thrown_again_before_it_was_confirmed_teaches_nothing():
    t = _Table()
    t.throw([4, 4, 4, 4, 4])
    t.throw([1, 2, 3, 4, 5])
    assert sorted(t.meet.values) == [1, 2, 3, 4, 5] and t.meet.thrown == 0
    t.meet.handle(ROLL)
    assert t.learner.values() == [1, 2, 3, 4, 5]


def test_the_step_ends_after_its_throws():
    t = _Table(throws=2)
    t.throw([1, 2, 3, 4, 5])
    t.meet.handle(ROLL)
    assert not t.meet.done
    t.throw([2, 3, 4, 5, 6])
    t.meet.handle(UNDO)
    assert t.meet.done and not t.meet.cancelled and t.meet.thrown == 2
    assert t.learner.values() == [1, 2, 3, 4, 5]


@pytest.mark.parametrize("command", [SELECT, QUIT])
def test_select_or_esc_while_waiting_skips_the_rest(command):
    t = _Table()
    t.meet.handle(command)
    assert t.meet.done and not t.meet.cancelled and t.meet.thrown == 0


def test_done_on_the_touch_screen_skips_the_rest():
    t = _Table()
    t.throw([1, 2, 3, 4, 5])
    _, screen = _draw(t.meet)
    t.meet.handle(t.meet.tapped(_button(screen, "DONE")))
    assert t.meet.done and t.learner.taught is None


def _button(screen: Painter, word: str) -> tuple[int, int]:
    return next(d.rect.center for d in screen.texts if d.text == word)


class _Misreader(TruthReader):
    """The demo table's truth, but the leftmost die read one pip up (a 6 as a 1)."""

    def __call__(self, image, region=None):
        dice = super().__call__(image, region)
        if not dice:
            return dice
        left = min(range(len(dice)), key=lambda i: dice[i].bbox[0])
        d = dice[left]
        wrong = dataclasses.replace(d, die=dataclasses.replace(d.die, value=d.value % 6 + 1))
        return [wrong if i == left else d for i, d in enumerate(dice)]


def test_the_demo_table_throws_its_own_dice_and_its_scorekeeper_fixes_misreads(tmp_path):
    table = demo_table(5)
    first = table.read()
    learner = _LearningReader()
    meet = MeetTheDice(Teacher(learner, None, "fp"), 3)  # type: ignore[arg-type]
    drawn: list[int] = []
    handle = meet.handle

    def spy(command: Press) -> None:
        if command.kind is Control.ROLL and meet.stage is Stage.CHECK:
            drawn.extend(d.value for d in table.truth().rolled)
        handle(command)

    meet.handle = spy  # type: ignore[method-assign]

    def frames():
        for _ in range(2000):
            yield table.read()

    with Window.open((800, 480), screenshots=tmp_path / "shots") as window:
        ui = GameScreen(window, sounds=Sounds(muted=True))
        watcher = TableWatcher(
            calibrate(first.image, table.geometry), _Misreader(table, sights=True)
        )
        meet_on_screen(ui, frames(), watcher, meet, table=table, auto=True, paced=False)
        assert ui.keyboard.tap_to_command is None  # taps go back to the game's dice
    assert meet.done and meet.thrown == 3 and table.throws == 3
    assert len(drawn) == 15 and learner.values() == sorted(drawn)  # each misread fixed


class _Faces:
    """The demo table, its watcher and the face-by-face step."""

    def __init__(self, seed: int = 4) -> None:
        self.table = demo_table(seed)
        first = self.table.read()
        self.watcher = TableWatcher(
            calibrate(first.image, self.table.geometry), TruthReader(self.table, sights=True)
        )
        self.learner = _LearningReader()
        self.meet = MeetFaces(Teacher(self.learner, None, "fp"))  # type: ignore[arg-type]
        self.meet.frame = first.image

    def lay(self, values) -> None:
        """These dice settle on the mat, every frame shown to the step."""
        self.table.throw(values)
        for _ in range(300):
            frame = self.table.read()
            self.meet.frame = frame.image
            for report in self.watcher.process(frame):
                self.meet.observe(report)
            self.meet.tick()
            if not self.meet.waiting and not self.table.busy:
                return
        raise AssertionError("the dice never settled")


def test_meeting_face_by_face_with_the_three_buttons(tmp_path):
    """ROLL takes the scene and teaches it the step's face; a die plainly showing another
    face is pointed out; SELECT held (UNDO) redoes the last face; DONE ends."""
    t = _Faces()
    surface, screen = _draw(t.meet)
    assert find_text(surface, screen, "Put every die showing 1 on the mat, then ROLL")
    assert find_text(surface, screen, "face 1 of 6") and find_text(surface, screen, "ALL 1s")
    t.meet.handle(ROLL)  # nothing on the mat yet
    assert t.learner.taught is None and t.meet.value == 1
    assert t.meet.message == "no dice on the mat: put every die showing 1 on the mat"
    t.lay([1] * 5)
    surface, screen = _draw(t.meet)
    assert len([d for d in screen.texts if d.text == "1"]) >= 5  # the scene as read
    t.meet.handle(ROLL)
    assert t.learner.values() == [1] * 5 and t.learner.turns == [True]
    assert t.meet.message == "face 1: 5 dice taught" and t.meet.value == 2
    surface, screen = _draw(t.meet)
    assert find_text(surface, screen, "Put every die showing 2 on the mat, then ROLL")
    assert find_text(surface, screen, "face 2 of 6")
    assert find_text(surface, screen, f"the table knows: {t.meet.summary}")
    t.meet.handle(ROLL)  # the same dice are not the 2s
    assert t.learner.values() == [1] * 5
    assert t.meet.message.startswith("these dice were taken for face 1")
    t.lay([2, 2, 5, 2, 2])  # one die plainly shows a 5: pointed out, not taught
    t.meet.handle(ROLL)
    assert t.learner.values() == [1] * 5 + [2] * 4
    assert t.meet.message.startswith("face 2: 4 dice taught; die ")
    assert t.meet.message.endswith("seems to show 5: not taught")
    surface, screen = _draw(t.meet)
    save(surface, artifacts_dir(tmp_path), "meet-faces")
    assert find_text(surface, screen, "face 2, not taught:")
    assert find_text(surface, screen, "hold SELECT: redo face 2   SELECT / Esc: done")
    t.meet.handle(UNDO)  # SELECT held, u, or the REDO button: face 2 again
    assert t.meet.value == 2 and t.learner.values() == [1] * 5
    assert t.meet.message.startswith("face 2 again: what it taught is forgotten")
    t.lay([2] * 5)  # the die turned to its 2
    t.meet.handle(ROLL)
    assert t.learner.values() == [1] * 5 + [2] * 5 and t.meet.taught == 10
    _, screen = _draw(t.meet)
    t.meet.handle(t.meet.tapped(_button(screen, "DONE")))
    assert t.meet.done and not t.meet.cancelled and t.meet.value == 3


def test_the_touch_buttons_of_the_face_by_face_step_take_and_redo():
    t = _Faces(seed=5)
    t.lay([1] * 5)
    _, screen = _draw(t.meet)
    t.meet.handle(t.meet.tapped(_button(screen, "TAKE")))
    assert t.learner.values() == [1] * 5
    _, screen = _draw(t.meet)
    t.meet.handle(t.meet.tapped(_button(screen, "REDO")))
    assert t.meet.value == 1 and t.learner.values() == []


@pytest.mark.parametrize("command", [SELECT, QUIT])
def test_select_or_esc_ends_the_face_by_face_step_keeping_what_it_taught(command):
    t = _Faces()
    t.lay([1] * 5)
    t.meet.handle(ROLL)
    t.meet.handle(command)
    assert t.meet.done and not t.meet.cancelled and t.learner.values() == [1] * 5


def test_the_demo_table_lays_every_face_for_its_meeting(tmp_path):
    table = demo_table(5)
    first = table.read()
    learner = _LearningReader()
    meet = MeetFaces(Teacher(learner, None, "fp"))  # type: ignore[arg-type]

    def frames():
        for _ in range(2000):
            yield table.read()

    with Window.open((800, 480), screenshots=tmp_path / "shots") as window:
        ui = GameScreen(window, sounds=Sounds(muted=True))
        watcher = TableWatcher(
            calibrate(first.image, table.geometry), TruthReader(table, sights=True)
        )
        meet_on_screen(ui, frames(), watcher, meet, table=table, auto=True, paced=False)
        assert ui.keyboard.tap_to_command is None
    assert meet.done and table.throws == 6 and meet.taught == 30
    assert learner.values() == sorted([v for v in range(1, 7) for _ in range(5)])


def test_play_meets_the_dice_face_by_face_unless_told_throws(tmp_path, monkeypatch, capsys):
    from zonkcam import cli

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setattr("zonkcam.app.main.first_game", lambda *a, **k: None)  # then leave
    args = ["play", "--source", "demo", "--meet-dice", "--db", str(tmp_path / "g.db")]
    assert cli.main([*args, "--screenshots", str(tmp_path / "shots")]) == 0
    err = capsys.readouterr().err
    line = next(x for x in err.splitlines() if "met the dice" in x)
    assert ", every face (" in line  # the demo table laid every die showing 1, ... 6
    assert not list((tmp_path / "config").rglob("taught-dice.npz"))


def test_the_rules_menu_offers_meet_the_dice_where_the_table_can_learn():
    assert MEET_THE_DICE not in ChooseRules().options
    menu = ChooseRules(meet=True)
    assert menu.options[-1] == MEET_THE_DICE and not menu.meet
    menu.handle(Press(Control.BACK))  # from the first table up to the last item
    assert menu.meet
    menu.handle(ROLL)
    assert menu.done and not menu.cancelled
    assert ChooseRules(meet=True).rules is PRESETS["classic-10000"]


def test_the_set_up_screens_meet_the_dice_then_seat_a_game(tmp_path):
    from zonkcam.app.main import set_up_on_screen
    from zonkcam.record.store import EventLog

    def key(k, text=""):
        return pygame.event.Event(pygame.KEYDOWN, key=k, unicode=text)

    met: list[Meeting] = []
    with (
        EventLog(tmp_path / "g.db") as log,
        Window.open((800, 480), screenshots=tmp_path / "shots") as window,
    ):
        ui = GameScreen(window, sounds=Sounds(muted=True))
        script = [
            [key(pygame.K_UP)],  # the last item: meet the dice
            [key(pygame.K_RETURN)],
            [key(pygame.K_RETURN)],  # the menu again: the first table
            [key(pygame.K_a, "A"), key(pygame.K_n, "n")],
            [key(pygame.K_RETURN)],
            [key(pygame.K_RETURN)],
        ]
        window.events = lambda: script.pop(0) if script else []
        logged = set_up_on_screen(log, ui, [], meet=met.append)
        assert met == [Meeting(Meet.FACES)]  # the set-up meets the dice face by face
        assert logged is not None and logged.state.rules.name == "classic-10000"
        assert [p.name for p in logged.state.players] == ["An"]


def test_play_meet_dice_on_the_demo_table_keeps_nothing_on_disk(tmp_path, monkeypatch, capsys):
    from zonkcam import cli

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setattr("zonkcam.app.main.first_game", lambda *a, **k: None)  # then leave
    args = ["play", "--source", "demo", "--meet-dice", "2", "--db", str(tmp_path / "g.db")]
    assert cli.main([*args, "--screenshots", str(tmp_path / "shots")]) == 0
    err = capsys.readouterr().err
    line = next(x for x in err.splitlines() if "met the dice" in x)
    assert "10 dice taught" in line and "80 taught examples" in line  # eight turns each
    assert not list((tmp_path / "config").rglob("taught-dice.npz"))


def test_a_value_net_without_features_skips_the_step_in_one_line(tmp_path, monkeypatch, capsys):
    from zonkcam import cli
    from zonkcam.table.reading import NO_FEATURES, OnnxReader

    monkeypatch.setattr(OnnxReader, "can_learn", property(lambda self: False))
    monkeypatch.setattr("zonkcam.app.main.first_game", lambda *a, **k: None)
    args = ["play", "--source", "demo", "--meet-dice", "--db", str(tmp_path / "g.db")]
    assert cli.main([*args, "--screenshots", str(tmp_path / "shots")]) == 0
    err = capsys.readouterr().err
    assert err.count(NO_FEATURES) == 1 and "met the dice" not in err


def test_meet_dice_is_refused_with_text(capsys):
    from zonkcam import cli

    assert cli.main(["play", "--text", "--meet-dice"]) == 2
    assert "zonkcam watch --meet-dice" in capsys.readouterr().err


def test_a_touch_on_the_screen_reaches_the_step_through_the_keyboard_input():
    from zonkcam.display.keyboard import KeyboardInput

    t = _Table()
    t.throw([1, 2, 3, 4, 5])
    _, screen = _draw(t.meet)
    keys = KeyboardInput(tap_to_die=lambda pos: 0, tap_to_command=t.meet.tapped)
    click = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=_button(screen, "SKIP"), button=1)
    assert keys.commands([click]) == [UNDO]  # the step's own button, not the game's die
    keys.tap_to_command = None
    assert keys.commands([click]) == [Press(Control.TAP_DIE, 0)]


def test_frames_that_change_size_stop_meet_the_dice_in_one_line(tmp_path):
    """The camera's picture changes size during "meet the dice": one line at the first
    such frame, never a step that waits on frames it cannot read."""
    import cv2

    from zonkcam.errors import UserError
    from zonkcam.sources import Frame

    table = demo_table(5)
    first = table.read()
    meet = MeetTheDice(Teacher(_LearningReader(), None, "fp"), 3)  # type: ignore[arg-type]
    seen: list[int] = []

    def frames():
        for i in range(2000):
            seen.append(i)
            yield first if i < 3 else Frame(cv2.resize(first.image, (800, 450)), i, i / 30)

    with Window.open((800, 480), screenshots=tmp_path / "shots") as window:
        ui = GameScreen(window, sounds=Sounds(muted=True))
        watcher = TableWatcher(
            calibrate(first.image, table.geometry), _Misreader(table, sights=True)
        )
        with pytest.raises(UserError) as raised:
            meet_on_screen(ui, frames(), watcher, meet, auto=True, paced=False)
        assert ui.keyboard.tap_to_command is None
    assert len(seen) == 4  # stopped at the first frame of another size
    assert str(raised.value) == (
        "meet the dice: the frames are 800x450 but the calibration is for 640x480: they are "
        "of another shape (another view): recalibrate (zonkcam calibrate)"
    )
