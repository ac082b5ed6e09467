"""The printable play mat: its layout (TOML, the built-in ones in the repository's
calibration/ folder) and its drawing.

Mat coordinates are millimetres from the mat's top-left corner, x right, y down (the
keep strip is along the bottom edge, nearest the scorekeeper).
"""

from __future__ import annotations

import math
import tomllib
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from zonkcam.data import LAYOUTS
from zonkcam.errors import UserError
from zonkcam.fileio import open_to_read, write_whole
from zonkcam.game.actions import Landing
from zonkcam.game.names import quoted

SIZES = ("a3", "a2", "a4", "letter")
"""The built-in mats, by the paper they print on (A4 and US Letter for a home printer):
``calibration/<size>.toml``."""
MAX_GEOMETRY_BYTES = 64 * 1024
"""The largest geometry file read (one is a few dozen lines, about 1 KB)."""
BOARD_LABELS = tuple(landing.name for landing in Landing)
"""The words printed under the board images (and in a layout file): LEFT, RIGHT, CHOOSE,
SOCIAL, one for each of the engine's :class:`~zonkcam.game.actions.Landing`."""
DICTIONARIES = {
    **{f"DICT_{n}X{n}_{k}": k for n in (4, 5, 6, 7) for k in (50, 100, 250, 1000)},
    "DICT_ARUCO_ORIGINAL": 1024,
}
"""The ArUco dictionaries a mat may use, and how many markers each has (ids 0 to that - 1)."""
MAT_MM = (50.0, 2000.0)
"""A mat's width and height, at least and at most (mm)."""
DIE_MM = (8.0, 40.0)
"""A die's side, at least and at most (mm)."""
PART_MM = (2.0, 2000.0)
"""A marker's or board image's side, at least and at most (mm)."""


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float

    def contains(self, x: float, y: float) -> bool:
        return self.x <= x <= self.x + self.w and self.y <= y <= self.y + self.h

    @property
    def corners(self) -> np.ndarray:
        return np.array(
            [
                [self.x, self.y],
                [self.x + self.w, self.y],
                [self.x + self.w, self.y + self.h],
                [self.x, self.y + self.h],
            ],
            float,
        )


@dataclass(frozen=True)
class BoardImage:
    """A printed die image; a scoring die touching it passes a drink."""

    label: str
    """The word printed under it (BOARD_LABELS)."""
    center: tuple[float, float]
    size_mm: float

    @property
    def landing(self) -> Landing:
        """What a scoring die touching it plays (the engine's Land action)."""
        return Landing[self.label]

    @property
    def rect(self) -> Rect:
        half = self.size_mm / 2
        return Rect(self.center[0] - half, self.center[1] - half, self.size_mm, self.size_mm)


@dataclass(frozen=True)
class Marker:
    id: int
    x: float
    y: float
    size_mm: float

    @property
    def corners(self) -> np.ndarray:
        """Corners in ArUco order (top-left, top-right, bottom-right, bottom-left), mm."""
        return Rect(self.x, self.y, self.size_mm, self.size_mm).corners


@dataclass(frozen=True)
class MatGeometry:
    name: str
    width_mm: float
    height_mm: float
    die_mm: float
    dictionary: str
    markers: tuple[Marker, ...]
    rolling_area: Rect
    keep_strip: Rect
    board_images: tuple[BoardImage, ...]

    @property
    def corners(self) -> np.ndarray:
        return Rect(0, 0, self.width_mm, self.height_mm).corners

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "width_mm": self.width_mm,
            "height_mm": self.height_mm,
            "die_mm": self.die_mm,
            "markers": {
                "dictionary": self.dictionary,
                "size_mm": self.markers[0].size_mm,
                "ids": [m.id for m in self.markers],
                "positions": [[m.x, m.y] for m in self.markers],
            },
            "rolling_area": {"rect": _rect_list(self.rolling_area)},
            "keep_strip": {"rect": _rect_list(self.keep_strip)},
            "board_images": [
                {"label": b.label, "center": list(b.center), "size_mm": b.size_mm}
                for b in self.board_images
            ],
        }


def _rect_list(r: Rect) -> list[float]:
    return [r.x, r.y, r.w, r.h]


def load_geometry(name_or_path: str = "a3") -> MatGeometry:
    """A built-in geometry by its paper size (one of SIZES), or a user's TOML file."""
    if name_or_path.lower() in SIZES:
        text = (LAYOUTS / f"{name_or_path.lower()}.toml").read_text(encoding="utf-8")
        where = f"built-in {name_or_path.lower()} mat"
    else:
        try:
            with open_to_read(name_or_path) as f:
                raw = f.read(MAX_GEOMETRY_BYTES + 1)
        except OSError as exc:
            raise UserError(
                f"cannot read mat geometry {name_or_path}: {exc.strerror or exc}"
            ) from None
        if len(raw) > MAX_GEOMETRY_BYTES:
            raise UserError(
                f"mat geometry {name_or_path} is over {MAX_GEOMETRY_BYTES // 1024} KB; "
                "a mat's geometry is a few dozen lines"
            )
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise UserError(f"mat geometry {name_or_path} is not UTF-8 text") from None
        where = name_or_path
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"{where} is not valid TOML: {exc}") from None
    except (ValueError, RecursionError) as exc:  # a number too long, nesting too deep
        why = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)
        raise UserError(f"{where} is not TOML zonkcam can read ({why})") from None
    return geometry_from_dict(data, where)


def _is_number(value: Any) -> bool:
    """A finite int or float (not a bool, NaN or infinity)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:  # an int too large for a float
        return False


def _numbers(value: Any, n: int) -> bool:
    return isinstance(value, list) and len(value) == n and all(_is_number(v) for v in value)


SUBTABLE_KEYS = {
    "markers": {"dictionary", "size_mm", "ids", "positions"},
    "rolling_area": {"rect"},
    "keep_strip": {"rect"},
    "board_images": {"label", "center", "size_mm"},
}
"""The keys each table of a geometry may have."""


def geometry_from_dict(data: dict[str, Any], where: str = "mat geometry") -> MatGeometry:
    """The geometry in a parsed TOML (or calibration) table; every number finite and
    within physical bounds (MAT_MM, DIE_MM, PART_MM), every part on the mat. UserError
    names the first thing wrong."""
    if not isinstance(data, dict):
        raise UserError(f"{where}: not a table")

    def num(table: dict, key: str, ctx: str, bounds: tuple[float, float]) -> float:
        value = table.get(key)
        if not _is_number(value) or not bounds[0] <= value <= bounds[1]:
            raise UserError(
                f"{where}: {ctx}{key} must be a number from {bounds[0]:g} to {bounds[1]:g} "
                f"(mm), not {quoted(value)}"
            )
        return float(value)

    def rect(table: Any, ctx: str) -> Rect:
        value = table.get("rect") if isinstance(table, dict) else None
        if not _numbers(value, 4) or value[2] <= 0 or value[3] <= 0:
            raise UserError(
                f"{where}: [{ctx}] rect must be [x, y, width, height] in mm, width and height "
                "above 0"
            )
        return Rect(*map(float, value))

    known = {
        "name",
        "width_mm",
        "height_mm",
        "die_mm",
        "markers",
        "rolling_area",
        "keep_strip",
        "board_images",
    }
    unknown = set(data) - known
    if unknown:
        raise UserError(
            f"{where}: unknown key {quoted(sorted(unknown)[0], 40)}; "
            f"allowed: {', '.join(sorted(known))}"
        )
    for key, allowed in SUBTABLE_KEYS.items():
        tables = data.get(key)
        for i, table in enumerate(tables if isinstance(tables, list) else [tables]):
            extra = set(table) - allowed if isinstance(table, dict) else set()
            if extra:
                at = f"{key}[{i}]" if isinstance(tables, list) else key
                raise UserError(
                    f"{where}: unknown key {quoted(sorted(extra)[0], 40)} in {at}; "
                    f"allowed: {', '.join(sorted(allowed))}"
                )
    m = data.get("markers")
    if not isinstance(m, dict):
        raise UserError(f"{where}: needs a [markers] table")
    dictionary = m.get("dictionary", "DICT_4X4_50")
    if not isinstance(dictionary, str) or dictionary not in DICTIONARIES:
        raise UserError(
            f"{where}: markers.dictionary {quoted(str(dictionary), 40)} is not one of the "
            f"ArUco dictionaries {', '.join(DICTIONARIES)}"
        )
    ids, positions = m.get("ids"), m.get("positions")
    if (
        not isinstance(ids, list)
        or not isinstance(positions, list)
        or len(ids) != 4
        or len(positions) != 4
        or not all(isinstance(i, int) and not isinstance(i, bool) for i in ids)
        or len(set(ids)) != 4
        or not all(_numbers(p, 2) for p in positions)
    ):
        raise UserError(f"{where}: markers need 4 different ids and 4 [x, y] positions in mm")
    if not all(0 <= i < DICTIONARIES[dictionary] for i in ids):
        raise UserError(
            f"{where}: markers.ids must be from 0 to {DICTIONARIES[dictionary] - 1} in {dictionary}"
        )
    size = num(m, "size_mm", "markers.", PART_MM)
    boards = []
    listed = data.get("board_images", [])
    if not isinstance(listed, list) or len(listed) > 16:
        raise UserError(f"{where}: board_images must be a list of at most 16 tables")
    for i, b in enumerate(listed):
        if not isinstance(b, dict) or b.get("label") not in BOARD_LABELS:
            raise UserError(
                f"{where}: board_images[{i}] label must be one of {', '.join(BOARD_LABELS)}"
            )
        c = b.get("center")
        if not _numbers(c, 2):
            raise UserError(f"{where}: board_images[{i}] center must be [x, y] in mm")
        boards.append(
            BoardImage(
                b["label"],
                (float(c[0]), float(c[1])),
                num(b, "size_mm", f"board_images[{i}].", PART_MM),
            )
        )
    name = data.get("name", "custom")
    if not isinstance(name, str) or len(name) > 80:
        raise UserError(f"{where}: name must be text of at most 80 characters")
    geo = MatGeometry(
        name=name,
        width_mm=num(data, "width_mm", "", MAT_MM),
        height_mm=num(data, "height_mm", "", MAT_MM),
        die_mm=num(data, "die_mm", "", DIE_MM) if "die_mm" in data else 16.0,
        dictionary=dictionary,
        markers=tuple(
            Marker(i, float(p[0]), float(p[1]), size) for i, p in zip(ids, positions, strict=True)
        ),
        rolling_area=rect(data.get("rolling_area"), "rolling_area"),
        keep_strip=rect(data.get("keep_strip"), "keep_strip"),
        board_images=tuple(boards),
    )
    everything = [("rolling_area", geo.rolling_area), ("keep_strip", geo.keep_strip)]
    everything += [(f"marker {mk.id}", Rect(mk.x, mk.y, size, size)) for mk in geo.markers]
    everything += [(f"board image {b.label}", b.rect) for b in geo.board_images]
    for label, r in everything:
        if r.x < 0 or r.y < 0 or r.x + r.w > geo.width_mm or r.y + r.h > geo.height_mm:
            raise UserError(
                f"{where}: {label} does not fit on a {geo.width_mm:g} x {geo.height_mm:g} mm mat"
            )
    return geo


# -- drawing ---------------------------------------------------------------------------------

ROLLING_COLOUR = (31, 102, 48)
"""BGR of the rolling area (#30661F, a felt green): also the board images' ground and the
whole mat round the zones (the table counts a die lying there as in the rolling area). A
green that few dice share: white, cream, black, grey, red, blue and purple dice all differ
from it by the table's own measures (docs/table.md)."""
KEEP_COLOUR = (61, 204, 61)
"""BGR of the keep strip (#3DCC3D, a light green): told from the rolling area at a glance
(much lighter, also to colour-blind eyes), and, like it, a colour few dice share (light
enough that a mid-green die differs from it by more than the change test's level)."""
PAPER_COLOUR = (255, 255, 255)
"""BGR of the markers' quiet zone (ArUco finds a marker by its black border on white)."""
QUIET_ZONE_MM = 8.0
"""The least white margin round a marker (at least one of its cells is drawn, whichever is
wider)."""
PAPER_REACH = 0.8
"""How much further (in marker sizes) the white round a marker runs along the mat's side,
towards its middle. A white square only a little larger than the marker looks to the ArUco
detector like a second marker outline round it, and the marker inside is lost; a white
patch longer than wide is no such candidate."""
_INK = (30, 30, 30)
_WHITE_PRINT = (235, 235, 235)


def _luminance(bgr: tuple[int, int, int]) -> float:
    """Relative luminance (sRGB) of a BGR colour, 0 (black) to 1 (white)."""
    lin = [v / 255 / 12.92 if v <= 10 else ((v / 255 + 0.055) / 1.055) ** 2.4 for v in bgr]
    return 0.0722 * lin[0] + 0.7152 * lin[1] + 0.2126 * lin[2]


def label_colour(ground: tuple[int, int, int]) -> tuple[int, int, int]:
    """White print or dark ink, whichever reads better on ``ground``."""
    g = _luminance(ground)
    on_white = (_luminance(_WHITE_PRINT) + 0.05) / (g + 0.05)
    on_ink = (g + 0.05) / (_luminance(_INK) + 0.05)
    return _WHITE_PRINT if on_white >= on_ink else _INK


def draw_mat(geo: MatGeometry, dpi: float = 300) -> np.ndarray:
    """The mat as a BGR image at ``dpi``: the rolling colour to the mat's edge, the keep
    strip, the board images, and the markers each on a white square (its quiet zone)."""
    px = dpi / 25.4

    def p(x: float, y: float) -> tuple[int, int]:
        return int(round(x * px)), int(round(y * px))

    w, h = p(geo.width_mm, geo.height_mm)
    img = np.full((h, w, 3), ROLLING_COLOUR, np.uint8)
    line = max(1, int(round(0.8 * px)))
    for rect, colour, label in (
        (geo.rolling_area, ROLLING_COLOUR, "ROLL HERE"),
        (geo.keep_strip, KEEP_COLOUR, "KEEP"),
    ):
        cv2.rectangle(img, p(rect.x, rect.y), p(rect.x + rect.w, rect.y + rect.h), colour, -1)
        _text(img, label, p(rect.x + rect.w / 2, rect.y + rect.h - 4), 5 * px, label_colour(colour))
    for b in geo.board_images:
        _die_image(img, b, px)
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, geo.dictionary))
    for m in geo.markers:
        x0, y0, x1, y1 = _paper_round(m, geo, dictionary.markerSize)
        cv2.rectangle(img, p(x0, y0), p(x1, y1), PAPER_COLOUR, -1)
        side = int(round(m.size_mm * px))
        marker = cv2.aruco.generateImageMarker(dictionary, m.id, side)
        x0, y0 = p(m.x, m.y)
        img[y0 : y0 + side, x0 : x0 + side] = marker[..., None]
    cv2.rectangle(img, (0, 0), (w - 1, h - 1), _INK, line)
    return img


def _paper_round(m: Marker, geo: MatGeometry, bits: int) -> tuple[float, float, float, float]:
    """The white paper round a marker (x0, y0, x1, y1 in mm): its quiet zone, to the mat's
    edge where that is near, and longer than wide (see PAPER_REACH)."""
    quiet = max(QUIET_ZONE_MM, m.size_mm / (bits + 2))
    x0, y0 = m.x - quiet, m.y - quiet
    x1, y1 = m.x + m.size_mm + quiet, m.y + m.size_mm + quiet
    if m.y + m.size_mm / 2 > geo.height_mm / 2:
        y0 -= PAPER_REACH * m.size_mm
    else:
        y1 += PAPER_REACH * m.size_mm
    snap = quiet + 1.0  # no sliver of colour between the paper and the mat's edge
    x0, y0 = (0.0 if x0 < snap else x0), (0.0 if y0 < snap else y0)
    x1 = geo.width_mm if geo.width_mm - x1 < snap else x1
    y1 = geo.height_mm if geo.height_mm - y1 < snap else y1
    return max(0.0, x0), max(0.0, y0), min(geo.width_mm, x1), min(geo.height_mm, y1)


def _die_image(img: np.ndarray, b: BoardImage, px: float) -> None:
    """A die drawn as an outline with a sign, not pips, so the reader never takes it for a die."""
    r = b.rect
    white, thick = (240, 240, 240), max(2, int(1.6 * px))
    # OpenCV centres a line on its path: inset by half a line so the ink stays in the zone
    inset = thick // 2 + 1
    x0, y0 = int(round(r.x * px)) + inset, int(round(r.y * px)) + inset
    side = int((r.x + r.w) * px) - inset - x0
    corner = side // 6
    cv2.rectangle(img, (x0 + corner, y0), (x0 + side - corner, y0 + side), white, thick)
    cv2.rectangle(img, (x0, y0 + corner), (x0 + side, y0 + side - corner), white, thick)
    cv2.rectangle(
        img, (x0 + thick, y0 + thick), (x0 + side - thick, y0 + side - thick), ROLLING_COLOUR, -1
    )
    for cx, cy in (
        (corner, corner),
        (side - corner, corner),
        (side - corner, side - corner),
        (corner, side - corner),
    ):
        cv2.ellipse(img, (x0 + cx, y0 + cy), (corner, corner), 0, 0, 360, white, thick)
    cv2.rectangle(
        img, (x0 + thick, y0 + corner), (x0 + side - thick, y0 + side - corner), ROLLING_COLOUR, -1
    )
    cv2.rectangle(
        img, (x0 + corner, y0 + thick), (x0 + side - corner, y0 + side - thick), ROLLING_COLOUR, -1
    )
    mid, arm = (x0 + side // 2, y0 + side // 2), int(side * 0.3)
    if b.landing in (Landing.LEFT, Landing.RIGHT):
        sign = -1 if b.landing is Landing.LEFT else 1
        cv2.arrowedLine(
            img,
            (mid[0] - sign * arm, mid[1]),
            (mid[0] + sign * arm, mid[1]),
            white,
            thick * 2,
            cv2.LINE_AA,
            tipLength=0.4,
        )
    else:
        _text(
            img,
            "?" if b.landing is Landing.CHOOSE else "ALL",
            (mid[0], mid[1] + int(side * 0.12)),
            side * 0.32,
            white,
        )
    _text(img, b.label, (x0 + side // 2, y0 + side + int(6 * px)), 4 * px, white)


def _text(
    img: np.ndarray,
    text: str,
    centre: tuple[int, int],
    height_px: float,
    colour: tuple[int, int, int],
) -> None:
    font = cv2.FONT_HERSHEY_DUPLEX
    scale = height_px / 22.0
    thick = max(1, int(scale * 2))
    (tw, th), _ = cv2.getTextSize(text, font, scale, thick)
    cv2.putText(
        img, text, (centre[0] - tw // 2, centre[1]), font, scale, colour, thick, cv2.LINE_AA
    )


def png_with_dpi(image: np.ndarray, dpi: float) -> bytes:
    """The image as PNG bytes that say their resolution (a pHYs chunk), so a printer's
    "actual size" prints the mat at its real size."""
    ok, buf = cv2.imencode(".png", image, [cv2.IMWRITE_PNG_COMPRESSION, 9])
    if not ok:
        raise OSError("the PNG could not be encoded")
    data = buf.tobytes()
    per_metre = int(round(dpi / 0.0254))
    body = b"pHYs" + per_metre.to_bytes(4, "big") * 2 + b"\x01"  # unit: the metre
    chunk = (9).to_bytes(4, "big") + body + zlib.crc32(body).to_bytes(4, "big")
    ihdr_end = 8 + 8 + 13 + 4  # signature, then IHDR's length, type, data and CRC
    return data[:ihdr_end] + chunk + data[ihdr_end:]


def write_pdf(image: np.ndarray, path: str | Path, width_mm: float, height_mm: float) -> None:
    """A one-page PDF of ``image`` at the mat's real size (:func:`pdf_bytes`) as the file
    ``path``, whole or not at all (:func:`zonkcam.fileio.write_whole`)."""
    write_whole(path, pdf_bytes(image, width_mm, height_mm))


def pdf_bytes(image: np.ndarray, width_mm: float, height_mm: float) -> bytes:
    """A one-page PDF of ``image`` at the mat's real size (lossless, Flate-compressed)."""
    h, w = image.shape[:2]
    rgb = cv2.cvtColor(image, cv2.COLOR_BGR2RGB)
    data = zlib.compress(rgb.tobytes(), 6)
    pw, ph = width_mm * 72 / 25.4, height_mm * 72 / 25.4
    content = f"q {pw:.2f} 0 0 {ph:.2f} 0 0 cm /Im0 Do Q".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        (
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {pw:.2f} {ph:.2f}] "
            f"/Resources << /XObject << /Im0 4 0 R >> >> /Contents 5 0 R >>"
        ).encode(),
        (
            f"<< /Type /XObject /Subtype /Image /Width {w} /Height {h} /ColorSpace /DeviceRGB "
            f"/BitsPerComponent 8 /Filter /FlateDecode /Length {len(data)} >>\nstream\n"
        ).encode()
        + data
        + b"\nendstream",
        f"<< /Length {len(content)} >>\nstream\n".encode() + content + b"\nendstream",
    ]
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for i, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for off in offsets:
        out += f"{off:010d} 00000 n \n".encode()
    out += (
        f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n"
    ).encode()
    return bytes(out)
