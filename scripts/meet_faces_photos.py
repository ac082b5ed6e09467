"""Lab benchmark: a face-by-face meeting on photos of one set of dice, read on the others.

Two sources hold photos of one set of dice many times over: epanemu's own photos (nos. 369
on: 13-16 mixed-colour dice on a purple cloth and a desk; nos. 379-429 are staged sets of
every die showing one value, a face-by-face meeting as the table asks for it) and
matteop65 (five identical white dice on one desk). For each value one photo of the set
that shows it (a staged one for epanemu) is the meeting: its dice of that value are taught
in their eight turns (zonkcam.vision.examples). Every other photo of the set is then read
at its labelled boxes as the table reads a die it knows is there
(zonkcam.vision.reader.read_at): by the net alone, and with the taught faces asking where
the nearest taught face reads otherwise. A photo never serves both. Reported, over
--draws random meetings: dice right, '?' (confidence under the bar), SILENT WRONG (a wrong
value, no '?'), right dice asked, and the nearest taught face alone; the time the taught
faces take per six dice.

Judge it with a twin that never saw the source (`make twins`): --model-dir runs/twins/SOURCE.

Run: python scripts/meet_faces_photos.py --model-dir runs/twins/epanemu --set epanemu
[--draws 20] [--seed 0] [--confirm-below 0.6] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # the taught faces' time at one thread
import numpy as np

from zonkcam.errors import UserError
from zonkcam.train.dataset import die_boxes, load_labels
from zonkcam.vision.confidence import CONFIRM_BELOW
from zonkcam.vision.examples import MAX_PER_VALUE, TaughtDice, turns
from zonkcam.vision.imageio import load_image
from zonkcam.vision.model import load_model
from zonkcam.vision.preprocess import crop_die
from zonkcam.vision.reader import read_at, read_crops_and_features

ROOT = Path(__file__).resolve().parents[1]
REAL = ROOT.parent / "shared" / "datasets" / "real-dice-dev"
SETS = ("epanemu", "matteop65")


def set_photos(name: str) -> tuple[list, list]:
    """The photos of one set of dice: (meeting candidates, all of them)."""
    records = [r for r in load_labels(REAL) if r.source == name]
    if name == "epanemu":

        def number(r) -> int:
            m = re.search(r"epanemu_dice_(\d+)\.jpg$", r.name)
            return int(m.group(1)) if m else -1

        own = [r for r in records if number(r) >= 369]
        staged = [r for r in own if 379 <= number(r) <= 429]
        return staged, own
    return records, records


def dice_of(record) -> tuple[np.ndarray, list[np.ndarray], np.ndarray]:
    image = load_image(record.image)
    boxes = die_boxes(record)
    values = np.array([d.value for d in record.dice], np.int64)
    return image, boxes, values


def run(args: argparse.Namespace) -> dict:
    model = load_model(args.model_dir, 1)
    meet_from, photos = set_photos(args.set)
    loaded = {r.name: dice_of(r) for r in photos}
    by_value: dict[int, list] = {v: [] for v in range(1, 7)}
    for r in meet_from:
        for v in set(loaded[r.name][2].tolist()):
            by_value[v].append(r)
    rng = np.random.default_rng(args.seed)
    tally = {k: 0 for k in ("dice", "net_right", "net_silent", "net_asked_right", "net_flagged")}
    tally.update({"right": 0, "flagged": 0, "silent": 0, "asked_right": 0, "nearest_right": 0})
    for key in ("net_value_right", "agree_net_wrong", "differ_net_right", "differ_face_right"):
        tally[key] = 0
    tally["net_wrong"] = 0
    for _ in range(args.draws):
        taught = TaughtDice()
        used = set()
        for v in range(1, 7):
            pick = by_value[v][int(rng.integers(0, len(by_value[v])))]
            used.add(pick.name)
            image, boxes, values = loaded[pick.name]
            crops = np.stack(
                [crop_die(image, b) for b, x in zip(boxes, values, strict=True) if x == v]
            )
            _, feats = read_crops_and_features(turns(crops), model)
            if feats is None:
                raise UserError(f"{args.model_dir}: this value net has no 'features' output")
            taught.teach(feats, [v] * len(feats))
        for r in photos:
            if r.name in used:
                continue
            image, boxes, values = loaded[r.name]
            net = read_at(image, boxes, model)
            feats: list = []
            ours = read_at(image, boxes, model, examples=taught, features=feats)
            got = [f for f in feats if f is not None]
            near, _ = taught.nearest(np.stack(got)) if got else (np.zeros(0), None)
            k = 0
            for truth, a, b in zip(values, net, ours, strict=True):
                tally["dice"] += 1
                for read, pre in ((a, "net_"), (b, "")):
                    ok = read is not None and read.die.value == truth
                    flagged = read is None or read.confidence < args.confirm_below
                    tally[pre + "right"] += ok and not flagged
                    tally[pre + "flagged"] += flagged
                    tally[pre + "silent"] += (not ok) and not flagged
                    tally[pre + "asked_right"] += ok and flagged
                tally["net_value_right"] += a is not None and a.die.value == truth
                if b is not None:
                    tally["nearest_right"] += int(near[k] == truth)
                    if a is not None:
                        net_ok, face_ok = a.die.value == truth, near[k] == truth
                        if near[k] == a.die.value:
                            tally["agree_net_wrong"] += not net_ok
                        else:
                            tally["differ_net_right"] += net_ok
                            tally["differ_face_right"] += face_ok
                        tally["net_wrong"] += not net_ok
                    k += 1
    ms = _asking_ms(taught)
    n = tally["dice"]
    net_right_all = tally["net_right"] + tally["net_asked_right"]
    our_right_all = tally["right"] + tally["asked_right"]
    return {
        "set": args.set,
        "model_dir": str(args.model_dir),
        "draws": args.draws,
        "dice_read": n,
        "net": {
            "right_no_question": tally["net_right"] / n,
            "flagged": tally["net_flagged"] / n,
            "silent_wrong": tally["net_silent"],
            "right_dice_asked": tally["net_asked_right"] / max(1, net_right_all),
            "value_right": tally["net_value_right"] / n,
        },
        "taught_faces": {
            "right_no_question": tally["right"] / n,
            "flagged": tally["flagged"] / n,
            "silent_wrong": tally["silent"],
            "right_dice_asked": tally["asked_right"] / max(1, our_right_all),
            "nearest_face_alone_right": tally["nearest_right"] / n,
            "net_wrong": tally["net_wrong"],
            "net_wrong_nearest_agrees": tally["agree_net_wrong"],
            "differ_net_right": tally["differ_net_right"],
            "differ_nearest_right": tally["differ_face_right"],
        },
        "ms_per_six_dice_median": ms,
    }


def _asking_ms(taught: TaughtDice) -> float:
    """The median time (ms) the taught faces take to ask about six dice, against a store
    filled to MAX_PER_VALUE examples a value with the meeting's own."""
    full = TaughtDice()
    for v in range(1, 7):
        own = taught.features[taught.values == v]
        full.teach(np.resize(own, (MAX_PER_VALUE, own.shape[1])), [v] * MAX_PER_VALUE)
    six = taught.features[:6]
    probs = np.full((6, 7), 1 / 7, np.float32)
    times = []
    for _ in range(2000):
        t0 = time.perf_counter()
        full.asks(probs, six)
        times.append((time.perf_counter() - t0) * 1000)
    return float(np.median(times[100:]))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--model-dir", type=Path, default=None)
    p.add_argument("--set", choices=SETS, default="epanemu")
    p.add_argument("--draws", type=int, default=20)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--confirm-below", type=float, default=CONFIRM_BELOW)
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    try:
        out = run(args)
    except UserError as exc:
        print(f"meet_faces_photos: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(out, indent=1))
        return 0
    print(
        f"{out['set']}: {out['dice_read']} dice read over {out['draws']} meetings, "
        f"model {out['model_dir']}"
    )
    for k in ("net", "taught_faces"):
        r = out[k]
        print(
            f"  {k:13s} right without '?' {r['right_no_question']:.1%}  '?' {r['flagged']:.1%}  "
            f"SILENT WRONG {r['silent_wrong']}  right dice asked {r['right_dice_asked']:.1%}"
        )
    print(
        f"  nearest taught face alone: {out['taught_faces']['nearest_face_alone_right']:.1%} "
        f"(the net's value, '?' or not: {out['net']['value_right']:.1%})"
    )
    t = out["taught_faces"]
    print(
        f"  the nearest taught face agrees with {t['net_wrong_nearest_agrees']} of the net's "
        f"{t['net_wrong']} misread dice; where the two differ the net is right on "
        f"{t['differ_net_right']}, the nearest taught face on {t['differ_nearest_right']}"
    )
    print(
        f"  taught faces: {out['ms_per_six_dice_median']:.2f} ms for six dice against a full "
        "store (median, one thread)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
