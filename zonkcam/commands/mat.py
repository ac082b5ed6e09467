"""`zonkcam mat --out FILE`: the printable play mat (PNG at 300 dpi, and PDF)."""

from __future__ import annotations

import argparse
import shlex
from pathlib import Path

from zonkcam.errors import UserError
from zonkcam.fileio import write_whole
from zonkcam.game.names import escaped
from zonkcam.mat.layout import SIZES, draw_mat, load_geometry, pdf_bytes, png_with_dpi


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "mat",
        help="draw the printable play mat (PNG at 300 dpi and PDF)",
        description="Draws the play mat: four ArUco markers, the rolling area, the keep strip "
        "and the drinking table's board images, from the mat geometry (TOML). Print the PDF "
        "at 100% (actual size, no fit to page) on the paper it is made for: A3 or A2, or A4 or "
        "US Letter on a home printer.",
    )
    p.add_argument(
        "--size",
        choices=SIZES,
        default="a3",
        help="paper size: a3, a2, a4 or letter (US Letter) (default a3)",
    )
    p.add_argument(
        "--geometry",
        help="your own mat geometry TOML (default: the built-in one "
        "for --size; see calibration/a3.toml, a2.toml, a4.toml, letter.toml)",
    )
    p.add_argument("--dpi", type=int, default=300, help="PNG resolution (default 300)")
    p.add_argument(
        "--out",
        required=True,
        metavar="FILE",
        help="output name: FILE.png and FILE.pdf are written",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if not 50 <= args.dpi <= 600:
        raise UserError("--dpi must be between 50 and 600")
    geo = load_geometry(args.geometry or args.size)
    out = Path(args.out)
    if out.name in ("", ".", ".."):  # '', '/', '.', 'folder/..': no file name to give
        raise UserError(
            f"--out needs a file name ({args.out!r} has none): FILE gives FILE.png and FILE.pdf"
        )
    base = out.with_suffix("") if out.suffix.lower() in (".png", ".pdf") else out
    png, pdf = base.with_suffix(".png"), base.with_suffix(".pdf")
    try:
        base.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"cannot write to {base.parent}: {exc.strerror}") from None
    image = draw_mat(geo, dpi=args.dpi)
    # each whole or not at all: a failure says why in one line and keeps the old file
    write_whole(png, png_with_dpi(image, args.dpi))
    write_whole(pdf, pdf_bytes(image, geo.width_mm, geo.height_mm))
    print(
        f"{geo.name} mat ({geo.width_mm:g} x {geo.height_mm:g} mm): {pdf} and {png} "
        f"({image.shape[1]}x{image.shape[0]} px at {args.dpi} dpi)"
    )
    # a built-in mat is known by its markers; a mat of the user's own by its geometry
    calibrate = "zonkcam calibrate"
    if args.geometry:
        calibrate += f" --geometry {shlex.quote(escaped(args.geometry))}"
    print(
        f"Print {pdf.name} at 100% (actual size, no fit to page), lay it flat, then run: "
        f"{calibrate}"
    )
    return 0
