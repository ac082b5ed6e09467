"""The demo table: a camera source that renders dice being thrown on the play mat.

Dice tumble in, slow down and come to rest; a hand moves kept dice to the keep strip;
everything is drawn by the project's renderer (zonkcam.vision.synth) on the printed
mat, so the frames go through the same reader, calibration and settle detection as a
real camera's. Each frame carries its truth (:class:`DemoTruth`) for tests.

A driver (the demo game, or a test) scripts the table with :meth:`DemoTable.throw`,
:meth:`DemoTable.keep` and :meth:`DemoTable.pick_up`; with ``autoplay`` the table
plays by itself (throw, keep the 1s and 5s, throw the rest, ...).
"""

from __future__ import annotations

import dataclasses
import math
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from zonkcam.calibration.mat import MatGeometry, draw_mat, load_geometry
from zonkcam.table.camera import Frame
from zonkcam.table.zones import SeenDie
from zonkcam.vision import synth

DEMO_COLOURS = ("white", "white", "red", "red", "green", "green")
SKIN = (120, 160, 215)  # BGR
COCKED_TILT_DEG = 38.0
"""How far a cocked die leans (on another die, or the mat's raised edge)."""


@dataclass(frozen=True)
class DemoDie:
    """A die as the demo table placed it (mat mm from the top-left corner)."""

    value: int
    color: str
    x_mm: float
    y_mm: float
    yaw_deg: float = 0.0
    zone: str = "rolling"
    """rolling, keep or off."""
    touching: tuple[str, ...] = ()
    """Board images (LEFT, RIGHT, CHOOSE, SOCIAL) the die was placed touching."""
    cocked: bool = False


@dataclass(frozen=True)
class DemoTruth:
    dice: tuple[DemoDie, ...]
    moving: bool
    """Some die is still moving in this frame."""
    hand: bool
    """A hand is over the mat."""
    throw: int
    """How many throws have begun."""
    boxes: tuple[tuple[float, float, float, float], ...] = ()
    """Each die's box in the frame (x0, y0, x1, y1), in the order of ``dice``."""

    @property
    def rolled(self) -> tuple[DemoDie, ...]:
        return tuple(d for d in self.dice if d.zone == "rolling")


@dataclass
class _Pose:
    die: DemoDie
    moving: bool = False


class DemoTable:
    """A FrameSource that renders a scripted (or self-playing) table."""

    def __init__(self, *, seed: int = 0, geometry: MatGeometry | str = "a3",
                 size: tuple[int, int] = (960, 720), fps: float = 30.0, tilt_deg: float = 6.0,
                 autoplay: bool = True, dice: int = 5, colours: Sequence[str] | None = None,
                 noise: float = 1.5, tumble_frames: tuple[int, int] = (12, 20),
                 rest_frames: int = 20) -> None:
        self.geometry = load_geometry(geometry) if isinstance(geometry, str) else geometry
        self.name, self.fps = "demo table", fps
        self.seed, self.rng = seed, np.random.default_rng(seed)
        self.autoplay = autoplay
        self.use_dice(dice, colours)
        self.noise, self.tumble_frames, self.rest_frames = noise, tumble_frames, rest_frames
        g = self.geometry
        w, h = size
        # The mat fills about 85% of the frame's width, seen from slightly in front.
        focal = 0.85 * w * 600.0 / g.width_mm
        self.camera = synth.Camera(w, h, tilt_deg=tilt_deg, distance_mm=600.0, focal_px=focal)
        mat = synth.Mat("wood", (70, 100, 135), image=draw_mat(g, dpi=max(30, 80 * w / 960)),
                        size_mm=(g.width_mm, g.height_mm))
        base = synth.Scene(dice=(), camera=self.camera, mat=mat, light=synth.Light(
            azimuth_deg=35, elevation_deg=65, warmth=0.1))
        self._scene = dataclasses.replace(base, background=synth.render_background(
            base, np.random.default_rng(seed)))
        self.poses: list[_Pose] = []
        self.hand: tuple[float, float] | None = None
        self.throws = 0
        self._script: deque[Iterator[None]] = deque()
        self._index = 0
        self.last: Frame | None = None
        """The frame read last (with its truth)."""
        self._drawn_key: object = None
        self._drawn: tuple[np.ndarray, tuple] = (np.zeros((h, w, 3), np.uint8), ())

    def use_dice(self, n: int, colours: Sequence[str] | None = None) -> None:
        """Play with ``n`` dice (six are the detroit table's white, red and green pairs)."""
        self.n_dice = n
        self.colours = tuple(colours or (DEMO_COLOURS if n == 6 else ("white",) * n))

    # -- FrameSource ---------------------------------------------------------------------

    def read(self) -> Frame:
        if not self._script and self.autoplay:
            self._autoplay_next()
        while self._script:
            try:
                next(self._script[0])
                break
            except StopIteration:
                self._script.popleft()
        index = self._index
        self._index += 1
        image, boxes = self._render()
        truth = dataclasses.replace(self.truth(), boxes=boxes)
        self.last = Frame(image, index, index / self.fps, truth)
        return self.last

    def close(self) -> None:
        pass

    @property
    def busy(self) -> bool:
        """Something scripted is still to happen (a throw, a keep, a rest)."""
        return bool(self._script)

    def truth(self) -> DemoTruth:
        return DemoTruth(tuple(p.die for p in self.poses), any(p.moving for p in self.poses),
                         self.hand is not None, self.throws)

    def render(self) -> np.ndarray:
        return self._render()[0]

    def _render(self) -> tuple[np.ndarray, tuple[tuple[float, float, float, float], ...]]:
        key = (tuple(p.die for p in self.poses), self.hand)
        if key != self._drawn_key:  # dice at rest look the same: draw them once
            self._drawn = self._draw()
            self._drawn_key = key
        image, boxes = self._drawn
        if self.noise > 0:
            noise = np.empty(image.shape, np.float32)
            cv2.randn(noise, 0.0, self.noise)
            image = np.clip(image + noise, 0, 255).astype(np.uint8)
        else:
            image = image.copy()
        return image, boxes

    def _draw(self) -> tuple[np.ndarray, tuple[tuple[float, float, float, float], ...]]:
        specs = []
        for p in self.poses:
            d = p.die
            sx, sy = self._to_world(d.x_mm, d.y_mm)
            specs.append(synth.DieSpec(d.value, d.color, sx, sy, d.yaw_deg,
                                       size_mm=self.geometry.die_mm,
                                       pip_color="white" if d.color in ("red", "green") else
                                       "black", tilt_deg=COCKED_TILT_DEG if d.cocked else 0.0))
        # The same seed every frame: dice at rest render identically (side faces and glare
        # are random in the renderer); the sensor noise below is what changes.
        scene = dataclasses.replace(self._scene, dice=tuple(specs))
        rendered = synth.render(scene, np.random.default_rng(self.seed))
        image = rendered.image
        if self.hand is not None:
            self._draw_hand(image, *self.hand)
        return image, tuple(t.bbox for t in rendered.dice)

    # -- scripting -------------------------------------------------------------------------

    def throw(self, values: Sequence[int] | None = None, *, n: int | None = None,
              colours: Sequence[str] | None = None, onto: dict[int, str] | None = None,
              off_mat: Sequence[int] = (), cocked: Sequence[int] = ()) -> None:
        """Throw dice into the rolling area (after the dice already there are picked up).

        ``values`` fixes the faces (else random); ``onto`` lands die i touching a board
        image; ``off_mat`` lands those dice off the mat; ``cocked`` leaves them leaning.
        """
        n = len(values) if values is not None else (n or self.n_dice)
        vals = list(values) if values is not None else [int(v) for v in self.rng.integers(1, 7, n)]
        self._script.append(self._throw(vals, colours, onto or {}, set(off_mat), set(cocked)))

    def keep(self, values: Sequence[int]) -> None:
        """A hand moves rolled dice showing these values into the keep strip."""
        self._script.append(self._keep(list(values)))

    def pick_up(self) -> None:
        """All dice are picked up (the turn ends, or hot dice)."""
        self._script.append(self._pick_up())

    def reach(self, frames: int = 30) -> None:
        """A hand reaches over the mat and rests there for ``frames`` frames, then leaves."""
        self._script.append(self._reach(frames))

    def spin(self, frames: int = 20) -> None:
        """The first die in the rolling area spins on the spot for a while."""
        self._script.append(self._spin(frames))

    def rest(self, frames: int | None = None) -> None:
        """Nothing moves for a while."""
        self._script.append(self._rest(self.rest_frames if frames is None else frames))

    # -- the animations ----------------------------------------------------------------------

    def _throw(self, values: list[int], colours: Sequence[str] | None, onto: dict[int, str],
               off_mat: set[int], cocked: set[int]) -> Iterator[None]:
        self.poses = [p for p in self.poses if p.die.zone == "keep"]
        if colours is None:  # the dice not lying in the keep strip
            free = list(self.colours)
            for p in self.poses:
                if p.die.color in free:
                    free.remove(p.die.color)
            colours = (free + list(self.colours))[:len(values)]
        self.throws += 1
        g, rng = self.geometry, self.rng
        targets = self._targets(len(values), onto, off_mat, cocked)
        frames = int(rng.integers(*self.tumble_frames))
        starts = [(g.rolling_area.x + g.rolling_area.w * rng.uniform(0.3, 0.7),
                   g.rolling_area.y + g.rolling_area.h + 40.0) for _ in values]
        spins = rng.uniform(200, 600, len(values)) * rng.choice([-1, 1], len(values))
        yaws = rng.uniform(0, 90, len(values))
        new = [_Pose(DemoDie(v, c, *s)) for v, c, s in zip(values, colours, starts, strict=True)]
        self.poses += new
        for k in range(1, frames + 1):
            f = 1 - (1 - k / frames) ** 2  # ease out
            last = k == frames
            for i, p in enumerate(new):
                (x0, y0), (x1, y1) = starts[i], targets[i][:2]
                x = x0 + (x1 - x0) * f
                y = y0 + (y1 - y0) * f - 25 * math.sin(math.pi * f)
                value = values[i] if last or k > frames - 3 else int(rng.integers(1, 7))
                yaw = yaws[i] + spins[i] * (1 - f)
                if last and i in cocked and i > 0:
                    dx, dy = targets[i - 1][0] - x, targets[i - 1][1] - y
                    yaw = math.degrees(math.atan2(-dy, dx)) + 90  # world y is up the mat
                p.die = dataclasses.replace(
                    p.die, value=value, x_mm=x, y_mm=y,
                    yaw_deg=yaw, zone=targets[i][2],
                    touching=targets[i][3], cocked=last and i in cocked)
                p.moving = not last
            yield
        yield from self._rest(self.rest_frames)

    def _targets(self, n: int, onto: dict[int, str], off_mat: set[int], cocked: set[int]
                 ) -> list[tuple[float, float, str, tuple[str, ...]]]:
        """Resting places: apart from each other, clear of board images unless asked."""
        g, rng, die = self.geometry, self.rng, self.geometry.die_mm
        area = g.rolling_area
        boards = {b.label: b for b in g.board_images}
        taken: list[tuple[float, float]] = [(p.die.x_mm, p.die.y_mm) for p in self.poses
                                            if p.die.zone == "keep"]
        out = []
        for i in range(n):
            for _ in range(500):
                if i in onto:  # overlap the image's edge by a third of a die
                    b = boards[onto[i]]
                    angle = rng.uniform(0, 2 * math.pi)
                    reach = b.size_mm / 2 + die * 0.2
                    x = b.center[0] + reach * math.cos(angle)
                    y = b.center[1] + reach * math.sin(angle)
                    zone, touching = "rolling", (b.label,)
                elif i in off_mat:
                    x = rng.choice([-die * 1.5, g.width_mm + die * 1.5])
                    y = rng.uniform(area.y + die, area.y + area.h - die)
                    zone, touching = "off", ()
                else:
                    x = rng.uniform(area.x + die, area.x + area.w - die)
                    y = rng.uniform(area.y + die, area.y + area.h - die)
                    zone, touching = "rolling", ()
                    if any(b.rect.contains(x, y) or _near_rect(b.rect, x, y, die * 1.1)
                           for b in g.board_images):
                        continue
                if i in cocked and out:  # leaning against the die thrown before it
                    px, py = out[-1][:2]
                    angle = rng.uniform(0, 2 * math.pi)
                    x, y = px + die * 1.15 * math.cos(angle), py + die * 1.15 * math.sin(angle)
                    if area.contains(x, y) and all(math.hypot(x - tx, y - ty) > die * 2.0
                                                   for tx, ty in taken[:-1]):
                        break
                    continue
                if all(math.hypot(x - tx, y - ty) > die * 2.0 for tx, ty in taken):
                    break
            taken.append((x, y))
            out.append((x, y, zone, touching))
        return out

    def _keep(self, values: list[int]) -> Iterator[None]:
        g = self.geometry
        strip = g.keep_strip
        in_strip = sum(p.die.zone == "keep" for p in self.poses)
        chosen: list[_Pose] = []
        pool = [p for p in self.poses if p.die.zone == "rolling"]
        for v in values:
            match = next((p for p in pool if p.die.value == v and p not in chosen), None)
            if match is not None:
                chosen.append(match)
        for j, p in enumerate(chosen):
            slot = in_strip + j
            yaw = float(self.rng.uniform(-30, 30))  # nobody lines them up exactly
            tx = strip.x + g.die_mm * (1.5 + 2.2 * slot)
            ty = strip.y + strip.h / 2
            x0, y0 = p.die.x_mm, p.die.y_mm
            steps = 6
            for k in range(1, steps + 1):  # the hand reaches the die
                self.hand = (x0, y0 + (1 - k / steps) * 120)
                yield
            for k in range(1, steps + 1):  # and slides it to the strip
                f = k / steps
                p.die = dataclasses.replace(p.die, x_mm=x0 + (tx - x0) * f,
                                            y_mm=y0 + (ty - y0) * f, zone="keep", touching=(),
                                            yaw_deg=p.die.yaw_deg + (yaw - p.die.yaw_deg) * f)
                p.moving = k < steps
                self.hand = (p.die.x_mm, p.die.y_mm)
                yield
            for k in range(1, steps + 1):
                self.hand = (tx, ty + k / steps * 120)
                yield
            self.hand = None
        yield from self._rest(self.rest_frames)

    def _pick_up(self) -> Iterator[None]:
        for _ in range(4):
            self.hand = (self.geometry.width_mm / 2, self.geometry.height_mm * 0.6)
            yield
        self.poses = []
        self.hand = None
        yield from self._rest(self.rest_frames)

    def _reach(self, frames: int) -> Iterator[None]:
        g = self.geometry
        x, y = g.rolling_area.x + g.rolling_area.w * 0.5, g.rolling_area.y + g.rolling_area.h * 0.6
        for k in range(1, 7):
            self.hand = (x, y + (1 - k / 6) * 150)
            yield
        for _ in range(frames):
            yield
        for k in range(1, 7):
            self.hand = (x, y + k / 6 * 150)
            yield
        self.hand = None
        yield from self._rest(self.rest_frames)

    def _spin(self, frames: int) -> Iterator[None]:
        rolled = [p for p in self.poses if p.die.zone == "rolling"]
        if rolled:
            p = rolled[0]
            for k in range(frames):
                p.die = dataclasses.replace(p.die, yaw_deg=p.die.yaw_deg + 25.0)
                p.moving = k < frames - 1
                yield
        yield from self._rest(self.rest_frames)

    def _rest(self, frames: int) -> Iterator[None]:
        for p in self.poses:
            p.moving = False
        for _ in range(frames):
            yield

    def _autoplay_next(self) -> None:
        if not self.throws:  # an empty mat first (calibration sees it)
            self.rest()
            self.throw(n=self.n_dice)
            return
        rolled = [p.die.value for p in self.poses if p.die.zone == "rolling"]
        kept = sum(p.die.zone == "keep" for p in self.poses)
        scoring = [v for v in rolled if v in (1, 5)]
        if rolled and scoring and kept + len(scoring) < self.n_dice:
            self.keep(scoring)
            self.throw(n=self.n_dice - kept - len(scoring))
        else:
            self.pick_up()
            self.throw(n=self.n_dice)

    # -- drawing helpers -----------------------------------------------------------------------

    def _to_world(self, x_mm: float, y_mm: float) -> tuple[float, float]:
        g = self.geometry
        return x_mm - g.width_mm / 2, g.height_mm / 2 - y_mm

    def mat_to_image(self, pts_mm: np.ndarray) -> np.ndarray:
        """Where mat points appear in the frame (the demo camera's true projection)."""
        pts = np.asarray(pts_mm, float).reshape(-1, 2)
        world = np.c_[pts[:, 0] - self.geometry.width_mm / 2,
                      self.geometry.height_mm / 2 - pts[:, 1], np.zeros(len(pts))]
        return self.camera.project(world)

    def _draw_hand(self, image: np.ndarray, x_mm: float, y_mm: float) -> None:
        """A hand and forearm reaching in from the near edge to (x_mm, y_mm)."""
        g = self.geometry
        palm = self.mat_to_image([[x_mm, y_mm + 25]])[0]
        wrist = self.mat_to_image([[x_mm + 10, g.height_mm + 200]])[0]
        scale = float(np.linalg.norm(self.mat_to_image([[0, 0], [10, 0]])[1]
                                     - self.mat_to_image([[0, 0], [10, 0]])[0])) / 10
        width = int(45 * scale)
        cv2.line(image, tuple(map(int, wrist)), tuple(map(int, palm)), SKIN, width, cv2.LINE_AA)
        cv2.ellipse(image, tuple(map(int, palm)), (int(48 * scale), int(55 * scale)), 0, 0, 360,
                    SKIN, -1, cv2.LINE_AA)
        for k in range(4):  # fingers over the die
            base = self.mat_to_image([[x_mm - 18 + 12 * k, y_mm + 5]])[0]
            tip = self.mat_to_image([[x_mm - 20 + 13 * k, y_mm - 25]])[0]
            cv2.line(image, tuple(map(int, base)), tuple(map(int, tip)), SKIN,
                     int(10 * scale), cv2.LINE_AA)


def _near_rect(rect, x: float, y: float, margin: float) -> bool:
    return (rect.x - margin <= x <= rect.x + rect.w + margin
            and rect.y - margin <= y <= rect.y + rect.h + margin)


class TruthReader:
    """A stand-in dice reader that reports exactly what the demo table drew in the frame it
    gave last: for testing and timing the table logic apart from the learned reader."""

    def __init__(self, table: DemoTable) -> None:
        self.table = table

    def __call__(self, image: np.ndarray) -> list[SeenDie]:
        frame = self.table.last
        assert frame is not None and frame.image is image, "read the table's latest frame"
        t = frame.truth
        return [SeenDie(d.value, 1.0, b, d.color) for d, b in zip(t.dice, t.boxes, strict=True)]
