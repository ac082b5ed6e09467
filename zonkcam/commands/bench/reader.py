"""`zonkcam bench` alone: the reader's speed on real photos and rendered table frames, and
the peak memory of `zonkcam read`."""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

from zonkcam.commands.read import load_model_or_fail
from zonkcam.game.names import counted

TABLE_SIZES = ((640, 480), (1280, 960), (2304, 1296))
TABLE_DICE = 6


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
