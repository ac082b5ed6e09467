"""`zonkcam eval`: score the reader on labelled photos (labels.jsonl)."""

from __future__ import annotations

import argparse
import json
import math
from dataclasses import replace
from pathlib import Path
from typing import Any

from zonkcam.commands import options
from zonkcam.commands.options import whole_number
from zonkcam.commands.read import load_model_or_fail
from zonkcam.commands.train import DEFAULT_SETS, SHARED_DATA, default_data
from zonkcam.errors import UserError
from zonkcam.game.names import counted


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "eval",
        help="score the dice reader on labelled photo sets",
        description="Per-die value accuracy end to end, images exactly right, detection "
        "precision and recall (all dice and dice of 20 px and more), per source and per "
        "die size, and reader ms per photo (median, p95; decode excluded). With --twins, "
        "the leave-one-source-out figures: each twin model read on every photo of the "
        "source it was trained without.",
    )
    p.add_argument(
        "datasets",
        nargs="*",
        type=Path,
        metavar="DATASET_DIR",
        help="labelled photo sets (default: "
        f"{', '.join(str(SHARED_DATA / n) for n in DEFAULT_SETS)})",
    )
    p.add_argument(
        "--split",
        default="val",
        help="val (default: the validation split, by group), train, all, source:NAME, "
        "not-source:NAME",
    )
    p.add_argument(
        "--twins",
        type=Path,
        metavar="DIR",
        help="also read each model folder DIR/SOURCE (`zonkcam train --leave-out SOURCE "
        "--out DIR/SOURCE`) on all photos of SOURCE",
    )
    p.add_argument(
        "--twins-split",
        choices=("all", "val", "train"),
        default="all",
        help="which photos of its unseen source each twin reads: all (default), or the "
        "validation or training split by group (two halves no twin saw, one to choose a "
        "setting on and the other to judge it by)",
    )
    options.add_reader(p)
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    p.add_argument(
        "--by-look",
        action="store_true",
        help="also per body kind (white, black, coloured opaque, translucent or smoke, "
        "marbled): dice, end to end, misread with no '?' and right dice asked about. A "
        "rendered set names each die's look; photos are sorted by the body colour read "
        "from pixels (white, black, coloured)",
    )
    p.add_argument(
        "--review",
        type=Path,
        metavar="PATH",
        help="write a review sheet of the worst images to PATH (.jpg/.png)",
    )
    p.add_argument(
        "--worst", type=whole_number(1), default=16, help="images on the review sheet (default 16)"
    )
    p.add_argument(
        "--distort",
        metavar="NAME[=S]",
        help="distort every photo (and move its truth boxes) before reading it: "
        "blur[=sigma px], dark[=gamma], bright[=gain], warm[=S], cool[=S], "
        "jpeg[=quality], scale[=factor], grey, rot90, rot270",
    )
    p.add_argument(
        "--confirm-below",
        type=float,
        default=None,
        metavar="BAR",
        help="count the dice read with a confidence under BAR, which `zonkcam play` shows "
        "with a '?' for the players to confirm (default: play's default bar)",
    )
    p.set_defaults(func=run)


def _datasets(given: list[Path]) -> list[Path]:
    if given:
        return given
    found = default_data()
    if not found:
        raise UserError(f"no labelled photo sets under {SHARED_DATA}: name one (DATASET_DIR)")
    return found


def run(args: argparse.Namespace) -> int:
    from zonkcam.commands.play import confirm_bar
    from zonkcam.train.dataset import load_labels, select
    from zonkcam.train.distort import parse_distortion
    from zonkcam.train.metrics import Scorer
    from zonkcam.vision.model import CONFIDENCE_FILE, default_threads
    from zonkcam.vision.reader import DEFAULT_SETTINGS

    args.threads = args.threads or default_threads()  # the figures name their threads

    bar = confirm_bar(args.confirm_below)
    distortion = None
    if args.distort:
        try:
            distortion = parse_distortion(args.distort)
        except ValueError as exc:
            raise UserError(f"--distort: {exc}") from None
    datasets = {d: load_labels(d) for d in _datasets(args.datasets)}
    twins = _twin_dirs(args.twins, datasets) if args.twins else {}
    splits = {d: select(recs, args.split) for d, recs in datasets.items()}
    if not any(splits.values()):
        raise UserError(f"no images in split {args.split!r} of {', '.join(map(str, datasets))}")
    model = load_model_or_fail(args.model_dir, args.threads)
    result: dict[str, Any] = {
        "split": args.split,
        "threads": args.threads,
        "settings": vars(DEFAULT_SETTINGS),
        "distort": str(distortion) if distortion else None,
        "confirm_below": bar,
        "datasets": {},
        "twins": {},
        "twins_split": args.twins_split,
    }
    worst = []
    for d, recs in splits.items():
        if not recs:
            continue
        s = Scorer(model, DEFAULT_SETTINGS, distortion, bar, bool(args.review), args.by_look).read(
            recs
        )
        result["datasets"][str(d)] = s.summary()
        worst += s.worst
    for source, (folder, recs) in twins.items():
        recs = select(recs, args.twins_split)
        twin = load_model_or_fail(folder, args.threads)
        if not (folder / CONFIDENCE_FILE).is_file():  # a twin reads as the shipped reader
            twin = replace(twin, calibration=model.calibration)
        s = Scorer(twin, DEFAULT_SETTINGS, distortion, bar, by_look=args.by_look).read(recs)
        summary = s.summary()
        result["twins"][source] = {
            "model": str(folder),
            "detector_is_twin": _detector_is_twin(folder),
            **summary["all"],
            **({"by_look": summary["by_look"]} if args.by_look else {}),
        }
    if args.review:
        worst.sort(key=lambda w: -w[0])
        _sheet(worst[: args.worst], args.review, distortion)
        result["review"] = str(args.review)
    if args.json:
        print(json.dumps(result))
        return 0
    _print(result, args)
    return 0


def _twin_dirs(root: Path, datasets: dict[Path, list]) -> dict[str, tuple[Path, list]]:
    """{source: (its twin's model folder, all its photos)} for each folder under `root`
    named after a source of `datasets`."""
    from zonkcam.vision.model import DETECTOR_FILE, VALUES_FILE

    if not root.is_dir():
        raise UserError(f"--twins {root}: no such folder")
    sources: dict[str, list] = {}
    for recs in datasets.values():
        for r in recs:
            sources.setdefault(r.source, []).append(r)
    out = {}
    for source, recs in sorted(sources.items()):
        folder = root / source
        if (folder / DETECTOR_FILE).is_file() and (folder / VALUES_FILE).is_file():
            out[source] = (folder, recs)
    if not out:
        raise UserError(
            f"--twins {root}: no twin model folders named after a source "
            f"({', '.join(sorted(sources))})"
        )
    return out


def _detector_is_twin(folder: Path) -> bool:
    """Whether the twin in `folder` trained its own detector (a `--schedule values` twin
    keeps a given one, which may have seen the left-out source)."""
    try:
        info = json.loads((folder / "run.json").read_text())
    except (OSError, ValueError):
        return True
    return not (isinstance(info, dict) and "detector" in info.get("settings", {}))


COLUMNS = (
    "images",
    "dice",
    "value_on_boxes",
    "end_to_end",
    "images_exact",
    "precision",
    "recall",
    "precision_20px",
    "recall_20px",
    "missed",
    "extra",
    "misread",
    "ms_median",
    "ms_p95",
)


def _fmt(v: object) -> str:
    if isinstance(v, float):
        return "-" if math.isnan(v) else f"{v:.3f}" if v <= 1 else f"{v:.1f}"
    return str(v)


def _print(result: dict, args: argparse.Namespace) -> None:
    width = {k: max(len(k), 6) + 1 for k in COLUMNS}
    head = f"{'':14}" + "".join(f"{k:>{width[k]}}" for k in COLUMNS)
    print(
        f"split={args.split} threads={args.threads}"
        + (f" distort={result['distort']}" if result["distort"] else "")
        + "  (ms per photo, decode excluded)"
    )
    for name, r in result["datasets"].items():
        print(f"\n{name}")
        print(head)
        for label, s in [("all", r["all"]), *r["per_source"].items()]:
            print(f"{label:14}" + "".join(f"{_fmt(s.get(k, '')):>{width[k]}}" for k in COLUMNS))
        sizes = r["all"].get("by_size", {})
        print(
            "by die size (px): "
            + "  ".join(
                f"{k}: {counted(v['dice'], 'die', 'dice')}, recall {_fmt(v['recall'])}, end to end "
                f"{_fmt(v['end_to_end'])}"
                for k, v in sizes.items()
                if v["dice"]
            )
        )
        a = r["all"]
        right = a["dice"] - a["missed"] - a["misread"]
        print(
            f"read with confidence under {result['confirm_below']:g} (a '?' at the table): "
            f"{a['right_flagged']} of {right} right, {a['misread_flagged']} of "
            f"{a['misread']} misread, {a['extra_flagged']} of {a['extra']} extra"
        )
        print(
            "silent errors (read wrong with no '?'): "
            f"{counted(a['misread_silent'], 'die', 'dice')} of "
            f"{a['dice']}; photos with the right dice count, a wrong value and no '?': "
            f"{_fmt(a['images_silent'])}"
        )
        _print_looks(r.get("by_look"))
    if result["twins"]:
        which = {"all": "all photos", "val": "the validation split", "train": "the training split"}
        print(
            f"\nleave-one-source-out: each twin on {which[args.twins_split]} of the source "
            "it never saw"
        )
        print(head)
        for source, s in result["twins"].items():
            print(f"{source:14}" + "".join(f"{_fmt(s.get(k, '')):>{width[k]}}" for k in COLUMNS))
        for source, s in result["twins"].items():
            print(
                f"{source}: silent errors {counted(s['misread_silent'], 'die', 'dice')}; "
                "photos with the right dice count, a wrong value and no '?': "
                f"{_fmt(s['images_silent'])}"
                + (
                    ""
                    if s["detector_is_twin"]
                    else "; its detector is not a twin (a "
                    "--schedule values run): only value_on_boxes is leave-one-source-out"
                )
            )
            _print_looks(s.get("by_look"))
    if result.get("review"):
        print(f"review sheet: {result['review']}")


def _print_looks(looks: dict | None) -> None:
    if not looks:
        return
    print("by body kind:")
    for kind, v in looks.items():
        print(
            f"  {kind:<20} dice {v['dice']:>6}  end to end {_fmt(v['end_to_end']):>6}  "
            f"misread with no '?' {v['misread_silent']:>4} ({_fmt(v['silent_share'])})  "
            f"right asked {v['right_asked']:>5} ({_fmt(v['right_asked_share'])})"
        )


def _sheet(items: list, path: Path, distortion) -> None:  # noqa: ANN001
    import cv2
    import numpy as np

    from zonkcam.train.distort import distort
    from zonkcam.vision.imageio import load_image

    tiles = []
    for errors, rec, dice, score in items:
        im = load_image(rec.image)
        truth = [(d.value, d.bbox) for d in rec.dice]
        if distortion is not None:
            im, boxes = distort(im, [b for _, b in truth], distortion)
            truth = [(v, b) for (v, _), b in zip(truth, boxes, strict=True)]
        t = max(1, round(max(im.shape[:2]) / 400))
        for value, box in truth:
            x0, y0, x1, y1 = (round(v) for v in box)
            cv2.rectangle(im, (x0, y0), (x1, y1), (0, 200, 0), t)
            cv2.putText(
                im,
                str(value),
                (x0, y1 + 12 * t),
                cv2.FONT_HERSHEY_SIMPLEX,
                0.45 * t,
                (0, 200, 0),
                t,
            )
        ok_pred = {j for i, j in score.matches if truth[i][0] == dice[j].value}
        for j, d in enumerate(dice):
            col = (255, 160, 0) if j in ok_pred else (0, 0, 255)
            x0, y0, x1, y1 = (round(v) for v in d.bbox)
            cv2.rectangle(im, (x0, y0), (x1, y1), col, t)
            cv2.putText(
                im, str(d.value), (x0, max(0, y0 - 3)), cv2.FONT_HERSHEY_SIMPLEX, 0.5 * t, col, t
            )
        s = 400 / max(im.shape[:2])
        im = cv2.resize(im, (round(im.shape[1] * s), round(im.shape[0] * s)))
        tile = np.full((430, 400, 3), 255, np.uint8)
        tile[: im.shape[0], : im.shape[1]] = im
        cv2.putText(
            tile,
            f"{rec.name[-38:]} err {errors}",
            (4, 424),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.4,
            (0, 0, 0),
            1,
        )
        tiles.append(tile)
    if not tiles:
        return
    cols = 4
    while len(tiles) % cols:
        tiles.append(np.full_like(tiles[0], 255))
    rows = [np.hstack(tiles[i : i + cols]) for i in range(0, len(tiles), cols)]
    path.parent.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(str(path), np.vstack(rows)):
        raise UserError(f"--review {path}: cannot write (use a .jpg or .png name)")
