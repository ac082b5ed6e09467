"""`zonkcam read`: read the dice in photos (one JSON line per image with --json)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from zonkcam.commands import options
from zonkcam.errors import UserError, WriteFailed
from zonkcam.fileio import write_image
from zonkcam.game.names import counted, escaped


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "read",
        help="read dice values, boxes and colours in images",
        description="Find every six-sided die in each image and read its value and colour.",
    )
    p.add_argument(
        "images",
        nargs="+",
        metavar="IMAGE",
        help="image files, or folders: every image in a folder, in name order",
    )
    p.add_argument("--json", action="store_true", help="one JSON object per line per image")
    p.add_argument(
        "--annotate",
        type=Path,
        metavar="DIR",
        help="write each image with boxes and values drawn into DIR",
    )
    options.add_reader(p, threads=int)
    p.set_defaults(func=run)


def load_model_or_fail(model_dir: Path | None, threads: int | None):  # noqa: ANN201
    """The dice models, or a UserError that says why not."""
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
    from zonkcam.vision.imageio import ImageFileError, load_image_scaled
    from zonkcam.vision.reader import read_dice

    model = load_model_or_fail(args.model_dir, args.threads)
    if args.annotate:
        try:
            args.annotate.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UserError(f"--annotate {args.annotate}: {exc.strerror or exc}") from exc
    failed = 0
    names = _images(args.images)
    for name in names:
        rec: dict = {"image": name}
        try:
            if Path(name).is_dir():
                raise ImageFileError("a folder with no images in it (.jpg, .png, .bmp, ...)")
            img, factor = load_image_scaled(name)
            t0 = time.perf_counter()
            dice = read_dice(img, model)
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
                write_image(out, annotate(img, dice))
        except WriteFailed as exc:  # read, but its annotated copy could not be written
            rec["error"] = str(exc)
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
            n = len(rec["dice"])
            print(
                f"{escaped(name)}: {n} {'die' if n == 1 else 'dice'}: {values}"
                + (f" ({colors})" if colors else "")
                + f"  [{rec['ms']:.1f} ms]",
                flush=True,
            )
    sys.stdout.flush()
    if failed:
        print(
            f"zonkcam read: {failed} of {counted(len(names), 'image')} could not be read",
            file=sys.stderr,
        )
    return 1 if failed == len(names) else 0  # exit 1: nothing was read at all


def _images(names: list[str]) -> list[str]:
    """The images named, a folder standing for its images in name order (a folder with
    none stays, to be reported)."""
    from zonkcam.sources.base import IMAGE_SUFFIXES

    out = []
    for name in names:
        folder = Path(name)
        found = []
        if folder.is_dir():
            try:
                found = sorted(
                    str(p)
                    for p in folder.iterdir()
                    if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file()
                )
            except OSError:
                found = []
        out += found or [name]
    return out
