"""Lab soak: the table watcher for a long stretch of camera time on a realistic camera.

The demo table, seen through the realistic camera (15 degree tilt, barrel distortion,
uneven light, blur, JPEG at every frame, clutter round the mat), plays a random script
for ``--minutes`` of camera time at 30 fps: throws, keeps slid into the strip, dice picked
up, a fingertip, cup, phone, sleeve or a hand's shadow in the way, a die nudged by a
finger, a die spinning, a hand fidgeting beside the mat. The dice are read by the learned
reader (one thread) unless ``--reader truth``. Every settled report is checked against
what the table did and drew:

* a throw is one ``roll`` whose dice are those drawn, a keep one ``keep`` of the dice
  moved, a nudge one ``moved``, a pick-up one ``clear``;
* anything in the way, a spin or a fidget reports nothing.

Anything else is a false report. Resident memory is printed every ``--every`` minutes.

Run: python scripts/soak_table.py [--minutes 30] [--size 640x480] [--reader onnx|truth]
"""

from __future__ import annotations

import argparse
import math
import os
import random
import time
from collections import Counter

from zonkcam.mat.calibrate import calibrate
from zonkcam.sim.demo_table import THINGS, DemoTable
from zonkcam.sim.lens import REALISTIC
from zonkcam.table.observe import TableEvent, TableWatcher
from zonkcam.table.tracking import Change
from zonkcam.table.zones import Zone
from zonkcam.testing import TruthReader

FPS = 30.0


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=30.0, help="camera time to play")
    ap.add_argument("--size", default="640x480")
    ap.add_argument("--reader", choices=("onnx", "truth"), default="onnx")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--every", type=float, default=5.0, help="minutes between memory lines")
    args = ap.parse_args()
    w, h = (int(v) for v in args.size.split("x"))
    table = DemoTable(seed=args.seed, autoplay=False, size=(w, h), look=REALISTIC)
    first = table.read()
    cal = calibrate(first.image, table.geometry)
    if args.reader == "onnx":
        from zonkcam.table.reading import OnnxReader

        reader = OnnxReader.for_table(cal, threads=1)
    else:
        reader = TruthReader(table)
    watcher = TableWatcher(cal, reader)
    rng = random.Random(args.seed)
    frames_wanted = int(args.minutes * 60 * FPS)
    done: Counter[str] = Counter()
    false: list[str] = []
    missed: list[str] = []
    blocked_seen = Counter()
    start, next_line = time.monotonic(), 0.0
    print(
        f"soak: {args.minutes:g} min of {w}x{h} realistic frames, reader {args.reader}; "
        f"RSS at start {rss_mb():.1f} MB",
        flush=True,
    )
    frames = 0
    while frames < frames_wanted:
        action, expected = _next_action(table, rng)
        done[action] += 1
        reports = []
        while table.busy:
            frame = table.read()
            frames += 1
            for report in watcher.process(frame):
                if report.event == TableEvent.BLOCKED:
                    blocked_seen[action] += 1
                if report.event != TableEvent.SETTLED:
                    continue
                reports.append(report)
                truth = sorted((str(d.zone), d.value) for d in frame.truth.dice if not d.cocked)
                seen = sorted((str(d.zone), d.value) for d in report.dice if not d.cocked)
                if seen != truth:
                    false.append(f"frame {frame.index} after {action}: read {seen}, drawn {truth}")
            if frames / FPS / 60 >= next_line:
                print(
                    f"{frames / FPS / 60:5.1f} min: RSS {rss_mb():.1f} MB, "
                    f"{time.monotonic() - start:.0f} s",
                    flush=True,
                )
                next_line += args.every
        changes = [o.change for o in reports]
        if expected is None and changes:
            false.append(f"{action}: reported {[str(c) for c in changes]}")
        elif expected is not None and changes != [expected[0]]:
            (missed if not changes else false).append(
                f"{action}: reported {[str(c) for c in changes]}, wanted {expected[0]}"
            )
        elif expected is not None and expected[1] is not None:
            got = sorted(d.value for d in reports[0].keep)
            if got != sorted(expected[1]):
                false.append(f"{action}: kept {got}, moved {sorted(expected[1])}")
    print(
        f"{frames} frames ({frames / FPS / 60:.1f} min of camera time) in "
        f"{time.monotonic() - start:.0f} s; RSS at end {rss_mb():.1f} MB"
    )
    print("actions: " + ", ".join(f"{k} {v}" for k, v in sorted(done.items())))
    print(
        "noticed in the way: "
        + ", ".join(f"{k} {blocked_seen[k]} of {done[k]}" for k in sorted(done) if k in THINGS)
    )
    print(f"false reports: {len(false)}; actions with no report: {len(missed)}")
    for line in false + missed:
        print("  " + line)


def _next_action(table: DemoTable, rng: random.Random) -> tuple[str, tuple | None]:
    """Script one thing on the table; what it should report: (change, kept values) or None."""
    rolled = [d.value for d in table.truth().rolled]
    kept = sum(d.zone == Zone.KEEP for d in table.truth().dice)
    left = table.n_dice - kept
    r = rng.random()
    if not rolled or r < 0.3:
        if not left or rng.random() < 0.3:
            if table.truth().dice:
                table.pick_up()
                return "pick up", (Change.CLEAR, None)
            left = table.n_dice
        table.throw(n=left, off_mat=[0] if rng.random() < 0.05 else ())
        table.rest(rng.randint(5, 40))
        return "throw", (Change.ROLL, None)
    if r < 0.5 and len(rolled) > 1:
        values = rng.sample(rolled, rng.randint(1, min(2, len(rolled) - 1)))
        table.keep(values)
        return "keep", (Change.KEEP, values)
    if r < 0.75:
        thing = rng.choice(THINGS)
        table.put(thing, frames=rng.randint(10, 60), die=rng.randrange(len(rolled)))
        return thing, None
    if r < 0.82:
        push = _free_push(table, rng)
        if push is not None:
            table.nudge(*push)
            return "nudge", (Change.MOVED, None)
    if r < 0.9:
        table.spin(frames=rng.randint(10, 30))
        return "spin", None
    table.fidget(rng.randint(20, 60))
    return "fidget", None


def _free_push(table: DemoTable, rng: random.Random) -> tuple[int, tuple[float, float]] | None:
    """A rolled die and a push of up to 1.8 dice (tracking.SLIDE_DICE calls up to 2 a push)
    that leaves it in the rolling area clear of the other dice, or None."""
    dice = list(table.truth().dice)
    rolled = [d for d in dice if d.zone == Zone.ROLLING]
    area, die = table.geometry.rolling_area, table.geometry.die_mm
    for _ in range(30):
        k = rng.randrange(len(rolled))
        d = rolled[k]
        by = (rng.uniform(-20, 20), rng.uniform(-20, 20))
        x, y = d.x_mm + by[0], d.y_mm + by[1]
        if (
            not (
                area.x + die < x < area.x + area.w - die
                and area.y + die < y < area.y + area.h - die
            )
            or not die < math.hypot(*by) < 1.8 * die
        ):
            continue
        if all(math.dist((x, y), (o.x_mm, o.y_mm)) > 2.2 * die for o in dice if o is not d):
            return k, by
    return None


if __name__ == "__main__":
    main()
