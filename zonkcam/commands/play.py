"""`zonkcam play`: the table app (camera, screen, buttons), or `--text` in a terminal.

With a Pi camera it plays for real; with no camera it plays the demo game: the demo
table throws dice, automatic players choose keeps and bank, and everything runs through
the real reader, table logic, rules engine and screen. With no display it plays one short
game on SDL's dummy driver, saves a screenshot per turn and prints the game log. The demo
plays only its own games: a game people played is never handed to its players.
"""

from __future__ import annotations

import argparse

from zonkcam.commands import options
from zonkcam.commands.options import whole_number
from zonkcam.errors import UserError
from zonkcam.record.photos import DEFAULT_BUDGET_MB
from zonkcam.table.teaching import THROWS
from zonkcam.vision.confidence import CONFIRM_BELOW

DEMO_PLAYERS = ("Ann", "Bob", "Cy")


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "play",
        help="keep score at the table (camera + screen; the demo game without a "
        "camera; --text for the terminal)",
        description=__doc__,
    )
    p.add_argument("--text", action="store_true", help="the terminal scorekeeper instead")
    p.add_argument("--rules", help="preset name or TOML file")
    p.add_argument("--players", nargs="+", metavar="NAME", help="players in turn order")
    p.add_argument(
        "--resume",
        nargs="?",
        const="latest",
        metavar="GAME",
        help="resume a saved game (default: the latest unfinished one)",
    )
    p.add_argument(
        "--new",
        action="store_true",
        help="start a new game even if one is unfinished (by default the app resumes the "
        "latest unfinished game; --text asks)",
    )
    options.add_db(p)
    options.add_source(p)
    options.add_calibration(p)
    p.add_argument(
        "--games",
        type=whole_number(0),
        default=0,
        help="demo: stop after this many games (default: 1 without a display, else keep playing)",
    )
    p.add_argument("--fast", action="store_true", help="demo: do not wait for real time")
    p.add_argument(
        "--screenshots",
        metavar="DIR",
        help="without a display: where to save a screenshot per turn (default: "
        "$XDG_DATA_HOME/zonkcam/screenshots)",
    )
    p.add_argument(
        "--size",
        help="window size WxH (default: full screen on a Pi, else a window that fits the "
        "desktop; 800x480 without a display)",
    )
    p.add_argument(
        "--fullscreen",
        action="store_true",
        help="full screen on a desktop too (the desktop's service plays so)",
    )
    p.add_argument("--mute", action="store_true", help="no sound effects")
    options.add_pins(p)
    options.add_reader(p)
    p.add_argument(
        "--confirm-below",
        type=float,
        metavar="BAR",
        help="show the dice read with a confidence under BAR (0-1) with a '?' "
        f"for the players to confirm (default {CONFIRM_BELOW:g}; `zonkcam eval` counts them)",
    )
    p.add_argument(
        "--photo-budget",
        type=float,
        default=DEFAULT_BUDGET_MB,
        metavar="MB",
        help="disk kept for the photo of each roll beside the game log, oldest "
        "games' photos dropped first (default %(default)g MB; 0: no photos)",
    )
    options.add_meet_dice(
        p,
        "first teach the table its dice on the screen: 'faces' (the default): every "
        "die showing 1 on the mat, then 2, ... 6, each taken with ROLL; 'throws' (or a "
        f"number of throws, default {THROWS}): throw all the dice, fix any die misread, "
        "confirm. Kept beside the calibration (the demo table: for this run only). The "
        "set-up screen offers it too",
    )
    p.add_argument(
        "--forget-dice",
        action="store_true",
        help="forget the dice this table was taught (it learns them again from the rolls "
        "the scorekeeper confirms or corrects; --meet-dice teaches them at once)",
    )
    options.add_seed(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.text:
        if args.meet_dice:
            raise UserError(
                "--meet-dice teaches the camera's reader, and --text reads no camera "
                "(in a terminal: zonkcam watch --meet-dice)"
            )
        from zonkcam.app.text import run_text

        return run_text(args)
    args.size = parse_size(args.size)
    args.pins = parse_pins(args.pins)
    args.confirm_below = confirm_bar(args.confirm_below)
    if args.photo_budget < 0:
        raise UserError("--photo-budget takes megabytes, 0 or more (0: no photos)")
    from zonkcam.app.main import AppConfig, run_app

    return run_app(AppConfig.from_args(args))


def parse_size(text: str | None) -> tuple[int, int] | None:
    if not text:
        return None
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise UserError(f"--size takes WIDTHxHEIGHT, e.g. 800x480, not {text!r}") from None
    if not (320 <= w <= 7680 and 240 <= h <= 4320):
        raise UserError("--size is out of range (320x240 to 7680x4320)")
    return w, h


def confirm_bar(value: float | None) -> float:
    """--confirm-below as given, or the screen's default bar; refused outside 0-1."""
    bar = CONFIRM_BELOW if value is None else value
    if not 0 <= bar <= 1:
        raise UserError(f"--confirm-below {bar:g}: give a confidence from 0 to 1")
    return bar


def parse_pins(text: str) -> tuple[int, int, int]:
    try:
        pins = tuple(int(v) for v in text.split(","))
    except ValueError:
        pins = ()
    if len(pins) != 3 or len(set(pins)) != 3 or not all(0 <= p <= 27 for p in pins):
        raise UserError(
            f"--pins takes three different BCM pin numbers 0-27, e.g. 17,27,22, not {text!r}"
        )
    return pins  # type: ignore[return-value]
