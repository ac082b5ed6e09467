"""Meeting the dice face by face: each still scene taught the step's face, a die that
plainly shows another one pointed out, a step redone; from the demo table, a frame folder
and ``zonkcam watch``."""

from __future__ import annotations

import dataclasses
import io
import json

import cv2
import numpy as np
import pytest

from zonkcam.mat.calibrate import calibrate
from zonkcam.mat.taught import describe, load_taught, taught_dice_path
from zonkcam.sim.demo_table import DemoTable
from zonkcam.table.observe import TableWatcher
from zonkcam.table.teaching import (
    PLAINLY_OTHER,
    FaceByFace,
    FaceLesson,
    Meet,
    Meeting,
    Teacher,
    meet_face_by_face,
    meeting,
)
from zonkcam.testing import TruthReader
from zonkcam.vision import TaughtDice


class _LearningReader:
    """Stands in for OnnxReader's teaching side (the dice come with their sights), and each lesson
    (its values and whether it came in the eight turns)."""

    def __init__(self) -> None:
        self.asking = True
        self.taught: TaughtDice | None = None
        self.lessons: list[tuple[list[int], bool]] = []

    def teach(self, seen, values, colours=None, turns=False):
        self.lessons.append((list(values), turns))
        if self.taught is None:
            self.taught = TaughtDice()
        return self.taught.teach(np.stack([s.feature for s in seen]), list(values), colours)

    def values(self) -> list[int]:
        return sorted(self.taught.values.tolist()) if self.taught is not None else []


def _table(seed: int = 4) -> DemoTable:
    return DemoTable(
        seed=seed, autoplay=False, size=(640, 480), rest_frames=8, tumble_frames=(8, 13)
    )


def _frames(table: DemoTable, after: int = 10):
    """The table's frames while its script plays, then `after` more."""
    while table.busy:
        yield table.read()
    for _ in range(after):
        yield table.read()


class _Meeting:
    """The demo table, its watcher (reading what it drew, or through `reader`) and a
    face-by-face meeting with a learning reader."""

    def __init__(self, seed: int = 4, reader=None) -> None:
        self.table = _table(seed)
        first = self.table.read()
        self.watcher = TableWatcher(
            calibrate(first.image, self.table.geometry),
            (reader or TruthReader)(self.table, sights=True),
        )
        self.learner = _LearningReader()
        self.teacher = Teacher(self.learner, None, "fp")  # type: ignore[arg-type]
        self.meeting = FaceByFace(self.teacher)

    def lay(self, values, **how) -> None:
        """The table settles on these dice, the meeting told of every frame."""
        self.table.throw(values, **how)
        for frame in _frames(self.table, after=3):
            for report in self.watcher.process(frame):
                self.meeting.observe(report)
            self.meeting.tick()
        assert self.meeting.ready, self.meeting.why_not()


def test_face_by_face_from_the_demo_table_teaches_every_die_its_face_with_no_input():
    t = _Meeting()
    for value in range(1, 7):
        t.table.throw([value] * 5)
    lines: list[str] = []
    taught = meet_face_by_face(_frames(t.table), t.watcher, t.teacher, lines.append)
    assert taught == 30
    assert t.learner.lessons == [([v] * 5, True) for v in range(1, 7)]  # in its eight turns
    assert [x for x in lines if x.startswith("face ") and "taught" in x] == [
        f"face {v}: 5 dice taught" for v in range(1, 7)
    ]
    assert "face 3 of 6: put every die showing 3 on the mat" in lines
    assert lines[-1].startswith("met the dice: 30 dice taught; ")


def test_a_cocked_die_in_a_meeting_scene_is_pointed_out_not_taught():
    t = _Meeting(seed=5)
    t.lay([1, 1, 1, 1, 1], cocked=[4])
    cocked = sum(d.cocked for d in t.meeting.scene)
    assert cocked >= 1
    lesson = t.meeting.take()
    assert isinstance(lesson, FaceLesson)
    assert lesson.taught == 5 - cocked and t.learner.values() == [1] * (5 - cocked)
    assert len(lesson.pointed_out) == cocked
    assert all(p.endswith("is cocked") for p in lesson.pointed_out)
    assert str(lesson).endswith("is cocked: not taught")


class _SureMisreader(TruthReader):
    """The demo table's truth, but its leftmost die read as one pip more, very sure, and
    its rightmost as one pip more, unsure."""

    def __call__(self, image, region=None):
        dice = super().__call__(image, region)
        if len(dice) < 2:
            return dice
        by_x = sorted(range(len(dice)), key=lambda i: dice[i].bbox[0])
        out = list(dice)
        for i, sure in ((by_x[0], PLAINLY_OTHER + 0.05), (by_x[-1], PLAINLY_OTHER - 0.3)):
            d = dice[i]
            out[i] = dataclasses.replace(
                d, die=dataclasses.replace(d.die, value=d.value % 6 + 1), confidence=sure
            )
        return out


def test_a_die_the_net_is_very_sure_shows_another_face_is_pointed_out_not_taught():
    t = _Meeting(seed=6, reader=_SureMisreader)
    t.lay([1] * 5)
    lesson = t.meeting.take()
    assert isinstance(lesson, FaceLesson)
    # the leftmost die, read a 2 for sure, is pointed out; the rightmost, read a 2 unsure,
    # is the reader's to learn: taught a 1 with the rest
    assert lesson.pointed_out == ("die 1 from the left seems to show 2",)
    assert lesson.taught == 4 and t.learner.values() == [1, 1, 1, 1]
    assert str(lesson) == "face 1: 4 dice taught; die 1 from the left seems to show 2: not taught"


def test_a_die_pointed_out_among_dice_of_several_colours_is_named_with_its_colour():
    t = _Meeting(seed=6, reader=_SureMisreader)
    t.table.use_dice(6)  # detroit's white, red and green pairs
    t.lay([1] * 6)
    leftmost = t.meeting.scene[0]
    lesson = t.meeting.take()
    assert isinstance(lesson, FaceLesson) and lesson.taught == 5
    assert lesson.pointed_out == (f"die 1 from the left ({leftmost.color}) seems to show 2",)
    assert leftmost.color in ("white", "red", "green")


def test_a_scene_teaches_one_face_and_a_redo_forgets_what_its_face_taught():
    t = _Meeting()
    t.lay([1] * 5)
    assert isinstance(t.meeting.take(), FaceLesson) and t.meeting.value == 2
    why = t.meeting.take()  # the same dice again: not the 2s
    assert why == "these dice were taken for face 1: put every die showing 2 on the mat"
    t.lay([2] * 5)
    assert isinstance(t.meeting.take(), FaceLesson)
    assert t.learner.values() == [1] * 5 + [2] * 5
    said = t.meeting.redo()
    assert said.startswith("face 2 again: what it taught is forgotten")
    assert t.meeting.value == 2 and t.learner.values() == [1] * 5
    assert t.meeting.ready  # its scene, taken again
    assert isinstance(t.meeting.take(), FaceLesson)
    assert t.learner.values() == [1] * 5 + [2] * 5 and t.meeting.taught == 10


def test_a_redo_before_any_face_says_so_and_changes_nothing():
    t = _Meeting()
    assert t.meeting.redo() == "no face taken yet: nothing to redo"
    assert t.meeting.value == 1 and t.learner.taught is None


def test_a_redo_of_a_saved_lesson_is_saved_forgotten_too(tmp_path):
    t = _Meeting()
    path = tmp_path / "taught-dice.npz"
    t.teacher.path = path
    t.lay([1] * 5)
    t.meeting.take()
    assert load_taught(path, "fp")[0].counts()[1] == 5
    t.lay([2] * 5)
    t.meeting.take()
    assert load_taught(path, "fp")[0].counts()[2] == 5
    t.meeting.redo()
    back, _ = load_taught(path, "fp")
    assert back.counts()[1] == 5 and back.counts()[2] == 0
    t.meeting.redo()
    assert not path.exists()  # nothing taught before the meeting


def test_what_the_table_was_taught_is_said_as_dice_and_faces():
    def taught(per_face: dict[int, int]) -> TaughtDice:
        values = [v for v, n in per_face.items() for _ in range(n)]
        features = np.random.default_rng(0).uniform(0, 1, (len(values), 16))
        return TaughtDice(features, values)

    assert describe(TaughtDice()) == "no taught dice"
    every = taught({v: 48 for v in range(1, 7)})
    assert describe(every) == "6 dice, every face (288 taught examples)"
    assert describe(taught({1: 48, 2: 40, 3: 48})) == "6 dice; faces 1, 2, 3 (136 taught examples)"
    assert describe(taught({5: 1})) == "1 die; faces 5 (1 taught examples)"


def test_meet_dice_takes_faces_throws_or_a_number_of_throws(capsys):
    from zonkcam import cli

    assert meeting("faces") == Meeting(Meet.FACES)
    assert meeting("throws") == Meeting(Meet.THROWS, 3)
    assert meeting("5") == Meeting(Meet.THROWS, 5)
    for bad in ("0", "sideways", "-2"):
        with pytest.raises(ValueError, match="give faces, throws or a number of throws"):
            meeting(bad)
    parser = cli.build_parser()
    assert parser.parse_args(["watch", "--meet-dice"]).meet_dice == Meeting(Meet.FACES)
    assert parser.parse_args(["play", "--meet-dice"]).meet_dice == Meeting(Meet.FACES)
    with pytest.raises(SystemExit) as exited:
        cli.main(["watch", "--meet-dice", "sideways"])
    assert exited.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1] == (
        "zonkcam watch: error: argument --meet-dice: give faces, throws or a number of "
        "throws (1 or more), not 'sideways'"
    )


def test_watch_meets_the_dice_face_by_face_from_a_frame_folder_with_no_input(
    tmp_path, monkeypatch, capsys
):
    """Six still scenes in a folder of images, every die showing 1, then 2, ... 6: watch
    takes them in turn with nothing typed, with the shipped reader, and keeps what it was
    taught beside the calibration."""
    from zonkcam import cli

    table = _table(seed=2)
    first = table.read()
    cal = tmp_path / "calibration.json"
    calibrate(first.image, table.geometry).save(cal)
    folder = tmp_path / "frames"
    folder.mkdir()
    for value in range(1, 7):
        table.throw([value] * 5)
    for k, frame in enumerate([first, *_frames(table)]):
        cv2.imwrite(str(folder / f"{k:04d}.png"), frame.image)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # nobody at a terminal
    args = ["watch", "--source", str(folder), "--calibration", str(cal), "--meet-dice", "faces"]
    assert cli.main(args) == 0
    out, err = capsys.readouterr()
    said = [line.removeprefix("zonkcam watch: ") for line in err.splitlines()]
    lessons = [x for x in said if x.startswith("face ") and " taught" in x]
    assert [x.split(":")[0] for x in lessons] == [f"face {v}" for v in range(1, 7)]
    met = next(x for x in said if x.startswith("met the dice"))
    assert "every face" in met
    back, note = load_taught(taught_dice_path(cal))
    counts = back.counts()
    assert note == "" and all(counts[v] >= 8 and counts[v] % 8 == 0 for v in range(1, 7))
    assert json.loads(out.splitlines()[-1])["event"] == "stopped"


def test_at_a_terminal_enter_takes_each_scene_r_redoes_and_done_ends():
    t = _Meeting()

    def live():
        while True:
            yield t.table.read()

    def lays(values):  # the person lays these dice, then presses Enter
        def act():
            t.table.throw(values)
            return ""

        return act

    script = [
        lays([1] * 5),
        lambda: "",  # Enter again, the dice as they were
        lays([2] * 5),
        lambda: "r",
        lambda: "",  # face 2 again, from the same dice
        lambda: "done",
    ]
    prompts: list[str] = []

    def ask(prompt: str) -> str | None:
        prompts.append(prompt)
        return script.pop(0)()

    lines: list[str] = []
    taught = meet_face_by_face(live(), t.watcher, t.teacher, lines.append, ask)
    assert script == [] and taught == 10
    assert t.learner.values() == [1] * 5 + [2] * 5
    assert lines[1:] == [
        "face 1 of 6: put every die showing 1 on the mat",
        "face 1: 5 dice taught",
        "face 2 of 6: put every die showing 2 on the mat",
        "these dice were taken for face 1: put every die showing 2 on the mat",
        "face 2: 5 dice taught",
        "face 3 of 6: put every die showing 3 on the mat",
        "face 2 again: what it taught is forgotten; put every die showing 2 on the mat",
        "face 2: 5 dice taught",
        "face 3 of 6: put every die showing 3 on the mat",
        f"met the dice: 10 dice taught; {t.teacher.summary()}",
    ]
    assert prompts[0] == "Enter: take them, r: redo the last face, done: "


def test_at_a_terminal_the_end_of_input_ends_the_meeting():
    t = _Meeting()
    lines: list[str] = []
    taught = meet_face_by_face(iter(()), t.watcher, t.teacher, lines.append, lambda p: None)
    assert taught == 0 and lines[-1] == "met the dice: 0 dice taught; no taught dice"
