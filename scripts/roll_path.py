"""Lab measure: one roll followed from the camera frame to its score on the screen.

Plays the demo table through the whole app (the learned reader, the table watcher, the
game flow, the rules engine, the event log, the screen on SDL's dummy driver) and traces
the frame in which a throw comes to rest and is scored. The path is every zonkcam function
that frame runs, each taken once, in the order it is first called: what a newcomer reads
to follow the roll. It prints how often the path goes back into a file (and a package) it
had left, and each call from a lower layer of the architecture into a higher one (a
callback up); ``--path`` prints the path itself.

    python scripts/roll_path.py            # the counts
    python scripts/roll_path.py --path     # and each function on the way
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.test_layout import LAYERS  # noqa: E402

PACKAGE = ROOT / "zonkcam"
NOT_THE_PATH = ("sim", "testing")
"""The simulator is the camera here and the truth reader's fakes are not the product."""


@dataclasses.dataclass(frozen=True)
class Step:
    file: str  # relative to zonkcam/
    function: str
    caller: str | None  # the calling function's file, where it is zonkcam's

    @property
    def package(self) -> str:
        return _package(self.file)


def _package(file: str) -> str:
    return file.split("/")[0].removesuffix(".py")


def layer(package: str) -> int:
    return next(k for k, names in enumerate(LAYERS) if package in names)


def trace(run, depth: int) -> tuple[list[Step], list[Step]]:
    """The zonkcam functions ``run()`` calls, at most ``depth`` calls below it, each once
    in the order first called; and the callbacks: calls from one file into another that
    is further down the stack, so already waiting on the caller."""
    seen: dict[tuple[str, str], Step] = {}
    back: dict[tuple[str, str, str], Step] = {}
    top = sys._getframe()

    def relative(code) -> str | None:
        path = Path(code.co_filename)
        if not path.is_relative_to(PACKAGE):
            return None
        name = path.relative_to(PACKAGE).as_posix()
        return None if name.split("/")[0] in NOT_THE_PATH else name

    def profile(frame, event, arg) -> None:
        if event != "call":
            return
        file = relative(frame.f_code)
        if file is None:
            return
        stack, up = [], frame.f_back
        while up is not None and up is not top:
            stack.append(relative(up.f_code))
            up = up.f_back
        caller = stack[0] if stack else None
        name = frame.f_code.co_qualname
        if name.endswith(("<genexpr>", "<listcomp>", "<dictcomp>", "<setcomp>")):
            return  # a generator handed down is data read lazily, not a call back
        if caller is not None and caller != file and file in stack[1:]:
            back.setdefault((caller, file, name), Step(file, name, caller))
        if name.endswith("<lambda>"):
            return
        if (file, name) not in seen and len(stack) <= depth + 1:
            seen[(file, name)] = Step(file, name, caller)

    sys.setprofile(profile)
    try:
        run()
    finally:
        sys.setprofile(None)
    return list(seen.values()), list(back.values())


def back_into(names: list[str]) -> int:
    """How often the sequence goes back to a name it had left."""
    left: set[str] = set()
    count = 0
    for prev, name in zip(names, names[1:], strict=False):
        if name != prev:
            left.add(prev)
            count += name in left
    return count


def one_roll(depth: int) -> tuple[list[Step], list[Step]]:
    from zonkcam.app.loop import TableApp
    from zonkcam.display.game_screen import GameScreen
    from zonkcam.display.sounds import Sounds
    from zonkcam.display.window import Window
    from zonkcam.game import actions as A
    from zonkcam.game.rules import PRESETS
    from zonkcam.mat.calibrate import calibrate
    from zonkcam.record.logged_game import LoggedGame
    from zonkcam.record.store import EventLog
    from zonkcam.sim.demo_table import DemoTable
    from zonkcam.table.observe import TableWatcher
    from zonkcam.table.reading import OnnxReader

    table = DemoTable(seed=3, autoplay=False, size=(1280, 960), rest_frames=20)
    first = table.read()
    cal = calibrate(first.image, table.geometry)
    with (
        tempfile.TemporaryDirectory(prefix="zonkcam-roll-path-") as tmp,
        EventLog(Path(tmp) / "g.db") as log,
        Window.open((800, 480), screenshots=Path(tmp)) as window,
    ):
        window.screenshot_every = float("inf")
        logged = LoggedGame.new(log, PRESETS["classic-10000"])
        logged.play(A.Players(("Ann", "Bob")))
        app = TableApp(
            logged,
            TableWatcher(cal, OnnxReader.for_table(cal, threads=1)),
            GameScreen(window, sounds=Sounds(muted=True)),
            say=lambda line: None,
        )
        app.tick(first)
        table.pick_up()
        table.throw(n=5)
        table.rest(30)
        while table.busy:
            frame = table.read()
            events = len(app.logged.game.events)
            traced = trace(lambda frame=frame: app.tick(frame), depth)
            if any(isinstance(e, A.Roll) for e in app.logged.game.events[events:]):
                return traced
    raise SystemExit("the throw was never scored")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--path", action="store_true", help="print each function on the way")
    parser.add_argument(
        "--depth",
        type=int,
        default=3,
        help="how many calls below the app's frame a function may be to count as on the "
        "path (default 3: the functions that hand the roll on, not the helpers they use)",
    )
    args = parser.parse_args(argv)
    steps, callbacks = one_roll(args.depth)
    if args.path:
        for s in steps:
            print(f"{s.file}: {s.function}")
    files = [s.file for s in steps]
    packages = [s.package for s in steps]
    up = [s for s in callbacks if layer(_package(s.caller)) < layer(s.package)]
    print(f"functions on the path (depth {args.depth}): {len(steps)} in {len(set(files))} files")
    print(f"back into a file it had left: {back_into(files)}")
    print(f"back into a package it had left: {back_into(packages)}")
    print(f"callbacks (a call into a file waiting further down the stack): {len(callbacks)}")
    for s in callbacks:
        print(f"  {s.caller} -> {s.file}: {s.function}")
    print(f"of them from a lower layer into a higher one: {len(up)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
