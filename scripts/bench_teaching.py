"""How the reader's value accuracy moves with taught throws, on real photos of one dice set.

The dice: epanemu's own photos in real-dice-dev (nos. 369 on: one set of 13-16 mixed-colour
dice on a purple cloth and a desk), the closest the dev sets hold to "one table's dice".
Each labelled die is cut at its labelled box (preprocess.crop_die) and read by the value
net (probabilities and pooled feature, once). A draw splits the photos in two: a throw is
DICE dice picked at random from the teaching photos, confirmed with their labelled values
and taught (zonkcam.vision.examples.TaughtDice, each crop in its eight turns); the value
read (argmax of the values 1-6, after the blend) is scored on every die of the other
photos. Figures are means over DRAWS draws.

Test photos: `all` (the other half of the family, most of them in the nets' training split),
`val` (the family's validation-split photos, taught from its training-split photos) - and
with --model-dir a value net trained without epanemu (leave-one-source-out), where every
photo is new to the net.

    PYTHONPATH=. python scripts/bench_teaching.py [--model-dir DIR] [--draws 40]
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from zonkcam.train.dataset import die_boxes, is_validation, load_labels  # noqa: E402
from zonkcam.vision import examples as E  # noqa: E402
from zonkcam.vision.model import VALUES_FILE, open_session  # noqa: E402
from zonkcam.vision.preprocess import crop_die  # noqa: E402

OWN_FROM = 369
"""epanemu's photos from this number on are of the exporter's own dice set."""


def run_net(session, crops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(N, 64, 64, 3) crops -> (probs (N, 7), features (N, D)), in batches."""
    probs, feats = [], []
    for i in range(0, len(crops), 64):
        x = np.ascontiguousarray(crops[i : i + 64].transpose(0, 3, 1, 2), dtype=np.float32)
        out = session.run(None, {"crops": x})
        if len(out) < 2:
            raise SystemExit("this value net has no 'features' output (zonkcam.train.features)")
        probs.append(out[0])
        feats.append(out[1])
    return np.concatenate(probs), np.concatenate(feats)


def load_family(data: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Crops (N, 64, 64, 3), values (N,), photo index (N,), photo in val split (N,)."""
    crops, values, photo, val = [], [], [], []
    records = [r for r in load_labels(data) if r.source == "epanemu"]
    k = 0
    for r in records:
        m = re.search(r"(\d+)", Path(r.name).stem)
        if m is None or int(m.group(1)) < OWN_FROM or r.bbox_kind != "die":
            continue
        img = cv2.imread(str(r.image), cv2.IMREAD_COLOR)
        if img is None:
            continue
        for box, die in zip(die_boxes(r), r.dice, strict=True):
            crops.append(crop_die(img, box))
            values.append(die.value)
            photo.append(k)
            val.append(is_validation(r.group))
        k += 1
    return np.stack(crops), np.array(values), np.array(photo), np.array(val)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared/datasets/real-dice-dev")
    ap.add_argument("--model-dir", type=Path, default=ROOT / "models")
    ap.add_argument("--throws", default="0,1,2,5", help="taught throws (default %(default)s)")
    ap.add_argument("--dice", type=int, default=6, help="dice per throw (default %(default)s)")
    ap.add_argument("--draws", type=int, default=40, help="random draws (default %(default)s)")
    ap.add_argument("--closeness", type=float, default=E.CLOSENESS)
    ap.add_argument("--weight", type=float, default=E.WEIGHT)
    ap.add_argument("--no-turns", action="store_true", help="teach each crop as it is only")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    throws = [int(t) for t in args.throws.split(",")]

    t0 = time.time()
    crops, values, photo, val = load_family(args.data)
    session = open_session(args.model_dir / VALUES_FILE, 1)
    probs, feats = run_net(session, crops)
    n_turns = 1 if args.no_turns else 8
    turned = feats[:, None] if args.no_turns else run_net(session, E.turns(crops))[1]
    turned = turned.reshape(len(crops), n_turns, -1)
    photos = photo.max() + 1
    print(
        f"{len(crops)} dice in {photos} photos ({int(val.sum())} dice in "
        f"{len(set(photo[val]))} val-split photos); value net {args.model_dir / VALUES_FILE}; "
        f"closeness {args.closeness:g}, weight {args.weight:g}, "
        f"{n_turns} turn(s) per crop; {time.time() - t0:.0f} s to read"
    )

    def score(test: np.ndarray, teach_pool: np.ndarray, k: int, rng) -> float:
        taught = E.TaughtDice()
        if k:
            pick = rng.choice(teach_pool, size=min(k * args.dice, len(teach_pool)), replace=False)
            taught.teach(
                turned[pick].reshape(-1, turned.shape[2]), np.repeat(values[pick], n_turns)
            )
        p = taught.blend(probs[test], feats[test], args.closeness, args.weight)
        return float((p[:, 1:].argmax(axis=1) + 1 == values[test]).mean())

    rows = {}
    rng = np.random.default_rng(args.seed)
    for k in throws:
        halves, vals = [], []
        for _ in range(args.draws):
            order = rng.permutation(photos)
            teach_photos = order[: photos // 2]
            in_teach = np.isin(photo, teach_photos)
            halves.append(score(np.flatnonzero(~in_teach), np.flatnonzero(in_teach), k, rng))
            vals.append(score(np.flatnonzero(val), np.flatnonzero(~val), k, rng))
        rows[k] = (np.mean(halves), np.mean(vals))
    print(f"{'taught throws':>14} {'dice':>5} {'other photos':>13} {'val photos':>11}")
    for k, (a, b) in rows.items():
        print(f"{k:>14} {k * args.dice:>5} {a:>13.1%} {b:>11.1%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
