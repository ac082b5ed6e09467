"""Finding the mat in a camera image: ArUco markers -> the mat-to-image homography.

``find_mat(image)`` knows which built-in mat is in view by its markers (each mat has
ids of its own). ``calibrate(image, geometry)`` checks that every marker is found, the
whole mat is in view and the image is in focus, and returns a :class:`Calibration` that
maps between mat millimetres and image pixels. ``camera_shift(image, calibration)`` tells
whether the camera has moved since (from whichever markers are visible).
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import json
import math
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from zonkcam.errors import UserError
from zonkcam.fileio import open_to_read, write_whole
from zonkcam.game.names import quoted
from zonkcam.mat.layout import SIZES, MatGeometry, Rect, geometry_from_dict, load_geometry
from zonkcam.places import xdg_folder

CORNER_NAMES = ("top-left", "top-right", "bottom-right", "bottom-left")
MAX_EDGE_WIDTH_PX = 4.5
"""Marker edges blurrier than this (px from dark to light) mean the camera is out of focus."""
REFERENCE_PX_PER_MM = 1.0
MAX_FIT_MM = 4.0
"""Every marker corner must fit one flat mat to within this (mm on the mat): further off and
the zones would be drawn a quarter of a die from where they are printed."""
MAX_CALIBRATION_BYTES = 20 * 2**20
"""The largest calibration file read: one is a few KB and its reference image (the mat at
REFERENCE_PX_PER_MM as a PNG, in base64) about 0.5 MB for an A3 mat, 16 MB at most for
the largest mat (MAT_MM) photographed noisily enough that PNG cannot compress it."""
MOVED_PX = 6.0
"""Markers this far from where calibration saw them mean the camera (or mat) moved."""
IMAGE_SIDE_PX = (32, 16384)
"""A calibrated camera frame's width and height, at least and at most (px)."""
MIN_DIE_PX = 6.0
"""A die must span at least this many px in the calibrated view (the reader's least)."""
IN_VIEW = 0.1
"""The mat's corners and the markers seen must lie within this share of the frame's size
beyond its edges."""
MAX_CONDITION = 1e9
"""The largest condition number of a calibration's homography (its largest entry scaled to 1)."""


class CalibrationError(UserError):
    """Calibration failed or a calibration file is unusable; the message says what to do."""


@dataclass(frozen=True)
class Calibration:
    geometry: MatGeometry
    homography: np.ndarray
    """3x3, mat mm -> image px."""
    image_size: tuple[int, int]
    """(width, height) of the camera frames it was made from."""
    marker_corners: dict[int, np.ndarray]
    """Where each marker's corners were seen (4x2 px), to notice a moved camera."""
    reprojection_px: float
    edge_width_px: float
    created: float = 0.0
    reference: np.ndarray | None = field(default=None, compare=False, repr=False)
    """The empty mat seen from above (BGR, REFERENCE_PX_PER_MM), to tell dice and hands
    from the printed mat."""

    def mat_to_image(self, pts_mm: np.ndarray) -> np.ndarray:
        pts = np.asarray(pts_mm, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.homography).reshape(-1, 2)

    def image_to_mat(self, pts_px: np.ndarray) -> np.ndarray:
        pts = np.asarray(pts_px, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, np.linalg.inv(self.homography)).reshape(-1, 2)

    @property
    def px_per_mm(self) -> float:
        """Average scale at the mat's centre."""
        c = np.array([[self.geometry.width_mm / 2, self.geometry.height_mm / 2]])
        a = self.mat_to_image(np.vstack([c, c + [10, 0], c + [0, 10]]))
        return float((np.linalg.norm(a[1] - a[0]) + np.linalg.norm(a[2] - a[0])) / 20)

    def top_down(self, image: np.ndarray, px_per_mm: float = 1.0) -> np.ndarray:
        """The mat cut out of a camera image and straightened: (H*px, W*px) BGR."""
        g = self.geometry
        scale = np.diag([px_per_mm, px_per_mm, 1.0])
        m = scale @ np.linalg.inv(self.homography)
        size = (int(round(g.width_mm * px_per_mm)), int(round(g.height_mm * px_per_mm)))
        return cv2.warpPerspective(image, m, size, flags=cv2.INTER_AREA)

    def scaled_to(self, size: tuple[int, int]) -> Calibration | None:
        """The same calibration for frames of `size` (width, height) of the same view (the
        camera giving its picture larger or smaller): everything in image px scaled alike.
        None when `size` has another shape (more than 1% apart): another view, recalibrate."""
        w, h = self.image_size
        sx, sy = size[0] / w, size[1] / h
        if abs(sx / sy - 1) > 0.01:
            return None
        scale = np.diag([sx, sy, 1.0])
        corners = {k: v * [sx, sy] for k, v in self.marker_corners.items()}
        mean = (sx + sy) / 2
        return dataclasses.replace(
            self,
            homography=scale @ self.homography,
            image_size=(int(size[0]), int(size[1])),
            marker_corners=corners,
            reprojection_px=self.reprojection_px * mean,
            edge_width_px=self.edge_width_px * mean,
        )

    def to_dict(self) -> dict[str, Any]:
        reference = None
        if self.reference is not None:
            ok, png = cv2.imencode(".png", self.reference)
            reference = base64.b64encode(png.tobytes()).decode() if ok else None
        return {
            "format": "zonkcam-calibration-1",
            "created": self.created,
            "image_size": list(self.image_size),
            "homography": self.homography.tolist(),
            "marker_corners": {str(k): v.tolist() for k, v in self.marker_corners.items()},
            "reprojection_px": self.reprojection_px,
            "edge_width_px": self.edge_width_px,
            "geometry": self.geometry.to_dict(),
            "reference_png": reference,
        }

    def check(self) -> None:
        """ValueError says why this calibration cannot be used: every number finite, the
        frame a sane size, the homography well conditioned, the mat in front of the camera,
        not mirrored, in view and big enough that a die spans MIN_DIE_PX, the markers
        seen the mat's own and in view, the reference image the mat's size."""
        w, h = self.image_size
        if not all(IMAGE_SIDE_PX[0] <= v <= IMAGE_SIDE_PX[1] for v in (w, h)):
            raise ValueError(
                f"image_size must be from {IMAGE_SIDE_PX[0]} to {IMAGE_SIDE_PX[1]} px a side"
            )
        m = np.asarray(self.homography, np.float64)
        if m.shape != (3, 3) or not np.all(np.isfinite(m)) or not np.any(m):
            raise ValueError("its homography is not a valid 3x3 matrix")
        unit = m / np.abs(m).max()
        if not np.linalg.cond(unit) < MAX_CONDITION:
            raise ValueError("its homography is degenerate (too badly conditioned)")
        g = self.geometry
        corners = np.hstack([g.corners, np.ones((4, 1))]) @ m.T
        depth = corners[:, 2] * np.sign(corners[:, 2].sum() or 1.0)
        if not np.all(depth > 1e-9 * np.abs(corners[:, :2]).max(initial=1.0)):
            raise ValueError("its homography puts part of the mat behind the camera")
        pts = corners[:, :2] / corners[:, 2:]
        edges = np.roll(pts, -1, axis=0) - pts
        turns = (
            edges[:, 0] * np.roll(edges, -1, axis=0)[:, 1]
            - edges[:, 1] * np.roll(edges, -1, axis=0)[:, 0]
        )
        if not np.all(turns > 0):
            raise ValueError("its homography shows the mat mirrored or folded")
        margin = np.array([w, h]) * IN_VIEW
        if np.any(pts < -margin) or np.any(pts > np.array([w, h]) + margin):
            raise ValueError("its homography puts the mat outside the camera's view")
        if not self.px_per_mm * g.die_mm >= MIN_DIE_PX:
            raise ValueError(
                f"a die would span {self.px_per_mm * g.die_mm:.2g} px (want at least "
                f"{MIN_DIE_PX:g}): the camera is too far away"
            )
        ids = {mk.id for mk in g.markers}
        for k, c in self.marker_corners.items():
            if k not in ids:
                raise ValueError(f"marker {k} is not one of the mat's markers")
            c = np.asarray(c, np.float64)
            if c.shape != (4, 2) or not np.all(np.isfinite(c)):
                raise ValueError(f"marker {k}'s corners must be 4 [x, y] numbers")
            if np.any(c < -margin) or np.any(c > np.array([w, h]) + margin):
                raise ValueError(f"marker {k}'s corners lie outside the camera's view")
        for name in ("reprojection_px", "edge_width_px", "created"):
            value = getattr(self, name)
            if not (math.isfinite(value) and value >= 0):
                raise ValueError(f"{name} must be a number, 0 or more")
        if self.reference is not None:
            want = (
                round(g.height_mm * REFERENCE_PX_PER_MM),
                round(g.width_mm * REFERENCE_PX_PER_MM),
                3,
            )
            if self.reference.shape != want or self.reference.dtype != np.uint8:
                raise ValueError(
                    f"its reference image is {'x'.join(map(str, self.reference.shape))}, "
                    f"not the mat's {want[1]}x{want[0]} px"
                )

    def save(self, path: str | Path) -> None:
        """Write the calibration (whole or not at all); CalibrationError when it is not
        usable (Calibration.check), WriteFailed when it cannot be written."""
        try:
            self.check()
        except ValueError as exc:
            raise CalibrationError(f"not saving a calibration that cannot be used: {exc}") from None
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        write_whole(path, json.dumps(self.to_dict(), indent=1))  # never half a calibration


FIELDS = (
    "format",
    "created",
    "image_size",
    "homography",
    "marker_corners",
    "reprojection_px",
    "edge_width_px",
    "geometry",
    "reference_png",
)
"""The keys of a calibration file (Calibration.to_dict); created and reference_png may
be left out."""
MAX_CALIBRATION_VALUES = 4096
"""The most lists, tables and values a calibration file may hold, counted from its
brackets, commas and colons before it is parsed (one holds about 250)."""
_PNG = b"\x89PNG\r\n\x1a\n"


def _is_real(value: Any) -> bool:
    """An int or float (not a bool); NaN and infinity are left to Calibration.check."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def _point_list(value: Any, n: int) -> bool:
    """`value` is n [x, y] pairs of numbers."""
    return (
        isinstance(value, list)
        and len(value) == n
        and all(isinstance(p, list) and len(p) == 2 and all(_is_real(v) for v in p) for p in value)
    )


def _reference(text: Any, geometry: MatGeometry) -> np.ndarray:
    """The reference image in a calibration file: a PNG (base64) of exactly the mat's size
    at REFERENCE_PX_PER_MM, its size read from its IHDR (which libpng decodes by) before
    it is decoded, and decoded within that many pixels (zonkcam.vision.imageio)."""
    from zonkcam.vision.imageio import ImageFileError, decode_image

    if not isinstance(text, str):
        raise ValueError("reference_png must be a PNG image in base64")
    try:
        data = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise ValueError("reference_png must be a PNG image in base64") from None
    if data[:8] != _PNG or data[12:16] != b"IHDR" or len(data) < 24:
        raise ValueError("its reference image is not a PNG")
    w, h = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    want = (
        round(geometry.width_mm * REFERENCE_PX_PER_MM),
        round(geometry.height_mm * REFERENCE_PX_PER_MM),
    )
    if (w, h) != want:
        raise ValueError(f"its reference image is {w}x{h}, not the mat's {want[0]}x{want[1]} px")
    try:
        return decode_image(data, max_pixels=w * h)[0]
    except ImageFileError as exc:
        raise ValueError(f"its reference image is damaged ({exc})") from None


def calibration_from_dict(data: Any, where: str = "calibration") -> Calibration:
    """The calibration in a parsed calibration file, checked against its schema (FIELDS,
    each of its type and length) and then for use (Calibration.check). ValueError says
    what is wrong in the file's own words; UserError for its geometry."""
    if not isinstance(data, dict) or data.get("format") != "zonkcam-calibration-1":
        raise ValueError("not a zonkcam calibration file")
    unknown = sorted(set(data) - set(FIELDS))
    if unknown:
        raise ValueError(f"unknown key {quoted(unknown[0], 40)}; allowed: {', '.join(FIELDS)}")
    missing = [k for k in FIELDS if k not in data and k not in ("created", "reference_png")]
    if missing:
        raise ValueError(f"it has no {missing[0]}")
    h = data["homography"]
    if not (
        isinstance(h, list)
        and len(h) == 3
        and all(
            isinstance(row, list) and len(row) == 3 and all(_is_real(v) for v in row) for row in h
        )
    ):
        raise ValueError("homography must be 3 rows of 3 numbers")
    try:
        homography = np.array(h, np.float64)
    except OverflowError:
        raise ValueError("its homography is not a valid 3x3 matrix") from None
    size = data["image_size"]
    if not (
        isinstance(size, list)
        and len(size) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in size)
    ):
        raise ValueError("image_size must be [width, height] in px")
    geometry = geometry_from_dict(data["geometry"], f"{where} geometry")
    listed = data["marker_corners"]
    if not isinstance(listed, dict) or len(listed) > len(geometry.markers):
        raise ValueError(
            f"marker_corners must be a table of at most {len(geometry.markers)} marker ids, "
            "each with 4 [x, y] corners"
        )
    corners = {}
    for k, v in listed.items():
        if not (k.isascii() and k.isdigit() and len(k) <= 6):
            raise ValueError(f"marker_corners: {quoted(k, 20)} is not a marker id")
        if not _point_list(v, 4):
            raise ValueError(f"marker {int(k)}'s corners must be 4 [x, y] numbers")
        corners[int(k)] = np.array(v, np.float64)
    numbers = {k: data.get(k, 0) for k in ("reprojection_px", "edge_width_px", "created")}
    if not all(_is_real(v) for v in numbers.values()):
        raise ValueError("reprojection_px, edge_width_px and created must be numbers")
    try:
        values = [float(v) for v in numbers.values()]
    except OverflowError:
        raise ValueError("reprojection_px, edge_width_px and created must be numbers") from None
    reference = None
    if data.get("reference_png") is not None:
        reference = _reference(data["reference_png"], geometry)
    cal = Calibration(geometry, homography, (size[0], size[1]), corners, *values, reference)
    cal.check()
    return cal


def load_calibration(path: str | Path) -> Calibration:
    """Read a calibration file; a missing, corrupt, foreign or oversized file gets a clear
    message. The file is sized (MAX_CALIBRATION_BYTES) and its values counted
    (MAX_CALIBRATION_VALUES) before it is parsed."""
    path = Path(path)
    hint = "run: zonkcam calibrate"
    try:
        with open_to_read(path) as f:
            raw = f.read(MAX_CALIBRATION_BYTES + 1)
    except FileNotFoundError:
        raise CalibrationError(f"no calibration at {path}; {hint}") from None
    except OSError as exc:
        raise CalibrationError(
            f"cannot read calibration file {path} ({exc.strerror or exc}); {hint}"
        ) from None
    if len(raw) > MAX_CALIBRATION_BYTES:
        raise CalibrationError(
            f"calibration file {path} is over {MAX_CALIBRATION_BYTES // 2**20} MB; {hint}"
        )
    values = sum(raw.count(c) for c in b"[{,:")
    if values > MAX_CALIBRATION_VALUES:
        raise CalibrationError(
            f"calibration file {path} is not usable (it holds about {values:,} values, "
            f"over the {MAX_CALIBRATION_VALUES:,} a calibration may have); {hint}"
        )
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        why = "nested too deeply" if isinstance(exc, RecursionError) else exc
        raise CalibrationError(f"calibration file {path} is damaged ({why}); {hint}") from None
    del raw
    try:
        return calibration_from_dict(data, str(path))
    except CalibrationError:
        raise
    except UserError as exc:  # its geometry
        raise CalibrationError(f"{exc}; {hint}") from None
    except (ValueError, OverflowError, cv2.error) as exc:
        why = quoted(str(exc), 200)[1:-1]
        raise CalibrationError(f"calibration file {path} is not usable ({why}); {hint}") from None


def _found(image: np.ndarray, dictionary: str) -> dict[int, np.ndarray]:
    """Every marker of ``dictionary`` found in ``image``: id -> 4x2 corner pixels (the
    first of an id seen twice)."""
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    aruco = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, dictionary))
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    corners, ids, _ = cv2.aruco.ArucoDetector(aruco, params).detectMarkers(gray)
    found: dict[int, np.ndarray] = {}
    if ids is not None:
        for c, i in zip(corners, ids.ravel(), strict=True):
            found.setdefault(int(i), c.reshape(4, 2).astype(np.float64))
    return found


def detect_markers(image: np.ndarray, geo: MatGeometry) -> dict[int, np.ndarray]:
    """The mat's markers found in ``image``: id -> 4x2 corner pixels."""
    wanted = {m.id for m in geo.markers}
    return {i: c for i, c in _found(image, geo.dictionary).items() if i in wanted}


MIN_MARKERS_SEEN = 2
"""A built-in mat is in view when at least this many of its four markers are found (one
alone may be a pattern in the print or the room that looks like a marker)."""


def markers_in_view(image: np.ndarray) -> dict[str, dict[int, np.ndarray]]:
    """The built-in mats (layout.SIZES) with a marker in ``image``, each with its markers
    found (id -> 4x2 corner pixels); every built-in mat has ids of its own."""
    geos = [load_geometry(size) for size in SIZES]
    seen = {d: _found(image, d) for d in {g.dictionary for g in geos}}
    out = {}
    for size, geo in zip(SIZES, geos, strict=True):
        mine = {i: c for i, c in seen[geo.dictionary].items() if i in {m.id for m in geo.markers}}
        if mine:
            out[size] = mine
    return out


def find_mat(
    image: np.ndarray, seen: dict[str, dict[int, np.ndarray]] | None = None
) -> MatGeometry:
    """The built-in mat in ``image``, known by its markers (at least MIN_MARKERS_SEEN of
    them); CalibrationError in one line when no mat's markers are in view or two mats'
    are. ``seen`` is markers_in_view(image) where the caller has it."""
    seen = markers_in_view(image) if seen is None else seen
    mats = [size for size, found in seen.items() if len(found) >= MIN_MARKERS_SEEN]
    if len(mats) > 1:
        listed = [f"the {load_geometry(s).name} mat's {_ids(seen[s])}" for s in mats]
        raise CalibrationError(
            f"markers of {len(mats)} mats in view ({', '.join(listed[:-1])} and {listed[-1]}): "
            "leave only the mat you play on in view"
        )
    if not mats:
        ids = sorted(i for found in seen.values() for i in found)
        what = f"only marker{'s' if len(ids) > 1 else ''} {', '.join(map(str, ids))}"
        raise CalibrationError(
            f"no mat in view ({what if ids else 'no marker'} found; a mat is known by at least "
            f"{MIN_MARKERS_SEEN} of its 4 markers): make sure the whole mat is in view, lit "
            "evenly and nothing covers its corners (a mat of your own: --geometry FILE)"
        )
    return load_geometry(mats[0])


def _ids(found: dict[int, np.ndarray]) -> str:
    """A mat's markers found, as a message lists them: ``markers 4, 5``."""
    return f"marker{'s' if len(found) > 1 else ''} {', '.join(map(str, sorted(found)))}"


def other_mats_in_view(image: np.ndarray, geo: MatGeometry) -> list[str]:
    """The built-in mats (layout.SIZES) with markers other than ``geo``'s that lie in
    ``image``, at least three of their four: a mat printed at another size than ``geo``'s."""
    mine = {m.id for m in geo.markers}
    return [
        size
        for size, found in markers_in_view(image).items()
        if {m.id for m in load_geometry(size).markers} != mine and len(found) >= 3
    ]


def calibrate(image: np.ndarray, geo: MatGeometry) -> Calibration:
    """Calibrate from one camera frame of the empty mat; CalibrationError says what's wrong."""
    h, w = image.shape[:2]
    found = detect_markers(image, geo)
    missing = [(k, m) for k, m in enumerate(geo.markers) if m.id not in found]
    if missing:
        where = ", ".join(f"marker {m.id} ({CORNER_NAMES[k]} corner)" for k, m in missing)
        others = other_mats_in_view(image, geo)
        if others:
            raise CalibrationError(
                f"{where} not found: the markers in view are the {' or '.join(others)} "
                "mat's; leave out --geometry to calibrate the mat in view"
            )
        raise CalibrationError(
            f"{where} not found: make sure the whole mat is in view, lit "
            "evenly and nothing covers its corners, then try again"
        )
    src = np.vstack([m.corners for m in geo.markers])
    dst = np.vstack([found[m.id] for m in geo.markers])
    homography, _ = cv2.findHomography(src, dst, 0)
    if homography is None:
        raise CalibrationError("the markers do not form a flat mat; is the mat lying flat?")
    cal = Calibration(geo, homography, (w, h), found, 0.0, 0.0, time.time())
    misfit = np.linalg.norm(cal.mat_to_image(src) - dst, axis=1)
    err = float(np.sqrt(np.mean(misfit**2)))
    corners_px = cal.mat_to_image(geo.corners)
    outside = [
        CORNER_NAMES[k]
        for k, (x, y) in enumerate(corners_px)
        if not (-2 <= x <= w + 1 and -2 <= y <= h + 1)
    ]
    if outside:
        raise CalibrationError(
            f"the mat's {', '.join(outside)} corner is outside the camera's "
            "view: raise the camera or centre the mat under it"
        )
    worst = int(np.argmax(misfit))
    fit_mm = float(misfit[worst]) / max(cal.px_per_mm, 1e-6)
    if fit_mm > MAX_FIT_MM:
        marker = geo.markers[worst // 4]
        raise CalibrationError(
            f"the markers do not fit a flat mat (marker {marker.id} is off by {fit_mm:.1f} mm, "
            f"want under {MAX_FIT_MM:g}): lay the mat flat and smooth, check that the camera "
            "looks straight down and its lens does not bend straight lines, and that the mat "
            "was printed at 100% from this geometry"
        )
    width = edge_width(image, found)
    if width > MAX_EDGE_WIDTH_PX:
        raise CalibrationError(
            f"the image is out of focus (marker edges {width:.1f} px wide, "
            f"want under {MAX_EDGE_WIDTH_PX}): focus the camera lens"
        )
    cal = Calibration(geo, homography, (w, h), found, err, width, cal.created)
    return dataclasses.replace(cal, reference=cal.top_down(image, REFERENCE_PX_PER_MM))


def edge_width(image: np.ndarray, markers: dict[int, np.ndarray]) -> float:
    """How many pixels a marker's black-to-white edge takes (1-2 sharp; more is blur)."""
    gray = (image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)).astype(
        np.float32
    )
    widths = []
    for corners in markers.values():
        x0, y0 = np.floor(corners.min(axis=0)).astype(int)
        x1, y1 = np.ceil(corners.max(axis=0)).astype(int)
        roi = gray[max(0, y0) : y1 + 1, max(0, x0) : x1 + 1]
        if roi.size < 64:
            continue
        gx = cv2.Sobel(roi, cv2.CV_32F, 1, 0, ksize=3) / 8
        gy = cv2.Sobel(roi, cv2.CV_32F, 0, 1, ksize=3) / 8
        grad = float(np.percentile(np.hypot(gx, gy), 99.5))
        contrast = float(np.percentile(roi, 95) - np.percentile(roi, 5))
        if grad > 0:
            widths.append(contrast / grad)
    return float(np.median(widths)) if widths else float("inf")


def camera_shift(image: np.ndarray, cal: Calibration) -> float | None:
    """Median distance (px) of the visible markers from their calibrated place, or None
    when fewer than two markers are visible (covered markers prove nothing)."""
    found = detect_markers(image, cal.geometry)
    common = [i for i in found if i in cal.marker_corners]
    if len(common) < 2:
        return None
    d = [np.linalg.norm(found[i] - cal.marker_corners[i], axis=1).mean() for i in common]
    return float(np.median(d))


def draw_zones(image: np.ndarray, cal: Calibration) -> np.ndarray:
    """A preview: the mat outline, rolling area, keep strip and board images on the image."""
    out = image.copy() if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    geo = cal.geometry
    t = max(1, round(min(out.shape[:2]) / 300))

    def poly(rect: Rect, colour: tuple[int, int, int], label: str) -> None:
        pts = cal.mat_to_image(rect.corners).round().astype(np.int32)
        cv2.polylines(out, [pts], True, colour, t, cv2.LINE_AA)
        cv2.putText(
            out,
            label,
            tuple(pts[0] + [4, 16 * t]),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.5 * t,
            colour,
            t,
            cv2.LINE_AA,
        )

    poly(Rect(0, 0, geo.width_mm, geo.height_mm), (255, 255, 255), "mat")
    poly(geo.rolling_area, (0, 255, 255), "rolling area")
    poly(geo.keep_strip, (255, 200, 0), "keep strip")
    for b in geo.board_images:
        poly(b.rect, (0, 0, 255), b.label)
    for i, c in cal.marker_corners.items():
        cv2.polylines(out, [c.round().astype(np.int32)], True, (0, 255, 0), t, cv2.LINE_AA)
        cv2.putText(
            out,
            str(i),
            tuple(c[0].astype(int)),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.6 * t,
            (0, 255, 0),
            t,
            cv2.LINE_AA,
        )
    return out


def default_calibration_path() -> Path:
    """``$ZONKCAM_CALIBRATION``, else ``$XDG_CONFIG_HOME/zonkcam/calibration.json``."""
    if os.environ.get("ZONKCAM_CALIBRATION"):
        return Path(os.environ["ZONKCAM_CALIBRATION"])
    base = xdg_folder("XDG_CONFIG_HOME", ".config", "the calibration", "--calibration FILE")
    return base / "zonkcam" / "calibration.json"


def draw_markers(
    image: np.ndarray, seen: dict[str, dict[int, np.ndarray]], headline: str
) -> np.ndarray:
    """The frame with every built-in mat's markers found outlined and numbered (markers_in_view),
    and `headline` (which mat, or why none) across its top."""
    out = image.copy() if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    t = max(1, round(min(out.shape[:2]) / 300))
    for found in seen.values():
        for i, c in found.items():
            cv2.polylines(out, [c.round().astype(np.int32)], True, (0, 255, 0), 2 * t, cv2.LINE_AA)
            (tw, th), _ = cv2.getTextSize(str(i), cv2.FONT_HERSHEY_SIMPLEX, 0.8 * t, 2 * t)
            at = tuple((c.mean(axis=0) + [-tw / 2, th / 2]).astype(int))
            cv2.putText(
                out, str(i), at, cv2.FONT_HERSHEY_SIMPLEX, 0.8 * t, (0, 0, 255), 2 * t, cv2.LINE_AA
            )
    cv2.rectangle(out, (0, 0), (out.shape[1], 28 * t), (0, 0, 0), -1)
    cv2.putText(
        out,
        headline,
        (6 * t, 20 * t),
        cv2.FONT_HERSHEY_SIMPLEX,
        0.6 * t,
        (255, 255, 255),
        t,
        cv2.LINE_AA,
    )
    return out
