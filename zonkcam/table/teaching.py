"""Teaching the table its own dice: "meet the dice" at set-up, and the rolls of the night.

"Meet the dice" goes one of two ways (:class:`Meet`):

* face by face (:class:`FaceByFace`): every die showing 1 on the mat, then every die
  showing 2, ... then 6; each still scene is taught the face the step asks for, nothing
  typed. A die that plainly shows another face (cocked, or read as another value at least
  PLAINLY_OTHER sure) is pointed out, not taught;
* by throws: the scorekeeper confirms a throw's values as read (Enter) or types them.

Otherwise only what the scorekeeper confirmed teaches: a die they corrected, a roll they
kept from or banked (zonkcam.app.loop). A roll nobody acted on teaches nothing. Each
lesson is saved at once beside the calibration (zonkcam.mat.taught), so a restart keeps
it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from zonkcam.game.names import counted
from zonkcam.mat.taught import (
    describe,
    forget_taught,
    load_taught,
    model_fingerprint,
    save_taught,
    taught_dice_path,
)
from zonkcam.sources import CameraProblem, Frame
from zonkcam.table.observe import TableEvent, TableReport, TableWatcher
from zonkcam.table.reading import NO_FEATURES, OnnxReader
from zonkcam.table.tracking import Change
from zonkcam.table.zones import TableDie, Zone
from zonkcam.vision.die import Sight
from zonkcam.vision.examples import VALUES, TaughtDice

THROWS = 3
"""Throws "meet the dice" by throws asks for unless told (``--meet-dice N``)."""
PLAINLY_OTHER = 0.9
"""A die of a face-by-face scene read as another value than the step's at least this sure
plainly shows another face: it is pointed out, not taught. One read less sure is taught the
step's face: that is the die the reader needs to learn."""
QUIET_FRAMES = 30
"""Frames with no report after the table moved, after which it lies as it lay before (the
motion changed nothing: a hand came and went)."""


class Meet(StrEnum):
    """How "meet the dice" goes."""

    FACES = "faces"
    """Every die showing 1 on the mat, then 2, ... then 6: each scene taught its face."""
    THROWS = "throws"
    """Throws of all the dice, their values confirmed or typed by the scorekeeper."""


@dataclass(frozen=True)
class Meeting:
    """ "Meet the dice" as asked for: ``--meet-dice faces`` (the default), ``throws`` or a
    number of throws."""

    how: Meet = Meet.FACES
    throws: int = THROWS
    """Throws asked for, by throws."""


def meeting(text: str) -> Meeting:
    """The meeting a ``--meet-dice`` word names: ``faces``, ``throws`` (THROWS of them) or
    a number of throws, 1 or more. ValueError, saying what it takes, for anything else."""
    word = text.strip().lower()
    if word in tuple(Meet):
        return Meeting(Meet(word))
    if word.isdigit() and int(word) >= 1:
        return Meeting(Meet.THROWS, int(word))
    raise ValueError(f"give faces, throws or a number of throws (1 or more), not {text!r}")


@dataclass
class Teacher:
    """The table's reader and where what it is taught is kept."""

    reader: OnnxReader
    path: Path | None
    """None: taught for this run only (the demo table's rendered dice)."""
    fingerprint: str

    def teach(
        self,
        seen: Sequence[Sight],
        values: Sequence[int],
        colours: Sequence[str | None] | None = None,
        turns: bool = False,
    ) -> int:
        """Teach these dice with their confirmed values and save; returns examples added."""
        added = self.reader.teach(seen, values, colours, turns)
        if added and self.reader.taught is not None and self.path is not None:
            save_taught(self.path, self.reader.taught, self.fingerprint)
        return added

    @contextmanager
    def net_alone(self) -> Iterator[None]:
        """While the table meets its dice: the reader reads with the net alone, so that a
        die is judged (plainly another face?) by the net, not by what the meeting taught
        a step before."""
        before = self.reader.asking
        self.reader.asking = False
        try:
            yield
        finally:
            self.reader.asking = before

    def summary(self) -> str:
        taught = self.reader.taught
        return describe(taught) if taught is not None else "no taught dice"

    def snapshot(self) -> TaughtDice | None:
        """What the table knows now, kept apart from what it is taught next (see
        :meth:`restore`)."""
        t = self.reader.taught
        return None if t is None else TaughtDice(t.features, t.values, list(t.colours))

    def restore(self, taught: TaughtDice | None) -> None:
        """Know what `taught` (a :meth:`snapshot`) holds again, forgetting what was taught
        since, and save it."""
        self.reader.taught = taught
        if self.path is None:
            return
        if taught is not None and len(taught):
            save_taught(self.path, taught, self.fingerprint)
        else:
            forget_taught(self.path)


def open_teacher(
    reader: OnnxReader,
    calibration_path: str | Path | None,
    forget: bool = False,
    say: Callable[[str], None] = print,
) -> Teacher | None:
    """Give `reader` the table's taught dice (stored beside `calibration_path`; None:
    kept for this run only); with `forget` they are forgotten first. None (and a line
    why) when the value net has no features to learn from."""
    path = taught_dice_path(calibration_path) if calibration_path is not None else None
    if forget and path is not None:
        say("forgot the table's taught dice" if forget_taught(path) else "no taught dice to forget")
    if not reader.can_learn:
        say(NO_FEATURES)
        return None
    fingerprint = model_fingerprint(reader.values_path)
    taught, note = load_taught(path, fingerprint) if path is not None else (TaughtDice(), "")
    if note:
        say(note)
    reader.taught = taught
    teacher = Teacher(reader, path, fingerprint)
    if len(taught):
        say(f"the table knows its dice: {teacher.summary()}")
    return teacher


def parse_fix(line: str, read: Sequence[int]) -> list[int] | None:
    """The values of a throw as the scorekeeper confirms them: Enter keeps `read`; all the
    values in order (``35126`` or ``3 5 1 2 6``); or fixes ``N=V`` of die N (``2=5 4=1``).
    None when the line is none of these (ask again)."""
    text = line.strip()
    if not text:
        return list(read)
    if "=" in text:
        out = list(read)
        for part in text.replace(",", " ").split():
            n, _, v = part.partition("=")
            if not (n.isdigit() and v.isdigit() and 1 <= int(n) <= len(out) and 1 <= int(v) <= 6):
                return None
            out[int(n) - 1] = int(v)
        return out
    digits = text.replace(" ", "").replace(",", "")
    if len(digits) == len(read) and digits.isdigit() and all("1" <= c <= "6" for c in digits):
        return [int(c) for c in digits]
    return None


def throw_lines(dice: Sequence) -> str:
    """A settled throw's dice, numbered, with their values as read (and colours)."""
    return "  ".join(
        f"{i}) {d.value if d.known else '?'}{' ' + d.color if d.color else ''}"
        for i, d in enumerate(dice, 1)
    )


def meet_the_dice(
    observations,  # noqa: ANN001 - an iterator of TableReports
    teacher: Teacher,
    throws: int,
    ask: Callable[[str], str | None],
    say: Callable[[str], None],
) -> int:
    """The text form of "meet the dice": for each settled throw (up to `throws`) the dice
    as read are printed numbered; the scorekeeper presses Enter to confirm, types the
    right values, ``s`` to skip the throw (nothing taught) or ``done``. Returns the dice
    taught. `ask` returns None at the end of input (taken as done)."""
    from zonkcam.table.observe import TableEvent

    with teacher.net_alone():  # what is taught is judged by the net alone
        say(
            f"meet the dice: throw all the dice on the mat ({counted(throws, 'throw')}); "
            "after each, Enter if every value is right, else type the values (35126) or fix "
            "dice (2=5)"
        )
        done = taught = 0
        for report in observations:
            if report.event is not TableEvent.SETTLED or report.change is None or not report.rolled:
                continue
            dice = list(report.rolled)
            seen = [d.sight for d in dice]
            say(f"throw {done + 1}: {throw_lines(dice)}")
            while True:
                line = ask("values (Enter: all right, s: skip, done): ")
                if line is None or line.strip().lower() in ("done", "q", "quit"):
                    return _finish(teacher, taught, say)
                if line.strip().lower() in ("s", "skip"):
                    values = None
                    break
                values = parse_fix(line, [d.value if d.known else 0 for d in dice])
                if values is not None and all(1 <= v <= 6 for v in values):
                    break
                say(f"type {counted(len(dice), 'value')} 1-6 in order, or N=V for die N, or Enter")
            if values is not None:
                pairs = [(s, v, d.color) for s, v, d in zip(seen, values, dice, strict=True) if s]
                if pairs and teacher.teach(
                    [p[0] for p in pairs], [p[1] for p in pairs], [p[2] for p in pairs], turns=True
                ):
                    taught += len(pairs)
                say(
                    f"taught {counted(len(pairs), 'die', 'dice')}"
                    if pairs
                    else "these dice were not read: not taught"
                )
            done += 1
            if done >= throws:
                break
        return _finish(teacher, taught, say)


def _finish(teacher: Teacher, taught: int, say: Callable[[str], None]) -> int:
    say(f"met the dice: {counted(taught, 'die', 'dice')} taught; {teacher.summary()}")
    return taught


# -- face by face ---------------------------------------------------------------------------


def on_the_mat(dice: Iterable[TableDie]) -> tuple[TableDie, ...]:
    """The dice lying on the mat (the rolling area and the keep strip), from the mat's left
    edge to its right: die 1 is the leftmost."""
    return tuple(sorted((d for d in dice if d.zone != Zone.OFF), key=lambda d: d.center_mm))


def plainly_other(die: TableDie, value: int, sure: float = PLAINLY_OTHER) -> str | None:
    """What a die of the scene for face `value` plainly shows instead (``cocked``, ``5``),
    or None where it may be taught `value`: a die read as another value less than `sure`
    is taught, a die with no value read is not (``not read``)."""
    if die.cocked:
        return "cocked"
    if die.unread:
        return "not read"
    if die.value != value and die.confidence >= sure:
        return str(die.value)
    return None


@dataclass(frozen=True)
class FaceLesson:
    """What one step of the face-by-face meeting taught from its scene."""

    value: int
    """The face the step asked for."""
    taught: int
    """Dice taught that face."""
    pointed_out: tuple[str, ...] = ()
    """Each die not taught, and why: ``die 2 from the left (red) seems to show 5`` (its
    colour where the scene's dice are of more than one)."""

    def __str__(self) -> str:
        return f"face {self.value}: {counted(self.taught, 'die', 'dice')} taught" + "".join(
            f"; {p}: not taught" for p in self.pointed_out
        )


def teach_face(
    teacher: Teacher, dice: Sequence[TableDie], value: int, sure: float = PLAINLY_OTHER
) -> FaceLesson:
    """Teach every die of a still scene (numbered from the left, as :func:`on_the_mat`
    orders them) that it shows `value`, in its eight turns; a die that plainly shows
    another face (:func:`plainly_other`) or that came with no crop (its read kept none) is
    pointed out instead."""
    seen: list[Sight] = []
    colours: list[str | None] = []
    pointed: list[str] = []
    coloured = len({d.color for d in dice}) > 1  # a die's colour tells it apart
    for number, die in enumerate(dice, 1):
        where = f"die {number} from the left" + (f" ({die.color})" if coloured else "")
        other = plainly_other(die, value, sure)
        crop = die.sight if other is None else None
        if other == "cocked":
            pointed.append(f"{where} is cocked")
        elif other is not None and other != "not read":
            pointed.append(f"{where} seems to show {other}")
        elif crop is None:
            pointed.append(f"{where} was not read")
        else:
            seen.append(crop)
            colours.append(die.color)
    taught = len(seen) if seen and teacher.teach(seen, [value] * len(seen), colours, True) else 0
    return FaceLesson(value, taught, tuple(pointed))


@dataclass
class FaceByFace:
    """The face-by-face meeting, apart from how it is shown: the step (every die showing
    ``value`` on the mat), the scene the table settled on last, and what each step taught.

    Fed the table's reports (:meth:`observe`) and told of each frame (:meth:`tick`), it
    takes the scene when asked (:meth:`take`): only a scene the table settled on since the
    last one was taken, so one scene never teaches two faces. :meth:`redo` goes back a step,
    forgetting what that step taught, so that its scene is taken again."""

    teacher: Teacher
    value: int = 1
    """The face asked for now: every die showing it on the mat."""
    scene: tuple[TableDie, ...] = ()
    """The dice on the mat when the table last settled (die 1 leftmost)."""
    fresh: bool = False
    """Whether ``scene`` is yet to be taken."""
    moving: bool = False
    """The table moved (or something lies in the way) since it last settled."""
    blocked: bool = False
    """Something that is not a die lies on the mat."""
    quiet: int = 0
    """Frames since the last report."""
    lessons: list[FaceLesson] = field(default_factory=list)
    """What each step taken taught, in order."""
    asked: int = 0
    """Counts the steps asked for (each take and redo asks for a scene anew)."""
    ended: bool = False
    _before: list[tuple[TaughtDice | None, tuple[TableDie, ...]]] = field(default_factory=list)
    """For each step taken: what the table knew before it, and its scene."""

    @property
    def done(self) -> bool:
        return self.ended or self.value > VALUES

    @property
    def taught(self) -> int:
        """Dice taught by the steps taken."""
        return sum(lesson.taught for lesson in self.lessons)

    @property
    def ready(self) -> bool:
        """Whether there is a scene to take: the table settled on dice since the last take."""
        return bool(self.scene) and self.fresh and not self.moving and not self.done

    def observe(self, report: TableReport) -> None:
        """A table report: a settled one brings a new scene (a die read late, ``read``,
        completes the scene it belongs to); motion or something in the way makes it wait."""
        self.quiet = 0
        if report.event in (TableEvent.ROLLING, TableEvent.SPINNING, TableEvent.BLOCKED):
            self.moving, self.blocked = True, report.event is TableEvent.BLOCKED
        elif report.event is TableEvent.SETTLED and report.change is not None:
            self.scene = on_the_mat(report.dice)
            self.fresh = self.fresh or report.change is not Change.READ
            self.moving = self.blocked = False

    def tick(self) -> None:
        """One frame seen, after its reports: a table that moved and then gave no report
        for QUIET_FRAMES frames lies as it lay (nothing changed)."""
        self.quiet += 1
        if self.moving and not self.blocked and self.quiet >= QUIET_FRAMES:
            self.moving = False

    def prompt(self) -> str:
        """What the step asks for."""
        return f"put every die showing {self.value} on the mat"

    def why_not(self) -> str:
        """Why there is no scene to take now (when not :attr:`ready`)."""
        if self.done:
            return "every face is met"
        if self.blocked:
            return "something is in the way on the mat: waiting for it to go"
        if self.moving:
            return "the dice are moving: wait for them to settle"
        if not self.scene:
            return f"no dice on the mat: {self.prompt()}"
        if self.lessons:
            return f"these dice were taken for face {self.lessons[-1].value}: {self.prompt()}"
        return f"{self.prompt()} (the dice on the mat were there before)"

    def take(self) -> FaceLesson | str:
        """Teach the scene the step's face and ask for the next; or why not (a sentence)."""
        if not self.ready:
            return self.why_not()
        before = self.teacher.snapshot()
        lesson = teach_face(self.teacher, self.scene, self.value)
        self._before.append((before, self.scene))
        self.lessons.append(lesson)
        self.value += 1
        self.fresh = False
        self.asked += 1
        return lesson

    def redo(self) -> str:
        """Go back to the last step taken: what it taught is forgotten, and its scene (or
        the one the table has settled on since) is to be taken again. A sentence saying so."""
        if not self.lessons:
            return "no face taken yet: nothing to redo"
        before, scene = self._before.pop()
        lesson = self.lessons.pop()
        self.teacher.restore(before)
        if not self.fresh:  # the table has not settled on other dice since
            self.scene = scene
        self.value, self.fresh, self.ended = lesson.value, True, False
        self.asked += 1
        return f"face {self.value} again: what it taught is forgotten; {self.prompt()}"


def meet_face_by_face(
    frames: Iterable[Frame | CameraProblem],
    watcher: TableWatcher,
    teacher: Teacher,
    say: Callable[[str], None],
    ask: Callable[[str], str | None] | None = None,
    lay: Callable[[int], None] | None = None,
) -> int:
    """The text form of the face-by-face meeting, on the table's frames (`watcher` reads
    them). With `ask` (a person at a terminal) each step waits for Enter, then takes the
    scene once the dice are still (``r`` redoes the last step, ``done`` ends; `ask` returns
    None at the end of input, taken as done); without, each scene the table settles on is
    the next step's (a frame folder, a script). `lay`: lays every die showing a face (the
    demo table). Returns the dice taught; the frames not read are left for the caller."""
    with teacher.net_alone():  # what is taught is judged by the net alone
        meeting = FaceByFace(teacher)
        say(
            f"meet the dice face by face: every die showing 1 on the mat, then 2, ... then "
            f"{VALUES}; each is taught the face it shows"
            + (
                " (Enter: take the dice on the mat, r: redo the last face, done: end)"
                if ask is not None
                else " (each still scene is taken in turn)"
            )
        )
        stream = iter(frames)
        prompted = -1
        while not meeting.done:
            if prompted != meeting.asked:
                say(f"face {meeting.value} of {VALUES}: {meeting.prompt()}")
                prompted = meeting.asked
            if ask is not None:
                answer = ask("Enter: take them, r: redo the last face, done: ")
                line = "done" if answer is None else answer.strip()
                if line.lower() in ("done", "q", "quit"):
                    break
                if line.lower() in ("r", "redo"):
                    say(meeting.redo())
                    prompted = meeting.asked
                    continue
                if line:
                    say("Enter takes the dice on the mat, r redoes the last face, done ends")
                    continue
            if lay is not None:
                lay(meeting.value)
            got = _take_scene(stream, watcher, meeting, say, waits=ask is None)
            if got is None:
                break  # the frames ended
            say(str(got))
        return _finish(teacher, meeting.taught, say)


def _take_scene(
    stream: Iterable[Frame | CameraProblem],
    watcher: TableWatcher,
    meeting: FaceByFace,
    say: Callable[[str], None],
    waits: bool,
) -> FaceLesson | str | None:
    """Read frames until the table is still, then take its scene: a scene it settles on,
    or (unless `waits` for one) the table as it lies after QUIET_FRAMES frames with nothing
    new, which may be a reason not to. None when the frames end first."""
    for item in stream:
        if isinstance(item, CameraProblem):
            say(f"camera: {item.message}")
            continue
        for report in watcher.process(item):
            meeting.observe(report)
        meeting.tick()
        if meeting.ready:
            return meeting.take()
        if not waits and not meeting.moving and meeting.quiet >= QUIET_FRAMES:
            return meeting.take()
    return None
