"""`zonkcam calibrate`: find the mat in the camera's view and save the calibration."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from zonkcam.app import camera
from zonkcam.commands import options
from zonkcam.errors import UserError, WriteFailed
from zonkcam.fileio import image_target_problem, write_image
from zonkcam.game.names import escaped
from zonkcam.mat.calibrate import (
    CalibrationError,
    calibrate,
    default_calibration_path,
    draw_zones,
    find_mat,
)
from zonkcam.mat.layout import MatGeometry, load_geometry
from zonkcam.mat.taught import forget_taught, taught_dice_path
from zonkcam.sources import CameraError


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "calibrate",
        help="find the mat in the camera's view and save the calibration",
        description="Point the camera at the empty mat and run this: it knows the mat (A3, "
        "A2, A4 or Letter) by its four markers, checks the whole mat is in view and in focus, "
        "and writes the calibration plus a preview image with the zones drawn on the "
        "camera's view.",
    )
    options.add_source(p)
    p.add_argument("--image", help="calibrate from this photo of the empty mat instead")
    p.add_argument(
        "--geometry",
        help="your own mat's geometry TOML (a built-in mat is known by its markers; naming "
        "one, a3, a2, a4 or letter, insists on it)",
    )
    p.add_argument(
        "--out", help="calibration file (default: $XDG_CONFIG_HOME/zonkcam/calibration.json)"
    )
    p.add_argument("--preview", help="preview PNG (default: next to the calibration file)")
    p.add_argument(
        "--warmup",
        type=int,
        default=10,
        help="frames to skip while the camera settles (default 10)",
    )
    p.add_argument(
        "--forget-dice",
        action="store_true",
        help="also forget the dice this table was taught (taught-dice.npz beside the "
        "calibration): for a new set of dice",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    demo = args.source.partition(":")[0] == "demo" and not args.image
    geo = load_geometry(args.geometry) if args.geometry else None
    out = Path(args.out) if args.out else default_calibration_path()
    preview = Path(args.preview) if args.preview else out.with_name(out.stem + "-preview.png")
    problem = image_target_problem(args.preview) if args.preview else None
    if problem:  # before anything is written
        raise UserError(f"--preview {escaped(args.preview)}: {problem}")
    if demo and not args.out and out.exists():
        raise UserError(
            f"{out} holds a calibration already and the demo table's would replace it: "
            "nothing was written (give --out FILE to keep the demo table's elsewhere)"
        )
    if args.image:
        from zonkcam.vision.imageio import ImageFileError, load_image

        try:  # bounded as every decode is (zonkcam.vision.imageio)
            image = load_image(args.image)
        except ImageFileError as exc:
            raise UserError(f"cannot read {args.image} as an image: {exc}") from None
        what = args.image
    else:
        image, what = _grab(args.source, args.warmup)
    try:
        if geo is None:  # the built-in mat whose markers are in view
            geo = find_mat(image)
            found = found_line(geo)
        else:
            found = None
        cal = calibrate(image, geo)
    except CalibrationError as exc:
        mat = f"{geo.name} mat: " if geo is not None and not args.geometry else ""
        raise UserError(f"{what}: {mat}{exc}") from None
    try:
        cal.save(out)
    except WriteFailed:
        raise
    except OSError as exc:  # its folder cannot be made
        raise WriteFailed(exc.errno, exc.strerror or str(exc), str(out)) from None
    try:
        preview.parent.mkdir(parents=True, exist_ok=True)
        write_image(preview, draw_zones(image, cal))
    except OSError as exc:
        raise WriteFailed(
            exc.errno,
            f"{exc.strerror or exc} (the calibration is saved in {escaped(str(out))})",
            str(preview),
        ) from None
    if found:
        print(found)
    if demo:
        print(
            "calibrated the DEMO table (a simulated camera, not yours): play and watch "
            "calibrate the demo table themselves, so this file only shows what calibrate "
            "writes; calibrate again with the camera before a real game"
        )
    print(
        f"calibrated from {what}: {geo.name} mat, {cal.px_per_mm:.2f} px/mm, "
        f"markers fit to {cal.reprojection_px:.2f} px, edges {cal.edge_width_px:.1f} px"
    )
    print(f"saved {out}; check the zones in {preview}")
    if args.forget_dice:
        gone = forget_taught(taught_dice_path(out))
        print("forgot the table's taught dice" if gone else "no taught dice to forget")
    return 0


def _note(text: str) -> None:
    print(f"zonkcam calibrate: {text}", file=sys.stderr, flush=True)


def found_line(geo: MatGeometry) -> str:
    """What calibrate and check say of the mat they found: ``found the A4 mat by its
    markers (ids 4-7)``."""
    ids = [m.id for m in geo.markers]
    listed = (
        f"{ids[0]}-{ids[-1]}"
        if ids == list(range(ids[0], ids[0] + len(ids)))
        else ", ".join(map(str, ids))
    )
    return f"found the {geo.name} mat by its markers (ids {listed})"


def _grab(source: str, warmup: int):
    try:
        return camera.grab_frame(source, warmup, say=_note)
    except CameraError as exc:
        hint = (
            ". Use --source usb, --image PHOTO, or --source demo to try it on the demo table"
            if source == "auto"
            else ""
        )
        raise UserError(f"{exc}; nothing was written{hint}") from None
