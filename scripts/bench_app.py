"""Benchmark: from the dice coming to rest to the score on screen, on the demo table.

Plays demo throws through the whole app (learned reader, table watcher, game flow,
rules engine, event log, screen drawing on SDL's dummy driver) and reports, per settled
roll, the time from the first frame in which every die lies still to the screen showing
the roll's score: the frames waited (at 30 fps) plus the processing of the frame that
reports it. Also the processing time per frame (it must stay under 33 ms to keep up).

Run: python scripts/bench_app.py [--throws 20] [--reader onnx|truth]
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import statistics
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from zonkcam.app import TableApp  # noqa: E402
from zonkcam.app_main import demo_table  # noqa: E402
from zonkcam.calibration.calibrate import calibrate  # noqa: E402
from zonkcam.display.game_screen import GameScreen  # noqa: E402
from zonkcam.display.sounds import Sounds  # noqa: E402
from zonkcam.display.window import Window  # noqa: E402
from zonkcam.game import actions as A  # noqa: E402
from zonkcam.game.rules import PRESETS  # noqa: E402
from zonkcam.scorekeeper import Scorekeeper  # noqa: E402
from zonkcam.store import EventLog  # noqa: E402
from zonkcam.table.demo import TruthReader  # noqa: E402
from zonkcam.table.observe import TableWatcher  # noqa: E402

FPS = 30.0


def main() -> None:
    ap = argparse.ArgumentParser(description="rest-to-screen latency on the demo table")
    ap.add_argument("--throws", type=int, default=20)
    ap.add_argument("--reader", choices=("onnx", "truth"), default="onnx")
    args = ap.parse_args()
    table = demo_table(seed=7)
    first = table.read()
    if args.reader == "onnx":
        from zonkcam.table.reading import OnnxReader

        reader = OnnxReader.for_table(calibrate(first.image, table.geometry), threads=1)
    else:
        reader = TruthReader(table)
    # a table where nobody wins soon, so every throw is a new roll
    rules = dataclasses.replace(PRESETS["chicago"], target=10**9)
    tmp = Path(tempfile.mkdtemp(prefix="zonkcam-bench-"))
    latencies, per_frame, rolls = [], [], 0
    with EventLog(tmp / "g.db") as log, Window.open((800, 480), screenshots=tmp) as window:
        keeper = Scorekeeper.new(log, rules)
        keeper.play(A.Players(("Ann", "Bob")))
        app = TableApp(keeper, TableWatcher(calibrate(first.image, table.geometry), reader),
                       GameScreen(window, sounds=Sounds(muted=True)), say=lambda line: None)
        for _ in range(args.throws):
            table.pick_up()
            table.throw(n=rules.dice)
            rest_frame = None
            while table.busy:
                frame = table.read()
                if frame.truth.moving or frame.truth.hand:
                    rest_frame = None
                elif rest_frame is None:
                    rest_frame = frame.index
                events = len(app.keeper.game.events)
                start = time.perf_counter()
                app.tick(frame)
                spent = time.perf_counter() - start
                per_frame.append(spent * 1000)
                added = app.keeper.game.events[events:]
                if any(isinstance(e, A.Roll) for e in added) and rest_frame is not None:
                    rolls += 1
                    latencies.append((frame.index - rest_frame) / FPS * 1000 + spent * 1000)
            # end the turn so the next throw is a fresh roll of all dice
            if app.keeper.state.phase.value == "decide":
                app.play(A.Keep(app.keeper.state.turn.score.best.dice))
                app.play(A.Bank())
    per_frame.sort()
    print(f"demo table 640x480, {args.throws} throws, reader: {args.reader}; rolls scored: "
          f"{rolls}")
    if latencies:
        print(f"rest to score on screen: median {statistics.median(latencies):.0f} ms, "
              f"max {max(latencies):.0f} ms (target under 400 ms)")
    print(f"processing per frame: median {statistics.median(per_frame):.1f} ms, "
          f"p95 {per_frame[int(0.95 * (len(per_frame) - 1))]:.1f} ms, max {per_frame[-1]:.1f}")


if __name__ == "__main__":
    main()
