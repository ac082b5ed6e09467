"""`zonkcam train`: rebuild the dice models (needs the `train` extra: torch, onnx)."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from zonkcam.commands.options import whole_number
from zonkcam.errors import UserError
from zonkcam.vision.confidence import CONFIRM_BELOW

SHARED_DATA = Path("../shared/datasets")
DEFAULT_SETS = ("real-dice-dev", "rune55-dev")
"""The labelled photo sets a plain `zonkcam train` uses (those found under SHARED_DATA)."""


PHOTOREAL_SHARE_DEFAULT = 0.35
"""zonkcam.train.data.PHOTOREAL_SHARE (kept here so that help needs no torch)."""


def share(text: str) -> float:
    """An argparse type: a number above 0 and under 1."""
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 < v < 1:
        raise argparse.ArgumentTypeError(f"must be above 0 and under 1, not {text}")
    return v


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
        "--photoreal",
        type=Path,
        metavar="DIR",
        help="mix in a set of photoreal dice (`zonkcam train render --out DIR`)",
    )
    p.add_argument(
        "--photoreal-share",
        type=share,
        default=None,
        metavar="S",
        help="the share of each batch they take, above 0 and under 1 (default "
        f"{PHOTOREAL_SHARE_DEFAULT})",
    )
    p.add_argument(
        "--seed", type=int, default=0, help="seed of every random draw (default 0: the shipped run)"
    )
    p.add_argument("--threads", type=whole_number(1), default=2, help="CPU threads (default 2)")
    p.add_argument("--log", type=Path, default=None, help="also append progress to this file")
    p.set_defaults(func=run)
    steps = p.add_subparsers(dest="step", metavar="STEP")
    c = steps.add_parser(
        "confidence",
        help="fit the reader's confidence (models/dice_confidence.json) on the twins",
        description="Reads each leave-one-source-out twin (DIR/SOURCE, `zonkcam train "
        "--leave-out SOURCE`) on every photo of the source it was trained without, and the "
        "models on the validation splits; fits the confidence calibration on the twins' "
        "dice (every source weighted alike) and prints, per view, for the models' "
        "calibration, the value net's own figure and the new fit, at the bar: dice kept, "
        "wrong, wrong with no '?', right dice asked about and photos scored wrong without a "
        "question (for each twin also a fit on the other twins alone). Needs no torch.",
    )
    c.add_argument(
        "datasets",
        nargs="*",
        type=Path,
        metavar="DATASET_DIR",
        help=f"labelled photo sets (default: those found under {SHARED_DATA})",
    )
    c.add_argument(
        "--twins", type=Path, required=True, metavar="DIR", help="folder of twins: DIR/SOURCE"
    )
    c.add_argument(
        "--bar",
        type=float,
        default=None,
        help=f"the '?' bar (default: the screen's, {CONFIRM_BELOW:g})",
    )
    c.add_argument(
        "--model-dir",
        type=Path,
        default=None,
        metavar="DIR",
        help="the models to compare with and --write beside (default: the shipped ones)",
    )
    c.add_argument(
        "--write",
        action="store_true",
        help="save the fit as dice_confidence.json in the models' folder (the shipped "
        "models/ unless --model-dir)",
    )
    c.set_defaults(func=run_confidence)
    f = steps.add_parser(
        "faces",
        help="fit the value net's face feature for the table's taught dice",
        description="Trains a small head on the value net's pooled feature with a metric "
        "objective (one value on different dice closer than two values on one die) on the "
        "training split of the labelled photo sets, and writes it into the folder's "
        "dice_values.onnx as its 'features' output ('probs' unchanged). A twin's folder "
        "(zonkcam train --leave-out SOURCE) is fitted without the source it left out. "
        "Seeded; a few minutes on two cores.",
    )
    f.add_argument(
        "--model-dir",
        type=Path,
        default=None,
        metavar="DIR",
        help="the value net to fit it for (default: the shipped models/)",
    )
    f.add_argument(
        "--data",
        type=Path,
        action="append",
        metavar="DIR",
        help=f"a labelled photo set (repeat for more; default: those under {SHARED_DATA})",
    )
    f.add_argument("--seed", type=int, default=0, help="seed of every random draw (default 0)")
    f.add_argument("--threads", type=whole_number(1), default=2, help="CPU threads (default 2)")
    f.set_defaults(func=run_faces)
    r = steps.add_parser(
        "render",
        help="render photoreal dice for training (Mitsuba 3, CPU)",
        description="Path-traces seeded random scenes of a few dice (rounded, engraved or "
        "painted pips; opaque, translucent, smoke, marbled, pearl, glitter and metal-look "
        "bodies) on tables under a lamp, a window or a ring light, and writes them as a "
        "labelled set (images/, labels.jsonl with each die's box, value and look) that "
        "`zonkcam train --photoreal DIR` mixes in. Deterministic per seed; prints "
        "progress; run it again to resume, or with a larger --count to add scenes.",
    )
    r.add_argument(
        "--out",
        dest="render_out",
        type=Path,
        default=Path("runs/photoreal"),
        metavar="DIR",
        help="the set's folder (default runs/photoreal)",
    )
    r.add_argument(
        "--count",
        type=whole_number(1),
        required=True,
        help="labelled dice to render (scenes hold two to six)",
    )
    r.add_argument("--seed", type=int, default=0, help="seed of every scene (default 0)")
    r.add_argument(
        "--workers", type=whole_number(1), default=2, help="rendering processes (default 2)"
    )
    r.add_argument(
        "--look",
        default=None,
        help="only dice of this look (white, black, colour, translucent, smoke, marbled, "
        "pearl, glitter, metal; default: all, the rarer in photos the more often)",
    )
    r.set_defaults(func=run_render)


def run(args: argparse.Namespace) -> int:
    if args.photoreal_share is not None and args.photoreal is None:
        raise UserError("--photoreal-share needs --photoreal DIR")
    if args.photoreal is not None and not (args.photoreal / "labels.jsonl").is_file():
        raise UserError(
            f"--photoreal {args.photoreal}: no labels.jsonl there (render one with "
            "`zonkcam train render --out DIR --count N`)"
        )
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

    extra = {}
    if args.photoreal is not None:
        extra["photoreal"] = args.photoreal
        if args.photoreal_share is not None:
            extra["photoreal_share"] = args.photoreal_share
    cfg = TrainConfig(
        **extra,
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


def run_render(args: argparse.Namespace) -> int:
    """`zonkcam train render`: a set of photoreal dice."""
    from zonkcam.sim.photoreal import LOOKS, mitsuba_installed
    from zonkcam.train.render import RenderConfig, RenderMismatch, render_set

    if not mitsuba_installed():
        raise UserError(
            "rendering needs the 'train' extra (Mitsuba 3, `mitsuba` on PyPI); "
            "pip install -e '.[train]'"
        )
    if args.look is not None and args.look not in LOOKS:
        raise UserError(f"--look {args.look}: no such look (looks: {', '.join(LOOKS)})")
    out = args.render_out
    if out.exists() and not out.is_dir():
        raise UserError(f"--out {out}: not a folder")
    t0 = time.time()

    def log(msg: str) -> None:
        print(f"[{time.time() - t0:7.1f} s] {msg}", file=sys.stderr, flush=True)

    cfg = RenderConfig(out, args.count, args.seed, args.workers, args.look)
    try:
        labels = render_set(cfg, log)
    except RenderMismatch as exc:
        raise UserError(str(exc)) from None
    except OSError as exc:
        raise UserError(f"--out {out}: {exc.strerror or exc}") from None
    print(f"wrote {labels}")
    return 0


def run_confidence(args: argparse.Namespace) -> int:
    """`zonkcam train confidence`: the confidence's fit on the twins, and its '?'."""
    import json
    from dataclasses import replace

    from zonkcam.commands.play import confirm_bar
    from zonkcam.commands.read import load_model_or_fail
    from zonkcam.train.confidence import KeptDice, fit, kept_dice
    from zonkcam.train.dataset import load_labels, select
    from zonkcam.vision.confidence import IDENTITY
    from zonkcam.vision.model import CONFIDENCE_FILE, MODEL_DIR, DiceModel

    bar = confirm_bar(args.bar)
    for d in args.datasets:
        if not (d / "labels.jsonl").is_file():
            raise UserError(f"{d}: no labels.jsonl there")
    data = args.datasets or default_data()
    if not data:
        raise UserError(f"no labelled photo sets under {SHARED_DATA}: name them")
    if not args.twins.is_dir():
        raise UserError(f"--twins {args.twins}: no such folder")
    sets = {d: load_labels(d) for d in data}
    records = [r for recs in sets.values() for r in recs]
    models = load_model_or_fail(args.model_dir, 1)

    def raw(model: DiceModel) -> DiceModel:
        return replace(model, calibration=IDENTITY)

    twins: dict[str, KeptDice] = {}  # each twin's readings of the source it never saw
    for folder in sorted(p for p in args.twins.iterdir() if p.is_dir()):
        recs = [r for r in records if r.source == folder.name]
        if recs and (folder / "dice_values.onnx").is_file():
            twins[folder.name] = kept_dice(recs, raw(load_model_or_fail(folder, 1)))
    if not twins:
        raise UserError(f"no twins named after a source under {args.twins}")
    val = kept_dice([r for recs in sets.values() for r in select(recs, "val")], raw(models))
    fitted = fit(
        KeptDice.join(list(twins.values())),
        "the leave-one-source-out twins' readings of every photo of the source each never "
        f"saw ({', '.join(twins)}), each source weighted alike",
    )
    cals = {"shipped": models.calibration, "net's own": IDENTITY, "new fit": fitted}
    print(
        f"bar {bar:g}; new fit: {json.dumps(fitted.to_json()['weights'])}, bias {fitted.bias:.4f}"
    )
    for source, kept in twins.items():
        own = {}
        if len(twins) > 1:  # the calibration's own leave-one-out: a fit on the other twins
            others = KeptDice.join([k for s, k in twins.items() if s != source])
            own = {"fit on the others": fit(others)}
        _confidence_report(f"twin without {source}", kept, {**cals, **own}, bar)
    for source in sorted(set(val.photo_sources)):
        _confidence_report(f"val {source}", val.of(source), cals, bar)
    if args.write:
        path = (args.model_dir or MODEL_DIR) / CONFIDENCE_FILE
        try:
            path.write_text(json.dumps(fitted.to_json(), indent=1) + "\n", encoding="utf-8")
        except OSError as exc:
            raise UserError(f"cannot write {path}: {exc.strerror or exc}") from None
        print(f"wrote {path}")
    return 0


def run_faces(args: argparse.Namespace) -> int:
    """`zonkcam train faces`: the face head fitted and written into the value net."""
    try:
        import torch

        from zonkcam.train import data as D
        from zonkcam.train.faces import add_face_output, face_data, left_out_of, train_head
    except ImportError as exc:
        raise UserError(
            f"training needs the 'train' extra ({exc}); pip install -e '.[train]'"
        ) from exc
    from zonkcam.vision.model import MODEL_DIR, VALUES_FILE

    folder = args.model_dir or MODEL_DIR
    values = folder / VALUES_FILE
    if not values.is_file():
        raise UserError(f"no {VALUES_FILE} in {folder}")
    data = _data_dirs(args)
    if not data:
        raise UserError(f"no labelled photo sets under {SHARED_DATA}: name them with --data")
    torch.set_num_threads(args.threads)
    t0 = time.time()

    def log(msg: str) -> None:
        print(f"[{time.time() - t0:7.1f} s] {msg}", file=sys.stderr, flush=True)

    leave_out = left_out_of(folder)
    if leave_out:
        log(f"{folder} is a twin without {leave_out}: fitted without it")
    photos = D.load_photos(data, leave_out, log)
    try:
        faces = face_data(values, photos, args.seed, args.threads, log)
    except ValueError as exc:
        raise UserError(f"{exc} (the training split of {', '.join(map(str, data))})") from None
    add_face_output(values, train_head(faces, args.seed, log))
    log(f"wrote the face feature into {values}")
    return 0


def _confidence_report(name: str, kept, cals: dict, bar: float) -> None:  # noqa: ANN001
    from zonkcam.train.confidence import flags, nll

    for label, cal in cals.items():
        f = flags(kept, cal, bar)
        print(
            f"{name:<24} {label:<10} dice {f.dice:>5}  wrong {f.wrong:>4}  silent "
            f"{f.silent:>4} ({f.wrong_flagged:.2f} of wrong asked)  right asked "
            f"{f.right_flagged:>4} ({f.right_flagged_share:.3f})  photos scored wrong "
            f"silently {f.silent_photos:>3} of {f.photos} ({f.silent_photo_share:.3f})  "
            f"nll {nll(kept, cal):.3f}"
        )


def _data_dirs(args: argparse.Namespace) -> list[Path]:
    if args.data is None:
        return default_data()
    if any(str(d) == "none" for d in args.data):
        return []
    for d in args.data:
        if not (d / "labels.jsonl").is_file():
            raise UserError(f"--data {d}: no labels.jsonl there")
    return list(args.data)
