"""Fit the value net's temperature on real photos and show what it does at the table's bar.

Reads the validation splits of the labelled photo sets with the shipped models (and,
with --twins DIR, all photos of each source with the twin trained without it: the
leave-one-source-out view), keeps the value net's probabilities of every labelled die
the reader found, fits the temperature of best likelihood (zonkcam.train.confidence) and
prints, per view and for each temperature: dice found, read wrong, wrong with no '?'
(silent, per 200 dice), the share of wrong dice flagged and the right dice flagged.

Run: python scripts/confidence.py [--twins runs/twins] [--bar 0.6] [DATASET_DIR ...]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from zonkcam.commands.play import confirm_bar
from zonkcam.commands.train import default_data
from zonkcam.train.confidence import FoundDice, fit_temperature, found_dice, nll, silent
from zonkcam.vision.dataset import load_labels, select
from zonkcam.vision.model import load_model
from zonkcam.vision.reader import DEFAULT_SETTINGS


def report(name: str, found: FoundDice, temperatures: list[float], bar: float) -> None:
    for t in temperatures:
        f = silent(found, t, bar)
        print(
            f"{name:<28} T={t:<6.3g} dice {f.dice:>5}  wrong {f.wrong:>4}  "
            f"silent {f.silent:>4} ({f.silent_per_200:.2f} per 200)  "
            f"wrong flagged {f.wrong_flagged:.2f}  right flagged {f.right_flagged:>4} "
            f"({f.right_flagged / max(1, f.dice - f.wrong):.3f})  nll {nll(found, t):.3f}"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("datasets", nargs="*", type=Path, help="labelled photo sets")
    ap.add_argument("--twins", type=Path, help="folder of twins: DIR/SOURCE (zonkcam train)")
    ap.add_argument("--bar", type=float, default=None, help="the '?' bar (default: play's)")
    args = ap.parse_args()
    bar = confirm_bar(args.bar)
    sets = {d: load_labels(d) for d in (args.datasets or default_data())}
    model = load_model(threads=1)
    val = found_dice([r for recs in sets.values() for r in select(recs, "val")], model)
    views: dict[str, FoundDice] = {"validation splits": val}
    for source in sorted(set(val.sources)):
        views[f"  val {source}"] = val.of(source)
    if args.twins:
        for folder in sorted(p for p in args.twins.iterdir() if p.is_dir()):
            recs = [r for recs in sets.values() for r in recs if r.source == folder.name]
            if recs and (folder / "dice_values.onnx").is_file():
                twin = load_model(folder, threads=1)
                views[f"twin without {folder.name}"] = found_dice(recs, twin)
    fitted = {name: fit_temperature(f) for name, f in views.items() if len(f)}
    print(f"bar {bar:g}; shipped temperature {DEFAULT_SETTINGS.value_temperature:g}")
    print("fitted: " + ", ".join(f"{k.strip()} {v:g}" for k, v in fitted.items()))
    temps = sorted({1.0, DEFAULT_SETTINGS.value_temperature, *fitted.values()})
    for name, found in views.items():
        report(name, found, temps, bar)


if __name__ == "__main__":
    main()
