"""`zonkcam read`: read the dice in photos (one JSON line per image with --json)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from zonkcam.errors import UserError
from zonkcam.game.names import escaped

if TYPE_CHECKING:
    from zonkcam.vision.reader import ReaderSettings


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "read",
        help="read dice values, boxes and colours in images",
        description="Find every six-sided die in each image and read its value and colour.",
    )
    p.add_argument("images", nargs="+", metavar="IMAGE")
    p.add_argument("--json", action="store_true", help="one JSON object per line per image")
    p.add_argument(
        "--annotate",
        type=Path,
        metavar="DIR",
        help="write each image with boxes and values drawn into DIR",
    )
    p.add_argument(
        "--threads",
        type=int,
        default=None,
        help="onnxruntime threads (default 1, or $ZONKCAM_THREADS)",
    )
    p.add_argument(
        "--model-dir",
        type=Path,
        default=None,
        help="directory holding dice_detector.onnx and dice_values.onnx (and any second "
        "opinions, dice_values_2.onnx to dice_values_4.onnx)",
    )
    add_views_option(p)
    p.set_defaults(func=run)


def load_model_or_fail(model_dir: Path | None, threads: int | None):  # noqa: ANN201
    from zonkcam.vision.model import load_model

    if threads is not None and threads < 1:
        raise UserError("--threads must be at least 1")
    try:
        return load_model(model_dir, threads)
    except FileNotFoundError as exc:
        raise UserError(str(exc)) from exc
    except Exception as exc:  # onnxruntime raises its own error types
        raise UserError(f"cannot load the dice model: {exc}") from exc


def annotate(image, dice):  # noqa: ANN001, ANN201
    import cv2

    out = image.copy()
    t = max(1, round(max(out.shape[:2]) / 500))
    for d in dice:
        x0, y0, x1, y1 = (round(v) for v in d.bbox)
        cv2.rectangle(out, (x0, y0), (x1, y1), (0, 0, 255), t)
        label = f"{d.value} {d.color}"
        cv2.putText(
            out,
            label,
            (x0, max(0, y0 - 4 * t)),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.45 * t,
            (0, 0, 255),
            t,
            cv2.LINE_AA,
        )
    return out


def run(args: argparse.Namespace) -> int:
    import cv2

    from zonkcam.vision.imageio import ImageFileError, load_image_scaled
    from zonkcam.vision.reader import read_dice

    model = load_model_or_fail(args.model_dir, args.threads)
    if args.annotate:
        try:
            args.annotate.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UserError(f"--annotate {args.annotate}: {exc.strerror or exc}") from exc
    failed = 0
    for name in args.images:
        rec: dict = {"image": name}
        try:
            img, factor = load_image_scaled(name)
            t0 = time.perf_counter()
            dice = read_dice(img, model, reader_settings(args))
            ms = (time.perf_counter() - t0) * 1000
            rec["dice"] = [
                {
                    "value": d.value,
                    "confidence": d.confidence,
                    "bbox": [round(v * factor, 1) for v in d.bbox],
                    "color": d.color,
                }
                for d in dice
            ]
            rec["ms"] = round(ms, 2)
            if args.annotate:
                out = args.annotate / (Path(name).stem + ".annotated.jpg")
                cv2.imwrite(str(out), annotate(img, dice))
        except ImageFileError as exc:
            rec["dice"] = []
            rec["error"] = str(exc)
        except Exception as exc:  # one bad image must not stop the batch
            rec["dice"] = []
            rec["error"] = f"{type(exc).__name__}: {exc}"
        failed += "error" in rec
        if args.json:
            print(json.dumps(rec), flush=True)
        elif "error" in rec:
            print(f"{escaped(name)}: error: {escaped(rec['error'])}", flush=True)
        else:
            values = " ".join(str(d["value"]) for d in rec["dice"]) or "-"
            colors = ", ".join(d["color"] for d in rec["dice"])
            print(
                f"{escaped(name)}: {len(rec['dice'])} dice: {values}"
                + (f" ({colors})" if colors else "")
                + f"  [{rec['ms']:.1f} ms]",
                flush=True,
            )
    sys.stdout.flush()
    if failed:
        print(f"zonkcam read: {failed} of {len(args.images)} images could not be read",
              file=sys.stderr)
    return 1 if failed == len(args.images) else 0  # exit 1: nothing was read at all


MIRROR_CHOICES = {"none": ((), ()), "second": ((), ("h", "v")), "all": (("h",), ("h", "v"))}
"""--mirrors: (ReaderSettings.first_look_mirrors, second_look_mirrors)."""


def add_views_option(p: argparse.ArgumentParser) -> None:
    """--views, shared by read, eval and bench."""
    p.add_argument(
        "--views",
        type=int,
        choices=(1, 2, 4),
        default=1,
        help="views of each crop the value net reads (2: plus a half turn, or for a net "
        "trained upright its left-right mirror; 4: all four quarter turns, plus the "
        "mirror for an upright net); about 0.5 ms per die per view slower; default 1",
    )
    p.add_argument(
        "--no-recheck",
        action="store_true",
        help="with one view, do not read the crops the value net is unsure of again in "
        "the other three quarter turns (and, for a net trained upright, the mirror; on by "
        "default: about one candidate in 16)",
    )
    p.add_argument(
        "--no-second-opinion",
        action="store_true",
        help="do not ask the model's other value nets (dice_values_2.onnx to "
        "dice_values_4.onnx) about the candidates the first is unsure of",
    )
    p.add_argument(
        "--mirrors",
        choices=list(MIRROR_CHOICES),
        default="second",
        help="mirror images of the photo the detector looks at too: none; second (the "
        "default): left-right and top-bottom in the second look, for small dice; all: "
        "left-right in the first look as well (touching dice; about 2 ms a frame)",
    )
    p.add_argument(
        "--crowd-look",
        type=_crowd_count,
        default=None,
        metavar="N",
        help="when the first look keeps at least N dice, look again at 640 px for dice of "
        "every size (touching dice of a crowd come apart there; default 8, 0 = never)",
    )
    p.add_argument(
        "--big-look",
        type=_big_look_size,
        default=None,
        metavar="PX",
        help="when no die is found, look again at the photo scaled to PX px (32-319) for "
        "dice too big for the first look (close-ups; default 96, 0 = never)",
    )
    p.add_argument(
        "--tiny-look",
        type=_tiny_look_size,
        default=None,
        metavar="PX",
        help="when the 640 px second look keeps no die or a tiny one, look again at PX px "
        "(641-4096) for dice smaller still (default 1280, 0 = never; about 30 ms)",
    )
    p.add_argument(
        "--recrop",
        type=_recrop_share,
        default=None,
        metavar="SHARE",
        help="read a candidate the value net doubted although the detector backs it once "
        "more from its box shrunk to SHARE (0.5-0.95) of its width and height, for a die "
        "boxed loosely with its side faces and the table round it (default 0.75, 0 = never)",
    )
    p.add_argument(
        "--no-size-bars",
        action="store_true",
        help="one vote bar for every candidate (default: once a die is sure, a candidate "
        "of its size needs a lower vote, one over twice its size a higher)",
    )
    p.add_argument(
        "--no-find-up",
        action="store_true",
        help="read a photo the way it lies (by default one lying on its side, where the "
        "upright value nets disagree with the turned one, is read turned upright)",
    )
    p.add_argument(
        "--value-net-alone",
        action="store_true",
        help="keep every candidate the value net calls a die, however faint the "
        "detector's heat for it (by default a lukewarm one needs a surer value net)",
    )


def _never_or_between(text: str, low: int, high: int | None, what: str) -> int:
    """An option's whole number: 0 (never) or one from `low` to `high` (None: no limit)."""
    try:
        n = int(text)
    except ValueError:
        n = -1
    if n != 0 and not (low <= n and (high is None or n <= high)):
        span = f"{low} or more" if high is None else f"from {low} to {high}"
        raise argparse.ArgumentTypeError(f"{text!r}: give {what}, {span}, or 0 = never")
    return n


def _crowd_count(text: str) -> int:
    return _never_or_between(text, 1, None, "a number of dice")


def _big_look_size(text: str) -> int:
    from zonkcam.vision.preprocess import DET_SIZE  # noqa: PLC0415 - OpenCV is heavy

    return _never_or_between(text, 32, DET_SIZE - 1, "a size in px under the first look's")


def _recrop_share(text: str) -> float:
    try:
        share = float(text)
    except ValueError:
        share = -1.0
    if share != 0 and not 0.5 <= share <= 0.95:
        raise argparse.ArgumentTypeError(
            f"{text!r}: give the share of the box to read again, from 0.5 to 0.95, or 0 = never"
        )
    return share


TINY_LOOK_MAX = 4096


def _tiny_look_size(text: str) -> int:
    return _never_or_between(text, 641, TINY_LOOK_MAX, "a size in px over the second look's")


def reader_settings(args: argparse.Namespace) -> ReaderSettings:
    """The reader settings that --views, --no-recheck, --no-second-opinion, --mirrors,
    --crowd-look, --tiny-look, --big-look, --recrop, --no-size-bars, --no-find-up and
    --value-net-alone ask for."""
    from zonkcam.vision.reader import ReaderSettings  # noqa: PLC0415 - onnxruntime is heavy

    return ReaderSettings(
        crowd_count=ReaderSettings.crowd_count if args.crowd_look is None else args.crowd_look,
        big_look_size=ReaderSettings.big_look_size if args.big_look is None else args.big_look,
        tiny_look_size=ReaderSettings.tiny_look_size if args.tiny_look is None else args.tiny_look,
        recrop_shrink=ReaderSettings.recrop_shrink if args.recrop is None else args.recrop,
        size_bars=not args.no_size_bars,
        find_up=not args.no_find_up,
        value_views=args.views,
        recheck_unsure=not args.no_recheck,
        second_opinion=not args.no_second_opinion,
        first_look_mirrors=MIRROR_CHOICES[args.mirrors][0],
        second_look_mirrors=MIRROR_CHOICES[args.mirrors][1],
        heat_weight=0.0 if args.value_net_alone else ReaderSettings.heat_weight,
    )
