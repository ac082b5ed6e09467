"""`zonkcam bench`: reader speed on real photos and rendered table frames, and peak memory."""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

from zonkcam.commands.play import whole_number
from zonkcam.commands.read import load_model_or_fail
from zonkcam.game.names import counted

TABLE_SIZES = ((640, 480), (1280, 960), (2304, 1296))
TABLE_DICE = 6


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "bench",
        help="reader ms per photo and per table frame (median, p95), and peak memory",
        description="Times the reader (decode excluded, as `zonkcam read` runs it) "
        "on the validation photos of the labelled sets found under ../shared/datasets, "
        "and on seeded rendered table frames of six dice at 640x480, 1280x960 and "
        "2304x1296 (how many it reads exactly too); then the peak memory of `zonkcam read` "
        "over those photos.",
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
    p.add_argument(
        "--threads", type=whole_number(1), default=1, help="onnxruntime threads (default 1)"
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the rendered frames (default 0)")
    p.add_argument(
        "--model-dir",
        type=Path,
        default=None,
        metavar="DIR",
        help="folder with dice_detector.onnx and dice_values.onnx (default: the shipped ones)",
    )
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    p.add_argument(
        "--engine",
        action="store_true",
        help="the game record instead: time per action, undo, resume (from the SQLite log) "
        "and one frame drawn with a keep on screen, against the game's length (100 to "
        "10,000 actions)",
    )
    p.set_defaults(func=run)


ENGINE_LENGTHS = (100, 1000, 2000, 5000, 10_000)
"""Game lengths `--engine` measures at (actions, the seating included)."""


def run_engine(args: argparse.Namespace) -> int:
    """`zonkcam bench --engine`: what a long game costs."""
    import dataclasses
    import os
    import statistics
    import tempfile

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from zonkcam.app.players import scripted_game
    from zonkcam.display.game_screen import GameScreen
    from zonkcam.display.sounds import Sounds
    from zonkcam.display.window import Window
    from zonkcam.game.game import CHECKPOINT_EVERY, Game
    from zonkcam.game.rules import PRESETS
    from zonkcam.game.state import Phase
    from zonkcam.record.logged_game import LoggedGame
    from zonkcam.record.store import EventLog

    # four players at the classic table with a target nobody reaches: a game of any length
    rules = dataclasses.replace(PRESETS["classic-10000"], target=10**9)
    ahead = 400
    actions = scripted_game(
        rules, ("Ann", "Bob", "Cy", "Di"), max(ENGINE_LENGTHS) + ahead, seed=args.seed
    )

    def ms(operation) -> float:  # noqa: ANN001
        t0 = time.perf_counter()
        operation()
        return (time.perf_counter() - t0) * 1000

    rows = []
    with (
        tempfile.TemporaryDirectory(prefix="zonkcam-bench-") as tmp,
        Window.open((800, 480), screenshots=Path(tmp) / "shots") as window,
    ):
        ui = GameScreen(window, sounds=Sounds(muted=True))
        for n in ENGINE_LENGTHS:
            game = Game(rules, actions[:n])
            per_action = ms(lambda game=game, n=n: [game.play(a) for a in actions[n : n + ahead]])
            # undo after each of a checkpoint's stretch of actions, one after the other
            undos = [ms(game.undo) for _ in range(CHECKPOINT_EVERY)]
            db = Path(tmp) / f"g{n}.sqlite3"
            with EventLog(db) as log:
                game_id = log.new_game(rules, actions[:n])
            resumes = []
            for _ in range(5):
                with EventLog(db) as log:
                    resumes.append(
                        ms(lambda log=log, game_id=game_id: LoggedGame.resume(log, game_id))
                    )
            at = Game(rules, actions[:n])
            for action in actions[n:]:
                if at.state.phase is Phase.DECIDE:
                    break  # a keep on screen
                at.play(action)
            ui.draw(at.state)
            frames = [ms(lambda state=at.state: ui.draw(state)) for _ in range(30)]
            rows.append(
                {
                    "actions": n,
                    "action_us": round(per_action * 1000 / ahead, 1),
                    "undo_ms": round(statistics.median(undos), 2),
                    "undo_max_ms": round(max(undos), 2),
                    "resume_ms": round(statistics.median(resumes), 1),
                    "frame_ms": round(statistics.median(frames), 2),
                }
            )
    if args.json:
        print(json.dumps({"rules": "classic-10000, four players, no end", "rows": rows}))
        return 0
    print(
        "classic-10000, four automatic players, no end; medians (undo: and the slowest of "
        f"{CHECKPOINT_EVERY} in a row; resume: from the SQLite log)"
    )
    print(
        f"{'actions':>8} {'µs/action':>10} {'undo ms':>8} {'max':>6} {'resume ms':>10} "
        f"{'frame ms':>9}"
    )
    for r in rows:
        print(
            f"{r['actions']:>8} {r['action_us']:>10.1f} {r['undo_ms']:>8.2f} "
            f"{r['undo_max_ms']:>6.2f} {r['resume_ms']:>10.1f} {r['frame_ms']:>9.2f}"
        )
    return 0


def _small_dice(rec, settings) -> bool:  # noqa: ANN001
    """Whether a labelled photo holds a die that spans under settings.second_look_below px
    at the detector's input: a photo the reader gives its second look."""
    from zonkcam.train.dataset import die_boxes

    boxes = die_boxes(rec)
    if len(boxes) == 0:
        return False
    smallest = min(max(b[2] - b[0], b[3] - b[1]) for b in boxes)
    return smallest * settings.det_size / max(rec.width, rec.height) < settings.second_look_below


def _ms_summary(ms: list[float]) -> dict:
    import numpy as np

    return {
        "ms_median": round(float(np.median(ms)), 2),
        "ms_p95": round(float(np.percentile(ms, 95)), 2),
    }


_PEAK_OF_READ = """
import sys
from zonkcam.cli import main
code = main(sys.argv[1:])
try:  # the peak of this process's own memory (an exec starts it afresh)
    with open("/proc/self/status") as status:
        kb = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
except OSError:
    import resource
    kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(f"peak-kb {kb}", file=sys.stderr)
"""


def _read_rss_mb(paths: list[Path], args: argparse.Namespace) -> float | None:
    """Peak RSS (MB) of a `zonkcam read` process reading `paths`, one after the other. The
    process says its own peak: a child's rusage would count the pages it shared with this
    (big) benchmark between fork and exec."""
    if not paths:
        return None
    cmd = [sys.executable, "-c", _PEAK_OF_READ, "read", "--json", "--threads", str(args.threads)]
    if args.model_dir is not None:
        cmd += ["--model-dir", str(args.model_dir)]
    done = subprocess.run(
        cmd + [str(p) for p in paths], check=False, capture_output=True, text=True
    )
    for line in done.stderr.splitlines():
        if line.startswith("peak-kb "):
            return round(int(line.split()[1]) / 1024, 1)
    return None


def run(args: argparse.Namespace) -> int:
    if args.engine:
        return run_engine(args)
    from zonkcam.commands.train import default_data
    from zonkcam.sim import renderer
    from zonkcam.train.dataset import load_labels, select
    from zonkcam.vision.imageio import load_image
    from zonkcam.vision.reader import DEFAULT_SETTINGS, read_dice

    model = load_model_or_fail(args.model_dir, args.threads)

    def timed(image) -> tuple[float, tuple]:  # noqa: ANN001
        t0 = time.perf_counter()
        dice = read_dice(image, model)
        return (time.perf_counter() - t0) * 1000, dice

    photos, read_paths = [], []
    for d in default_data():
        recs = select(load_labels(d), "val")
        if args.photos > 0:
            recs = recs[: args.photos]
        ms = [timed(load_image(r.image))[0] for r in recs]
        read_paths += [r.image for r in recs]
        small = [t for t, r in zip(ms, recs, strict=True) if _small_dice(r, DEFAULT_SETTINGS)]
        photos.append(
            {
                "set": str(d),
                "photos": len(recs),
                **_ms_summary(ms),
                "small_dice": {"photos": len(small), **(_ms_summary(small) if small else {})},
            }
        )
    tables = []
    for w, h in TABLE_SIZES:
        ms, right = [], 0
        for f in renderer.table_frames(w, h, TABLE_DICE, args.frames, args.seed):
            t, dice = timed(f.image)
            ms.append(t)
            right += sorted(d.value for d in dice) == sorted(d.value for d in f.dice)
        tables.append(
            {
                "size": f"{w}x{h}",
                "dice": TABLE_DICE,
                "frames": len(ms),
                "read_exactly": right,
                **_ms_summary(ms),
            }
        )
    result = {
        "threads": args.threads,
        "photos": photos,
        "tables": tables,
        "bench_peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "read_peak_rss_mb": _read_rss_mb(read_paths, args),
    }
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"threads={args.threads}  (reader ms, decode excluded)")
    if not photos:
        print("no labelled photo sets under ../shared/datasets: rendered frames only")
    for r in photos:
        print(
            f"{r['set']}: {r['photos']} validation photos: median {r['ms_median']:.1f} ms, "
            f"p95 {r['ms_p95']:.1f} ms"
        )
        small = r["small_dice"]
        if small["photos"]:
            print(
                f"  of which {small['photos']} with small dice (the second look's): median "
                f"{small['ms_median']:.1f} ms, p95 {small['ms_p95']:.1f} ms"
            )
    for r in tables:
        print(
            f"{r['size']:>10} table, {r['dice']} dice: median {r['ms_median']:.1f} ms, "
            f"p95 {r['ms_p95']:.1f} ms, read exactly {r['read_exactly']} of {r['frames']}"
        )
    if result["read_peak_rss_mb"] is not None:
        print(
            f"peak RSS of `zonkcam read` over the {counted(len(read_paths), 'photo')}: "
            f"{result['read_peak_rss_mb']:.0f} MB"
        )
    print(f"peak RSS of this benchmark: {result['bench_peak_rss_mb']:.0f} MB")
    return 0
