"""The demo table: a camera source that renders dice being thrown on the play mat.

Dice tumble in, slow down and come to rest; a hand moves kept dice to the keep strip;
everything is drawn by the project's renderer (zonkcam.sim.renderer) on the printed
mat, so the frames go through the same reader, calibration and settle detection as a
real camera's. Each frame carries its truth (:class:`DemoTruth`) for tests.

A driver (the demo game, or a test) scripts the table with :meth:`DemoTable.throw`,
:meth:`DemoTable.keep` and :meth:`DemoTable.pick_up`, and puts things in the way with
:meth:`DemoTable.put` (a fingertip on a die, a cup, a phone, a sleeve, a hand's shadow) or
:meth:`DemoTable.nudge` (a finger pushes a die); with ``autoplay`` the table plays by
itself (throw, keep the 1s and 5s, throw the rest, ...).

Dice are drawn by the renderer unless the table is given other art (``die_art``, a
:class:`DieArt`: cut-outs of photographed dice, say), which draws each die where the
camera sees it (:class:`DiePose`) and says where it drew it.

A :class:`CameraLook` says how far the picture is from a perfect one: ``REALISTIC`` tilts
the camera 15 degrees, bends straight lines (barrel distortion), lights the mat unevenly,
blurs, compresses every frame as JPEG and leaves clutter on the table round the mat.

With ``detail`` (2, say) the table is rendered that many times larger and each frame
carries the large picture as its ``detail`` and the same picture scaled down to ``size``
as its ``image``, as the Pi camera gives a full-size stream beside a small one.
"""

from __future__ import annotations

import dataclasses
import math
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import cv2
import numpy as np

from zonkcam.game.actions import Landing
from zonkcam.game.dice import DETROIT_DICE
from zonkcam.mat.layout import SIZES, MatGeometry, draw_mat, load_geometry
from zonkcam.sim import renderer
from zonkcam.sim.lens import LOOKS, PLAIN, CameraLook, Lens, demo_of, noise_bank
from zonkcam.sources.base import Frame
from zonkcam.table.zones import Zone

SKIN = (120, 160, 215)  # BGR
THINGS = ("finger", "cup", "phone", "sleeve", "shadow")
"""What :meth:`DemoTable.put` can lay on the mat (none of them a die)."""
COCKED_TILT_DEG = 38.0
"""How far a cocked die leans (on another die, or the mat's raised edge)."""
CAMERA_MM = 600.0
"""How far the demo camera hangs over the middle of an A3 mat; over a smaller mat it hangs
as much nearer as the mat is smaller (see DemoTable)."""
A3_MM = (420.0, 297.0)
"""An A3 mat's sides (mm), landscape: the demo camera frames every mat as it frames this."""
KEEP_PITCH = 2.2
"""Dice set aside lie this many die sides apart along the keep strip, or closer where the
strip is too short for six so."""


@dataclass(frozen=True)
class DemoDie:
    """A die as the demo table placed it (mat mm from the top-left corner)."""

    value: int
    color: str
    x_mm: float
    y_mm: float
    yaw_deg: float = 0.0
    zone: Zone = Zone.ROLLING
    touching: tuple[Landing, ...] = ()
    """Board images the die was placed touching."""
    cocked: bool = False


@dataclass(frozen=True)
class DemoTruth:
    dice: tuple[DemoDie, ...]
    moving: bool
    """Some die is still moving in this frame."""
    hand: bool
    """A hand (or anything else that is not a die) is over the mat."""
    throw: int
    """How many throws have begun."""
    boxes: tuple[tuple[float, float, float, float], ...] = ()
    """Each die's box in the frame (x0, y0, x1, y1), in the order of ``dice``."""

    @property
    def rolled(self) -> tuple[DemoDie, ...]:
        return tuple(d for d in self.dice if d.zone is Zone.ROLLING)


@dataclass(frozen=True)
class DiePose:
    """A die as the demo camera sees it (px of the picture drawn, before the lens's
    distortion: the frame's, or its detail's where the table renders one), for
    :class:`DieArt` to draw."""

    die: DemoDie
    """The die (its ``color`` is whatever name the table's script gave it)."""
    centre_px: tuple[float, float]
    """Where the middle of the die (half its height above the mat) is drawn."""
    side_px: float
    """How long the die's edge looks there."""
    yaw_deg: float
    """How far the die is turned in the picture (counter-clockwise, degrees)."""
    moving: bool
    """The die is tumbling or sliding in this frame."""
    shadow_px: tuple[float, float]
    """Where the die's shadow falls, from ``centre_px`` (away from the light)."""


class DieArt(Protocol):
    """Draws the demo table's dice in place of the renderer (``DemoTable(die_art=...)``)."""

    def draw(self, image: np.ndarray, pose: DiePose) -> tuple[float, float, float, float]:
        """Draw one die into the BGR frame, in place; return its box (x0, y0, x1, y1),
        which becomes the die's box in the frame's truth."""
        ...


@dataclass
class _Pose:
    die: DemoDie
    moving: bool = False


@dataclass(frozen=True)
class _Thing:
    """Something on the mat that is not a die (mat mm; ``angle`` in degrees)."""

    kind: str
    x_mm: float
    y_mm: float
    angle: float = 0.0


class DemoTable:
    """A FrameSource that renders a scripted (or self-playing) table."""

    def __init__(
        self,
        *,
        seed: int = 0,
        geometry: MatGeometry | str = "a3",
        size: tuple[int, int] = (960, 720),
        fps: float = 30.0,
        look: CameraLook = PLAIN,
        autoplay: bool = True,
        dice: int = 5,
        colours: Sequence[str] | None = None,
        tumble_frames: tuple[int, int] = (12, 20),
        rest_frames: int = 20,
        bodies: dict[str, tuple[int, int, int]] | None = None,
        die_art: DieArt | None = None,
        detail: int = 1,
    ) -> None:
        if detail < 1:
            raise ValueError(f"detail is a whole factor of 1 or more, not {detail!r}")
        self.detail = detail
        """How many times ``size`` the table is rendered; over 1, frames carry the render
        as their ``detail`` and ``image`` is it scaled down to ``size``."""
        self.size = size
        """The frames' ``image`` size (width, height)."""
        self.bodies = dict(bodies or {})
        """Dice colours of this table beyond the renderer's (renderer.DIE_COLORS): name ->
        body BGR (a die the colour of a zone of the mat, say)."""
        self.die_art = die_art
        """What draws the dice (None: the renderer). The truth's value of a die is the
        value the script gave it, so art must draw a die showing that value: a script
        names, in the ``colours`` of :meth:`throw`, the picture each die is drawn from."""
        self.geometry = load_geometry(geometry) if isinstance(geometry, str) else geometry
        self.name, self.fps = "demo table", fps
        look_name = next((k for k, v in LOOKS.items() if v == look), "plain")
        mat_name = geometry.lower() if isinstance(geometry, str) else "a3"
        mat_name = mat_name if mat_name in SIZES else "a3"  # a mat of the user's own
        self.spec = ":".join(
            ["demo"] + [look_name] * (look_name != "plain") + [mat_name] * (mat_name != "a3")
        )
        """The source spec that opens this table again (``demo:realistic:a4``)."""
        self.seed, self.rng = seed, np.random.default_rng(seed)
        self.autoplay = autoplay
        self.use_dice(dice, colours)
        self.look, self.noise = look, look.noise
        self.tumble_frames, self.rest_frames = tumble_frames, rest_frames
        g = self.geometry
        w, h = size[0] * detail, size[1] * detail  # the render's size
        # An A3 mat fills look.mat_share of the frame's width (as drawn before any barrel
        # distortion), seen from slightly in front; a mat of another size or shape fills
        # as much of the frame as its box of A3's shape (box_mm wide) does. The lens is the
        # same whatever the mat: the camera hangs CAMERA_MM over an A3 mat, nearer a
        # smaller one.
        box_mm = max(g.width_mm, g.height_mm * A3_MM[0] / A3_MM[1])
        distance = CAMERA_MM * box_mm / A3_MM[0]
        focal = look.mat_share * w * distance / box_mm / (1 - look.barrel)
        self.camera = renderer.Camera(
            w, h, tilt_deg=look.tilt_deg, distance_mm=distance, focal_px=focal
        )
        mat = renderer.Mat(
            "wood",
            (70, 100, 135),
            image=draw_mat(g, dpi=max(30, 80 * w / 960)),
            size_mm=(g.width_mm, g.height_mm),
        )
        base = renderer.Scene(
            dice=(),
            camera=self.camera,
            mat=mat,
            light=renderer.Light(azimuth_deg=35, elevation_deg=65, warmth=0.1),
        )
        background = renderer.render_background(base, np.random.default_rng(seed))
        self._lens = Lens(look, w, h, np.random.default_rng(seed + 1))
        if look.clutter:
            self._clutter(background, look.clutter, np.random.default_rng(seed + 2))
        self._scene = dataclasses.replace(base, background=background)
        self.poses: list[_Pose] = []
        self.hand: tuple[float, float] | None = None
        self.things: list[_Thing] = []
        """What lies on the mat that is not a die (see :meth:`put`)."""
        self.throws = 0
        self._script: deque[Iterator[None]] = deque([self._rest(1)])  # the empty mat first
        self._index = 0
        self.last: Frame | None = None
        """The frame read last (with its truth)."""
        self._noise_bank: list[tuple[np.ndarray, np.ndarray]] | None = None
        self._drawn_key: object = None
        self._drawn: tuple[np.ndarray, tuple] = (np.zeros((h, w, 3), np.uint8), ())

    def use_dice(self, n: int, colours: Sequence[str] | None = None) -> None:
        """Play with ``n`` dice (six are the detroit table's white, red and green pairs)."""
        self.n_dice = n
        self.colours = tuple(colours or (DETROIT_DICE if n == 6 else ("white",) * n))

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
        image, detail, boxes = self._picture()
        truth = dataclasses.replace(self.truth(), boxes=boxes)
        self.last = Frame(image, index, index / self.fps, truth, detail=detail)
        return self.last

    def close(self) -> None:
        pass

    @property
    def busy(self) -> bool:
        """Something scripted is still to happen (a throw, a keep, a rest)."""
        return bool(self._script)

    def truth(self) -> DemoTruth:
        return DemoTruth(
            tuple(p.die for p in self.poses),
            any(p.moving for p in self.poses),
            self.hand is not None or any(t.kind != "edge" for t in self.things),
            self.throws,
        )

    def render(self) -> np.ndarray:
        return self._picture()[0]

    def _picture(
        self,
    ) -> tuple[np.ndarray, np.ndarray | None, tuple[tuple[float, float, float, float], ...]]:
        """The frame's image, its detail (None unless ``detail`` is over 1) and each die's
        box in the image."""
        image, boxes = self._render()
        if self.detail == 1:
            return self._lens.compress(image), None, boxes
        k = self.detail
        small = cv2.resize(image, self.size, interpolation=cv2.INTER_AREA)
        boxes = tuple((b[0] / k, b[1] / k, b[2] / k, b[3] / k) for b in boxes)
        return self._lens.compress(small), self._lens.compress(image), boxes

    def _render(self) -> tuple[np.ndarray, tuple[tuple[float, float, float, float], ...]]:
        """The table at the render's size, with sensor noise, and each die's box there."""
        key = (tuple(p.die for p in self.poses), self.hand, tuple(self.things))
        if key != self._drawn_key:  # dice at rest look the same: draw them once
            image, boxes = self._draw()
            self._drawn = (self._lens.optics(image), self._lens.boxes(boxes))
            self._drawn_key = key
        image, boxes = self._drawn
        if self.noise > 0:
            if self._noise_bank is None or self._noise_bank[0][0].shape != image.shape:
                self._noise_bank = noise_bank(image.shape, self.noise, self.rng)
            up, down = self._noise_bank[int(self.rng.integers(len(self._noise_bank)))]
            image = cv2.subtract(cv2.add(image, up), down)
        else:
            image = image.copy()
        return image, boxes

    def _draw(self) -> tuple[np.ndarray, tuple[tuple[float, float, float, float], ...]]:
        if self.die_art is not None:
            return self._draw_art(self.die_art)
        specs = []
        for p in self.poses:
            d = p.die
            sx, sy = self._to_world(d.x_mm, d.y_mm)
            body = self.bodies.get(d.color)
            dark = d.color in ("red", "green") or (body is not None and sum(body) < 3 * 128)
            specs.append(
                renderer.DieSpec(
                    d.value,
                    d.color if body is None else "white",
                    sx,
                    sy,
                    d.yaw_deg,
                    size_mm=self.geometry.die_mm,
                    pip_color="white" if dark else "black",
                    tilt_deg=COCKED_TILT_DEG if d.cocked else 0.0,
                    body_bgr=body,
                )
            )
        # The same seed every frame: dice at rest render identically (side faces and glare
        # are random in the renderer); the sensor noise below is what changes.
        scene = dataclasses.replace(self._scene, dice=tuple(specs))
        rendered = renderer.render(scene, np.random.default_rng(self.seed))
        image = rendered.image
        for thing in self.things:
            self._draw_thing(image, thing)
        if self.hand is not None:
            self._draw_hand(image, *self.hand)
        return image, tuple(t.bbox for t in rendered.dice)

    def _draw_art(
        self, art: DieArt
    ) -> tuple[np.ndarray, tuple[tuple[float, float, float, float], ...]]:
        """The frame with the dice drawn by ``art``, far dice first."""
        image = renderer.render(
            dataclasses.replace(self._scene, dice=()), np.random.default_rng(self.seed)
        ).image
        boxes: list[tuple[float, float, float, float]] = [(0.0, 0.0, 0.0, 0.0)] * len(self.poses)
        for i in sorted(range(len(self.poses)), key=lambda i: self.poses[i].die.y_mm):
            boxes[i] = tuple(float(v) for v in art.draw(image, self._pose_of(self.poses[i])))
        for thing in self.things:
            self._draw_thing(image, thing)
        if self.hand is not None:
            self._draw_hand(image, *self.hand)
        return image, tuple(boxes)

    def _pose_of(self, pose: _Pose) -> DiePose:
        """Where the camera sees a die (before the lens's distortion)."""
        d, half = pose.die, self.geometry.die_mm / 2
        sx, sy = self._to_world(d.x_mm, d.y_mm)
        yaw = math.radians(d.yaw_deg)
        light = self._scene.light
        az, el = math.radians(light.azimuth_deg), math.radians(light.elevation_deg)
        lx, ly, lz = math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), math.sin(el)
        reach = 2 * half * 0.6 / max(lz, 0.3)  # as far as the renderer's shadows fall
        centre, edge, shadow = self.camera.project(
            [
                [sx, sy, half],
                [sx + half * math.cos(yaw), sy + half * math.sin(yaw), 2 * half],
                [sx - lx * reach, sy - ly * reach, 0.0],
            ]
        )
        top = self.camera.project([[sx, sy, 2 * half]])[0]
        dx, dy = edge - top
        return DiePose(
            d,
            (float(centre[0]), float(centre[1])),
            2 * float(np.hypot(dx, dy)),
            math.degrees(math.atan2(-dy, dx)),
            pose.moving,
            (float(shadow[0] - centre[0]), float(shadow[1] - centre[1])),
        )

    # -- scripting -------------------------------------------------------------------------

    def throw(
        self,
        values: Sequence[int] | None = None,
        *,
        n: int | None = None,
        colours: Sequence[str] | None = None,
        onto: dict[int, Landing] | None = None,
        off_mat: Sequence[int] = (),
        cocked: Sequence[int] = (),
        at: dict[int, tuple[float, float]] | None = None,
    ) -> None:
        """Throw dice into the rolling area (after the dice already there are picked up).

        ``values`` fixes the faces (else random); ``onto`` lands die i touching a board
        image; ``off_mat`` lands those dice off the mat; ``cocked`` leaves them leaning;
        ``at`` lands die i at those mat mm (anywhere on the mat: the paper round the zones
        too).
        """
        n = len(values) if values is not None else (n or self.n_dice)
        vals = list(values) if values is not None else [int(v) for v in self.rng.integers(1, 7, n)]
        self._script.append(
            self._throw(vals, colours, onto or {}, set(off_mat), set(cocked), at or {})
        )

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

    def put(
        self,
        kind: str,
        frames: int = 30,
        *,
        die: int | None = None,
        at: tuple[float, float] | None = None,
    ) -> None:
        """Something that is not a die comes onto the mat, lies still for ``frames`` frames
        and goes: a ``finger`` resting its tip on rolled die number ``die``, or a ``cup``,
        ``phone``, ``sleeve`` or a hand's ``shadow`` beside or over it (or at mat mm
        ``at``). Nothing else on the table changes."""
        if kind not in THINGS:
            raise ValueError(f"unknown thing {kind!r}; one of {', '.join(THINGS)}")
        self._script.append(self._put(kind, frames, die, at))

    def nudge(self, die: int, by_mm: tuple[float, float] = (0.0, -25.0)) -> None:
        """A finger pushes rolled die number ``die`` along the mat by ``by_mm`` and goes."""
        self._script.append(self._nudge(die, by_mm))

    def fidget(self, frames: int = 40) -> None:
        """Somebody's hand moves a glass about on the table beyond the mat's far edge (the
        dice do not change)."""
        self._script.append(self._fidget(frames))

    # -- the animations ----------------------------------------------------------------------

    def _throw(
        self,
        values: list[int],
        colours: Sequence[str] | None,
        onto: dict[int, Landing],
        off_mat: set[int],
        cocked: set[int],
        at: dict[int, tuple[float, float]],
    ) -> Iterator[None]:
        self.poses = [p for p in self.poses if p.die.zone is Zone.KEEP]
        if colours is None:  # the dice not lying in the keep strip
            free = list(self.colours)
            for p in self.poses:
                if p.die.color in free:
                    free.remove(p.die.color)
            colours = (free + list(self.colours))[: len(values)]
        self.throws += 1
        g, rng = self.geometry, self.rng
        targets = self._targets(len(values), onto, off_mat, cocked)
        for i, (x, y) in at.items():
            on_mat = 0 <= x <= g.width_mm and 0 <= y <= g.height_mm
            zone = (
                Zone.KEEP if g.keep_strip.contains(x, y) else Zone.ROLLING if on_mat else Zone.OFF
            )
            targets[i] = (x, y, zone, ())
        frames = int(rng.integers(*self.tumble_frames))
        starts = [
            (
                g.rolling_area.x + g.rolling_area.w * rng.uniform(0.3, 0.7),
                g.rolling_area.y + g.rolling_area.h + 40.0,
            )
            for _ in values
        ]
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
                    p.die,
                    value=value,
                    x_mm=x,
                    y_mm=y,
                    yaw_deg=yaw,
                    zone=targets[i][2],
                    touching=targets[i][3],
                    cocked=last and i in cocked,
                )
                p.moving = not last
            yield
        yield from self._rest(self.rest_frames)

    def _targets(
        self, n: int, onto: dict[int, Landing], off_mat: set[int], cocked: set[int]
    ) -> list[tuple[float, float, Zone, tuple[Landing, ...]]]:
        """Resting places: apart from each other, clear of board images unless asked."""
        g, rng, die = self.geometry, self.rng, self.geometry.die_mm
        area = g.rolling_area
        boards = {b.landing: b for b in g.board_images}
        taken: list[tuple[float, float]] = [
            (p.die.x_mm, p.die.y_mm) for p in self.poses if p.die.zone is Zone.KEEP
        ]
        out = []
        for i in range(n):
            for _ in range(500):
                if i in onto:  # overlap the image's edge by a third of a die
                    b = boards[onto[i]]
                    angle = rng.uniform(0, 2 * math.pi)
                    reach = b.size_mm / 2 + die * 0.2
                    x = b.center[0] + reach * math.cos(angle)
                    y = b.center[1] + reach * math.sin(angle)
                    zone, touching = Zone.ROLLING, (b.landing,)
                elif i in off_mat:
                    x = rng.choice([-die * 1.5, g.width_mm + die * 1.5])
                    y = rng.uniform(area.y + die, area.y + area.h - die)
                    zone, touching = Zone.OFF, ()
                else:
                    x = rng.uniform(area.x + die, area.x + area.w - die)
                    y = rng.uniform(area.y + die, area.y + area.h - die)
                    zone, touching = Zone.ROLLING, ()
                    if any(
                        b.rect.contains(x, y) or _near_rect(b.rect, x, y, die * 1.1)
                        for b in g.board_images
                    ):
                        continue
                if i in cocked and out:  # leaning against the die thrown before it
                    px, py = out[-1][:2]
                    angle = rng.uniform(0, 2 * math.pi)
                    x, y = px + die * 1.15 * math.cos(angle), py + die * 1.15 * math.sin(angle)
                    if area.contains(x, y) and all(
                        math.hypot(x - tx, y - ty) > die * 2.0 for tx, ty in taken[:-1]
                    ):
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
        in_strip = sum(p.die.zone is Zone.KEEP for p in self.poses)
        # six dice in the strip, from 1.5 die sides in to 1.5 from its far end
        pitch = min(KEEP_PITCH, (strip.w / g.die_mm - 3) / 5)  # in die sides
        chosen: list[_Pose] = []
        pool = [p for p in self.poses if p.die.zone is Zone.ROLLING]
        for v in values:
            match = next((p for p in pool if p.die.value == v and p not in chosen), None)
            if match is not None:
                chosen.append(match)
        for j, p in enumerate(chosen):
            slot = in_strip + j
            yaw = float(self.rng.uniform(-30, 30))  # nobody lines them up exactly
            tx = strip.x + g.die_mm * (1.5 + pitch * slot)
            ty = strip.y + strip.h / 2
            x0, y0 = p.die.x_mm, p.die.y_mm
            steps = 6
            for k in range(1, steps + 1):  # the hand reaches the die
                self.hand = (x0, y0 + (1 - k / steps) * 120)
                yield
            for k in range(1, steps + 1):  # and slides it to the strip
                f = k / steps
                p.die = dataclasses.replace(
                    p.die,
                    x_mm=x0 + (tx - x0) * f,
                    y_mm=y0 + (ty - y0) * f,
                    zone=Zone.KEEP,
                    touching=(),
                    yaw_deg=p.die.yaw_deg + (yaw - p.die.yaw_deg) * f,
                )
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
        rolled = [p for p in self.poses if p.die.zone is Zone.ROLLING]
        if rolled:
            p = rolled[0]
            for k in range(frames):
                p.die = dataclasses.replace(p.die, yaw_deg=p.die.yaw_deg + 25.0)
                p.moving = k < frames - 1
                yield
        yield from self._rest(self.rest_frames)

    def _spot(self, die: int | None, at: tuple[float, float] | None) -> tuple[float, float]:
        if at is not None:
            return at
        rolled = [p.die for p in self.poses if p.die.zone is Zone.ROLLING]
        if die is not None and 0 <= die < len(rolled):
            return rolled[die].x_mm, rolled[die].y_mm
        area = self.geometry.rolling_area
        return area.x + area.w * 0.5, area.y + area.h * 0.5

    def _put(
        self, kind: str, frames: int, die: int | None, at: tuple[float, float] | None
    ) -> Iterator[None]:
        x, y = self._spot(die, at)
        if kind != "finger" and at is None and die is not None:
            x += self.geometry.die_mm * 2.2  # beside the die, touching its shadow
        angle = float(self.rng.uniform(-25, 25))
        steps = 5
        for k in range(1, steps + 1):  # coming in from the near edge
            self.things = [_Thing(kind, x, y + (1 - k / steps) * 140, angle)]
            yield
        for _ in range(frames):
            yield
        for k in range(1, steps + 1):
            self.things = [_Thing(kind, x, y + k / steps * 140, angle)]
            yield
        self.things = []
        yield from self._rest(self.rest_frames)

    def _nudge(self, die: int, by_mm: tuple[float, float]) -> Iterator[None]:
        rolled = [p for p in self.poses if p.die.zone is Zone.ROLLING]
        if not 0 <= die < len(rolled):
            return
        p = rolled[die]
        x0, y0 = p.die.x_mm, p.die.y_mm
        finger = self.geometry.die_mm * 0.6
        steps = 5
        for k in range(1, steps + 1):
            self.things = [_Thing("finger", x0, y0 + finger + (1 - k / steps) * 120)]
            yield
        for k in range(1, steps + 1):
            f = k / steps
            p.die = dataclasses.replace(p.die, x_mm=x0 + by_mm[0] * f, y_mm=y0 + by_mm[1] * f)
            p.moving = k < steps
            self.things = [_Thing("finger", p.die.x_mm, p.die.y_mm + finger)]
            yield
        for k in range(1, steps + 1):
            self.things = [_Thing("finger", p.die.x_mm, p.die.y_mm + finger + k / steps * 120)]
            yield
        self.things = []
        yield from self._rest(self.rest_frames)

    def _fidget(self, frames: int) -> Iterator[None]:
        g = self.geometry
        for k in range(frames):
            swing = math.sin(k / 4)
            self.things = [
                _Thing(
                    "edge",
                    g.width_mm * 0.6 + 60 * math.cos(k / 5),
                    -75 + 8 * swing,
                    180 + 20 * swing,
                )
            ]
            yield
        self.things = []
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
        rolled = [p.die.value for p in self.poses if p.die.zone is Zone.ROLLING]
        kept = sum(p.die.zone is Zone.KEEP for p in self.poses)
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
        """Where mat points lie in the frame's image, before the lens's distortion."""
        return self._project(pts_mm) / self.detail

    def _project(self, pts_mm: np.ndarray) -> np.ndarray:
        """Where mat points are drawn in the render, before the lens's distortion."""
        pts = np.asarray(pts_mm, float).reshape(-1, 2)
        world = np.c_[
            pts[:, 0] - self.geometry.width_mm / 2,
            self.geometry.height_mm / 2 - pts[:, 1],
            np.zeros(len(pts)),
        ]
        return self.camera.project(world)

    def _mm_px(self) -> float:
        a, b = self._project([[0, 0], [10, 0]])
        return float(np.linalg.norm(b - a)) / 10

    def _poly(
        self, image: np.ndarray, pts_mm: Sequence, colour: Sequence[float], shade: float = 1.0
    ) -> None:
        pts = self._project(np.asarray(pts_mm, float)).astype(np.int32)
        if shade != 1.0:
            mask = np.zeros(image.shape[:2], np.uint8)
            cv2.fillPoly(mask, [pts], 255, cv2.LINE_AA)
            soft = cv2.GaussianBlur(mask, (0, 0), max(1.0, image.shape[1] / 200)) / 255.0
            image[:] = (image * (1 - (1 - shade) * soft[..., None])).astype(np.uint8)
            return
        cv2.fillPoly(image, [pts], colour, cv2.LINE_AA)

    def _draw_thing(self, image: np.ndarray, t: _Thing) -> None:
        """Draw something that is not a die (see :meth:`put`) onto the frame, in place."""
        th = math.radians(t.angle)
        c, s = math.cos(th), math.sin(th)

        def rect(w: float, h: float, dy: float = 0.0) -> list[tuple[float, float]]:
            """A w x h mm rectangle turned by the thing's angle; its top edge ``dy`` mm
            from the thing's point (so a finger's tip lies on the point)."""
            out = []
            for u, v in ((-w / 2, dy), (w / 2, dy), (w / 2, dy + h), (-w / 2, dy + h)):
                out.append((t.x_mm + u * c - v * s, t.y_mm + u * s + v * c))
            return out

        def circle(r: float) -> list[tuple[float, float]]:
            return [
                (t.x_mm + r * math.cos(a), t.y_mm + r * math.sin(a))
                for a in np.linspace(0, 2 * math.pi, 40, endpoint=False)
            ]

        if t.kind == "finger":  # a fingertip and the finger behind it, from the near side
            self._poly(image, rect(15, 50, dy=-6), SKIN)
            self._poly(image, [(x, y - 1) for x, y in circle(7.5)], SKIN)
            cv2.circle(
                image,
                tuple(self._project([[t.x_mm, t.y_mm - 2]])[0].astype(int)),
                max(1, int(3 * self._mm_px())),
                (150, 185, 230),
                -1,
                cv2.LINE_AA,
            )
        elif t.kind == "cup":
            self._poly(image, circle(42), (235, 235, 240))
            self._poly(
                image,
                [
                    (t.x_mm + (x - t.x_mm) * 0.85, t.y_mm + (y - t.y_mm) * 0.85)
                    for x, y in circle(42)
                ],
                (30, 60, 110),
            )  # coffee
        elif t.kind == "phone":
            self._poly(image, rect(72, 150, dy=-75), (25, 25, 28))
            self._poly(image, rect(64, 130, dy=-65), (70, 45, 30))
        elif t.kind == "sleeve":
            self._poly(image, rect(95, 260, dy=0), (80, 60, 55))
        elif t.kind == "shadow":
            self._poly(image, rect(110, 160, dy=-40), None, shade=0.5)
        elif t.kind == "edge":  # a hand round a glass, beside the mat
            self._poly(image, circle(30), SKIN)
            self._poly(image, rect(80, 200, dy=20), (90, 90, 150))

    def _clutter(self, background: np.ndarray, n: int, rng: np.random.Generator) -> None:
        """Things left on the table round the mat (drawn into the float background)."""
        g, cam = self.geometry, self.camera
        h, w = background.shape[:2]
        placed = 0
        for _ in range(200):
            if placed >= n:
                break
            u, v = rng.uniform(0, w), rng.uniform(0, h)
            x, y = cam.pixel_to_mat(u, v)
            mx, my = x + g.width_mm / 2, g.height_mm / 2 - y
            if -40 < mx < g.width_mm + 40 and -40 < my < g.height_mm + 40:
                continue  # not on the mat or just beside it
            colour = rng.uniform(20, 240, 3).tolist()
            r = int(rng.uniform(0.03, 0.07) * w)
            kind = placed % 3
            if kind == 0:
                cv2.circle(background, (int(u), int(v)), r, colour, -1, cv2.LINE_AA)
                cv2.circle(
                    background,
                    (int(u), int(v)),
                    int(r * 0.8),
                    [c * 0.5 for c in colour],
                    -1,
                    cv2.LINE_AA,
                )
            else:
                box = cv2.boxPoints(
                    ((u, v), (r * 1.2, r * (2.4 if kind == 1 else 1.6)), float(rng.uniform(0, 180)))
                )
                cv2.fillPoly(background, [box.astype(np.int32)], colour, cv2.LINE_AA)
            placed += 1

    def _draw_hand(self, image: np.ndarray, x_mm: float, y_mm: float) -> None:
        """A hand and forearm reaching in from the near edge to (x_mm, y_mm)."""
        g = self.geometry
        palm = self._project([[x_mm, y_mm + 25]])[0]
        wrist = self._project([[x_mm + 10, g.height_mm + 200]])[0]
        scale = (
            float(
                np.linalg.norm(
                    self._project([[0, 0], [10, 0]])[1] - self._project([[0, 0], [10, 0]])[0]
                )
            )
            / 10
        )
        width = int(45 * scale)
        cv2.line(image, tuple(map(int, wrist)), tuple(map(int, palm)), SKIN, width, cv2.LINE_AA)
        cv2.ellipse(
            image,
            tuple(map(int, palm)),
            (int(48 * scale), int(55 * scale)),
            0,
            0,
            360,
            SKIN,
            -1,
            cv2.LINE_AA,
        )
        for k in range(4):  # fingers over the die
            base = self._project([[x_mm - 18 + 12 * k, y_mm + 5]])[0]
            tip = self._project([[x_mm - 20 + 13 * k, y_mm - 25]])[0]
            cv2.line(
                image,
                tuple(map(int, base)),
                tuple(map(int, tip)),
                SKIN,
                int(10 * scale),
                cv2.LINE_AA,
            )


def open_demo_table(spec: str = "demo", *, seed: int = 0, **options: Any) -> DemoTable:
    """The demo table a ``demo[:LOOK][:MAT]`` source spec names (`options`: the rest of
    DemoTable's keyword arguments), as the sources' registry opens it (zonkcam.sources)."""
    look, mat = demo_of(spec)
    return DemoTable(seed=seed, look=look, geometry=mat, **options)


def _near_rect(rect: Sequence[float], x: float, y: float, margin: float) -> bool:
    return (
        rect.x - margin <= x <= rect.x + rect.w + margin
        and rect.y - margin <= y <= rect.y + rect.h + margin
    )
