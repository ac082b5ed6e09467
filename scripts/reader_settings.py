"""Lab study: what each of the reader's settings buys, each changed alone.

Each is read on the validation splits of both dev sets, against DEFAULT_SETTINGS (errors:
missed / extra / misread, and ms per photo, decode excluded, one onnxruntime thread). With
--twins DIR, read instead by each leave-one-source-out twin (DIR/SOURCE) on the photos of
the source it never saw.

    python scripts/reader_settings.py [--photos N] [--model-dir DIR | --twins DIR]
"""

from __future__ import annotations

import argparse
import math
import sys
from dataclasses import replace
from pathlib import Path

from zonkcam.commands.train import default_data
from zonkcam.train.dataset import load_labels, select
from zonkcam.train.metrics import Scorer
from zonkcam.vision.model import load_model
from zonkcam.vision.reader import DEFAULT_SETTINGS

VARIANTS: list[tuple[str, dict]] = [
    ("as shipped", {}),
    ("det_size 320", {"det_size": 320}),
    ("det_size 512", {"det_size": 512}),
    ("det_size 640", {"det_size": 640}),
    ("det_threshold 0.2", {"det_threshold": 0.2}),
    ("the value net alone (heat_weight 0)", {"heat_weight": 0.0}),
    ("keep_vote 0.6", {"keep_vote": 0.6}),
    ("keep_vote 0.8", {"keep_vote": 0.8}),
    ("no dedupe", {"dedupe_iou": 1.0, "dedupe_inside": 0.0}),
    ("dedupe by IoU only", {"dedupe_inside": 0.0}),
    ("no mirrored look", {"mirror_within": -math.inf}),  # no vote comes that near
    ("no second look", {"second_look": 0}),
    ("second look at 640 px", {"second_look": 640}),
    ("second look below 24 px", {"second_look_below": 24.0}),
    ("second look below 32 px", {"second_look_below": 32.0}),
    ("second_look_vote 0.7", {"second_look_vote": 0.7}),
    ("second_look_vote 0.9", {"second_look_vote": 0.9}),
    ("second look over the whole photo", {"second_look_near": 1e9}),
    ("second_look_near 2", {"second_look_near": 2.0}),
    ("second_look_near 4", {"second_look_near": 4.0}),
]


class CachedScorer(Scorer):
    """Decodes each photo once for every variant."""

    cache: dict = {}

    def photo(self, rec):
        if rec.image not in self.cache:
            self.cache[rec.image] = super().photo(rec)
        return self.cache[rec.image]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--photos", type=int, default=0, help="at most this many photos per set")
    p.add_argument("--model-dir", type=Path, default=None)
    p.add_argument("--twins", type=Path, default=None, help="folder of twins: DIR/SOURCE")
    p.add_argument("--every", type=int, default=1, help="read every Nth photo only")
    args = p.parse_args()
    records = {d.name: load_labels(d) for d in default_data()}
    if not records:
        print("no labelled sets under ../shared/datasets", file=sys.stderr)
        return 2
    models = {}
    if args.twins:  # each twin on every photo of the source it never saw
        every = [r for recs in records.values() for r in recs]
        sets = {}
        for folder in sorted(f for f in args.twins.iterdir() if (f / "dice_values.onnx").is_file()):
            sets[folder.name] = [r for r in every if r.source == folder.name]
            models[folder.name] = load_model(folder, threads=1)
    else:
        sets = {k: select(v, "val") for k, v in records.items()}
        models = dict.fromkeys(sets, load_model(args.model_dir, threads=1))
    sets = {k: v[:: max(1, args.every)] for k, v in sets.items()}
    if args.photos:
        sets = {k: v[: args.photos] for k, v in sets.items()}
    print(f"{'variant':38}" + "".join(f"{k:>44}" for k in sets))
    print(f"{'':38}" + f"{'e2e exact  miss/extra/misread  ms med/p95':>44}" * len(sets))
    for name, recs in sets.items():  # warm up
        CachedScorer(models[name], DEFAULT_SETTINGS).read(recs[:3])
    for name, change in VARIANTS:
        settings = replace(DEFAULT_SETTINGS, **change)
        cells = []
        for key, recs in sets.items():
            a = CachedScorer(models[key], settings).read(recs).summary()["all"]
            cells.append(
                f"{a['end_to_end']:.4f} {a['images_exact']:.3f}  "
                f"{a['missed']:>4}/{a['extra']:>4}/{a['misread']:>4}  "
                f"{a['ms_median']:>6.1f}/{a['ms_p95']:>6.1f}"
            )
        print(f"{name:38}" + "".join(f"{c:>44}" for c in cells), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
