"""The options several commands share, each defined here once with one help text:
``--source`` (play, watch, calibrate, check), ``--calibration`` (play, watch),
``--model-dir`` and ``--threads`` (play, watch, read, eval, bench), ``--db`` (play,
games), ``--seed`` (play, watch) and ``--pins`` (play, check); ``--meet-dice`` (play,
watch: each its own help); and :func:`whole_number`, the type of a count."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from zonkcam.game.names import quoted

if TYPE_CHECKING:
    from zonkcam.table.teaching import Meeting

SOURCE_HELP = (
    "where the frames come from: auto (the Pi camera; play and watch play on the demo "
    "table where there is none), pi[:WIDTH], usb[:N], demo[:LOOK][:MAT] (the demo table), "
    "a video file or a folder of images (default auto)"
)
CALIBRATION_HELP = (
    "calibration file (default: $XDG_CONFIG_HOME/zonkcam/calibration.json; the demo table "
    "calibrates itself)"
)
MODEL_DIR_HELP = (
    "folder with the ONNX models, dice_detector.onnx and dice_values.onnx (default: the "
    "shipped ones)"
)
THREADS_HELP = "onnxruntime threads (default 1, or $ZONKCAM_THREADS)"
DB_HELP = "game log file (default: $XDG_DATA_HOME/zonkcam/games.sqlite3)"
SEED_HELP = "the demo table's seed (default 0)"
PINS_HELP = "GPIO (BCM) pins of the buttons (default 17,27,22)"


def whole_number(least: int) -> Callable[[str], int]:
    """An argparse type: a whole number from ``least`` up."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = least - 1
        if value < least:
            raise argparse.ArgumentTypeError(
                f"give a whole number from {least} up, not {quoted(text)}"
            )
        return value

    parse.__name__ = "whole number"
    return parse


def add_source(p: argparse.ArgumentParser) -> None:
    p.add_argument("--source", default="auto", help=SOURCE_HELP)


def add_calibration(p: argparse.ArgumentParser) -> None:
    p.add_argument("--calibration", help=CALIBRATION_HELP)


def add_reader(p: argparse.ArgumentParser, threads: Callable[[str], int] | None = None) -> None:
    """--model-dir and --threads: the reader's models and its threads (None: 1, or
    $ZONKCAM_THREADS, as zonkcam.vision.model.default_threads says). `threads`: the
    count's argparse type (None: a whole number from 1 up; `read` takes any number and
    refuses one below 1 itself, as it refuses the rest of its input)."""
    p.add_argument("--model-dir", type=Path, metavar="DIR", help=MODEL_DIR_HELP)
    p.add_argument("--threads", type=threads or whole_number(1), help=THREADS_HELP)


def add_db(p: argparse.ArgumentParser, default: Any = None) -> None:
    """--db (`default`: argparse.SUPPRESS where a subcommand's parser must not overwrite
    what its parent's took)."""
    p.add_argument("--db", default=default, help=DB_HELP)


def meeting_word(text: str) -> Meeting:
    """An argparse type: how "meet the dice" goes (``faces``, ``throws`` or a number of
    throws; zonkcam.table.teaching.meeting)."""
    from zonkcam.table.teaching import meeting  # the table's modules, only for the commands

    try:
        return meeting(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


meeting_word.__name__ = "meeting"


def add_meet_dice(p: argparse.ArgumentParser, help: str) -> None:
    """--meet-dice [HOW] (play teaches on the screen, watch at the terminal: each says how
    in its `help`)."""
    from zonkcam.table.teaching import Meeting

    p.add_argument(
        "--meet-dice",
        type=meeting_word,
        nargs="?",
        const=Meeting(),
        default=None,
        metavar="HOW",
        help=help,
    )


def add_pins(p: argparse.ArgumentParser) -> None:
    p.add_argument("--pins", default="17,27,22", metavar="BANK,ROLL,SELECT", help=PINS_HELP)


def add_seed(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seed", type=int, default=0, help=SEED_HELP)
