"""`zonkcam bench app`: from the dice coming to rest to the roll's score on the screen, in
real time.

Plays throws and keeps on the demo table through the whole app (learned reader, table
watcher, game flow, rules engine, event log, screen drawing on SDL's dummy driver), as a
camera at 30 fps would feed it: frame k is taken at k/30 s; the app works on one frame at
a time and, when it falls behind, takes the newest frame taken by then (the others are
lost, as with a real camera). For each settled throw (and keep) it reports the time from
the first frame in which every die lies still to the moment the app has drawn the screen
showing it. The demo table is seen through a realistic camera by default (15 degree
tilt, barrel distortion, uneven light, blur, JPEG, clutter round the mat), at 1280x960.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import statistics
import tempfile
import time
from pathlib import Path

FPS = 30.0


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def run(args: argparse.Namespace) -> int:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from zonkcam.app.loop import TableApp
    from zonkcam.display.game_screen import GameScreen
    from zonkcam.display.sounds import Sounds
    from zonkcam.display.window import Window
    from zonkcam.game import actions as A
    from zonkcam.game.rules import PRESETS
    from zonkcam.game.state import Phase
    from zonkcam.mat.calibrate import calibrate
    from zonkcam.record.logged_game import LoggedGame
    from zonkcam.record.store import EventLog
    from zonkcam.sim.demo_table import DemoTable
    from zonkcam.sim.lens import LOOKS
    from zonkcam.table.observe import TableWatcher
    from zonkcam.testing import TruthReader

    w, h = args.size
    table = DemoTable(
        seed=args.seed,
        autoplay=False,
        size=(w, h),
        look=LOOKS[args.look],
        rest_frames=20,
        tumble_frames=(10, 16),
    )
    first = table.read()
    cal = calibrate(first.image, table.geometry)
    if args.reader == "onnx":
        from zonkcam.table.reading import OnnxReader

        reader = OnnxReader.for_table(cal, threads=args.threads)
    else:
        reader = TruthReader(table)
    # a table where nobody wins, so every throw is a new roll
    rules = dataclasses.replace(PRESETS["chicago"], target=10**9)
    latency: dict[str, list[float]] = {"roll": [], "keep": []}
    per_frame: list[float] = []
    right = wrong = 0
    with (
        tempfile.TemporaryDirectory(prefix="zonkcam-bench-") as tmp,
        EventLog(Path(tmp) / "g.db") as log,
        Window.open((800, 480), screenshots=Path(tmp)) as window,
    ):
        window.screenshot_every = float("inf")  # a screen shows frames; it saves none
        logged = LoggedGame.new(log, rules)
        logged.play(A.Players(("Ann", "Bob")))
        app = TableApp(
            logged,
            TableWatcher(cal, reader),
            GameScreen(window, sounds=Sounds(muted=True)),
            say=lambda line: None,
        )
        app.tick(first)
        busy_until = 0.0  # when the app is free for the next frame (camera seconds)
        for _ in range(args.throws):
            table.pick_up()
            table.throw(n=rules.dice)
            table.rest(15)
            table.keep([])  # found below, once the throw is read
            rest_at: float | None = None
            kind = "roll"
            kept_asked = False
            while table.busy or not kept_asked:
                if not table.busy:
                    rolled = [d.value for d in table.truth().rolled]
                    keep = [v for v in rolled if v in (1, 5)][:2] or rolled[:1]
                    table.keep(keep)
                    kind, kept_asked = "keep", True
                    continue
                frame = table.read()
                taken = frame.index / FPS
                still = not frame.truth.moving and not frame.truth.hand
                if not still:
                    rest_at = None
                elif rest_at is None:
                    rest_at = taken
                if taken < busy_until:
                    continue  # the app is still busy with an earlier frame: this one is lost
                events = len(app.logged.game.events)
                start = time.perf_counter()
                app.tick(frame)
                spent = (time.perf_counter() - start) * args.slowdown
                per_frame.append(spent * 1000)
                busy_until = max(taken, busy_until) + spent
                added = app.logged.game.events[events:]
                if added and rest_at is not None:
                    latency[kind].append((busy_until - rest_at) * 1000)
                    roll = next((e for e in added if isinstance(e, A.Roll)), None)
                    if roll is not None:
                        truth = sorted(d.value for d in frame.truth.rolled)
                        read = sorted(d.value for d in roll.dice)
                        right += read == truth
                        wrong += read != truth
            # end the turn so the next throw is a fresh roll of all dice
            state = app.logged.state
            if state.phase is Phase.DECIDE and state.turn.score and state.turn.score.keeps:
                app.play(A.Keep(state.turn.score.keeps[0].dice))
            if app.logged.state.phase is Phase.ROLL and app.logged.state.turn.total:
                app.play(A.Bank())
            elif app.logged.state.turn.total:
                app.play(A.Bank())
    print(
        f"demo table {w}x{h} ({args.look} camera), {args.throws} throws, reader: "
        f"{args.reader}, {args.threads} thread(s)"
        + (f", processing counted {args.slowdown:g} times over" if args.slowdown != 1 else "")
    )
    print(
        f"rolls scored: {len(latency['roll'])} ({right} read right, {wrong} wrong); "
        f"keeps: {len(latency['keep'])}"
    )
    for kind, values in latency.items():
        if values:
            print(
                f"rest to {kind} on screen: median {statistics.median(values):.0f} ms, "
                f"p95 {pct(values, 0.95):.0f} ms, max {max(values):.0f} ms"
            )
    if per_frame:
        print(
            f"processing per frame: median {statistics.median(per_frame):.1f} ms, "
            f"p95 {pct(per_frame, 0.95):.1f} ms, max {max(per_frame):.1f} ms"
        )
    return 0
