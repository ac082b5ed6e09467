"""Renderer of dice-table images with truth for free (training, tests, demo table).

A scene is a list of `DieSpec` (value, colour, position on the mat in mm, yaw) seen
by a pinhole `Camera` over a `Mat`, lit by a `Light`. `render(scene, rng)` draws it
and returns the image (BGR uint8) plus one `DieTruth` per die (value, colour, box
around the whole visible die). Dice are true 3-D cubes (opposite faces sum to 7),
so oblique views show side faces, sharp-edged or rounded (`DieSpec.rounding`: the
outline of a rounded box, faces fading into its rim); everything else (shadows,
glare, blur, noise, JPEG) is 2-D image work. Pure numpy/OpenCV, seeded by the caller's Generator.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterator
from dataclasses import dataclass, field

import cv2
import numpy as np

from zonkcam.vision.geometry import box_around

# Body colours (BGR) by name; the name is the colour truth.
DIE_COLORS: dict[str, tuple[int, int, int]] = {
    "white": (236, 238, 240),
    "black": (30, 30, 32),
    "red": (40, 30, 200),
    "green": (70, 160, 40),
    "blue": (190, 90, 30),
    "yellow": (40, 210, 235),
    "orange": (30, 120, 240),
    "purple": (140, 50, 110),
    "pink": (170, 120, 240),
}
PIP_COLORS: dict[str, tuple[int, int, int]] = {
    "black": (20, 20, 20),
    "white": (245, 245, 245),
    "red": (30, 30, 190),
    "gold": (60, 170, 215),
    "blue": (150, 60, 20),
}
TONAL_PIPS = "tone"
"""pip_color of a die whose pips are its own colour a shade darker (a shade lighter on a
dark die): engraved pips left unpainted, or pink pips on a pink translucent die, which
real photos show and the colours above do not. random_die never picks it (the demo
table's dice keep their colours); training gives it to a share of the rendered dice
(zonkcam.train.data.with_varied_dice)."""
TONAL_SHADE = (0.62, 1.6)
"""Pip colour as a multiple of the body colour: on a light body (mean over 90) / on a
dark one."""
MATS = ("felt", "wood", "white", "cloth", "board", "desk")
PIP_STYLES = ("round", "small", "square", "big1", "logo1")

# Pip centres on a unit face (u, v in [0, 1]).
_PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.5, 0.5),),
    2: ((0.27, 0.27), (0.73, 0.73)),
    3: ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75)),
    4: ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
    5: ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)),
    6: ((0.27, 0.24), (0.73, 0.24), (0.27, 0.5), (0.73, 0.5), (0.27, 0.76), (0.73, 0.76)),
}
_TEX = 96  # face texture size in px
_FACE_ALPHA = np.zeros((_TEX, _TEX), np.float32)
cv2.rectangle(_FACE_ALPHA, (1, 1), (_TEX - 2, _TEX - 2), 1.0, -1)


@dataclass(frozen=True)
class DieSpec:
    """One die on the mat."""

    value: int
    """Upward face, 1-6."""
    color: str = "white"
    """Body colour name (a key of DIE_COLORS: how the renderer paints each colour of
    zonkcam.game.dice.DIE_COLOURS it draws)."""
    x_mm: float = 0.0
    """Position of the die's centre on the mat, mm from the mat centre (x right)."""
    y_mm: float = 0.0
    """Position, mm (y away from the camera)."""
    yaw_deg: float = 0.0
    size_mm: float = 16.0
    pip_color: str = "black"
    """A key of PIP_COLORS, or TONAL_PIPS."""
    pip_style: str = "round"
    translucent: bool = False
    marbled: bool = False
    stacked: bool = False
    """Resting on top of another die (one die height up)."""
    tilt_deg: float = 0.0
    """Cocked: tipped about its own x axis, resting on an edge (0 = flat)."""
    body_bgr: tuple[int, int, int] | None = None
    """The body's exact colour (BGR), in place of DIE_COLORS[color] (`color` stays the
    colour truth): a pastel or off-shade die. random_die never sets it; training gives
    it to a share of the rendered dice (zonkcam.train.data.with_varied_dice)."""
    rounding: float = 0.0
    """0 = a sharp-edged cube; up to MAX_ROUNDING: edges and corners rounded over this
    share of the half-side, as on most cheap dice (a rounded silhouette, a smaller flat
    face, pips drawn in towards its centre). random_die never rounds a die; training
    rounds a share of the rendered dice (zonkcam.train.data.with_varied_dice)."""


@dataclass(frozen=True)
class Camera:
    width: int = 640
    height: int = 480
    tilt_deg: float = 0.0
    """0 = straight down; larger = more oblique."""
    distance_mm: float = 400.0
    focal_px: float = 700.0

    @functools.cached_property
    def _pose(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """centre, right, down, forward (worked out once per camera)."""
        t = math.radians(self.tilt_deg)
        s, c = math.sin(t), math.cos(t)
        centre = np.array([0.0, -self.distance_mm * s, self.distance_mm * c])
        fwd = np.array([0.0, s, -c])
        right = np.array([1.0, 0.0, 0.0])
        down = np.cross(fwd, right)
        for a in (centre, right, down, fwd):
            a.flags.writeable = False
        return centre, right, down, fwd

    def project(self, pts: np.ndarray) -> np.ndarray:
        """World points (N, 3) in mm -> pixel coordinates (N, 2)."""
        centre, right, down, fwd = self._pose
        p = np.asarray(pts, dtype=np.float64) - centre
        z = np.maximum(p @ fwd, 1e-3)
        u = self.width / 2 + self.focal_px * (p @ right) / z
        v = self.height / 2 + self.focal_px * (p @ down) / z
        return np.stack([u, v], axis=1)

    def pixel_to_mat(self, u: float, v: float) -> tuple[float, float]:
        """The mat point (x_mm, y_mm) seen at pixel (u, v)."""
        centre, right, down, fwd = self._pose
        ray = fwd + right * (u - self.width / 2) / self.focal_px
        ray = ray + down * (v - self.height / 2) / self.focal_px
        k = -centre[2] / ray[2]
        hit = centre + k * ray
        return float(hit[0]), float(hit[1])

    @property
    def position(self) -> np.ndarray:
        return self._pose[0]


@dataclass(frozen=True)
class Light:
    azimuth_deg: float = 30.0
    elevation_deg: float = 60.0
    warmth: float = 0.0
    """-1 = cool (blueish) ... 0 = neutral ... +1 = warm (tungsten)."""
    brightness: float = 1.0
    glare: float = 0.0
    """0 = none ... 1 = strong specular spot on the top faces."""


@dataclass(frozen=True)
class Mat:
    kind: str = "felt"
    color: tuple[int, int, int] = (60, 110, 40)
    """Base colour (BGR)."""
    image: np.ndarray | None = field(default=None, compare=False, repr=False)
    """A printed play mat (BGR) lying centred on the table, or None."""
    size_mm: tuple[float, float] = (0.0, 0.0)
    """The printed mat's width and height in mm (its image's top edge is the far side)."""


@dataclass(frozen=True)
class Scene:
    dice: tuple[DieSpec, ...]
    camera: Camera = field(default_factory=Camera)
    mat: Mat = field(default_factory=Mat)
    light: Light = field(default_factory=Light)
    blur: float = 0.0
    """Gaussian blur sigma in px."""
    noise: float = 0.0
    """Gaussian noise sigma in grey levels."""
    jpeg_quality: int = 0
    """0 = no JPEG round trip."""
    distractors: int = 0
    """Things on the table that are not dice (negatives for training): dots, coins,
    keyboard keys, playing cards and flat game pieces; see DISTRACTOR_KINDS."""
    background: np.ndarray | None = field(default=None, compare=False, repr=False)
    """A ready table image (float32 BGR, from `render_background`) to draw the dice on;
    saves re-rendering the table for every frame of a video."""


@dataclass(frozen=True)
class DieTruth:
    value: int
    color: str
    bbox: tuple[float, float, float, float]
    """Whole visible die, pixels (x0, y0, x1, y1)."""
    top_bbox: tuple[float, float, float, float]
    """The upward face only."""


@dataclass(frozen=True)
class Rendered:
    image: np.ndarray
    dice: tuple[DieTruth, ...]
    decoys: tuple[tuple[float, float, float, float], ...] = ()
    """Boxes (x0, y0, x1, y1) of printed board tiles that carry a round token or an icon:
    from afar such a tile looks like a die showing a 1, so training shows them to the
    value net as 'not a die'. Dice may lie over them. Empty when the scene came with a
    ready `background`."""


# ---------------------------------------------------------------- textures


def _smooth_noise(rng: np.random.Generator, h: int, w: int, scale: int) -> np.ndarray:
    small = rng.random((max(2, h // scale + 2), max(2, w // scale + 2))).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


TILED_BOARD_SHARE = 0.5
"""Share of the printed boards drawn as tiles with number tokens (`tiled_board`)."""
TERRAIN_DETAIL_SHARE = 0.6
"""Share of board tiles printed with busy terrain (strokes in the tile's colours): a
detector that has only seen flat tiles takes a real board's textured tile with its
round token for a die showing 1."""


def tiled_board(h: int, w: int, rng: np.random.Generator, decoys: list | None = None) -> np.ndarray:
    """A printed board of hexagonal or square tiles (float32): textured terrain in a few
    colours, dark or light borders, and on many tiles a round token with a number and
    a row of dots under it, or a small printed icon. Seen from afar such a tile looks
    like a die showing a 1: the value net must learn that it is not one. The boxes of
    the tiles that carry a token or an icon are appended to `decoys` (see
    `Rendered.decoys`)."""
    img = np.empty((h, w, 3), np.uint8)  # (OpenCV draws text on 8-bit images only)
    img[:] = rng.uniform(40, 220, 3)  # sea / frame
    palette = rng.uniform(25, 235, (int(rng.integers(3, 7)), 3))
    cell = float(rng.uniform(0.05, 0.16) * max(h, w))
    hexes = rng.random() < 0.6
    border = rng.uniform(200, 250, 3) if rng.random() < 0.6 else rng.uniform(10, 70, 3)
    token = rng.uniform(190, 240, 3)
    ink = (30, 30, 30) if rng.random() < 0.7 else (30, 30, 170)
    ox, oy = rng.uniform(-cell, w * 0.3), rng.uniform(-cell, h * 0.3)
    nx, ny = int(w / cell) + 2, int(h / cell) + 2
    for j in range(ny):
        for i in range(nx):
            if hexes:
                cx = ox + i * cell * 1.5
                cy = oy + j * cell * math.sqrt(3) + (i % 2) * cell * math.sqrt(3) / 2
                r = cell
                pts = [
                    (cx + r * math.cos(k * math.pi / 3), cy + r * math.sin(k * math.pi / 3))
                    for k in range(6)
                ]
            else:
                cx, cy, r = ox + i * cell * 1.1, oy + j * cell * 1.1, cell * 0.55
                pts = [(cx - r, cy - r), (cx + r, cy - r), (cx + r, cy + r), (cx - r, cy + r)]
            if not (-2 * r < cx < w + 2 * r and -2 * r < cy < h + 2 * r):
                continue
            poly = np.array(pts, np.int32)
            col = palette[int(rng.integers(0, len(palette)))] * rng.uniform(0.85, 1.15)
            cv2.fillConvexPoly(img, poly, col.tolist(), cv2.LINE_AA)
            cv2.polylines(img, [poly], True, border.tolist(), max(1, int(r * 0.08)), cv2.LINE_AA)
            for _ in range(int(rng.integers(0, 5))):  # terrain: trees, rocks, fields
                px, py = cx + rng.uniform(-0.6, 0.6) * r, cy + rng.uniform(-0.6, 0.6) * r
                cv2.circle(
                    img,
                    (int(px), int(py)),
                    max(1, int(r * rng.uniform(0.05, 0.2))),
                    np.clip(col * rng.uniform(0.5, 1.3), 0, 255).tolist(),
                    -1,
                )
            if rng.random() < TERRAIN_DETAIL_SHARE:  # busy printed terrain: short strokes
                for _ in range(int(rng.integers(5, 30))):
                    px, py = cx + rng.uniform(-0.7, 0.7) * r, cy + rng.uniform(-0.7, 0.7) * r
                    ang, ln = rng.uniform(0, math.pi), r * rng.uniform(0.05, 0.3)
                    end = (int(px + ln * math.cos(ang)), int(py + ln * math.sin(ang)))
                    shade = np.clip(col * rng.uniform(0.3, 1.5), 0, 255).tolist()
                    cv2.line(img, (int(px), int(py)), end, shade, max(1, int(r * 0.04)))
            u = rng.random()
            if u < 0.8 and decoys is not None and 0 <= cx < w and 0 <= cy < h:
                half = r * (math.sqrt(3) / 2 if hexes else 1.0)
                decoys.append((cx - half, cy - half, cx + half, cy + half))
            if u < 0.6:
                tr = max(2, int(r * rng.uniform(0.25, 0.42)))
                cv2.circle(img, (int(cx), int(cy)), tr, token.tolist(), -1, cv2.LINE_AA)
                scale = tr / 22
                num = str(int(rng.choice([2, 3, 4, 5, 6, 8, 9, 10, 11, 12])))
                (tw, th), _ = cv2.getTextSize(num, cv2.FONT_HERSHEY_SIMPLEX, scale, 2)
                org = (int(cx - tw / 2), int(cy + th / 2))
                cv2.putText(img, num, org, cv2.FONT_HERSHEY_SIMPLEX, scale, ink, max(1, tr // 10))
                for k in range(int(rng.integers(0, 6))):
                    dx = (k - 2) * tr * 0.18
                    cv2.circle(img, (int(cx + dx), int(cy + tr * 0.7)), max(1, tr // 12), ink, -1)
            elif u < 0.8:
                ic = rng.uniform(0.15, 0.35) * r
                cv2.rectangle(
                    img,
                    (int(cx - ic), int(cy - ic)),
                    (int(cx + ic), int(cy + ic * rng.uniform(0.4, 1.0))),
                    rng.uniform(20, 240, 3).tolist(),
                    -1,
                )
    shade = 0.85 + 0.3 * _smooth_noise(rng, h, w, 40)
    grain = 0.8 + 0.4 * _smooth_noise(rng, h, w, int(rng.integers(2, 6)))  # print texture
    out = img.astype(np.float32) * (shade * grain)[..., None]
    return out + rng.normal(0, 4, (h, w, 1)).astype(np.float32)


def mat_image(
    mat: Mat, h: int, w: int, rng: np.random.Generator, decoys: list | None = None
) -> np.ndarray:
    base = np.array(mat.color, np.float32)
    img = np.empty((h, w, 3), np.float32)
    img[:] = base
    if mat.kind == "felt":
        img += rng.normal(0, 6, (h, w, 1)).astype(np.float32)
    elif mat.kind == "wood":
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        warp = _smooth_noise(rng, h, w, 60) * 40
        period = rng.uniform(6, 25)
        ang = rng.uniform(0, math.pi)
        coord = xx * math.cos(ang) + yy * math.sin(ang) + warp
        grain = 0.5 + 0.5 * np.sin(coord / period * 2 * math.pi)
        img *= (0.75 + 0.3 * grain)[..., None]
        img += rng.normal(0, 4, (h, w, 1)).astype(np.float32)
    elif mat.kind == "white":
        img[:] = rng.uniform(200, 250)
        img += _smooth_noise(rng, h, w, 200)[..., None] * 20 - 10
        img += rng.normal(0, 3, (h, w, 1)).astype(np.float32)
    elif mat.kind == "cloth":
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        f = rng.uniform(1.0, 3.0)
        weave = np.sin(xx * f) * np.sin(yy * f)
        folds = _smooth_noise(rng, h, w, 120)
        img *= (0.75 + 0.35 * folds + 0.05 * weave)[..., None]
        img += rng.normal(0, 5, (h, w, 1)).astype(np.float32)
    elif mat.kind == "board" and rng.random() < TILED_BOARD_SHARE:
        img = tiled_board(h, w, rng, decoys)
    elif mat.kind in ("board", "desk"):
        img = img.astype(np.uint8)
        for _ in range(int(rng.integers(4, 14))):
            col = rng.uniform(20, 245, 3)
            kind = rng.integers(0, 4)
            cx, cy = int(rng.integers(0, w)), int(rng.integers(0, h))
            r = int(rng.uniform(0.05, 0.35) * max(h, w))
            if kind == 0:
                pts = [
                    (cx + r * math.cos(a + k * math.pi / 3), cy + r * math.sin(a + k * math.pi / 3))
                    for k in range(6)
                    for a in [0.0]
                ]
                cv2.fillConvexPoly(img, np.array(pts, np.int32), col.tolist())
            elif kind == 1:
                cv2.rectangle(img, (cx, cy), (cx + r, cy + r // 2), col.tolist(), -1)
            elif kind == 2:
                cv2.circle(img, (cx, cy), r // 2, col.tolist(), -1)
            else:
                x2, y2 = int(rng.integers(0, w)), int(rng.integers(0, h))
                cv2.line(img, (cx, cy), (x2, y2), col.tolist(), int(rng.integers(1, 8)))
        if mat.kind == "board":
            for _ in range(int(rng.integers(0, 6))):
                org = (int(rng.integers(0, w)), int(rng.integers(0, h)))
                cv2.putText(
                    img,
                    str(int(rng.integers(2, 13))),
                    org,
                    cv2.FONT_HERSHEY_SIMPLEX,
                    rng.uniform(0.5, 2.0),
                    rng.uniform(0, 255, 3).tolist(),
                    2,
                )
        img = img.astype(np.float32)
        img += rng.normal(0, 4, (h, w, 1)).astype(np.float32)
    # gentle light fall-off
    img *= (0.8 + 0.35 * _smooth_noise(rng, h, w, max(h, w) // 2))[..., None]
    return img


def render_background(
    scene: Scene, rng: np.random.Generator, decoys: list | None = None
) -> np.ndarray:
    """The table (and printed mat, if any) as the camera sees it, without dice: float32.
    The boxes of printed things that look like a die from afar are appended to `decoys`
    (none under a printed mat)."""
    found: list = []
    img = mat_image(scene.mat, scene.camera.height, scene.camera.width, rng, found)
    if scene.mat.image is not None:
        img = _lay_printed_mat(img, scene.mat, scene.camera)
        found = []
    if decoys is not None:
        decoys.extend(found)
    return img


def _lay_printed_mat(table: np.ndarray, mat: Mat, cam: Camera) -> np.ndarray:
    """The printed mat seen by ``cam``, lying flat and centred, over the table texture."""
    assert mat.image is not None
    mh, mw = mat.image.shape[:2]
    wmm, hmm = mat.size_mm
    world = np.array(
        [
            [-wmm / 2, hmm / 2, 0],
            [wmm / 2, hmm / 2, 0],
            [wmm / 2, -hmm / 2, 0],
            [-wmm / 2, -hmm / 2, 0],
        ]
    )
    src = np.array([[0, 0], [mw, 0], [mw, mh], [0, mh]], np.float32)
    m = cv2.getPerspectiveTransform(src, cam.project(world).astype(np.float32))
    size = (table.shape[1], table.shape[0])
    printed = cv2.warpPerspective(mat.image.astype(np.float32), m, size, flags=cv2.INTER_AREA)
    cover = cv2.warpPerspective(np.ones((mh, mw), np.float32), m, size, flags=cv2.INTER_LINEAR)
    return table * (1 - cover[..., None]) + printed * cover[..., None]


def pip_rgb(pip_color: str, body: np.ndarray) -> np.ndarray:
    """The BGR colour of a die's pips (see PIP_COLORS and TONAL_PIPS)."""
    if pip_color == TONAL_PIPS:
        shade = TONAL_SHADE[0] if float(body.mean()) > 90 else TONAL_SHADE[1]
        return np.clip(body * shade, 0, 255).astype(np.float32)
    return np.array(PIP_COLORS[pip_color], np.float32)


@functools.cache
def _face_edge() -> np.ndarray:
    """The shading of a face's rounded edge, (_TEX, _TEX, 1): the same on every face."""
    t = _TEX
    edge = np.ones((t, t), np.float32)
    cv2.rectangle(edge, (4, 4), (t - 5, t - 5), 0.0, -1)
    edge = cv2.GaussianBlur(edge, (0, 0), 3)
    shade = (1 - 0.18 * edge)[..., None]
    shade.flags.writeable = False
    return shade


def _face_texture(
    value: int,
    body: np.ndarray,
    pip: np.ndarray,
    style: str,
    marble: np.ndarray | None,
    rng: np.random.Generator,
    rounding: float = 0.0,
) -> np.ndarray:
    """One face (float32 BGR, _TEX px square). `rounding` (DieSpec.rounding) draws the
    pips in towards the centre of the smaller flat face and a little smaller."""
    t = _TEX
    tex = np.empty((t, t, 3), np.float32)
    tex[:] = body
    if marble is not None:
        n = _smooth_noise(rng, t, t, 12)
        veins = np.clip(1 - np.abs(n - 0.5) * 8, 0, 1)[..., None]
        tex = tex * (1 - veins) + marble * veins
    tex *= _face_edge()  # slightly darker rounded edge
    radius = {"round": 0.095, "small": 0.075, "square": 0.09, "big1": 0.095, "logo1": 0.095}[style]
    radius *= rng.uniform(0.85, 1.15) * (1 - 0.3 * rounding)
    pull = 1 - 0.5 * rounding
    pips = _PIPS[value]
    rot = int(rng.integers(0, 4))
    for u, v in pips:
        for _ in range(rot):
            u, v = 1 - v, u
        u, v = 0.5 + (u - 0.5) * pull, 0.5 + (v - 0.5) * pull
        c = (int(u * t * 16), int(v * t * 16))
        r = radius * t
        col = pip.tolist()
        if value == 1 and style == "big1":
            cv2.circle(tex, c, int(r * 2.0 * 16), (40, 40, 190), -1, cv2.LINE_AA, 4)
        elif value == 1 and style == "logo1":
            cv2.circle(tex, c, int(r * 2.6 * 16), col, max(2, int(r * 0.5)), cv2.LINE_AA, 4)
            cv2.circle(tex, c, int(r * 1.1 * 16), col, -1, cv2.LINE_AA, 4)
        elif style == "square":
            h = r * 0.9
            cv2.rectangle(
                tex,
                (int(c[0] / 16 - h), int(c[1] / 16 - h)),
                (int(c[0] / 16 + h), int(c[1] / 16 + h)),
                col,
                -1,
            )
        else:
            # a pip is a shallow dimple: darker rim, painted centre
            cv2.circle(tex, c, int(r * 16), col, -1, cv2.LINE_AA, 4)
    return tex


# ---------------------------------------------------------------- geometry

_FACES = (  # (axis index, sign) for +z, -z, +x, -x, +y, -y
    (2, 1),
    (2, -1),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
)


def _side_values(value: int, rng: np.random.Generator) -> list[int]:
    rest = [v for v in (1, 2, 3, 4, 5, 6) if v not in (value, 7 - value)]
    a = int(rng.choice(rest))
    b = int(rng.choice([v for v in rest if v not in (a, 7 - a)]))
    return [value, 7 - value, a, 7 - a, b, 7 - b]


def _die_geometry(d: DieSpec) -> tuple[np.ndarray, list[np.ndarray], list[np.ndarray]]:
    h = d.size_mm / 2
    th = math.radians(d.yaw_deg)
    ex = np.array([math.cos(th), math.sin(th), 0.0])
    ey = np.array([-math.sin(th), math.cos(th), 0.0])
    ez = np.array([0.0, 0.0, 1.0])
    lift = h
    if d.tilt_deg:
        t = math.radians(d.tilt_deg)
        ey, ez = ey * math.cos(t) + ez * math.sin(t), ez * math.cos(t) - ey * math.sin(t)
        lift = h * (math.cos(t) + abs(math.sin(t)))
    axes = (ex, ey, ez)
    centre = np.array([d.x_mm, d.y_mm, lift + (2 * h if d.stacked else 0.0)])
    quads, normals = [], []
    for ax, sign in _FACES:
        n = axes[ax] * sign
        a1, a2 = [axes[i] for i in range(3) if i != ax]
        fc = centre + n * h
        quads.append(
            np.array(
                [
                    fc - a1 * h - a2 * h,
                    fc + a1 * h - a2 * h,
                    fc + a1 * h + a2 * h,
                    fc - a1 * h + a2 * h,
                ]
            )
        )
        normals.append(n)
    return centre, quads, normals


# ---------------------------------------------------------------- render

DISTRACTOR_KINDS = ("dot", "coin", "key", "card", "piece")
"""What `Scene.distractors` draws: a pip-like dot, a coin, a dark or coloured keyboard
key with its label in a corner, a playing card, a flat game piece. None of them is a
die. Blank cubes and light tiles with one central letter were tried and dropped: with
them the value net turned away white dice showing a 1 or a 3 on a source it had not
seen, though leaving them out did not bring that back (model card, leave-one-source-out)."""
_GLYPHS = "ABCDEFGHJKLMNPRSTUWXYZ0123456789#@&%"


def _paste_flat(
    img: np.ndarray,
    cam: Camera,
    tex: np.ndarray,
    alpha: np.ndarray,
    centre: tuple[float, float],
    size_mm: tuple[float, float],
    yaw_deg: float,
) -> None:
    """Lay `tex` (float32 BGR) with `alpha` (float32, 0-1) flat on the mat."""
    th = math.radians(yaw_deg)
    ex = np.array([math.cos(th), math.sin(th), 0.0]) * size_mm[0] / 2
    ey = np.array([-math.sin(th), math.cos(th), 0.0]) * size_mm[1] / 2
    c = np.array([centre[0], centre[1], 0.3])
    proj = cam.project(np.array([c - ex - ey, c + ex - ey, c + ex + ey, c - ex + ey]))
    _warp_onto(img, proj, tex, alpha)


def _warp_onto(img: np.ndarray, quad_px: np.ndarray, tex: np.ndarray, alpha: np.ndarray) -> bool:
    """Blend `tex` (float32 BGR) with `alpha` (float32, 0-1) into `img` (in place), its
    corners landing on `quad_px` (4 x 2 pixel points, clockwise from the top left).
    False when the quad lies wholly off the image."""
    h, w = img.shape[:2]
    x0, y0, x1, y1 = box_around(quad_px)
    ix0, iy0 = max(0, int(x0) - 1), max(0, int(y0) - 1)
    ix1, iy1 = min(w, int(math.ceil(x1)) + 2), min(h, int(math.ceil(y1)) + 2)
    if ix1 <= ix0 or iy1 <= iy0:
        return False
    th_px, tw_px = tex.shape[:2]
    src = np.array([[0, 0], [tw_px, 0], [tw_px, th_px], [0, th_px]], np.float32)
    m = cv2.getPerspectiveTransform(src, (quad_px - [ix0, iy0]).astype(np.float32))
    size = (ix1 - ix0, iy1 - iy0)
    warped = cv2.warpPerspective(tex, m, size, flags=cv2.INTER_LINEAR)
    a = cv2.warpPerspective(alpha, m, size, flags=cv2.INTER_LINEAR)[..., None]
    roi = img[iy0:iy1, ix0:ix1]
    roi[:] = roi * (1 - a) + warped * a
    return True


def _put_text(tex, text, org, font, scale, color, thickness, line_type) -> None:  # noqa: ANN001
    """cv2.putText onto a float32 image (OpenCV draws text on 8-bit images only)."""
    mask = np.zeros(tex.shape[:2], np.uint8)
    cv2.putText(mask, text, org, font, scale, 255, thickness, line_type)
    a = (mask.astype(np.float32) / 255)[..., None]
    tex[:] = tex * (1 - a) + np.asarray(color, np.float32) * a


def flat_texture(kind: str, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, tuple]:
    """(texture, alpha, size in mm) of a flat distractor."""
    t = _TEX
    alpha = np.zeros((t, t), np.float32)
    tex = np.empty((t, t, 3), np.float32)
    if kind == "coin":
        metal = rng.choice([(60, 110, 180), (170, 170, 170), (50, 150, 200)])
        tex[:] = np.array(metal, np.float32) * rng.uniform(0.7, 1.1)
        cv2.circle(alpha, (t // 2, t // 2), t // 2 - 1, 1.0, -1, cv2.LINE_AA)
        rim = tuple(float(v) * 0.7 for v in tex[0, 0])
        cv2.circle(tex, (t // 2, t // 2), t // 2 - 6, rim, 3, cv2.LINE_AA)
        org = (int(t * 0.3), int(t * 0.65))
        glyph = str(rng.choice(list("12510")))
        _put_text(tex, glyph, org, cv2.FONT_HERSHEY_SIMPLEX, 1.6, rim, 4, cv2.LINE_AA)
        d = float(rng.uniform(15, 28))
        return tex, alpha, (d, d)
    if kind == "key":
        body = np.array(
            rng.choice([(30, 30, 30), (60, 60, 60)])
            if rng.random() < 0.7
            else rng.uniform(20, 200, 3),
            np.float32,
        )
        tex[:] = body
        cv2.rectangle(alpha, (6, 6), (t - 7, t - 7), 1.0, -1)
        alpha = np.clip(cv2.GaussianBlur(alpha, (0, 0), 4) * 1.6, 0, 1)
        ink = np.clip(body + rng.uniform(120, 220), 0, 255)
        label = str(rng.choice(["fn", "ctrl", "alt", "esc", "tab", "F5", "shift", *_GLYPHS]))
        _put_text(
            tex,
            label,
            (int(t * 0.16), int(t * 0.38)),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.9 if len(label) > 1 else 1.2,
            ink.tolist(),
            2,
            cv2.LINE_AA,
        )
        side = float(rng.uniform(14, 24))
        return tex, alpha, (side * float(rng.uniform(1.0, 1.6)), side)
    if kind == "card":
        tex = np.empty((t, int(t * 0.68), 3), np.float32)
        alpha = np.zeros(tex.shape[:2], np.float32)
        tex[:] = rng.uniform(225, 250)
        cv2.rectangle(alpha, (2, 2), (tex.shape[1] - 3, t - 3), 1.0, -1)
        ink = (30, 30, 200) if rng.random() < 0.5 else (25, 25, 25)
        for _ in range(int(rng.integers(1, 7))):
            cx, cy = int(rng.uniform(0.25, 0.75) * tex.shape[1]), int(rng.uniform(0.2, 0.8) * t)
            r = 5
            pts = np.array(
                [(cx, cy - r * 2), (cx + r, cy), (cx, cy + r * 2), (cx - r, cy)], np.int32
            )
            cv2.fillConvexPoly(tex, pts, ink, cv2.LINE_AA)
        _put_text(
            tex,
            str(rng.choice(list("A23456789JQK"))),
            (3, 14),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.45,
            ink,
            1,
            cv2.LINE_AA,
        )
        w_mm = float(rng.uniform(55, 65))
        return tex, alpha, (w_mm, w_mm / 0.68)
    # a flat game piece: a token, pawn or meeple seen from above
    col = rng.uniform(20, 240, 3)
    tex[:] = col
    n = int(rng.integers(3, 9))
    ang = np.sort(rng.uniform(0, 2 * math.pi, n))
    rad = rng.uniform(0.25, 0.48, n) * t
    pts = np.stack([t / 2 + rad * np.cos(ang), t / 2 + rad * np.sin(ang)], 1).astype(np.int32)
    cv2.fillPoly(alpha, [pts], 1.0, cv2.LINE_AA)
    if rng.random() < 0.5:
        cv2.circle(alpha, (t // 2, t // 2), int(t * rng.uniform(0.2, 0.35)), 1.0, -1, cv2.LINE_AA)
    tex *= (0.75 + 0.5 * _smooth_noise(rng, t, t, 48))[..., None]
    side = float(rng.uniform(12, 30))
    return tex, alpha, (side, side)


def _draw_distractors(img: np.ndarray, scene: Scene, rng: np.random.Generator) -> None:
    """Draw the scene's distractors onto `img` (in place), under the dice."""
    cam = scene.camera
    h, w = img.shape[:2]
    for _ in range(scene.distractors):
        kind = str(rng.choice(DISTRACTOR_KINDS))
        u, v = float(rng.uniform(0, w)), float(rng.uniform(0, h))
        if kind == "dot":
            r = int(rng.integers(2, max(3, min(h, w) // 25)))
            cv2.circle(img, (int(u), int(v)), r, rng.uniform(0, 255, 3).tolist(), -1, cv2.LINE_AA)
            continue
        tex, alpha, size_mm = flat_texture(kind, rng)
        _paste_flat(
            img, cam, tex, alpha, cam.pixel_to_mat(u, v), size_mm, float(rng.uniform(0, 360))
        )


def _paint(
    d: DieSpec, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None, list[int]]:
    """A die's body and pip colours (BGR float32), its marble veins' colour (or None)
    and the values of its six faces in _FACES order."""
    body = np.array(DIE_COLORS[d.color] if d.body_bgr is None else d.body_bgr, np.float32)
    pip = pip_rgb(d.pip_color, body)
    marble = None
    if d.marbled:
        marble = np.clip(body * rng.uniform(0.3, 1.6) + rng.uniform(-60, 60, 3), 0, 255)
    return body, pip, marble, _side_values(d.value, rng)


def _glare(strength: float, rng: np.random.Generator) -> np.ndarray:
    """A specular spot on a face texture (float32, _TEX x _TEX x 1)."""
    gx, gy = rng.uniform(0.2, 0.8, 2) * _TEX
    yy, xx = np.mgrid[0:_TEX, 0:_TEX]
    g = np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * (_TEX * 0.15) ** 2))
    return (strength * 255 * g)[..., None].astype(np.float32)


MAX_ROUNDING = 0.6
"""The most a die is rounded (DieSpec.rounding): at 0.6 a die seen from above is nearly
round."""


def _face_shade(normal: np.ndarray, ldir: np.ndarray) -> float:
    """How lit a face is: 0.45 turned away from the light, 1.0 facing it."""
    return 0.45 + 0.55 * max(0.0, float(normal @ ldir))


def _faces_seen(
    quads: list[np.ndarray], normals: list[np.ndarray], campos: np.ndarray
) -> list[int]:
    """Indices (in _FACES order) of a die's faces turned towards the camera."""
    return [
        fi
        for fi, (q, n) in enumerate(zip(quads, normals, strict=True))
        if float(n @ (campos - q.mean(axis=0))) > 0
    ]


def _sphere_points(n: int) -> np.ndarray:
    """`n` directions spread evenly over a sphere (a Fibonacci lattice), (n, 3)."""
    k = np.arange(n) + 0.5
    z = 1 - 2 * k / n
    phi = np.pi * (1 + 5**0.5) * k
    r = np.sqrt(1 - z * z)
    return np.stack([r * np.cos(phi), r * np.sin(phi), z], axis=1)


_SPHERE = _sphere_points(128)
"""A rounded die's outline is the hull of spheres about the corners of a smaller cube,
sampled along these directions."""


def _rounded_alpha(rounding: float) -> np.ndarray:
    """A face's alpha on a rounded die: a square with its corners rounded and its edges
    soft, so the face fades into the die's rounded rim."""
    t = _TEX
    a = np.zeros((t, t), np.float32)
    rad = max(1, int(rounding * t / 2))
    cv2.rectangle(a, (rad, 1), (t - 2 - rad, t - 2), 1.0, -1)
    cv2.rectangle(a, (1, rad), (t - 2, t - 2 - rad), 1.0, -1)
    for cx in (rad, t - 2 - rad):
        for cy in (rad, t - 2 - rad):
            cv2.circle(a, (cx, cy), rad, 1.0, -1, cv2.LINE_AA)
    return cv2.GaussianBlur(a, (0, 0), max(1.0, rounding * t * 0.1))


def _draw_rounded_die(
    img: np.ndarray,
    d: DieSpec,
    geo: tuple[np.ndarray, list[np.ndarray], list[np.ndarray]],
    cam: Camera,
    ldir: np.ndarray,
    light: Light,
    rng: np.random.Generator,
) -> DieTruth:
    """Draw a die with rounded edges and corners (DieSpec.rounding) onto `img` (in place):
    its outline filled in the body colour at the shade of its rim, then its visible
    faces with rounded, soft-edged alphas over it, all within the outline."""
    centre, quads, normals = geo
    r = min(d.rounding, MAX_ROUNDING)
    h = d.size_mm / 2
    axes = (normals[2], normals[4], normals[0])  # the die's x, y, z (see _FACES)
    corners = [
        centre + (axes[0] * sx + axes[1] * sy + axes[2] * sz) * h * (1 - r)
        for sx in (-1, 1)
        for sy in (-1, 1)
        for sz in (-1, 1)
    ]
    pts = np.concatenate([c + _SPHERE * h * r for c in corners])
    outline = cv2.convexHull(cam.project(pts).astype(np.float32))[:, 0]
    box = box_around(outline)
    body, pip, marble, values = _paint(d, rng)
    visible = _faces_seen(quads, normals, cam.position)
    shades = [_face_shade(normals[fi], ldir) for fi in visible]
    top_box = box_around(cam.project(quads[0])) if 0 in visible else box
    hgt, wid = img.shape[:2]
    x0, y0 = max(0, int(box[0]) - 1), max(0, int(box[1]) - 1)
    x1, y1 = min(wid, int(math.ceil(box[2])) + 2), min(hgt, int(math.ceil(box[3])) + 2)
    if x1 <= x0 or y1 <= y0:
        return DieTruth(d.value, d.color, box, top_box)
    layer = np.empty((y1 - y0, x1 - x0, 3), np.float32)
    layer[:] = body * (float(np.mean(shades)) if shades else 0.6) * 0.85
    alpha = _rounded_alpha(r)
    for fi, shade in zip(visible, shades, strict=True):
        tex = _face_texture(values[fi], body, pip, d.pip_style, marble, rng, r) * shade
        if fi == 0 and light.glare > 0:
            tex += _glare(light.glare, rng)
        _warp_onto(layer, cam.project(quads[fi]) - [x0, y0], tex, alpha)
    mask = np.zeros(layer.shape[:2], np.float32)
    poly = np.round((outline - [x0, y0]) * 16).astype(np.int32)
    cv2.fillConvexPoly(mask, poly, 1.0, cv2.LINE_AA, 4)
    a = (mask * (0.7 if d.translucent else 1.0))[..., None]
    roi = img[y0:y1, x0:x1]
    roi[:] = roi * (1 - a) + layer * a
    return DieTruth(d.value, d.color, box, top_box)


def render(scene: Scene, rng: np.random.Generator) -> Rendered:
    """Draw `scene`; returns the BGR image and per-die truth (in scene.dice order)."""
    cam = scene.camera
    h, w = cam.height, cam.width
    decoys: list = []
    if scene.background is not None:
        img = scene.background.astype(np.float32, copy=True)
    else:
        img = render_background(scene, rng, decoys)
    light = scene.light
    az, el = math.radians(light.azimuth_deg), math.radians(light.elevation_deg)
    ldir = np.array([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), math.sin(el)])
    campos = cam.position

    _draw_distractors(img, scene, rng)

    geo = [_die_geometry(d) for d in scene.dice]
    # shadows first (all dice), then dice far-to-near
    shadow = np.zeros((h, w), np.float32)
    shift = -ldir[:2] / max(ldir[2], 0.3)
    for d, (_, quads, _) in zip(scene.dice, geo, strict=True):
        base = quads[1] + np.append(shift * d.size_mm * 0.6, 0.0)
        poly = np.concatenate([cam.project(quads[1]), cam.project(base)])
        hull = cv2.convexHull(poly.astype(np.float32)).astype(np.int32)
        cv2.fillConvexPoly(shadow, hull, 1.0, cv2.LINE_AA)
    if scene.dice:
        k = max(1.0, 0.01 * max(h, w))
        shadow = cv2.GaussianBlur(shadow, (0, 0), k)
        img *= (1 - 0.45 * shadow)[..., None]

    depth = [float(np.linalg.norm(g[0] - campos)) for g in geo]
    order = sorted(range(len(scene.dice)), key=lambda i: -depth[i])
    truths: list[DieTruth | None] = [None] * len(scene.dice)
    for i in order:
        d = scene.dice[i]
        if d.rounding > 0:
            truths[i] = _draw_rounded_die(img, d, geo[i], cam, ldir, light, rng)
            continue
        centre, quads, normals = geo[i]
        body, pip, marble, values = _paint(d, rng)
        pts_all = []
        top_box = None
        for fi in _faces_seen(quads, normals, campos):
            proj = cam.project(quads[fi])
            pts_all.append(proj)
            shade = _face_shade(normals[fi], ldir)
            tex = _face_texture(values[fi], body, pip, d.pip_style, marble, rng) * shade
            if fi == 0 and light.glare > 0:
                tex += _glare(light.glare, rng)
            alpha = _FACE_ALPHA * 0.7 if d.translucent else _FACE_ALPHA
            if not _warp_onto(img, proj, tex, alpha):
                continue
            if fi == 0:
                top_box = box_around(proj)
        pts = np.concatenate(pts_all) if pts_all else cam.project(quads[0])
        truths[i] = DieTruth(d.value, d.color, box_around(pts), top_box or box_around(pts))

    # colour of the light
    wt = light.warmth
    gains = np.array([1 - 0.25 * wt, 1 - 0.05 * abs(wt), 1 + 0.2 * wt], np.float32)
    img = img * gains * light.brightness
    if scene.blur > 0:
        img = cv2.GaussianBlur(img, (0, 0), scene.blur)
    if scene.noise > 0:
        img = img + rng.normal(0, scene.noise, img.shape).astype(np.float32)
    out = np.clip(img, 0, 255).astype(np.uint8)
    if scene.jpeg_quality:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(scene.jpeg_quality)])
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return Rendered(out, tuple(t for t in truths if t is not None), tuple(decoys))


# ---------------------------------------------------------------- random scenes


def random_die(rng: np.random.Generator, **fixed: object) -> DieSpec:
    """A die of random value, colour and pip style (keywords override)."""
    color = str(rng.choice(list(DIE_COLORS)))
    dark = color in ("black", "blue", "purple", "red", "green")
    if dark:
        pip = str(rng.choice(["white", "white", "white", "gold", "black"]))
        if color == "black":
            pip = str(rng.choice(["white", "gold", "red"]))
    else:
        pip = str(rng.choice(["black", "black", "black", "red", "blue"]))
    spec = dict(
        value=int(rng.integers(1, 7)),
        color=color,
        yaw_deg=float(rng.uniform(0, 90)),
        size_mm=float(rng.uniform(12, 22)),
        pip_color=pip,
        pip_style=str(rng.choice(PIP_STYLES, p=[0.55, 0.15, 0.1, 0.1, 0.1])),
        translucent=bool(rng.random() < 0.1),
        marbled=bool(rng.random() < 0.1),
    )
    spec.update(fixed)
    return DieSpec(**spec)  # type: ignore[arg-type]


def random_mat(rng: np.random.Generator) -> Mat:
    kind = str(rng.choice(MATS))
    if kind == "white":
        col = (235, 235, 235)
    elif kind == "wood":
        col = tuple(float(c) for c in rng.uniform([40, 80, 120], [110, 160, 210]))
    else:
        col = tuple(float(c) for c in rng.uniform(15, 235, 3))
    return Mat(kind, col)  # type: ignore[arg-type]


STEEP_FROM_DEG = 40.0
MAX_TILT_DEG = 60.0
"""Camera tilt (0 = straight down): uniform over 0-40 degrees for four views in five,
40-60 for the rest. Oblique phone photos of dice (the sides as large as the top face)
are where a value net trained on top-down photos reads a side face."""


def random_scene(
    rng: np.random.Generator,
    width: int = 640,
    height: int = 480,
    n_dice: int | None = None,
    die_px: float | None = None,
    tilt_deg: float | None = None,
    stack_prob: float = 0.0,
) -> Scene:
    """A random table: 0-40 dice, random mat, light, camera and degradations."""
    if n_dice is None:
        n_dice = int(rng.choice([0, 1, 2, 3, 4, 5, 6, 6, 8, 10, 15, 25]))
    if die_px is None:
        die_px = float(rng.uniform(0.035, 0.2) * max(width, height))
        if n_dice > 10:
            die_px = min(die_px, 0.09 * max(width, height))
    tilt = float(rng.uniform(0, 50) if tilt_deg is None else tilt_deg)
    focal = float(rng.uniform(0.7, 1.4) * max(width, height))
    if tilt_deg is None and tilt > STEEP_FROM_DEG:
        # a fifth of the views steeper, up to MAX_TILT_DEG (and the far edge of the view
        # at least 10 degrees under the horizon)
        half_fov = math.degrees(math.atan(height / 2 / focal))
        steep = STEEP_FROM_DEG + (tilt - STEEP_FROM_DEG) * 2
        tilt = min(steep, MAX_TILT_DEG, 80 - half_fov)
    size_mm = 16.0
    dist = focal * size_mm / die_px
    cam = Camera(width, height, tilt, dist, focal)
    dice: list[DieSpec] = []
    margin = die_px * 0.8
    tries = 0
    while len(dice) < n_dice and tries < n_dice * 40:
        tries += 1
        touching = dice and rng.random() < 0.25
        if touching:
            ref = dice[int(rng.integers(0, len(dice)))]
            if ref.stacked:
                continue
            th = math.radians(ref.yaw_deg) + int(rng.integers(0, 4)) * math.pi / 2
            gap = ref.size_mm * rng.uniform(1.0, 1.08)
            x, y = ref.x_mm + gap * math.cos(th), ref.y_mm + gap * math.sin(th)
            d = random_die(rng, x_mm=x, y_mm=y, yaw_deg=ref.yaw_deg, size_mm=ref.size_mm)
        elif dice and rng.random() < stack_prob:
            ref = dice[int(rng.integers(0, len(dice)))]
            if ref.stacked:
                continue
            d = random_die(rng, x_mm=ref.x_mm, y_mm=ref.y_mm, size_mm=ref.size_mm, stacked=True)
            if any(o.stacked and o.x_mm == ref.x_mm and o.y_mm == ref.y_mm for o in dice):
                continue
            dice.append(d)
            continue
        else:
            u = rng.uniform(margin, width - margin)
            v = rng.uniform(margin, height - margin)
            x, y = cam.pixel_to_mat(u, v)
            d = random_die(rng, x_mm=x, y_mm=y, size_mm=size_mm * rng.uniform(0.9, 1.1))
        u, v = cam.project(np.array([[d.x_mm, d.y_mm, 0.0]]))[0]
        m = margin * 0.5
        if not (m < u < width - m and m < v < height - m):
            continue
        ok = all(
            math.hypot(d.x_mm - o.x_mm, d.y_mm - o.y_mm) >= (d.size_mm + o.size_mm) * 0.71
            or (touching and o is ref)
            for o in dice
            if not o.stacked
        )
        if touching:
            ok = ok and all(
                math.hypot(d.x_mm - o.x_mm, d.y_mm - o.y_mm) >= (d.size_mm + o.size_mm) * 0.5
                for o in dice
            )
        if ok:
            dice.append(d)
    light = Light(
        azimuth_deg=float(rng.uniform(0, 360)),
        elevation_deg=float(rng.uniform(35, 85)),
        warmth=float(rng.uniform(-1, 1)),
        brightness=float(rng.uniform(0.7, 1.15)),
        glare=float(rng.uniform(0.2, 0.8) if rng.random() < 0.25 else 0.0),
    )
    return Scene(
        dice=tuple(dice),
        camera=cam,
        mat=random_mat(rng),
        light=light,
        blur=float(rng.uniform(0, 1.2) if rng.random() < 0.5 else 0.0),
        noise=float(rng.uniform(0, 6)),
        jpeg_quality=int(rng.integers(40, 95)) if rng.random() < 0.6 else 0,
        distractors=int(rng.integers(0, 8)) if rng.random() < 0.4 else 0,
    )


def _tables(
    rng: np.random.Generator,
    width: int,
    height: int,
    n_dice: int,
    frames: int,
    die_share: float | tuple[float, float],
    max_tilt_deg: float,
) -> Iterator:
    """`frames` random tables of `n_dice` dice, each die `die_share` of the frame's longer
    side wide (a share drawn per table from a (low, high) range), up to `max_tilt_deg`
    oblique, rendered one at a time."""
    for _ in range(frames):
        share = die_share if isinstance(die_share, float) else float(rng.uniform(*die_share))
        scene = random_scene(
            rng,
            width,
            height,
            n_dice=n_dice,
            die_px=share * max(width, height),
            tilt_deg=float(rng.uniform(0, max_tilt_deg)),
        )
        yield render(scene, rng)


def table_frames(width: int, height: int, n_dice: int, frames: int, seed: int) -> Iterator:
    """Seeded random tables of `n_dice` dice (a die 6-10% of the frame's longer side,
    up to 25 degrees oblique), rendered one at a time: `zonkcam bench`'s frames."""
    rng = np.random.default_rng([seed, width, n_dice])
    return _tables(rng, width, height, n_dice, frames, (0.06, 0.1), 25)


def far_frames(width: int, height: int, share: float, frames: int, seed: int) -> Iterator:
    """Seeded tables seen from afar: five dice `share` of the frame's longer side wide,
    up to 30 degrees oblique."""
    rng = np.random.default_rng([seed, width, round(share * 1000), 3])
    return _tables(rng, width, height, 5, frames, float(share), 30)


def closeup_frames(width: int, height: int, share: float, frames: int, seed: int) -> Iterator:
    """Seeded close-ups: one die (two when `share` is under 0.3) about `share` of the
    frame's longer side wide (0.95-1.05 times, at most 0.6 of the shorter side), up to
    30 degrees oblique, each die wholly in the frame (a scene is drawn again until it
    is)."""
    rng = np.random.default_rng([seed, width, round(share * 100), 2])
    done = 0
    while done < frames:
        scene = random_scene(
            rng,
            width,
            height,
            n_dice=2 if share < 0.3 else 1,
            die_px=min(
                share * max(width, height) * float(rng.uniform(0.95, 1.05)),
                0.6 * min(width, height),
            ),
            tilt_deg=float(rng.uniform(0, 30)),
        )
        corners = [scene.camera.project(np.concatenate(_die_geometry(d)[1])) for d in scene.dice]
        if scene.dice and all(
            (c[:, 0] >= 0).all()
            and (c[:, 0] <= width).all()
            and (c[:, 1] >= 0).all()
            and (c[:, 1] <= height).all()
            for c in corners
        ):
            done += 1
            yield render(scene, rng)
