"""`zonkcam watch`: print the table's observations as JSON lines (checks a table set-up)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from zonkcam.app.camera import TableCamera, open_table, size_problem
from zonkcam.commands import options
from zonkcam.errors import UserError, WriteFailed
from zonkcam.fileio import write_image
from zonkcam.mat.calibrate import MOVED_PX, Calibration, camera_shift, draw_zones
from zonkcam.record.photos import draw_dice
from zonkcam.sources import FILE_TRIES, CameraProblem, Frame, is_live
from zonkcam.table.observe import TableEvent, TableReport, TableWatcher, WatchConfig
from zonkcam.table.teaching import (
    THROWS,
    Meet,
    Teacher,
    meet_face_by_face,
    meet_the_dice,
)
from zonkcam.table.zones import TableDie

CAMERA_TRIES = 10
"""A camera that fails this many times in a row with no frame between (about a minute of
reopening) ends `watch` with exit status 1; a file or folder after sources.FILE_TRIES."""


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "watch",
        help="print the table's observations (rolls, keeps, hands) as JSON lines",
        description="Watches the mat: reports rolling, settled rolls with each die's value, "
        "colour and zone (rolling, keep, off the mat, touching a board image), hands in "
        "view, cocked dice and camera problems, one JSON object per line.",
    )
    options.add_source(p)
    options.add_calibration(p)
    p.add_argument("--annotate", metavar="DIR", help="save each reported frame, annotated")
    p.add_argument(
        "--frames",
        type=int,
        default=0,
        help="stop after this many frames (default: run until the source ends)",
    )
    p.add_argument(
        "--still-frames",
        type=int,
        default=WatchConfig.still_frames,
        help="frames without motion before reading (default %(default)s)",
    )
    p.add_argument(
        "--reads",
        type=int,
        default=WatchConfig.min_reads,
        help="reads of a still table voted before it is reported (default "
        "%(default)s; more when they disagree)",
    )
    options.add_reader(p)
    p.add_argument(
        "--camera-tries",
        type=int,
        default=CAMERA_TRIES,
        metavar="N",
        help="give a camera up after N failures in a row with no frame between (default "
        "%(default)s, about a minute; 0: never); a file or folder is given up after "
        f"{FILE_TRIES}",
    )
    options.add_meet_dice(
        p,
        "first teach the table its dice. 'faces' (the default): every die showing 1 on "
        "the mat, then 2, ... 6, Enter taking each (r: redo the last face, done: end; from "
        "a video or image folder, or with no terminal, each still scene in turn); 'throws' "
        f"(or a number of throws, default {THROWS}): after each settled throw type the right "
        "values or Enter. What is taught is kept beside the calibration",
    )
    p.add_argument(
        "--forget-dice",
        action="store_true",
        help="forget the dice this table was taught (taught-dice.npz beside the calibration)",
    )
    options.add_seed(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.still_frames < 1 or args.reads < 1:
        raise UserError("--still-frames and --reads must be 1 or more")
    if args.camera_tries < 0:
        raise UserError("--camera-tries takes a number of tries, or 0 for never giving up")
    table = open_table(
        args.source,
        calibration=args.calibration,
        model_dir=args.model_dir,
        threads=args.threads,
        seed=args.seed,
        teach=_note,
        forget_dice=args.forget_dice,
        say=_note,
    )
    source, cal, reader, first = table.source, table.calibration, table.reader, table.first
    teacher = table.teacher
    if table.demo and args.calibration is None:
        _note("the demo table calibrated itself from its empty mat")
    watcher = TableWatcher(
        cal,
        reader,
        WatchConfig(
            still_frames=args.still_frames,
            min_reads=args.reads,
            max_reads=max(args.reads, WatchConfig.max_reads),
        ),
    )
    annotate = Path(args.annotate) if args.annotate else None
    if annotate:
        try:
            annotate.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise WriteFailed(exc.errno, exc.strerror or str(exc), args.annotate) from None
    _emit(
        {
            "event": "started",
            "source": source.name,
            "mat": cal.geometry.name,
            "px_per_mm": round(cal.px_per_mm, 3),
        }
    )
    shift = camera_shift(first.image, cal)
    if shift is not None and shift > MOVED_PX:
        _emit(
            {
                "event": "camera-moved",
                "frame": first.index,
                "message": f"the mat's markers are {shift:.0f} px from where calibration saw "
                "them: put the camera back or run zonkcam calibrate",
            }
        )
    camera = table.keep_going(args.camera_tries or None)
    last_image = {"image": first.image}
    stopped: list[str] = []  # why the frames cannot be read any more
    failed: WriteFailed | None = None  # why an annotated frame could not be written

    def remember(stream: Iterator[Frame | CameraProblem]) -> Iterator[Frame | CameraProblem]:
        for item in stream:
            if isinstance(item, CameraProblem):
                if item.repeat:
                    continue  # said once; the source is reopened when its time comes
            else:
                problem = size_problem(item, cal)
                if problem:  # the camera changed its picture: every frame would say so
                    stopped.append(problem)
                    return
                last_image["image"] = item.image
            yield item

    try:
        frames = remember(_limited(camera.frames(), args.frames))
        if args.meet_dice and args.meet_dice.how is Meet.FACES and teacher is not None:
            _meet_faces(frames, watcher, teacher, table)
        observations = watcher.watch(frames)
        if args.meet_dice and args.meet_dice.how is Meet.THROWS and teacher is not None:
            meet_the_dice(observations, teacher, args.meet_dice.throws, _ask, _note)
        for report in observations:
            _emit(report.to_json())
            if annotate is not None and report.event in (
                TableEvent.SETTLED,
                TableEvent.BLOCKED,
                TableEvent.CAMERA_MOVED,
            ):
                try:
                    _annotate(annotate, last_image["image"], cal, report)
                except WriteFailed as exc:  # a full disk, a folder it may not write
                    failed = exc
                    break
    finally:
        camera.close()
    if failed is not None:
        _emit({"event": "stopped", "bad_frames": camera.bad_frames, "error": str(failed)})
        print(f"zonkcam watch: --annotate: {failed}", file=sys.stderr)
        return 1
    if stopped:
        _emit({"event": "stopped", "bad_frames": camera.bad_frames, "error": stopped[0]})
        print(f"zonkcam watch: {source.name}: {stopped[0]}", file=sys.stderr)
        return 1
    if camera.gave_up is not None:
        _emit(
            {"event": "stopped", "bad_frames": camera.bad_frames, "error": camera.gave_up.message}
        )
        print(f"zonkcam watch: {source.name}: {camera.gave_up.message}", file=sys.stderr)
        return 1
    _emit({"event": "stopped", "bad_frames": camera.bad_frames})
    return 0


def _meet_faces(
    frames: Iterator[Frame | CameraProblem],
    watcher: TableWatcher,
    teacher: Teacher,
    table: TableCamera,
) -> None:
    """Meet the dice face by face before watching: Enter takes each scene at a terminal
    watching a camera; from a video or image folder, or with no terminal, each still
    scene is the next face's. The demo table lays every die showing each face itself."""
    scripted = not is_live(table.source.spec) or not sys.stdin.isatty()
    demo = table.demo_table
    if demo is None:
        meet_face_by_face(frames, watcher, teacher, _note, None if scripted else _ask, None)
        return
    autoplay, demo.autoplay = demo.autoplay, False  # the meeting lays its dice

    def lay(value: int) -> None:
        demo.throw([value] * demo.n_dice)

    try:
        meet_face_by_face(frames, watcher, teacher, _note, None if scripted else _ask, lay)
    finally:
        demo.autoplay = autoplay


def _limited(stream: Iterator[Frame | CameraProblem], n: int) -> Iterator[Frame | CameraProblem]:
    for k, item in enumerate(stream):
        if n and k >= n:
            return
        yield item


def _note(text: str) -> None:
    print(f"zonkcam watch: {text}", file=sys.stderr, flush=True)


def _ask(prompt: str) -> str | None:
    """A line from the scorekeeper (None at the end of input)."""
    print(prompt, end="", file=sys.stderr, flush=True)
    line = sys.stdin.readline()
    return line if line else None


def _emit(obj: dict) -> None:
    print(json.dumps(obj), flush=True)


def _annotate(folder: Path, image: np.ndarray, cal: Calibration, report: TableReport) -> None:
    out = draw_dice(draw_zones(image, cal), report.dice, label=_label)
    write_image(folder / f"frame-{report.frame:06d}-{report.event}.png", out)


def _label(die: TableDie) -> str:
    """A die as `watch --annotate` names it: its value and colour ("?": unread; or
    "cocked"), and the board images it touches."""
    label = "cocked" if die.cocked else "?" if die.unread else f"{die.value} {die.color or ''}"
    label = label.strip()
    if die.touching:
        label += " " + "/".join(die.touching)
    return label
