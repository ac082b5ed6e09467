"""`zonkcam train`: rebuild the dice models (needs the `train` extra: torch, onnx)."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from zonkcam.commands.play import whole_number
from zonkcam.errors import UserError

SHARED_DATA = Path("../shared/datasets")
DEFAULT_SETS = ("real-dice-dev", "rune55-dev")
"""The labelled photo sets a plain `zonkcam train` uses (those found under SHARED_DATA)."""


def default_data() -> list[Path]:
    return [SHARED_DATA / name for name in DEFAULT_SETS if (SHARED_DATA / name).is_dir()]


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "train",
        help="rebuild the dice detector and value net (torch, CPU)",
        description="Rebuild the two ONNX dice models from rendered tables and the training "
        "split (by group) of labelled photo sets (labels.jsonl). Seeded; prints progress; "
        "run it again with the same options to resume after an interruption.",
    )
    p.add_argument(
        "--data",
        type=Path,
        action="append",
        metavar="DIR",
        help="a labelled photo set (repeat for more; default: "
        f"{', '.join(str(SHARED_DATA / n) for n in DEFAULT_SETS)}); 'none' = rendered only",
    )
    p.add_argument(
        "--out",
        type=Path,
        default=Path("runs/train"),
        help="where the run and its .onnx files go (default runs/train; copy "
        "dice_detector.onnx and dice_values.onnx to models/ to ship them)",
    )
    p.add_argument(
        "--leave-out",
        metavar="SOURCE",
        help="train without this source's photos (a leave-one-source-out twin; "
        "`zonkcam eval --twins` reads it on all of them)",
    )
    p.add_argument(
        "--schedule",
        choices=("full", "short", "values", "tiny"),
        default="full",
        help="full: the shipped model (about 2 hours here); short: twins of both nets "
        "(about 1 hour); values: a twin of the value net alone beside a kept detector (the "
        "shipped one unless --detector; about 12 minutes); tiny: a smoke test of a few seconds",
    )
    p.add_argument(
        "--detector",
        type=Path,
        metavar="DIR",
        help="keep this folder's dice_detector.onnx and train only the value net (the "
        "values schedule keeps the shipped detector unless this names another)",
    )
    p.add_argument(
        "--seed", type=int, default=0, help="seed of every random draw (default 0: the shipped run)"
    )
    p.add_argument("--threads", type=whole_number(1), default=2, help="CPU threads (default 2)")
    p.add_argument("--log", type=Path, default=None, help="also append progress to this file")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        from zonkcam.train.run import ResumeMismatch, TrainConfig, train
    except ImportError as exc:
        raise UserError(
            f"training needs the 'train' extra ({exc}); pip install -e '.[train]'"
        ) from exc
    data = _data_dirs(args)
    if args.threads < 1:
        raise UserError("--threads must be at least 1")
    if args.detector is not None and not (args.detector / "dice_detector.onnx").is_file():
        raise UserError(f"--detector {args.detector}: no dice_detector.onnx there")
    if args.leave_out is not None:
        from zonkcam.train.dataset import load_labels

        sources = sorted({r.source for d in data for r in load_labels(d)})
        if args.leave_out not in sources:
            raise UserError(
                f"--leave-out {args.leave_out}: no such source "
                f"(sources: {', '.join(sources) or 'none'})"
            )
    t0 = time.time()
    logf = None
    if args.log:
        try:
            logf = args.log.open("a", encoding="utf-8")
        except OSError as exc:
            raise UserError(f"--log {args.log}: {exc.strerror or exc}") from None

    def log(msg: str) -> None:
        line = f"[{time.time() - t0:7.1f} s] {msg}"
        print(line, file=sys.stderr, flush=True)
        if logf:
            logf.write(line + "\n")
            logf.flush()

    cfg = TrainConfig(
        out_dir=args.out,
        data_dirs=tuple(data),
        leave_out=args.leave_out,
        schedule=args.schedule,
        seed=args.seed,
        threads=args.threads,
        detector=args.detector,
        log=log,
    )
    log(f"training: {cfg}")
    try:
        train(cfg)
    except ResumeMismatch as exc:
        raise UserError(str(exc)) from None
    return 0


def _data_dirs(args: argparse.Namespace) -> list[Path]:
    if args.data is None:
        return default_data()
    if any(str(d) == "none" for d in args.data):
        return []
    for d in args.data:
        if not (d / "labels.jsonl").is_file():
            raise UserError(f"--data {d}: no labels.jsonl there")
    return list(args.data)
