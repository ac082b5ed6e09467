"""Fit the reader's confidence on dice the nets never saw, and show what the '?' then catches.

Reads each leave-one-source-out twin (--twins DIR: DIR/SOURCE, `zonkcam train
--leave-out SOURCE`) on every photo of the source it was trained without, and the shipped
models on the validation splits; keeps every die the reader kept with its clues
(zonkcam.vision.confidence) and whether it was right; fits the calibration on the twins'
dice (every source weighted alike) and prints, per view, for the shipped calibration, the
value net's own figure and the new fit, at the bar: dice kept, wrong (misread or extra),
wrong with no '?', right dice asked about and photos scored wrong without a question (for
each twin also a fit on the other twins alone: the calibration's own leave-one-out).
With --write it saves the fit as models/dice_confidence.json.

Run: python scripts/confidence.py --twins runs/twins [--bar 0.6] [--write] [DATASET_DIR ...]
"""

from __future__ import annotations

import argparse
import json
from dataclasses import replace
from pathlib import Path

from zonkcam.commands.play import confirm_bar
from zonkcam.commands.train import default_data
from zonkcam.train.confidence import KeptDice, fit, flags, kept_dice, nll
from zonkcam.train.dataset import load_labels, select
from zonkcam.vision.confidence import IDENTITY, Calibration
from zonkcam.vision.model import CONFIDENCE_FILE, MODEL_DIR, DiceModel, load_model


def report(name: str, kept: KeptDice, cals: dict[str, Calibration], bar: float) -> None:
    for label, cal in cals.items():
        f = flags(kept, cal, bar)
        print(
            f"{name:<24} {label:<10} dice {f.dice:>5}  wrong {f.wrong:>4}  silent "
            f"{f.silent:>4} ({f.wrong_flagged:.2f} of wrong asked)  right asked "
            f"{f.right_flagged:>4} ({f.right_flagged_share:.3f})  photos scored wrong "
            f"silently {f.silent_photos:>3} of {f.photos} ({f.silent_photo_share:.3f})  "
            f"nll {nll(kept, cal):.3f}"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("datasets", nargs="*", type=Path, help="labelled photo sets")
    ap.add_argument("--twins", type=Path, required=True, help="folder of twins: DIR/SOURCE")
    ap.add_argument("--bar", type=float, default=None, help="the '?' bar (default: play's)")
    ap.add_argument(
        "--write", action="store_true", help=f"save the fit as models/{CONFIDENCE_FILE}"
    )
    args = ap.parse_args()
    bar = confirm_bar(args.bar)
    sets = {d: load_labels(d) for d in (args.datasets or default_data())}
    records = [r for recs in sets.values() for r in recs]
    shipped = load_model(threads=1)

    def raw(model: DiceModel) -> DiceModel:
        return replace(model, calibration=IDENTITY)

    twins: dict[str, KeptDice] = {}  # each twin's readings of the source it never saw
    for folder in sorted(p for p in args.twins.iterdir() if p.is_dir()):
        recs = [r for r in records if r.source == folder.name]
        if recs and (folder / "dice_values.onnx").is_file():
            twins[folder.name] = kept_dice(recs, raw(load_model(folder, 1)))
    if not twins:
        raise SystemExit(f"no twins named after a source under {args.twins}")
    val = kept_dice([r for recs in sets.values() for r in select(recs, "val")], raw(shipped))
    fitted = fit(
        KeptDice.join(list(twins.values())),
        "the leave-one-source-out twins' readings of every photo of the source each never "
        f"saw ({', '.join(twins)}), each source weighted alike",
    )
    cals = {"shipped": shipped.calibration, "net's own": IDENTITY, "new fit": fitted}
    print(
        f"bar {bar:g}; new fit: {json.dumps(fitted.to_json()['weights'])}, bias {fitted.bias:.4f}"
    )
    for source, kept in twins.items():
        own = {}
        if len(twins) > 1:  # the calibration's own leave-one-out: a fit on the other twins
            others = KeptDice.join([k for s, k in twins.items() if s != source])
            own = {"fit on the others": fit(others)}
        report(f"twin without {source}", kept, {**cals, **own}, bar)
    for source in sorted(set(val.photo_sources)):
        report(f"val {source}", val.of(source), cals, bar)
    if args.write:
        path = MODEL_DIR / CONFIDENCE_FILE
        path.write_text(json.dumps(fitted.to_json(), indent=1) + "\n", encoding="utf-8")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
