"""`zonkcam train`: rebuild the dice models (needs the `train` extra: torch, onnx)."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from zonkcam.errors import UserError

DEFAULT_DATA = Path("../shared/datasets/real-dice-dev")


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "train",
        help="rebuild the dice detector and value net (torch; CPU, or a GPU)",
        description="Rebuild the two ONNX dice models from rendered tables plus the "
        "training groups of a labelled photo set (labels.jsonl format).",
    )
    p.add_argument(
        "--data",
        type=Path,
        default=DEFAULT_DATA,
        help=f"labelled photos (default {DEFAULT_DATA}); 'none' = rendered only",
    )
    p.add_argument(
        "--out",
        type=Path,
        default=Path("runs/train"),
        help="where the .onnx files go (default runs/train; copy them to zonkcam/models/ to ship)",
    )
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument(
        "--det-steps",
        type=int,
        default=None,
        help="detector training steps (default 2500); 0 keeps the --detector-from one",
    )
    p.add_argument(
        "--cls-steps",
        type=int,
        default=None,
        help="value net training steps (default 4000); 0 trains none (keeps --values-init)",
    )
    p.add_argument("--synth-scenes", type=int, default=None)
    p.add_argument(
        "--detector-from",
        type=Path,
        default=None,
        metavar="DETECTOR",
        help="start the detector from detector.pt of an earlier run or a dice_detector.onnx",
    )
    p.add_argument(
        "--values-init",
        type=Path,
        default=None,
        metavar="VALUES",
        help="start the value net from values.pt or a dice_values.onnx and train it on "
        "(default: EfficientNet-Lite0's ImageNet weights)",
    )
    p.add_argument(
        "--mine-with",
        type=Path,
        default=None,
        metavar="MODEL_DIR",
        help="add an earlier detector's candidates (its dice_detector.onnx, e.g. in "
        "zonkcam/models) to the value net's crops: misses on no die as hard 'not a die' "
        "examples",
    )
    p.add_argument(
        "--tight-share",
        type=float,
        default=None,
        metavar="SHARE",
        help="share (0-1) of the value net's die crops cut from a tight box, 0.7-0.88 of "
        "the die (default 0)",
    )
    p.add_argument(
        "--warp-share",
        type=float,
        default=None,
        metavar="SHARE",
        help="share (0-1) of the value net's training crops given a random perspective "
        "warp each step, as oblique photos show a die (default 0)",
    )
    p.add_argument(
        "--blur-max",
        type=float,
        default=None,
        metavar="SIGMA",
        help="the strongest blur (Gaussian sigma in crop px) of the value net's blurred "
        "training crops (default 1.3)",
    )
    p.add_argument(
        "--grey-share",
        type=float,
        default=None,
        metavar="SHARE",
        help="share (0-1) of the value net's training crops turned grey each step "
        "(default 0.1)",
    )
    p.add_argument(
        "--pastel-dice",
        type=float,
        default=None,
        metavar="SHARE",
        help="share (0-1) of the rendered dice given a pale body of a random hue with "
        "dark pips (default 0)",
    )
    p.add_argument(
        "--crop-salt-pepper",
        type=float,
        default=None,
        metavar="SHARE",
        help="share (0-1) of the value net's training crops given salt-and-pepper noise "
        "each step, as in Roboflow exports (default 0)",
    )
    p.add_argument(
        "--decoy-crops",
        type=int,
        default=None,
        metavar="N",
        help="per rendered table, up to N 'not a die' crops of printed board tiles with "
        "a token or an icon (default 0)",
    )
    p.add_argument(
        "--tonal-pips",
        type=float,
        default=None,
        metavar="SHARE",
        help="share (0-1) of the rendered dice given pips of their own colour, a shade "
        "darker or lighter: engraved or same-colour pips (default 0)",
    )
    p.add_argument(
        "--rounded-dice",
        type=float,
        default=None,
        metavar="SHARE",
        help="share (0-1) of the rendered dice drawn with rounded edges and corners "
        "(default 0)",
    )
    p.add_argument(
        "--upright",
        action="store_true",
        help="never turn the value net's training crops (only mirror them left-right), "
        "so it may learn which face is on top in an oblique photo",
    )
    p.add_argument(
        "--exclude-source",
        default=None,
        metavar="NAME",
        help="train without this source and validate on all of it (leave-one-source-out)",
    )
    p.add_argument(
        "--no-quantize",
        action="store_true",
        help="write the value net in float32 (default: int8, the float32 file kept as "
        "dice_values_fp32.onnx)",
    )
    p.add_argument(
        "--device",
        default="cpu",
        help="where the nets train: cpu (default) or cuda (a GPU; torch must see one)",
    )
    p.add_argument(
        "--workers",
        type=int,
        default=0,
        metavar="N",
        help="processes that make the training batches beside the loop (default 0: in "
        "the loop, as the shipped runs did; a GPU needs several)",
    )
    p.add_argument("--det-batch", type=int, default=None, help="detector images a step (16)")
    p.add_argument("--cls-batch", type=int, default=None, help="value-net crops a step (128)")
    p.add_argument(
        "--time-limit",
        type=float,
        default=None,
        metavar="SECONDS",
        help="end each net's training within this many seconds even if steps are left: "
        "the schedule then runs on the clock and still ends annealed; the log gives the "
        "steps reached (for a machine of unknown speed)",
    )
    p.add_argument("--det-lr", type=float, default=None, help="detector peak learning rate")
    p.add_argument("--cls-lr", type=float, default=None, help="value net peak learning rate")
    p.add_argument("--log", type=Path, default=None, help="also append progress to this file")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        from zonkcam.vision.training import TrainConfig, train
    except ImportError as exc:
        raise UserError(
            f"training needs the 'train' extra ({exc}); pip install -e '.[train]'"
        ) from exc
    data = None if str(args.data) == "none" else args.data
    if data is not None and not (data / "labels.jsonl").is_file():
        raise UserError(f"{data}: no labels.jsonl (use --data DIR, or --data none)")
    _check_inputs(args, data)
    t0 = time.time()
    logf = args.log.open("a", encoding="utf-8") if args.log else None

    def log(msg: str) -> None:
        line = f"[{time.time() - t0:7.1f} s] {msg}"
        print(line, file=sys.stderr, flush=True)
        if logf:
            logf.write(line + "\n")
            logf.flush()

    cfg = TrainConfig(
        out_dir=args.out,
        data_dir=data,
        seed=args.seed,
        threads=args.threads,
        detector_init=args.detector_from,
        values_init=args.values_init,
        mine_with=args.mine_with,
        exclude_source=args.exclude_source,
        quantize=not args.no_quantize,
        upright=args.upright,
        device=args.device,
        workers=args.workers,
        time_limit_s=args.time_limit,
        log=log,
    )
    for name in ("det_steps", "cls_steps", "synth_scenes", "det_lr", "cls_lr", "tight_share",
                 "warp_share", "blur_max", "crop_salt_pepper", "grey_share", "pastel_dice",
                 "decoy_crops", "tonal_pips",
                 "rounded_dice", "det_batch", "cls_batch"):
        if getattr(args, name) is not None:
            setattr(cfg, name, getattr(args, name))
    log(f"training: {cfg}")
    train(cfg)
    return 0


def _check_device(device: str) -> None:
    import torch

    try:
        dev = torch.device(device)
    except RuntimeError as exc:
        raise UserError(f"--device {device}: {exc}") from exc
    if dev.type == "cuda" and not torch.cuda.is_available():
        raise UserError(f"--device {device}: torch sees no GPU here (use --device cpu)")
    if dev.type not in ("cpu", "cuda"):
        raise UserError(f"--device {device}: only cpu and cuda are supported")


def _check_inputs(args: argparse.Namespace, data: Path | None) -> None:
    """Every named file and source exists, before minutes of data building."""
    from zonkcam.vision.dataset import load_labels
    from zonkcam.vision.model import DETECTOR_FILE

    for name in ("det_steps", "cls_steps", "workers"):
        if getattr(args, name) is not None and getattr(args, name) < 0:
            raise UserError(f"--{name.replace('_', '-')} must be 0 or more")
    for name in ("det_batch", "cls_batch", "time_limit"):
        if getattr(args, name) is not None and getattr(args, name) <= 0:
            raise UserError(f"--{name.replace('_', '-')} must be more than 0")
    _check_device(args.device)
    shares = ("tight_share", "warp_share", "crop_salt_pepper", "grey_share", "pastel_dice",
              "tonal_pips", "rounded_dice")
    for name in shares:
        share = getattr(args, name)
        if share is not None and not 0 <= share <= 1:
            raise UserError(f"--{name.replace('_', '-')} must be between 0 and 1")
    if args.blur_max is not None and not 0.4 <= args.blur_max <= 10:
        raise UserError("--blur-max must be between 0.4 and 10 (crop px)")
    if args.decoy_crops is not None and not 0 <= args.decoy_crops <= 50:
        raise UserError("--decoy-crops must be between 0 and 50")
    if args.det_steps == 0 and args.detector_from is None:
        raise UserError("--det-steps 0 keeps a detector: name it with --detector-from")
    for flag, path in (
        ("--detector-from", args.detector_from),
        ("--values-init", args.values_init),
    ):
        if path is not None and not path.is_file():
            raise UserError(f"{flag} {path}: no such file")
    if args.mine_with is not None:
        if not (args.mine_with / DETECTOR_FILE).is_file():
            raise UserError(f"--mine-with {args.mine_with}: no {DETECTOR_FILE} there")
    if args.exclude_source is not None:
        if data is None:
            raise UserError("--exclude-source needs labelled photos (--data DIR)")
        sources = sorted({r.source for r in load_labels(data)})
        if args.exclude_source not in sources:
            raise UserError(
                f"--exclude-source {args.exclude_source}: no such source in {data} "
                f"(sources: {', '.join(sources)})"
            )
