"""Teaching the table its own dice: "meet the dice" at set-up, and the rolls of the night.

Only what the scorekeeper confirmed teaches: a throw in "meet the dice" once they press
Enter (or type the right values), a die they corrected, a roll they kept from or banked
(zonkcam.app.loop). A roll nobody acted on teaches nothing. Each lesson is saved at once
beside the calibration (zonkcam.mat.taught), so a restart keeps it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
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
from zonkcam.table.reading import NO_FEATURES, OnnxReader, SeenDie
from zonkcam.vision.examples import TaughtDice


@dataclass
class Teacher:
    """The table's reader and where what it is taught is kept."""

    reader: OnnxReader
    path: Path | None
    """None: taught for this run only (the demo table's rendered dice)."""
    fingerprint: str

    def teach(
        self,
        seen: Sequence[SeenDie],
        values: Sequence[int],
        colours: Sequence[str | None] | None = None,
        turns: bool = False,
    ) -> int:
        """Teach these dice with their confirmed values and save; returns examples added."""
        added = self.reader.teach(seen, values, colours, turns)
        if added and self.reader.taught is not None and self.path is not None:
            save_taught(self.path, self.reader.taught, self.fingerprint)
        return added

    def summary(self) -> str:
        taught = self.reader.taught
        return describe(taught) if taught is not None else "no taught dice"


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

    say(
        f"meet the dice: throw all the dice on the mat ({counted(throws, 'throw')}); after each, "
        "Enter if every value is right, else type the values (35126) or fix dice (2=5)"
    )
    done = taught = 0
    for obs in observations:
        if obs.event is not TableEvent.SETTLED or obs.change is None or not obs.rolled:
            continue
        dice = list(obs.rolled)
        seen = [teacher.reader.recall(d.bbox) for d in dice]
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
