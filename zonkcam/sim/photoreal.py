"""Photoreal dice for training: physically based renders (Mitsuba 3) of the looks the
photo sets barely hold.

A scene is a few six-sided dice on a table, drawn at random by `random_scene(rng)`:
each die a mesh with rounded edges and pips (`die_mesh`, engraved pips cut in as
dimples), its material one of `LOOKS` (opaque plastic, translucent and smoke bodies
with an absorbing medium inside, marbled, pearl, glitter, metal-look) with pip paint of
any colour, the body's own hue or none; lit by an overhead lamp, a window or a ring
light over felt, wood, a white tray, a mat's colours or a printed board; seen from
straight down to 40 degrees oblique. `render(scene)` path-traces it and returns the
image (BGR uint8) with every die's box, value and look.

The value on top is the scene's geometry, not a net's reading: `top_value` finds the
die face whose normal points up. Mitsuba (`mitsuba` on PyPI, BSD-3) is the `train`
extra's, imported only when a scene is rendered; everything else here is numpy.
"""

from __future__ import annotations

import math
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from zonkcam.sim import renderer

LOOKS = ("white", "black", "colour", "translucent", "smoke", "marbled", "pearl", "glitter", "metal")
"""Body materials. Their groups for figures (`BODY_KIND`) are the ones photos are
judged by."""
BODY_KIND = {
    "white": "white",
    "black": "black",
    "colour": "coloured opaque",
    "pearl": "coloured opaque",
    "glitter": "coloured opaque",
    "metal": "coloured opaque",
    "translucent": "translucent or smoke",
    "smoke": "translucent or smoke",
    "marbled": "marbled",
}
LOOK_WEIGHTS = {
    "white": 0.08,
    "black": 0.07,
    "colour": 0.2,
    "translucent": 0.18,
    "smoke": 0.12,
    "marbled": 0.15,
    "pearl": 0.07,
    "glitter": 0.06,
    "metal": 0.07,
}
"""How often each look is drawn: the looks the photos lack most, most."""

# die-local face normals by value (opposite faces sum to 7)
FACE_NORMAL = {
    1: (0, 0, 1),
    6: (0, 0, -1),
    2: (1, 0, 0),
    5: (-1, 0, 0),
    3: (0, 1, 0),
    4: (0, -1, 0),
}
_FACE_ORDER = (1, 2, 3, 4, 5, 6)
# pip centres on a face, (u, v) in [-1, 1] at spread 1
_PIPS = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
}
GRID = 56
"""Mesh vertices along a face's edge."""
TEX = 96
"""Face texture px (the atlas is 3 x 2 faces)."""


@dataclass(frozen=True)
class Look:
    """A die's material: body and pips (colours linear RGB, 0-1)."""

    kind: str
    body: tuple[float, float, float]
    pips: tuple[float, float, float]
    pip_style: str
    """painted (flat paint), engraved (dimples, painted), unpainted (dimples, body colour)."""
    roughness: float
    second: tuple[float, float, float] = (0.0, 0.0, 0.0)
    """Marbled: the swirl's colour; glitter: the flakes'."""
    density: float = 0.0
    """Translucent and smoke: how strongly the body absorbs (per die width)."""


@dataclass(frozen=True)
class DieShape:
    rounding: float
    """Edge radius as a share of half the die's width."""
    pip_radius: float
    """As a share of half the face's width."""
    spread: float
    """Pip offset from the face centre, as a share of half the face."""
    depth: float
    """Dimple depth, share of half the die's width (0: flat paint)."""
    big_one: bool = False
    """A larger single pip on the 1 face, as on many casino and gift dice."""


@dataclass(frozen=True)
class PlacedDie:
    value: int
    look: Look
    shape: DieShape
    x: float
    y: float
    """Centre on the table, die half-widths."""
    yaw: float
    """Radians about the vertical."""
    turns: tuple[int, ...] = (0, 0, 0, 0, 0, 0)
    """Quarter turns of each face's pip pattern (2, 3 and 6 are not symmetric)."""
    tilt: tuple[float, float] = (0.0, 0.0)
    """Small lean (radians about x and y): a die resting on the felt's nap."""

    def rotation(self) -> np.ndarray:
        """Die-local to world rotation (3 x 3): the face of `value` up, then the yaw."""
        return rotation_for(self.value, self.yaw, self.tilt)


@dataclass(frozen=True)
class Scene:
    dice: tuple[PlacedDie, ...]
    width: int
    height: int
    elevation: float
    """Camera angle from the horizontal, degrees (90: straight down)."""
    azimuth: float
    distance: float
    fov: float
    """Horizontal field of view, degrees."""
    look_at: tuple[float, float]
    light: str
    """lamp, window or ring."""
    light_strength: float
    light_offset: tuple[float, float]
    background: np.ndarray = field(repr=False, compare=False)
    """The table's texture (BGR uint8)."""
    table_rough: float
    exposure: float
    room: np.ndarray = field(repr=False, compare=False, default=None)  # type: ignore[assignment]
    """The room around the table (latitude-longitude, linear RGB): what glossy dice
    reflect and translucent ones show through."""
    spp: int = 16


@dataclass(frozen=True)
class RenderedDie:
    bbox: tuple[float, float, float, float]
    value: int
    look: str
    visible: float
    """Share of the die's box inside the image."""


# ------------------------------------------------------------------ geometry


def _axis_rotation(axis: np.ndarray, angle: float) -> np.ndarray:
    axis = axis / np.linalg.norm(axis)
    K = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    return np.eye(3) + math.sin(angle) * K + (1 - math.cos(angle)) * K @ K


def rotation_for(value: int, yaw: float, tilt: tuple[float, float] = (0.0, 0.0)) -> np.ndarray:
    """A rotation turning the die-local normal of `value`'s face to world up (+z), then
    turning the die `yaw` about up and leaning it by `tilt`."""
    n = np.array(FACE_NORMAL[value], float)
    up = np.array([0.0, 0.0, 1.0])
    c = float(n @ up)
    if c > 0.999:
        R = np.eye(3)
    elif c < -0.999:
        R = _axis_rotation(np.array([1.0, 0, 0]), math.pi)
    else:
        R = _axis_rotation(np.cross(n, up), math.acos(c))
    R = _axis_rotation(up, yaw) @ R
    R = _axis_rotation(np.array([1.0, 0, 0]), tilt[0]) @ R
    return _axis_rotation(np.array([0.0, 1, 0]), tilt[1]) @ R


def top_value(rotation: np.ndarray) -> int:
    """The value whose face normal points most nearly up under `rotation`."""
    ups = {v: float((rotation @ np.array(n, float))[2]) for v, n in FACE_NORMAL.items()}
    return max(ups, key=ups.__getitem__)


def _face_frame(value: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(normal, u axis, v axis) of a face, right-handed (u x v = normal)."""
    n = np.array(FACE_NORMAL[value], float)
    helper = np.array([0.0, 0, 1]) if abs(n[2]) < 0.5 else np.array([0.0, 1, 0])
    u = np.cross(helper, n)
    u /= np.linalg.norm(u)
    return n, u, np.cross(n, u)


def pip_centres(value: int, shape: DieShape, turns: int = 0) -> list[tuple[float, float, float]]:
    """(u, v, radius) of each pip on `value`'s face, in face units ([-1, 1])."""
    out = []
    for u, v in _PIPS[value]:
        for _ in range(turns % 4):
            u, v = -v, u
        r = shape.pip_radius * (1.9 if value == 1 and shape.big_one else 1.0)
        out.append((u * shape.spread, v * shape.spread, r))
    return out


def die_mesh(
    shape: DieShape, turns: tuple[int, ...] = (0,) * 6, grid: int = GRID
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A die of half-width 1 centred on the origin: (vertices (V, 3), normals (V, 3),
    texture coordinates (V, 2) into the 3 x 2 face atlas, triangles (F, 3)).

    Each face is a grid; points near an edge are pulled onto a rounded box (edge radius
    `shape.rounding`), points inside an engraved pip pushed in as a spherical dimple."""
    s = np.linspace(-1, 1, grid)
    uu, vv = np.meshgrid(s, s, indexing="xy")
    uu, vv = uu.ravel(), vv.ravel()
    verts, uvs, tris = [], [], []
    inner = 1 - shape.rounding
    for k, value in enumerate(_FACE_ORDER):
        n, ua, va = _face_frame(value)
        p = n[None] + uu[:, None] * ua[None] + vv[:, None] * va[None]
        if shape.rounding > 0:
            core = np.clip(p, -inner, inner)
            d = p - core
            p = core + shape.rounding * d / np.linalg.norm(d, axis=1, keepdims=True)
        if shape.depth > 0:
            for cu, cv, r in pip_centres(value, shape, turns[value - 1]):
                dist = np.hypot(uu - cu, vv - cv) / r
                dent = np.where(dist < 1, np.sqrt(np.clip(1 - dist**2, 0, 1)), 0.0)
                p = p - (shape.depth * dent)[:, None] * n[None]
        col, row = k % 3, k // 3
        uvs.append(np.stack([(col + (uu + 1) / 2) / 3, (row + (vv + 1) / 2) / 2], axis=1))
        base = k * grid * grid
        ii, jj = np.meshgrid(np.arange(grid - 1), np.arange(grid - 1), indexing="ij")
        a = (base + ii * grid + jj).ravel()
        tris.append(np.stack([a, a + 1, a + grid + 1], axis=1))
        tris.append(np.stack([a, a + grid + 1, a + grid], axis=1))
        verts.append(p)
    v = np.concatenate(verts)
    f = np.concatenate(tris).astype(np.int32)
    return v, _vertex_normals(v, f), np.concatenate(uvs), f


def _vertex_normals(v: np.ndarray, f: np.ndarray) -> np.ndarray:
    fn = np.cross(v[f[:, 1]] - v[f[:, 0]], v[f[:, 2]] - v[f[:, 0]])
    vn = np.zeros_like(v)
    for k in range(3):
        np.add.at(vn, f[:, k], fn)
    # the faces' grids do not share their edge vertices: a vertex's normal is also the
    # same point's on the neighbouring face (rounded edges are smooth)
    key = np.round(v, 5)
    _, inverse = np.unique(key, axis=0, return_inverse=True)
    summed = np.zeros((inverse.max() + 1, 3))
    np.add.at(summed, inverse.ravel(), vn)
    vn = summed[inverse.ravel()]
    return vn / np.maximum(np.linalg.norm(vn, axis=1, keepdims=True), 1e-12)


def write_ply(path: Path, v: np.ndarray, n: np.ndarray, uv: np.ndarray, f: np.ndarray) -> None:
    """A binary PLY mesh with normals and texture coordinates."""
    head = (
        "ply\nformat binary_little_endian 1.0\n"
        f"element vertex {len(v)}\n"
        "property float x\nproperty float y\nproperty float z\n"
        "property float nx\nproperty float ny\nproperty float nz\n"
        "property float u\nproperty float v\n"
        f"element face {len(f)}\nproperty list uchar int vertex_indices\nend_header\n"
    )
    vert = np.concatenate([v, n, uv], axis=1).astype("<f4")
    face = np.zeros(len(f), dtype=[("n", "u1"), ("i", "<i4", (3,))])
    face["n"] = 3
    face["i"] = f
    with open(path, "wb") as out:
        out.write(head.encode("ascii"))
        out.write(vert.tobytes())
        out.write(face.tobytes())


# ------------------------------------------------------------------ textures


def _smooth(rng: np.random.Generator, h: int, w: int, scale: float) -> np.ndarray:
    small = rng.normal(size=(max(2, int(h / scale)), max(2, int(w / scale))))
    out = cv2.resize(small.astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    return (out - out.mean()) / (out.std() + 1e-6)


def face_atlas(
    look: Look, shape: DieShape, turns: tuple[int, ...], rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """(albedo (2T, 3T, 3) linear RGB, pip mask (2T, 3T)) over the die's six faces, in
    the layout of `die_mesh`'s texture coordinates (row 0 of the image is v = 0)."""
    h, w = 2 * TEX, 3 * TEX
    body = np.empty((h, w, 3), np.float32)
    body[:] = look.body
    if look.kind == "marbled":
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        ang = rng.uniform(0, math.pi)
        warp = _smooth(rng, h, w, 24) * rng.uniform(2, 5) + _smooth(rng, h, w, 8)
        t = np.sin((xx * math.cos(ang) + yy * math.sin(ang)) / rng.uniform(8, 20) + warp)
        mix = np.clip((t * 0.5 + 0.5) ** rng.uniform(1, 4), 0, 1)[..., None]
        body = body * (1 - mix) + np.array(look.second, np.float32) * mix
    elif look.kind == "pearl":
        body *= (1 + 0.12 * _smooth(rng, h, w, 20))[..., None]
    elif look.kind == "glitter":
        flakes = rng.random((h, w)) < 0.06
        body[flakes] = look.second
    mask = np.zeros((h, w), np.float32)
    s = (np.arange(TEX, dtype=np.float32) + 0.5) / TEX * 2 - 1
    uu, vv = np.meshgrid(s, s, indexing="xy")
    for k, value in enumerate(_FACE_ORDER):
        col, row = k % 3, k // 3
        tile = np.zeros((TEX, TEX), np.float32)
        for cu, cv, r in pip_centres(value, shape, turns[value - 1]):
            d = np.hypot(uu - cu, vv - cv) / r
            tile = np.maximum(tile, np.clip((1 - d) * TEX * r / 2 + 0.5, 0, 1))
        mask[row * TEX : (row + 1) * TEX, col * TEX : (col + 1) * TEX] = tile
    if look.pip_style == "unpainted":
        return np.clip(body, 0, 1), np.zeros_like(mask)
    albedo = body * (1 - mask[..., None]) + np.array(look.pips, np.float32) * mask[..., None]
    return np.clip(albedo, 0, 1), mask


# ------------------------------------------------------------------ random draws


def _srgb_to_linear(c: np.ndarray) -> np.ndarray:
    c = np.asarray(c, float)
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def _hsv(rng: np.random.Generator, s: tuple[float, float], v: tuple[float, float]) -> tuple:
    hsv = np.array([[[rng.uniform(0, 180), rng.uniform(*s) * 255, rng.uniform(*v) * 255]]])
    rgb = cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2RGB)[0, 0] / 255.0
    return tuple(float(c) for c in _srgb_to_linear(rgb))


def _shade(c: tuple, k: float) -> tuple:
    return tuple(float(min(1.0, x * k)) for x in c)


def random_look(rng: np.random.Generator, kind: str | None = None) -> Look:
    """A die material of `kind` (drawn by LOOK_WEIGHTS when None)."""
    if kind is None:
        kinds = list(LOOK_WEIGHTS)
        p = np.array([LOOK_WEIGHTS[k] for k in kinds])
        kind = kinds[int(rng.choice(len(kinds), p=p / p.sum()))]
    if kind not in LOOKS:
        raise ValueError(f"no such look: {kind}")
    grey = lambda a, b: (float(_srgb_to_linear(rng.uniform(a, b))),) * 3  # noqa: E731
    second = (0.0, 0.0, 0.0)
    density = 0.0
    rough = float(rng.uniform(0.05, 0.35))
    if kind == "white":
        body = grey(0.82, 0.97)
    elif kind == "black":
        body = grey(0.02, 0.12)
    elif kind == "colour":
        body = _hsv(rng, (0.35, 1.0), (0.25, 0.95))
    elif kind in ("translucent", "smoke"):
        body = _hsv(rng, (0.4, 1.0), (0.5, 1.0)) if kind == "translucent" else grey(0.15, 0.5)
        density = float(rng.uniform(0.3, 2.0) if kind == "translucent" else rng.uniform(1.5, 6))
        rough = float(rng.uniform(0.02, 0.2))
        second = (float(rng.uniform(0.2, 0.55)), 0.0, 0.0)  # share scattered at the surface
    elif kind == "marbled":
        body = _hsv(rng, (0.2, 1.0), (0.3, 0.95))
        second = _hsv(rng, (0.0, 1.0), (0.2, 1.0)) if rng.random() < 0.6 else grey(0.7, 0.95)
    elif kind == "pearl":
        body = _hsv(rng, (0.05, 0.35), (0.75, 0.97))
        rough = float(rng.uniform(0.02, 0.12))
    elif kind == "glitter":
        body = _hsv(rng, (0.3, 1.0), (0.2, 0.8))
        second = _shade(body, 2.5) if rng.random() < 0.5 else grey(0.85, 1.0)
    else:  # metal
        body = _hsv(rng, (0.0, 0.7), (0.55, 0.95))
        rough = float(rng.uniform(0.1, 0.4))
    style = str(rng.choice(["painted", "engraved", "unpainted"], p=[0.3, 0.5, 0.2]))
    r = rng.random()
    mean = float(np.mean(body))
    if r < 0.5:  # the usual contrast: dark pips on light, light on dark
        pips = grey(0.01, 0.08) if mean > 0.25 else grey(0.8, 0.97)
    elif r < 0.75:  # coloured paint
        pips = _hsv(rng, (0.5, 1.0), (0.4, 1.0))
    elif r < 0.9:  # the body's own hue, a shade off: low contrast
        pips = _shade(body, float(rng.choice([rng.uniform(0.25, 0.6), rng.uniform(1.6, 3.0)])))
    else:  # gold paint
        pips = (0.75, 0.5, 0.12)
    return Look(kind, body, pips, style, rough, second, density)


def random_shape(rng: np.random.Generator, style: str) -> DieShape:
    return DieShape(
        rounding=float(rng.uniform(0.06, 0.4)),
        pip_radius=float(rng.uniform(0.12, 0.22)),
        spread=float(rng.uniform(0.48, 0.62)),
        depth=0.0 if style == "painted" else float(rng.uniform(0.05, 0.14)),
        big_one=bool(rng.random() < 0.15),
    )


SIZES = ((224, 224), (256, 192), (192, 256), (288, 224))
"""Image sizes (px): dice about 40-90 px across, as the value net's crops want."""
LIGHTS = ("lamp", "window", "ring")


def random_scene(rng: np.random.Generator, look: str | None = None) -> Scene:
    """A few dice (two to six, of `look` when given, else drawn) on a table."""
    w, h = SIZES[int(rng.integers(len(SIZES)))]
    n = int(rng.integers(2, 7))
    spots: list[tuple[float, float]] = []
    dice = []
    spread = 1.6 + 1.2 * math.sqrt(n)
    for _ in range(60):
        if len(spots) == n:
            break
        x, y = rng.uniform(-spread, spread, 2)
        if all(math.hypot(x - a, y - b) > 3.0 for a, b in spots):
            spots.append((float(x), float(y)))
    for x, y in spots:
        lk = random_look(rng, look)
        dice.append(
            PlacedDie(
                value=int(rng.integers(1, 7)),
                look=lk,
                shape=random_shape(rng, lk.pip_style),
                x=x,
                y=y,
                yaw=float(rng.uniform(0, 2 * math.pi)),
                turns=tuple(int(t) for t in rng.integers(0, 4, 6)),
                tilt=tuple(float(t) for t in rng.normal(0, 0.02, 2)),
            )
        )
    mat = renderer.random_mat(rng)
    background = renderer.mat_image(mat, 512, 512, rng)
    extent = spread + 2.2
    fov = float(rng.uniform(35, 55))
    elevation = float(rng.uniform(50, 90))
    distance = extent / math.tan(math.radians(fov / 2)) * float(rng.uniform(0.9, 1.25))
    return Scene(
        dice=tuple(dice),
        width=w,
        height=h,
        elevation=elevation,
        azimuth=float(rng.uniform(0, 360)),
        distance=distance,
        fov=fov,
        look_at=tuple(float(c) for c in rng.normal(0, 0.6, 2)),
        light=str(rng.choice(LIGHTS, p=[0.5, 0.3, 0.2])),
        light_strength=float(rng.uniform(0.6, 1.6)),
        light_offset=tuple(float(c) for c in rng.uniform(-1, 1, 2)),
        background=background,
        table_rough=float(rng.uniform(0.3, 1.0)),
        exposure=float(rng.uniform(0.75, 1.15)),
        room=random_room(rng),
    )


def random_room(rng: np.random.Generator, h: int = 64, w: int = 128) -> np.ndarray:
    """A dim room in latitude-longitude (row 0 straight up): a soft gradient with a few
    bright patches (windows, lamps, a white wall)."""
    yy = np.linspace(0, 1, h, dtype=np.float32)[:, None, None]
    sky = np.array(_hsv(rng, (0.0, 0.25), (0.3, 0.6)), np.float32)
    floor = np.array(_hsv(rng, (0.0, 0.5), (0.1, 0.3)), np.float32)
    room = np.broadcast_to(sky * (1 - yy) + floor * yy, (h, w, 3)).copy()
    room *= (1 + 0.3 * _smooth(rng, h, w, 16))[..., None].clip(0.3, 2)
    for _ in range(int(rng.integers(1, 5))):
        y0 = int(rng.integers(0, h // 2))
        x0 = int(rng.integers(0, w))
        ph, pw = int(rng.integers(3, 14)), int(rng.integers(3, 24))
        xs = np.arange(x0, x0 + pw) % w
        room[y0 : y0 + ph, xs] += np.array(_hsv(rng, (0.0, 0.2), (0.8, 1.0))) * rng.uniform(2, 8)
    return np.ascontiguousarray(room.clip(0, None), np.float32)


# ------------------------------------------------------------------ camera


def camera_frame(scene: Scene) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(origin, target, up) of the camera in world units."""
    el, az = math.radians(scene.elevation), math.radians(scene.azimuth)
    target = np.array([scene.look_at[0], scene.look_at[1], 0.5])
    direction = np.array([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), math.sin(el)])
    origin = target + scene.distance * direction
    # 'up' on the image: towards the far side of the table (the azimuth's, straight down too)
    return origin, target, np.array([-math.cos(az), -math.sin(az), 0.0])


def project(scene: Scene, points: np.ndarray) -> np.ndarray:
    """Image px (N, 2) of world points (N, 3), as the renderer's pinhole sees them."""
    origin, target, up = camera_frame(scene)
    fwd = target - origin
    fwd /= np.linalg.norm(fwd)
    right = np.cross(fwd, up)
    right /= np.linalg.norm(right)
    down = np.cross(fwd, right)
    rel = points - origin
    z = rel @ fwd
    f = scene.width / 2 / math.tan(math.radians(scene.fov / 2))
    x = scene.width / 2 + f * (rel @ right) / z
    y = scene.height / 2 + f * (rel @ down) / z
    return np.stack([x, y], axis=1)


def seen_boxes(scene: Scene) -> list[tuple[tuple[float, ...], float]]:
    """Each die's box in the image and the share of it inside (`die_box` on a coarse mesh):
    what a render labels, known without rendering."""
    return [die_box(scene, d, die_mesh(d.shape, d.turns, grid=12)[0]) for d in scene.dice]


def die_box(scene: Scene, die: PlacedDie, mesh: np.ndarray) -> tuple[tuple[float, ...], float]:
    """The die's box in the image (px, from its mesh) and the share of it inside."""
    pts = mesh @ die.rotation().T + np.array([die.x, die.y, 1.0])
    px = project(scene, pts)
    x0, y0 = px.min(axis=0)
    x1, y1 = px.max(axis=0)
    area = max((x1 - x0) * (y1 - y0), 1e-6)
    cx0, cy0 = max(x0, 0), max(y0, 0)
    cx1, cy1 = min(x1, scene.width), min(y1, scene.height)
    inside = max(cx1 - cx0, 0) * max(cy1 - cy0, 0) / area
    return (float(cx0), float(cy0), float(cx1), float(cy1)), float(inside)


# ------------------------------------------------------------------ rendering


def mitsuba_installed() -> bool:
    import importlib.util

    return importlib.util.find_spec("mitsuba") is not None


def _import_mitsuba():
    try:
        import mitsuba as mi
    except ImportError as exc:
        raise ImportError(f"photoreal dice need Mitsuba 3 (the 'train' extra): {exc}") from exc
    if mi.variant() is None:
        mi.set_variant("scalar_rgb")
        mi.set_log_level(mi.LogLevel.Error)
    return mi


def _transform(mi, die: PlacedDie):  # noqa: ANN001
    R = die.rotation()
    m = np.eye(4)
    m[:3, :3] = R
    m[:3, 3] = (die.x, die.y, 1.0)
    return mi.ScalarTransform4f(m.tolist())


def _bitmap(mi, rgb: np.ndarray):  # noqa: ANN001
    return {
        "type": "bitmap",
        "bitmap": mi.Bitmap(np.ascontiguousarray(rgb, np.float32)),
        "filter_type": "bilinear",
        "raw": True,
    }


def _die_bsdf(mi, look: Look, albedo: np.ndarray, mask: np.ndarray) -> dict:  # noqa: ANN001
    alpha = max(look.roughness, 0.02)
    if look.kind in ("translucent", "smoke"):
        # glass-like, with some light scattered at the surface as in cast resin (a pure
        # dielectric lit by a small lamp stays dark and noisy at few samples)
        body = {
            "type": "blendbsdf",
            "weight": look.second[0] if look.second[0] > 0 else 0.35,
            "bsdf_0": {"type": "roughdielectric", "int_ior": 1.5, "alpha": alpha},
            "bsdf_1": {
                "type": "roughplastic",
                "alpha": alpha,
                "diffuse_reflectance": _bitmap(mi, albedo),
                "nonlinear": True,
            },
        }
    elif look.kind == "metal":
        body = {
            "type": "roughconductor",
            "material": "none",
            "alpha": alpha,
            "specular_reflectance": _bitmap(mi, albedo),
        }
    else:
        body = {
            "type": "roughplastic",
            "alpha": alpha,
            "int_ior": 1.5,
            "diffuse_reflectance": _bitmap(mi, albedo),
            "nonlinear": True,
        }
    if look.kind in ("white", "black", "colour", "marbled", "pearl", "glitter"):
        return body  # the pips are in the albedo
    if look.pip_style == "unpainted":
        return body
    paint = {"type": "diffuse", "reflectance": _bitmap(mi, albedo)}
    return {
        "type": "blendbsdf",
        "weight": _bitmap(mi, np.repeat(mask[..., None], 3, axis=2)),
        "bsdf_0": body,
        "bsdf_1": paint,
    }


def _medium(look: Look) -> dict:
    # absorbing: light of the body's colour passes, the rest is taken within the die
    col = np.clip(np.array(look.body), 0.02, 0.98)
    sigma_a = look.density * (1 - col) / col.max() * 2.0
    sigma_s = np.full(3, 0.05 * look.density)
    sigma_t = sigma_a + sigma_s
    scale = float(sigma_t.max())
    return {
        "type": "homogeneous",
        "scale": scale,
        "sigma_t": {"type": "rgb", "value": [float(c) / scale for c in sigma_t]},
        "albedo": {"type": "rgb", "value": [float(c) for c in sigma_s / sigma_t]},
    }


def scene_dict(mi, scene: Scene, folder: Path, rng: np.random.Generator) -> dict:  # noqa: ANN001
    """Mitsuba's description of `scene`; the die meshes are written to `folder`."""
    origin, target, up = camera_frame(scene)
    translucent = any(d.look.kind in ("translucent", "smoke") for d in scene.dice)
    out: dict = {
        "type": "scene",
        "integrator": {
            "type": "volpath" if translucent else "path",
            "max_depth": 8 if translucent else 6,
        },
        "sensor": {
            "type": "perspective",
            "fov": scene.fov,
            "fov_axis": "x",
            "to_world": mi.ScalarTransform4f().look_at(
                origin=origin.tolist(), target=target.tolist(), up=up.tolist()
            ),
            "sampler": {"type": "independent", "sample_count": scene.spp, "seed": 0},
            "film": {
                "type": "hdrfilm",
                "width": scene.width,
                "height": scene.height,
                "rfilter": {"type": "gaussian"},
                "pixel_format": "rgb",
            },
        },
    }
    tex = cv2.cvtColor(scene.background, cv2.COLOR_BGR2RGB).astype(np.float32) / 255
    out["table"] = {
        "type": "rectangle",
        "to_world": mi.ScalarTransform4f().scale([30, 30, 1]),
        "bsdf": {
            "type": "roughplastic" if scene.table_rough < 0.5 else "diffuse",
            **(
                {"diffuse_reflectance": _bitmap(mi, _srgb_to_linear(tex)), "alpha": 0.3}
                if scene.table_rough < 0.5
                else {"reflectance": _bitmap(mi, _srgb_to_linear(tex))}
            ),
        },
    }
    _add_lights(mi, out, scene, origin)
    for i, die in enumerate(scene.dice):
        v, n, uv, f = die_mesh(die.shape, die.turns)
        path = folder / f"die{i}.ply"
        write_ply(path, v, n, uv, f)
        albedo, mask = face_atlas(die.look, die.shape, die.turns, rng)
        shape = {
            "type": "ply",
            "filename": str(path),
            "to_world": _transform(mi, die),
            "bsdf": _die_bsdf(mi, die.look, albedo, mask),
        }
        if die.look.kind in ("translucent", "smoke"):
            shape["interior"] = _medium(die.look)
        out[f"die{i}"] = shape
    return out


def _add_lights(mi, out: dict, scene: Scene, origin: np.ndarray) -> None:  # noqa: ANN001
    k = scene.light_strength
    ox, oy = scene.light_offset
    out["room"] = {"type": "envmap", "bitmap": mi.Bitmap(scene.room), "scale": 0.5 * k}
    if scene.light == "lamp":
        size = 3.0
        out["lamp"] = {
            "type": "rectangle",
            "to_world": mi.ScalarTransform4f()
            .look_at(origin=[6 * ox, 6 * oy, 22], target=[0, 0, 0], up=[0, 1, 0])
            .scale([size, size, 1]),
            "emitter": {
                "type": "area",
                "radiance": {"type": "rgb", "value": [9 * k, 8.4 * k, 7.4 * k]},
            },
        }
    elif scene.light == "window":
        out["window"] = {
            "type": "rectangle",
            "to_world": mi.ScalarTransform4f()
            .look_at(
                origin=[25 * math.cos(ox * 3), 25 * math.sin(ox * 3), 9 + 4 * oy],
                target=[0, 0, 0],
                up=[0, 0, 1],
            )
            .scale([10, 6, 1]),
            "emitter": {
                "type": "area",
                "radiance": {"type": "rgb", "value": [0.8 * k, 0.9 * k, 1.05 * k]},
            },
        }
    else:  # a ring light round the camera
        out["ring"] = {
            "type": "disk",
            "to_world": mi.ScalarTransform4f()
            .look_at(origin=(origin * 1.02).tolist(), target=[0, 0, 0], up=[0, 0, 1])
            .scale([2.5, 2.5, 1]),
            "emitter": {"type": "area", "radiance": {"type": "rgb", "value": [3.0 * k] * 3}},
        }


def render(scene: Scene, seed: int = 0) -> tuple[np.ndarray, list[RenderedDie]]:
    """The scene path-traced: (image BGR uint8, every die's box, value and look)."""
    mi = _import_mitsuba()
    rng = np.random.default_rng([seed, 3])
    with tempfile.TemporaryDirectory(prefix="zonkcam-photoreal-") as tmp:
        d = scene_dict(mi, scene, Path(tmp), rng)
        d["sensor"]["sampler"]["seed"] = int(seed % (2**31))
        img = np.array(mi.render(mi.load_dict(d)), np.float32)[..., :3]
    img = _tonemap(img, scene.exposure, rng)
    dice = [
        RenderedDie(box, top_value(die.rotation()), die.look.kind, inside)
        for die, (box, inside) in zip(scene.dice, seen_boxes(scene), strict=True)
    ]
    return img, dice


def _tonemap(lin: np.ndarray, exposure: float, rng: np.random.Generator) -> np.ndarray:
    """Linear RGB to a camera's BGR uint8: exposed on the frame's bright end, sRGB
    gamma, a little sensor noise."""
    lum = lin.mean(axis=2)
    ref = float(np.percentile(lum, 97)) + 1e-6
    x = np.clip(lin * (0.85 * exposure / ref), 0, None)
    x = np.where(x <= 0.0031308, x * 12.92, 1.055 * np.power(x, 1 / 2.4) - 0.055)
    x = x * 255 + rng.normal(0, 1.5, x.shape)
    return cv2.cvtColor(np.clip(x, 0, 255).astype(np.uint8), cv2.COLOR_RGB2BGR)
