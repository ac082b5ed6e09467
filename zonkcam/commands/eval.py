"""`zonkcam eval DATASET_DIR`: score the reader on labelled photos (labels.jsonl)."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from zonkcam.commands.read import add_views_option, reader_settings
from zonkcam.errors import UserError


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "eval",
        help="score the dice reader on a labelled photo set",
        description="Per-die value accuracy (matched and end to end), detection precision "
        "and recall, share of images exactly right, overall and per source; median and "
        "p95 reader ms per image.",
    )
    p.add_argument("dataset", type=Path, metavar="DATASET_DIR")
    p.add_argument(
        "--split",
        default="all",
        help="all (default), val, train, source:NAME, not-source:NAME "
        "(val/train: the training code's split by group)",
    )
    p.add_argument(
        "--review",
        type=Path,
        metavar="PATH",
        help="write a review sheet of the worst images to PATH (.jpg/.png)",
    )
    p.add_argument("--worst", type=int, default=16, help="images on the review sheet")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--model-dir", type=Path, default=None)
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    p.add_argument(
        "--distort",
        metavar="NAME[=S]",
        help="distort every photo (and move its truth boxes) before reading it, to see "
        "how the reader holds up: blur[=sigma px], dark[=gamma], bright[=gain], "
        "warm[=S], cool[=S], jpeg[=quality], scale[=factor], grey, rot90 (a quarter turn "
        "clockwise), rot270 (anticlockwise) "
        "(defaults: blur=1.5 dark=1.8 bright=1.35 warm=0.3 cool=0.3 jpeg=25 scale=0.5)",
    )
    p.add_argument(
        "--confirm-below",
        type=float,
        default=None,
        metavar="BAR",
        help="count the dice read with a confidence under BAR, which `zonkcam play` shows "
        "with a '?' for the players to confirm (default: play's default bar)",
    )
    add_views_option(p)
    p.set_defaults(func=run)


def _sheet(items, path: Path) -> None:  # noqa: ANN001
    import cv2
    import numpy as np

    tiles = []
    for img, rec, truth, dice, score in items:
        im = img.copy()
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
            f"{rec.name[-38:]} err {score.errors}",
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


def run(args: argparse.Namespace) -> int:
    from zonkcam.commands.play import confirm_bar
    from zonkcam.commands.read import load_model_or_fail
    from zonkcam.vision.dataset import load_labels, select
    from zonkcam.vision.distort import distort, parse_distortion
    from zonkcam.vision.imageio import ImageFileError, load_image
    from zonkcam.vision.metrics import Tally, flagged, match
    from zonkcam.vision.reader import read_dice

    bar = confirm_bar(args.confirm_below)
    records = select(load_labels(args.dataset), args.split)
    if not records:
        raise UserError(f"no images in split {args.split!r} of {args.dataset}")
    distortion = None
    if args.distort:
        try:
            distortion = parse_distortion(args.distort)
        except ValueError as exc:
            raise UserError(f"--distort: {exc}") from None

    def photo(rec) -> tuple:  # noqa: ANN001
        """The image as read and its truth [(value, box)], distorted if asked."""
        img = load_image(rec.image)
        truth = [(d.value, d.bbox) for d in rec.dice]
        if distortion is None:
            return img, truth
        img, boxes = distort(img, [b for _, b in truth], distortion)
        return img, [(v, b) for (v, _), b in zip(truth, boxes, strict=True)]

    model = load_model_or_fail(args.model_dir, args.threads)
    settings = reader_settings(args)
    total = Tally()
    per_source: dict[str, Tally] = {}
    scored = []
    unreadable = 0
    for rec in records:
        try:
            img, truth = photo(rec)
        except ImageFileError:
            unreadable += 1
            continue
        t0 = time.perf_counter()
        dice = read_dice(img, model, settings)
        ms = (time.perf_counter() - t0) * 1000
        score = match(truth, [(d.value, d.bbox) for d in dice], rec.bbox_kind)
        flags = flagged(truth, [(d.value, d.confidence) for d in dice], score, bar)
        total.add(score, ms, flags)
        per_source.setdefault(rec.source, Tally()).add(score, ms, flags)
        if args.review and score.errors:
            scored.append((score.errors, rec, dice, score))
    result = {
        "dataset": str(args.dataset),
        "split": args.split,
        "threads": args.threads,
        "views": args.views,
        "recheck": not args.no_recheck,
        "second_opinions": 0 if args.no_second_opinion else len(model.second_opinions),
        "mirrors": args.mirrors,
        "value_net_alone": args.value_net_alone,
        "crowd_look": settings.crowd_count,
        "tiny_look": settings.tiny_look_size,
        "big_look": settings.big_look_size,
        "recrop": settings.recrop_shrink,
        "size_bars": settings.size_bars,
        "find_up": settings.find_up,
        "distort": str(distortion) if distortion else None,
        "confirm_below": bar,
        "all": total.summary(),
        "per_source": {k: v.summary() for k, v in sorted(per_source.items())},
    }
    if unreadable:
        result["unreadable_images"] = unreadable
    if args.review:
        scored.sort(key=lambda s: -s[0])
        items = []
        for _, r, d, s in scored[: args.worst]:
            img, truth = photo(r)
            items.append((img, r, truth, d, s))
        _sheet(items, args.review)
        result["review"] = str(args.review)
    if args.json:
        print(json.dumps(result))
        return 0
    keys = [
        "images",
        "dice",
        "end_to_end",
        "value_acc_matched",
        "precision",
        "recall",
        "images_exact",
        "missed",
        "extra",
        "misread",
        "ms_median",
        "ms_p95",
    ]
    print(f"{args.dataset} split={args.split} threads={args.threads} views={args.views} "
          f"recheck={not args.no_recheck} "
          f"second_opinions={result['second_opinions']} mirrors={args.mirrors} "
          f"value_net_alone={args.value_net_alone} crowd_look={settings.crowd_count} "
          f"tiny_look={settings.tiny_look_size} big_look={settings.big_look_size} "
          f"recrop={settings.recrop_shrink} size_bars={settings.size_bars} "
          f"find_up={settings.find_up}"
          + (f" distort={distortion}" if distortion else ""))
    width = {k: max(len(k), 6) + 2 for k in keys}
    print(f"{'':12}" + "".join(f"{k:>{width[k]}}" for k in keys))
    for name, s in [("all", result["all"]), *result["per_source"].items()]:
        print(f"{name:12}" + "".join(f"{s.get(k, ''):>{width[k]}}" for k in keys))
    a = result["all"]
    right = a["dice"] - a["missed"] - a["misread"]
    print(f"read with confidence under {bar:g} (shown with a '?' at the table): "
          f"{a['right_flagged']} of {right} dice read right, {a['misread_flagged']} of "
          f"{a['misread']} misread, {a['extra_flagged']} of {a['extra']} extra")
    if args.review:
        print(f"review sheet: {args.review}")
    return 0
