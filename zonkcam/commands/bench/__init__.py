"""`zonkcam bench`: the benchmarks behind docs/measured.md.

Alone, the reader's speed and memory (:mod:`.reader`); with --engine, what a long game
costs (:mod:`.engine`); and one mode each for the scoring of every roll
(:mod:`.scoring`), drawing the screen (:mod:`.screen`), the table watcher on the demo
table (:mod:`.table`), the whole app from dice at rest to the score on screen
(:mod:`.app`), the advisor (:mod:`.advisor`) and the demo's automatic players
(:mod:`.players`). Each mode's module is loaded only when it runs.
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable
from pathlib import Path

from zonkcam.commands import options
from zonkcam.commands.options import whole_number
from zonkcam.game.names import quoted
from zonkcam.game.rules import PRESETS
from zonkcam.mat.layout import SIZES

LOOK_NAMES = ("plain", "realistic")
"""The demo camera's looks (zonkcam.sim.lens.LOOKS) by name, for --look: named here so
that building the command line loads nothing of the simulator."""


def _mode(name: str) -> Callable[[argparse.Namespace], int]:
    """The run() of zonkcam.commands.bench.<name>, imported when called."""

    def run(args: argparse.Namespace) -> int:
        if "threads" in args and args.threads is None:  # the figures name their threads
            from zonkcam.vision.model import default_threads

            args.threads = default_threads()
        return importlib.import_module(f"{__name__}.{name}").run(args)

    return run


def _size(text: str) -> tuple[int, int]:
    """An argparse type: WIDTHxHEIGHT in pixels."""
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        w = h = 0
    if w < 16 or h < 16:
        raise argparse.ArgumentTypeError(
            f"give the size as WIDTHxHEIGHT, each 16 or more, not {quoted(text)}"
        )
    return w, h


def _fraction(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"give a number, not {quoted(text)}") from None


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "bench",
        help="the benchmarks: the reader (alone), the game record (--engine), and the "
        "scoring, screen, table, app, advisor and players modes",
        description="Alone: times the reader (decode excluded, as `zonkcam read` runs it) "
        "on the validation photos of the labelled sets found under ../shared/datasets, "
        "and on seeded rendered table frames of six dice at 640x480, 1280x960 and "
        "2304x1296 (how many it reads exactly too); then the peak memory of `zonkcam read` "
        "over those photos. A mode measures something else: `zonkcam bench MODE --help`.",
    )
    p.add_argument(
        "--photos",
        type=whole_number(0),
        default=0,
        help="at most this many validation photos per set (default 0: all)",
    )
    p.add_argument(
        "--frames", type=whole_number(1), default=30, help="rendered frames per size (default 30)"
    )
    options.add_reader(p)
    p.add_argument("--seed", type=int, default=0, help="seed of the rendered frames (default 0)")
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    p.add_argument(
        "--engine",
        action="store_true",
        help="the game record instead: time per action, undo, resume (from the SQLite log) "
        "and one frame drawn with a keep on screen, against the game's length (100 to "
        "10,000 actions)",
    )
    p.set_defaults(func=_run_alone)
    modes = p.add_subparsers(dest="mode", metavar="MODE")

    m = modes.add_parser(
        "scoring",
        help="every legal keep of all 46,656 six-dice rolls, per preset (µs a roll)",
        description="Lists every legal keep for all 46,656 six-dice rolls under each preset "
        "and reports microseconds per roll on one core: cold (caches cleared before the "
        "pass), warm (a second pass) and uncached (the cache cleared before each distinct "
        "sorted roll).",
    )
    m.add_argument(
        "--rules",
        nargs="+",
        choices=tuple(PRESETS),
        default=list(PRESETS),
        help="the presets to time (default: all)",
    )
    m.set_defaults(func=_mode("scoring"))

    m = modes.add_parser(
        "screen",
        help="ms to draw one game screen, at 800x480, 1280x720 and 1920x1080",
        description="How long drawing one game screen takes (a roll with its keeps, over a "
        "1280x960 camera frame), at 800x480, 1280x720 and 1920x1080, on SDL's dummy driver.",
    )
    m.add_argument(
        "--frames", type=whole_number(1), default=100, help="frames drawn per size (default 100)"
    )
    m.set_defaults(func=_mode("screen"))

    m = modes.add_parser(
        "table",
        help="the table watcher on the demo table: rolls reported, values, latency",
        description="Throws five dice on the demo table and measures, for every settled "
        "roll, the frames from the last frame in which a die moved to the frame whose "
        "observation reports the roll (target: at most 10 at 30 fps), the values read, "
        "and the watcher's time per frame (reading included, rendering excluded).",
    )
    _demo_throws(m, size=(960, 720), seed=0, look="plain")
    m.add_argument(
        "--mat", choices=SIZES, default="a3", help="the printed mat the dice are thrown on"
    )
    m.add_argument(
        "--detail",
        type=whole_number(1),
        default=1,
        metavar="K",
        help="render the table K times larger and give each frame that picture as its "
        "detail, which the dice are read from (the frames stay --size)",
    )
    m.add_argument(
        "--read",
        choices=("detail", "frame"),
        default="detail",
        help="with --detail: read the dice from the detail (default) or from the frame "
        "alone (the same frames, for comparison)",
    )
    m.add_argument(
        "--confirm-below",
        type=_fraction,
        default=None,
        metavar="BAR",
        help="count the dice read under this confidence (default: the screen's '?' bar)",
    )
    m.set_defaults(func=_mode("table"))

    m = modes.add_parser(
        "app",
        help="the whole app, dice at rest to the score on screen, at 30 fps (ms)",
        description="Plays throws and keeps on the demo table through the whole app "
        "(reader, table watcher, game flow, rules engine, event log, screen drawing on "
        "SDL's dummy driver) as a 30 fps camera feeds it, frames lost while the app is "
        "busy, and reports the time from the first frame in which every die lies still to "
        "the screen showing the roll (and the keep).",
    )
    _demo_throws(m, size=(1280, 960), seed=7, look="realistic")
    m.add_argument("--threads", type=whole_number(1), help=options.THREADS_HELP)
    m.add_argument(
        "--slowdown",
        type=_fraction,
        default=1.0,
        metavar="X",
        help="count each frame's processing X times over: a slower machine "
        "(a Pi 5 is about 2.5 times slower than the build machine)",
    )
    m.set_defaults(func=_mode("app"))

    m = modes.add_parser(
        "advisor",
        help="the advisor's single-turn solve and advice per table; two-player tables",
        description="For each preset and each rules file given: the cold single-turn "
        "solve, one piece of advice for random states of random games (the first, which "
        "solves; the median and worst of the rest) and a final round's last turn at a new "
        "lead. With --race: two-player tables built by `zonkcam solve` (size, load time, "
        "turn values, two-player advice with the table loaded).",
    )
    m.add_argument(
        "files",
        nargs="*",
        type=Path,
        metavar="RULES.toml",
        help="rules files to time after the presets (the published tables: "
        "tests/data/zilch.toml tests/data/farkle.toml)",
    )
    m.add_argument(
        "--rules",
        nargs="*",
        choices=tuple(PRESETS),
        default=list(PRESETS),
        help="the presets to time (default: all)",
    )
    m.add_argument(
        "--states",
        type=whole_number(1),
        default=400,
        help="states of random games advised on per table (default 400)",
    )
    m.add_argument(
        "--race",
        nargs="+",
        type=Path,
        default=[],
        metavar="FILE",
        help="two-player table files to time instead",
    )
    m.set_defaults(func=_mode("advisor"))

    m = modes.add_parser(
        "players",
        help="whole games of the demo's automatic players: rolls a game, decision time",
        description="Plays whole three-player games per table with the demo game's "
        "automatic players straight through the engine (random dice, seeded) and reports "
        "the rolls a game takes and the players' decision time per roll.",
    )
    m.add_argument("--games", type=whole_number(1), default=60, help="games per table (default 60)")
    m.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    m.add_argument(
        "--rules",
        nargs="+",
        choices=tuple(PRESETS),
        default=["classic-10000", "chicago"],
        help="the presets to play (default classic-10000 chicago)",
    )
    m.set_defaults(func=_mode("players"))


def _run_alone(args: argparse.Namespace) -> int:
    return _mode("engine" if args.engine else "reader")(args)


def _demo_throws(
    m: argparse.ArgumentParser, *, size: tuple[int, int], seed: int, look: str
) -> None:
    """The options of a mode that throws dice on the demo table and reads them."""
    m.add_argument("--throws", type=whole_number(1), default=20, help="throws (default 20)")
    m.add_argument(
        "--reader",
        choices=("onnx", "truth"),
        default="onnx",
        help="onnx: the learned reader (default); truth: what the demo table drew",
    )
    m.add_argument(
        "--size", type=_size, default=size, help=f"frame size WxH (default {size[0]}x{size[1]})"
    )
    m.add_argument("--seed", type=int, default=seed, help=f"seed of the throws (default {seed})")
    m.add_argument(
        "--look",
        choices=LOOK_NAMES,
        default=look,
        help=f"the demo camera: plain, or realistic (tilt, distortion, JPEG, ...); default {look}",
    )
