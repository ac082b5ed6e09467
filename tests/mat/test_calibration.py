"""The play mat and calibration: drawn mats are found again from any camera angle."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from zonkcam.data import LAYOUTS
from zonkcam.errors import UserError
from zonkcam.mat.calibrate import (
    MOVED_PX,
    REFERENCE_PX_PER_MM,
    Calibration,
    CalibrationError,
    calibrate,
    camera_shift,
    detect_markers,
    find_mat,
    load_calibration,
)
from zonkcam.mat.layout import (
    SIZES,
    Rect,
    draw_mat,
    geometry_from_dict,
    load_geometry,
    write_pdf,
)
from zonkcam.sim import renderer
from zonkcam.table.observe import WatchConfig
from zonkcam.table.zones import foreground

A3 = load_geometry("a3")


def photograph(
    geo,
    *,
    tilt: float = 0.0,
    distance: float = 560.0,
    size=(1280, 960),
    blur: float = 0.0,
    seed: int = 0,
):
    """The mat printed and seen by a pinhole camera (the project's renderer), with the true
    mat-to-image mapping for checking."""
    cam = renderer.Camera(size[0], size[1], tilt_deg=tilt, distance_mm=distance, focal_px=1000)
    mat = renderer.Mat(
        "wood", (60, 90, 130), image=draw_mat(geo, dpi=80), size_mm=(geo.width_mm, geo.height_mm)
    )
    image = renderer.render(
        renderer.Scene((), cam, mat, blur=blur, noise=2.0), np.random.default_rng(seed)
    ).image

    def truth(pts_mm):
        pts = np.asarray(pts_mm, float)
        world = np.c_[
            pts[:, 0] - geo.width_mm / 2, geo.height_mm / 2 - pts[:, 1], np.zeros(len(pts))
        ]
        return cam.project(world)

    return image, truth


PAPER_MM = {"a3": (420, 297), "a2": (594, 420), "a4": (297, 210), "letter": (279.4, 215.9)}
"""Each built-in mat's paper, landscape (US Letter: 11 x 8.5 in)."""


def test_builtin_geometries_fit_their_paper():
    assert set(PAPER_MM) == set(SIZES)
    for name, (w, h) in PAPER_MM.items():
        geo = load_geometry(name)
        assert (geo.width_mm, geo.height_mm) == (w, h)
        assert {b.label for b in geo.board_images} == {"LEFT", "RIGHT", "CHOOSE", "SOCIAL"}
        assert len({m.id for m in geo.markers}) == 4


@pytest.mark.parametrize("size", ["a4", "letter"])
def test_a_home_printer_mat_has_room_for_the_dice_and_a_margin_the_printer_leaves(size):
    geo = load_geometry(size)
    die = geo.die_mm
    parts = [geo.rolling_area, geo.keep_strip] + [
        Rect(m.x, m.y, m.size_mm, m.size_mm) for m in geo.markers
    ]
    for r in parts:  # a home printer leaves a few mm white at the paper's edge
        assert r.x >= 8 and r.y >= 8
        assert r.x + r.w <= geo.width_mm - 8 + 1e-9 and r.y + r.h <= geo.height_mm - 8 + 1e-9
    # six dice set aside in a row, a die apart and half a die clear of each end, fit the
    # keep strip, which is three dice deep
    assert geo.keep_strip.w >= 11 * die + die and geo.keep_strip.h >= 3 * die
    # dice land clear of the board images: a stretch of the rolling area six dice across
    xs = sorted(
        {b.rect.x for b in geo.board_images} | {b.rect.x + b.rect.w for b in geo.board_images}
    )
    assert xs[2] - xs[1] >= 5 * die
    # the board images are bigger than a die, so not taken for one, and printed inside
    # the rolling area with their labels (6 mm below each)
    for b in geo.board_images:
        assert b.size_mm >= 1.7 * die
        assert geo.rolling_area.contains(b.rect.x, b.rect.y)
        assert geo.rolling_area.contains(b.rect.x + b.rect.w, b.rect.y + b.rect.h + 8)
    # the markers as large in the frame as on A3 when the mat fills it as A3's does
    a3 = load_geometry("a3")
    box = max(geo.width_mm, geo.height_mm * 420 / 297)
    assert geo.markers[0].size_mm / box >= 0.9 * a3.markers[0].size_mm / a3.width_mm


@pytest.mark.parametrize("size", SIZES)
def test_a_mat_prints_at_true_size_on_its_paper(tmp_path, size):
    """The PDF's page is the paper; the PNG says its dpi and is the paper at that dpi; a
    marker of N mm is N mm in print."""
    from zonkcam.cli import main

    dpi = 100
    assert main(["mat", "--size", size, "--dpi", str(dpi), "--out", str(tmp_path / "m")]) == 0
    w_mm, h_mm = PAPER_MM[size]
    pdf = (tmp_path / "m.pdf").read_bytes()
    assert f"/MediaBox [0 0 {w_mm * 72 / 25.4:.2f} {h_mm * 72 / 25.4:.2f}]".encode() in pdf
    png = (tmp_path / "m.png").read_bytes()
    at = png.index(b"pHYs")
    assert abs(int.from_bytes(png[at + 4 : at + 8], "big") * 0.0254 - dpi) < 0.1
    image = cv2.imread(str(tmp_path / "m.png"))
    assert image.shape[:2] == (round(h_mm * dpi / 25.4), round(w_mm * dpi / 25.4))
    geo = load_geometry(size)
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, geo.dictionary))
    corners, ids, _ = cv2.aruco.ArucoDetector(dictionary).detectMarkers(image)
    own = [m.id for m in geo.markers]
    # each of its own markers once, and no marker of another mat (OpenCV below 4.12 sees
    # a marker in the LEFT and RIGHT arrows of some mats: one that no mat uses)
    assert sorted(i for i in ids.ravel() if i in own) == own
    others = {m.id for s in SIZES for m in load_geometry(s).markers} - set(own)
    assert not others & set(ids.ravel()), sorted(ids.ravel())
    for quad, i in zip(corners, ids.ravel(), strict=True):
        if i not in own:
            continue
        side_mm = np.linalg.norm(np.diff(quad[0], axis=0, append=quad[0][:1]), axis=1) * 25.4 / dpi
        assert np.allclose(side_mm, geo.markers[0].size_mm, atol=0.6), (size, i, side_mm)
        marker = next(m for m in geo.markers if m.id == i)
        assert np.allclose(quad[0].min(axis=0) * 25.4 / dpi, (marker.x, marker.y), atol=0.6)


def test_bad_geometry_names_the_problem():
    data = A3.to_dict()
    with pytest.raises(UserError, match="unknown key 'colour'"):
        geometry_from_dict(data | {"colour": "red"})
    with pytest.raises(UserError, match="keep_strip does not fit"):
        geometry_from_dict(data | {"keep_strip": {"rect": [56, 223, 308, 166]}})
    with pytest.raises(UserError, match="label must be one of"):
        geometry_from_dict(
            data | {"board_images": [{"label": "UP", "center": [1, 1], "size_mm": 5}]}
        )


def test_mat_drawn_at_300_dpi_and_as_pdf(tmp_path):
    image = draw_mat(A3, dpi=300)
    assert image.shape == (3508, 4961, 3)
    small = draw_mat(A3, dpi=60)
    cal = calibrate(small, A3)  # a flat scan of the mat: markers where the TOML says
    px = 60 / 25.4
    assert np.allclose(cal.mat_to_image(A3.corners), A3.corners * px, atol=1.5)  # < 0.7 mm
    pdf = tmp_path / "mat.pdf"
    write_pdf(small, pdf, A3.width_mm, A3.height_mm)
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF-1.4") and data.rstrip().endswith(b"%%EOF")
    assert b"/MediaBox [0 0 1190.55 841.89]" in data  # A3 in points


@pytest.mark.parametrize(("tilt", "distance"), [(0, 560), (15, 600), (30, 650)])
def test_calibration_from_camera_angles_within_2mm(tilt, distance):
    image, truth = photograph(A3, tilt=tilt, distance=distance)
    cal = calibrate(image, A3)
    found = cal.image_to_mat(truth(A3.corners))
    assert np.abs(found - A3.corners).max() < 2.0
    assert cal.reprojection_px < 1.5
    assert cal.reference is not None and cal.reference.shape[:2] == (297, 420)


@pytest.mark.parametrize("size", ["a4", "letter"])
@pytest.mark.parametrize(("tilt", "distance"), [(0, 400), (15, 430), (30, 460)])
def test_a_home_printer_mat_calibrates_from_a_nearer_camera_within_2mm(size, tilt, distance):
    geo = load_geometry(size)
    image, truth = photograph(geo, tilt=tilt, distance=distance)
    cal = calibrate(image, geo)
    found = cal.image_to_mat(truth(geo.corners))
    assert np.abs(found - geo.corners).max() < 2.0
    assert cal.reprojection_px < 1.5
    assert cal.reference.shape[:2] == (round(geo.height_mm), round(geo.width_mm))


def test_markers_that_do_not_fit_a_flat_mat_are_refused():
    image, truth = photograph(A3)
    # the top-left marker lies 12 mm out of place (a mat that is not flat, or a marker
    # printed elsewhere): cut it out and paste it further in
    x0, y0 = truth(A3.markers[0].corners).min(axis=0).astype(int) - 4
    x1, y1 = truth(A3.markers[0].corners).max(axis=0).astype(int) + 4
    a, b = truth([[0, 0], [10, 0]])
    shift = int(round(12 * np.linalg.norm(b - a) / 10))
    patch = image[y0:y1, x0:x1].copy()
    image[y0:y1, x0:x1] = 255
    image[y0 + shift : y1 + shift, x0 + shift : x1 + shift] = patch
    with pytest.raises(CalibrationError, match=r"do not fit a flat mat \(marker 0 is off by"):
        calibrate(image, A3)


def test_board_images_are_printed_inside_their_zones():
    dpi = 300
    image = draw_mat(A3, dpi=dpi)
    px = dpi / 25.4
    white = np.all(image >= 230, axis=2)
    for b in A3.board_images:
        r = b.rect
        x0, y0, x1, y1 = (int(round(v * px)) for v in (r.x, r.y, r.x + r.w, r.y + r.h))
        ring = white[y0 - 20 : y1 + 8, x0 - 20 : x1 + 20].copy()
        ring[20 : 20 + (y1 - y0), 20 : 20 + (x1 - x0)] = False  # the zone itself
        assert not ring.any(), f"{b.label}'s outline crosses its zone's edge"
        assert white[y0:y1, x0:x1].any()  # and it is printed


def test_the_png_says_its_resolution(tmp_path):
    from zonkcam.cli import main

    assert main(["mat", "--size", "a3", "--dpi", "100", "--out", str(tmp_path / "m")]) == 0
    data = (tmp_path / "m.png").read_bytes()
    at = data.index(b"pHYs")
    per_metre = int.from_bytes(data[at + 4 : at + 8], "big")
    assert data[at + 12] == 1 and abs(per_metre * 0.0254 - 100) < 0.1
    assert cv2.imread(str(tmp_path / "m.png")).shape == (1169, 1654, 3)


def test_covered_marker_is_named():
    image, truth = photograph(A3)
    corners = truth(A3.markers[2].corners).astype(np.int32)
    cv2.fillConvexPoly(image, cv2.convexHull(corners), (200, 200, 200))
    with pytest.raises(CalibrationError, match=r"marker 2 \(bottom-right corner\) not found"):
        calibrate(image, A3)


def photograph_whole(size: str, **kw):
    """A built-in mat photographed from as far as fills the frame as A3's does from 560 mm."""
    return photograph(load_geometry(size), distance=560 * PAPER_MM[size][0] / 420, **kw)


@pytest.mark.parametrize(
    ("printed", "told"), [("a4", "a3"), ("letter", "a4"), ("a3", "letter"), ("a2", "a3")]
)
def test_a_mat_calibrated_as_another_size_names_the_one_in_view(printed, told):
    """A mat printed at one size and calibrated with another's geometry (--geometry) is
    refused, naming the mat in view, not taken for a mat of the wrong size (A4 is A3
    halved, A2 is A3 doubled)."""
    image, _ = photograph_whole(printed)
    with pytest.raises(
        CalibrationError, match=f"are the {printed} mat's; leave out --geometry to calibrate"
    ):
        calibrate(image, load_geometry(told))


def test_each_built_in_mat_has_marker_ids_of_its_own():
    ids = {size: {m.id for m in load_geometry(size).markers} for size in SIZES}
    for size in SIZES:
        for other in SIZES:
            assert other == size or not ids[size] & ids[other], (size, other)


@pytest.mark.parametrize("size", SIZES)
def test_calibrate_knows_each_mat_by_its_markers_with_no_flag(tmp_path, capsys, size):
    """`zonkcam mat --size X` says "then run: zonkcam calibrate": that, with no --geometry,
    calibrates the mat printed, whichever it is, and says which it found."""
    from zonkcam.cli import main
    from zonkcam.fileio import write_image

    assert main(["mat", "--size", size, "--dpi", "50", "--out", str(tmp_path / "m")]) == 0
    assert capsys.readouterr().out.rstrip().endswith("then run: zonkcam calibrate")
    image, truth = photograph_whole(size)
    photo = tmp_path / "photo.png"
    write_image(photo, image)
    out = tmp_path / "cal.json"
    assert main(["calibrate", "--image", str(photo), "--out", str(out)]) == 0
    geo = load_geometry(size)
    printed = capsys.readouterr().out
    ids = [m.id for m in geo.markers]
    assert f"found the {geo.name} mat by its markers (ids {ids[0]}-{ids[-1]})" in printed
    cal = load_calibration(out)
    assert cal.geometry == geo
    assert np.abs(cal.image_to_mat(truth(geo.corners)) - geo.corners).max() < 2.0


def test_a_frame_with_two_mats_or_too_few_markers_is_one_line(tmp_path, capsys):
    from zonkcam.cli import main
    from zonkcam.fileio import write_image

    a3 = draw_mat(A3, dpi=40)
    a4 = draw_mat(load_geometry("a4"), dpi=40)
    both = np.full((a3.shape[0] + a4.shape[0] + 40, a3.shape[1] + 40, 3), 120, np.uint8)
    both[20 : 20 + a3.shape[0], 20 : 20 + a3.shape[1]] = a3
    both[-20 - a4.shape[0] : -20, 20 : 20 + a4.shape[1]] = a4
    with pytest.raises(
        CalibrationError,
        match=r"markers of 2 mats in view \(the A3 mat's markers 0, 1, 2, 3 and the A4 "
        r"mat's markers 4, 5, 6, 7\): leave only the mat you play on in view",
    ):
        find_mat(both)
    # only one marker showing: the others covered
    image, truth = photograph_whole("a4")
    for marker in load_geometry("a4").markers[1:]:
        corners = truth(marker.corners).astype(np.int32)
        cv2.fillConvexPoly(image, cv2.convexHull(corners), (200, 200, 200))
    with pytest.raises(
        CalibrationError, match=r"no mat in view \(only marker 4 found; a mat is known by"
    ):
        find_mat(image)
    blank = np.full((480, 640, 3), 90, np.uint8)
    with pytest.raises(CalibrationError, match=r"no mat in view \(no marker found"):
        find_mat(blank)
    for picture, said in ((both, "markers of 2 mats in view"), (image, "no mat in view")):
        write_image(tmp_path / "photo.png", picture)
        out = tmp_path / "cal.json"
        assert main(["calibrate", "--image", str(tmp_path / "photo.png"), "--out", str(out)]) == 2
        err = capsys.readouterr().err
        assert said in err and len(err.strip().splitlines()) == 1
        assert not out.exists()


def test_a_mat_found_with_a_marker_covered_names_the_mat_and_the_marker(tmp_path, capsys):
    from zonkcam.cli import main
    from zonkcam.fileio import write_image

    image, truth = photograph_whole("letter")
    corners = truth(load_geometry("letter").markers[2].corners).astype(np.int32)
    cv2.fillConvexPoly(image, cv2.convexHull(corners), (200, 200, 200))
    write_image(tmp_path / "photo.png", image)
    assert main(["calibrate", "--image", str(tmp_path / "photo.png"), "--out", "x.json"]) == 2
    err = capsys.readouterr().err
    assert "Letter mat: marker 22 (bottom-right corner) not found" in err


def test_a_mat_of_your_own_is_calibrated_with_its_geometry(tmp_path, capsys):
    """`mat --geometry FILE` says to calibrate with the same --geometry FILE (a mat of your
    own may reuse a built-in mat's ids), and that calibrates it."""
    from zonkcam.cli import main

    own = tmp_path / "my mat.toml"
    from zonkcam.fileio import write_image

    own.write_text(
        (LAYOUTS / "a3.toml").read_text(encoding="utf-8").replace('name = "A3"', 'name = "Mine"'),
        encoding="utf-8",
    )
    assert main(["mat", "--geometry", str(own), "--dpi", "50", "--out", str(tmp_path / "m")]) == 0
    assert capsys.readouterr().out.rstrip().endswith(f"zonkcam calibrate --geometry '{own}'")
    image, _ = photograph(load_geometry(str(own)))
    write_image(tmp_path / "photo.png", image)
    out = tmp_path / "cal.json"
    args = ["calibrate", "--image", str(tmp_path / "photo.png"), "--out", str(out)]
    assert main([*args, "--geometry", str(own)]) == 0
    assert ": Mine mat, " in capsys.readouterr().out
    assert load_calibration(out).geometry.name == "Mine"


def test_mat_partly_out_of_view():
    image, _ = photograph(A3, distance=260)  # the mat is wider than the view
    with pytest.raises(CalibrationError, match="not found|outside the camera's view"):
        calibrate(image, A3)


def test_out_of_focus():
    image, _ = photograph(A3, blur=2.2)
    with pytest.raises(CalibrationError, match="out of focus|not found"):
        calibrate(image, A3)


def test_moved_camera_is_noticed():
    image, _ = photograph(A3)
    cal = calibrate(image, A3)
    assert camera_shift(image, cal) < 1.0
    moved = np.roll(image, 25, axis=1)
    assert camera_shift(moved, cal) > MOVED_PX
    covered = image.copy()
    covered[:] = 128  # no markers visible: nothing can be said
    assert camera_shift(covered, cal) is None


def test_calibration_file_round_trip_and_bad_files(tmp_path):
    image, _ = photograph(A3, tilt=10)
    cal = calibrate(image, A3)
    path = tmp_path / "calibration.json"
    cal.save(path)
    again = load_calibration(path)
    assert np.allclose(again.homography, cal.homography)
    assert again.geometry == cal.geometry and again.image_size == cal.image_size
    assert np.array_equal(again.reference, cal.reference)
    with pytest.raises(CalibrationError, match="no calibration at"):
        load_calibration(tmp_path / "missing.json")
    path.write_text(path.read_text()[:200])
    with pytest.raises(CalibrationError, match="damaged"):
        load_calibration(path)
    path.write_text('{"format": "something-else"}')
    with pytest.raises(CalibrationError, match="not a zonkcam calibration"):
        load_calibration(path)
    bad = cal.to_dict() | {"homography": [[0, 0, 0], [0, 0, 0], [0, 0, 0]]}
    path.write_text(__import__("json").dumps(bad))
    with pytest.raises(CalibrationError, match="not usable"):
        load_calibration(path)
    assert isinstance(dataclasses.replace(cal), Calibration)


# Body colours (BGR) of common real dice the renderer has no name for.
REAL_BODIES = {
    "ivory": (200, 228, 240),
    "grey": (150, 150, 150),
    "navy": (90, 40, 20),
    "brown": (30, 60, 110),
}


@pytest.mark.parametrize(
    ("where", "x", "y"),
    [
        ("rolling area", 200, 120),
        ("keep strip", 200, 255),
        ("between the zones", 200, 218),
        ("the mat's top edge (a die half off it)", 200, 6),
        ("the mat's side, between the markers", 20, 150),
    ],
)
def test_every_die_colour_stands_out_wherever_it_lies_on_the_mat(where, x, y):
    """By the table's own measures: the presence test against the empty mat, and the
    change test's level (any channel)."""
    mat = draw_mat(A3, dpi=25.4 * REFERENCE_PX_PER_MM)
    half = int(A3.die_mm * REFERENCE_PX_PER_MM / 2)
    level = WatchConfig().change_level
    for name, body in (renderer.DIE_COLORS | REAL_BODIES).items():
        lying = mat.copy()
        cv2.rectangle(lying, (x - half, y - half), (x + half, y + half), body, -1)
        square = (slice(max(0, y - half), y + half), slice(max(0, x - half), x + half))
        seen = foreground(lying, mat)[square]
        assert (seen > 0).mean() > 0.75, f"a {name} die on {where}"
        moved = np.abs(lying[square].astype(int) - mat[square].astype(int)).max(axis=2)
        assert (moved > level).mean() > 0.75, f"a {name} die on {where} (change test)"


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("dpi", [40, 60, 100])
def test_the_markers_of_a_flat_drawn_mat_are_all_found(size, dpi):
    """The white round each marker is no second outline that hides the marker."""
    geo = load_geometry(size)
    assert sorted(detect_markers(draw_mat(geo, dpi=dpi), geo)) == [m.id for m in geo.markers]


# -- geometry and calibration files as data: finite, in physical bounds, not degenerate ------


@pytest.mark.parametrize(
    ("change", "wanted"),
    [
        ({"die_mm": float("nan")}, "die_mm must be a number from 8 to 40"),
        ({"die_mm": 1e9}, "die_mm must be a number from 8 to 40"),
        ({"die_mm": 5}, "die_mm must be a number from 8 to 40"),
        ({"width_mm": float("inf")}, "width_mm must be a number from 50 to 2000"),
        ({"width_mm": 1e7}, "width_mm must be a number from 50 to 2000"),
        ({"height_mm": 10**400}, "height_mm must be a number from 50 to 2000"),
        ({"name": ["a"]}, "name must be text"),
        ({"board_images": {"label": "LEFT"}}, "board_images must be a list"),
        ({"keep_strip": {"rect": [56, 223, float("nan"), 16]}}, "[keep_strip] rect must be"),
        ({"rolling_area": {"rect": [56, 20, 0, 100]}}, "width and height above 0"),
    ],
)
def test_a_geometry_number_out_of_bounds_is_one_line(change, wanted):
    with pytest.raises(UserError) as info:
        geometry_from_dict(A3.to_dict() | change)
    assert wanted in str(info.value) and "\n" not in str(info.value)


@pytest.mark.parametrize(
    ("markers", "wanted"),
    [
        ({"dictionary": "__class__"}, "is not one of the ArUco dictionaries DICT_4X4_50"),
        ({"dictionary": "getPredefinedDictionary"}, "is not one of the ArUco dictionaries"),
        ({"ids": [0, 1, 2, 50]}, "markers.ids must be from 0 to 49 in DICT_4X4_50"),
        ({"ids": [0, 1, 2, True]}, "4 different ids"),
        ({"positions": [[0, 0], [1, 1], [2, 2], ["x", 3]]}, "4 [x, y] positions"),
        ({"positions": [[0, 0], [1, 1], [2, 2], [float("nan"), 3]]}, "4 [x, y] positions"),
        ({"size_mm": float("inf")}, "markers.size_mm must be a number from 2 to 2000"),
    ],
)
def test_a_marker_setting_out_of_bounds_is_one_line(markers, wanted):
    data = A3.to_dict()
    data["markers"] = data["markers"] | markers
    with pytest.raises(UserError, match=None) as info:
        geometry_from_dict(data)
    assert wanted in str(info.value)


def test_every_listed_dictionary_draws_and_finds_its_markers():
    from zonkcam.mat.layout import DICTIONARIES

    for name, count in DICTIONARIES.items():
        data = A3.to_dict()
        data["markers"] = data["markers"] | {"dictionary": name, "ids": [0, 1, 2, count - 1]}
        geo = geometry_from_dict(data)
        assert len(detect_markers(draw_mat(geo, dpi=60), geo)) == 4, name


def _degenerate(cal: Calibration) -> dict[str, np.ndarray]:
    """Homographies no camera over the mat gives, each with the reason it is refused."""
    h = cal.homography
    mirror = np.diag([-1.0, 1.0, 1.0])
    shift = np.array([[1, 0, cal.image_size[0]], [0, 1, 0], [0, 0, 1.0]])
    flat = h.copy()
    flat[1] = flat[0]
    behind = h.copy()
    behind[2] = [0.01, 0, -2.0]
    return {
        "tiny scale": (np.diag([1e-3, 1e-3, 1.0]) @ h, "a die would span"),
        "scaled by 10": (np.diag([10.0, 10.0, 1.0]) @ h, "outside the camera's view"),
        "scaled by 1e6": (np.diag([1e6, 1e6, 1.0]) @ h, "degenerate"),
        "mirrored": (shift @ mirror @ h, "mirrored or folded"),
        "rank 2": (flat, "degenerate"),
        "behind the camera": (behind, "behind the camera"),
        "zero": (np.zeros((3, 3)), "not a valid 3x3 matrix"),
        "not a number": (np.full((3, 3), np.nan), "not a valid 3x3 matrix"),
    }


def test_a_degenerate_calibration_is_refused_at_load_and_at_save(tmp_path):
    import json

    image, _ = photograph(A3, tilt=10)
    cal = calibrate(image, A3)
    path = tmp_path / "calibration.json"
    for name, (h, why) in _degenerate(cal).items():
        bad = dataclasses.replace(cal, homography=h)
        with pytest.raises(CalibrationError, match="not saving a calibration") as info:
            bad.save(tmp_path / "saved.json")
        assert why in str(info.value), name
        assert not (tmp_path / "saved.json").exists()
        data = cal.to_dict() | {"homography": h.tolist()}
        path.write_text(json.dumps(data))
        with pytest.raises(CalibrationError, match="is not usable") as info:
            load_calibration(path)
        assert why in str(info.value), name
    for change, why in [
        ({"image_size": [640, 10**6]}, "image_size must be from 32 to 16384"),
        ({"image_size": [640.5, 480]}, "image_size must be [width, height]"),
        ({"marker_corners": {"9": [[0, 0], [1, 0], [1, 1], [0, 1]]}}, "marker 9 is not one"),
        ({"marker_corners": {"0": [[0, 0], [1, 0], [1, 1], [0, 1e9]]}}, "outside the camera"),
        ({"edge_width_px": float("inf")}, "edge_width_px must be a number"),
        ({"created": "yesterday"}, "must be numbers"),
    ]:
        path.write_text(json.dumps(cal.to_dict() | change))
        with pytest.raises(CalibrationError, match="is not usable") as info:
            load_calibration(path)
        assert why in str(info.value), change
    data = cal.to_dict()
    data["geometry"]["die_mm"] = float("nan")
    path.write_text(json.dumps(data))
    with pytest.raises(CalibrationError, match="die_mm must be a number from 8 to 40"):
        load_calibration(path)
    cal.save(path)  # the real one round-trips
    assert np.allclose(load_calibration(path).homography, cal.homography)


def test_a_reference_image_not_the_mats_size_is_refused(tmp_path):
    image, _ = photograph(A3, tilt=10)
    cal = calibrate(image, A3)
    small = dataclasses.replace(cal, reference=cal.reference[:100, :100])
    with pytest.raises(CalibrationError, match="its reference image is 100x100x3, not the mat"):
        small.save(tmp_path / "c.json")


@pytest.mark.parametrize(
    ("line", "value"),
    [
        ("die_mm = 16", "die_mm = nan"),
        ("width_mm = 420", "width_mm = inf"),
        ("width_mm = 420", "width_mm = 1e7"),
        ('dictionary = "DICT_4X4_50"', 'dictionary = "__class__"'),
    ],
)
def test_a_hostile_geometry_file_is_one_line_for_mat_and_calibrate(tmp_path, capsys, line, value):
    from pathlib import Path

    from zonkcam import cli
    from zonkcam.data import LAYOUTS

    text = (Path(LAYOUTS) / "a3.toml").read_text(encoding="utf-8")
    assert line in text
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace(line, value), encoding="utf-8")
    image, _ = photograph(A3, tilt=5)
    cv2.imwrite(str(tmp_path / "mat.png"), image)
    for argv in (
        ["mat", "--geometry", str(bad), "--out", str(tmp_path / "m")],
        [
            "calibrate",
            "--geometry",
            str(bad),
            "--image",
            str(tmp_path / "mat.png"),
            "--out",
            str(tmp_path / "c.json"),
        ],
    ):
        assert cli.main(argv) == 2
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and str(bad) in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.toml", "mat.png"]


def test_a_calibration_scales_to_the_same_view_at_another_size(tmp_path):
    # made on 1280x960 frames; the camera now gives the same view at 640x480 (the Pi
    # camera's lores stream): the scaled calibration puts the mat where the picture shows it
    image, truth = photograph(A3, tilt=10)
    cal = calibrate(image, A3)
    small = cv2.resize(image, (640, 480), interpolation=cv2.INTER_AREA)
    scaled = cal.scaled_to((640, 480))
    assert scaled is not None and scaled.image_size == (640, 480)
    corners = [[0, 0], [A3.width_mm, 0], [A3.width_mm, A3.height_mm], [50, 80]]
    assert np.abs(scaled.mat_to_image(corners) - truth(corners) / 2).max() < 1.0
    assert camera_shift(small, scaled) < 1.0  # its markers are where the picture shows them
    assert scaled.px_per_mm == pytest.approx(cal.px_per_mm / 2)
    # another shape is another view: no scaling
    assert cal.scaled_to((1280, 720)) is None


def test_the_table_opens_with_a_calibration_made_at_another_frame_size(tmp_path):
    from zonkcam.app.camera import open_table

    image, _ = photograph(A3, tilt=10)
    path = tmp_path / "cal.json"
    calibrate(image, A3).save(path)
    folder = tmp_path / "frames"
    folder.mkdir()
    cv2.imwrite(str(folder / "f0.png"), cv2.resize(image, (640, 480), interpolation=cv2.INTER_AREA))
    said: list[str] = []
    cam = open_table(str(folder), calibration=path, say=said.append)
    try:
        assert cam.calibration.image_size == (640, 480)
        assert any("made on 1280x960 frames: scaled to these 640x480" in s for s in said)
    finally:
        cam.source.close()


def test_calibrate_with_no_camera_says_so_and_writes_nothing(tmp_path, capsys, monkeypatch):
    from zonkcam import cli, sources
    from zonkcam.commands import calibrate as command

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("ZONKCAM_CALIBRATION", raising=False)
    for module in (sources, command):  # no picamera2: not a Pi
        monkeypatch.setattr(module, "picamera2_available", lambda: False, raising=False)
    assert cli.main(["calibrate"]) == 2
    err = capsys.readouterr().err
    assert "no camera" in err and "nothing was written" in err and "--source demo" in err
    assert len(err.strip().splitlines()) == 1
    assert not (tmp_path / "config").exists()


def test_calibrate_on_the_demo_table_says_so_and_keeps_a_real_calibration(
    tmp_path, capsys, monkeypatch
):
    from zonkcam import cli

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("ZONKCAM_CALIBRATION", raising=False)
    assert cli.main(["calibrate", "--source", "demo", "--warmup", "1"]) == 0
    out = capsys.readouterr().out
    saved = tmp_path / "config" / "zonkcam" / "calibration.json"
    assert "DEMO table" in out and str(saved) in out and saved.exists()
    # a calibration already there (the camera's) is never replaced by the demo table's
    saved.write_text("the camera's calibration", encoding="utf-8")
    assert cli.main(["calibrate", "--source", "demo", "--warmup", "1"]) == 2
    err = capsys.readouterr().err
    assert str(saved) in err and "nothing was written" in err
    assert saved.read_text(encoding="utf-8") == "the camera's calibration"
    # --out puts the demo table's elsewhere
    elsewhere = tmp_path / "demo.json"
    assert (
        cli.main(["calibrate", "--source", "demo", "--warmup", "1", "--out", str(elsewhere)]) == 0
    )
    assert "DEMO table" in capsys.readouterr().out and elsewhere.exists()


@pytest.mark.parametrize(("mat", "named"), [("a4", "A4"), ("letter", "Letter")])
def test_calibrate_on_the_demo_table_takes_the_mat_it_is_laid_on(tmp_path, capsys, mat, named):
    from zonkcam import cli

    out = tmp_path / "demo.json"
    spec = f"demo:{mat}"
    assert cli.main(["calibrate", "--source", spec, "--warmup", "1", "--out", str(out)]) == 0
    assert f": {named} mat, " in capsys.readouterr().out
