"""`zonkcam bench table`: settled-roll latency on the demo table.

Throws dice on the demo table and measures, for every settled roll, the frames from
the last frame in which a die moved to the frame whose report says the roll
(target: at most 10 frames at 30 fps), plus the watcher's time per frame (reading
included, rendering excluded).
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import time

from zonkcam.commands.play import confirm_bar
from zonkcam.mat.calibrate import calibrate
from zonkcam.sim.demo_table import DemoTable
from zonkcam.sim.lens import LOOKS
from zonkcam.table.observe import TableEvent, TableWatcher
from zonkcam.table.tracking import Change
from zonkcam.testing import TruthReader


def run(args: argparse.Namespace) -> int:
    w, h = args.size
    bar = confirm_bar(args.confirm_below)
    table = DemoTable(
        seed=args.seed,
        size=(w, h),
        autoplay=False,
        look=LOOKS[args.look],
        detail=args.detail,
        geometry=args.mat,
    )
    empty = table.read()
    if args.reader == "onnx":
        from zonkcam.table.reading import OnnxReader

        reader = OnnxReader.for_table(calibrate(empty.image, table.geometry), threads=1)
    else:
        reader = TruthReader(table)
    watcher = TableWatcher(calibrate(empty.image, table.geometry), reader)
    latencies, ms, right, reports, wrong = [], [], 0, 0, []
    read_dice, asked = 0, 0
    last_moving = 0
    for throw in range(args.throws):
        table.pick_up()
        table.throw(n=5)
        while table.busy:
            frame = table.read()
            if frame.truth.moving or frame.truth.hand:
                last_moving = frame.index
            seen = frame if args.read == "detail" else dataclasses.replace(frame, detail=None)
            start = time.perf_counter()
            observations = watcher.process(seen)
            ms.append((time.perf_counter() - start) * 1000)
            for o in observations:
                if o.event == TableEvent.SETTLED and o.change == Change.ROLL:
                    reports += 1
                    latencies.append(frame.index - last_moving)
                    truth = sorted(d.value for d in frame.truth.rolled)
                    read = sorted(d.value for d in o.rolled if not d.cocked)
                    read_dice += len(o.rolled)
                    asked += sum(d.confidence < bar for d in o.rolled)
                    right += read == truth
                    if read != truth:
                        wrong.append(f"  throw {throw + 1}: read {read}, thrown {truth}")
    detail = (
        f", read from a {args.detail}x detail ({w * args.detail}x{h * args.detail})"
        if args.detail > 1 and args.read == "detail"
        else f", rendered at {args.detail}x, read from the frame"
        if args.detail > 1
        else ""
    )
    print(
        f"demo table {w}x{h} ({args.look} camera, {table.geometry.name} mat), "
        f"{args.throws} throws of 5 dice, "
        f"reader: {args.reader}{detail}"
    )
    print(f"settled rolls reported: {reports} (throws: {args.throws}); values right: {right}")
    print("\n".join(wrong), end="\n" if wrong else "")
    print(f"dice read with confidence under {bar:g} (a '?' on the screen): {asked} of {read_dice}")
    if latencies:
        print(
            f"latency, frames from the last moving frame to the report: median "
            f"{statistics.median(latencies):g}, max {max(latencies)} "
            f"({max(latencies) / 30 * 1000:.0f} ms at 30 fps)"
        )
    if ms:
        ms.sort()
        print(
            f"watcher ms per frame: median {statistics.median(ms):.1f}, "
            f"p95 {ms[int(0.95 * (len(ms) - 1))]:.1f}, max {ms[-1]:.1f}, "
            f"mean {statistics.fmean(ms):.2f} ({len(ms)} frames)"
        )
    return 0
