"""From camera frames to table observations: rolling, settled rolls, hands, camera trouble.

:class:`TableWatcher` takes frames one at a time. Motion means a roll (or a hand) is under
way; once the mat has been still for ``still_frames`` frames the frame is read, and the
read counts only when ``agree_reads`` consecutive reads agree (as casino dice readers
require). Each settled state is reported once, classified against the last one as a
``roll`` (dice thrown), a ``keep`` (dice moved to the keep strip) or ``clear``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from zonkcam.calibration.calibrate import (
    MOVED_PX,
    REFERENCE_PX_PER_MM,
    Calibration,
    camera_shift,
)
from zonkcam.table.camera import CameraProblem, Frame
from zonkcam.table.zones import SeenDie, TableDie, foreground, place

Reader = Callable[[np.ndarray], Sequence[SeenDie]]
"""Anything that reads dice from a BGR image (the ONNX reader, or a fake in tests)."""


@dataclass(frozen=True)
class WatchConfig:
    still_frames: int = 3
    """Frames without motion before the table is read."""
    agree_reads: int = 2
    """Consecutive reads that must agree before a settled roll is reported."""
    motion_width: int = 320
    """Frames are compared at this width."""
    motion_level: int = 16
    """Grey-level change that counts as motion."""
    motion_die_share: float = 0.15
    """Moving pixels, as a share of one die's area, that mean something moved."""
    hand_dice: float = 7.0
    """Something on the mat bigger than this many dice is a hand (or an arm, or a cup)."""
    moved_check_frames: int = 90
    """How often (in still frames) to check that the camera has not moved."""


@dataclass(frozen=True)
class Observation:
    event: str
    """rolling, spinning, hand, settled, camera-problem, camera-moved, camera-ok."""
    frame: int
    t: float
    dice: tuple[TableDie, ...] = ()
    """settled: every die read (in all zones)."""
    change: str = ""
    """settled: roll, keep or clear (against the last settled state)."""
    message: str = ""
    frames_since_motion: int = 0
    """settled: frames from the last moving frame to this report (the latency)."""

    @property
    def rolled(self) -> tuple[TableDie, ...]:
        return tuple(d for d in self.dice if d.zone == "rolling")

    @property
    def kept(self) -> tuple[TableDie, ...]:
        return tuple(d for d in self.dice if d.zone == "keep")

    @property
    def off_mat(self) -> tuple[TableDie, ...]:
        return tuple(d for d in self.dice if d.zone == "off")

    def to_json(self) -> dict:
        out: dict = {"event": self.event, "frame": self.frame, "t": round(self.t, 3)}
        if self.event == "settled":
            out.update(change=self.change,
                       values=sorted(d.value for d in self.rolled if not d.cocked),
                       rolling=[d.to_json() for d in self.rolled],
                       keep=[d.to_json() for d in self.kept],
                       off_mat=[d.to_json() for d in self.off_mat],
                       cocked=sum(d.cocked for d in self.dice),
                       latency_frames=self.frames_since_motion)
        if self.message:
            out["message"] = self.message
        return out


@dataclass
class TableWatcher:
    calibration: Calibration
    reader: Reader
    config: WatchConfig = field(default_factory=WatchConfig)

    def __post_init__(self) -> None:
        cal, cfg = self.calibration, self.config
        self._scale = cfg.motion_width / cal.image_size[0]
        die_px = cal.px_per_mm * cal.geometry.die_mm * self._scale
        self._min_moving = max(4, int(cfg.motion_die_share * die_px * die_px))
        self._die_px = die_px
        self._prev: np.ndarray | None = None
        self._moving_kind = ""
        self._still = 0
        self._last_motion_frame = -1
        self._need_read = True
        self._candidate: list[TableDie] | None = None
        self._agree = 0
        self._settled: list[TableDie] = []
        self._hand = False
        self._moved = False

    def watch(self, frames: Iterable[Frame | CameraProblem]) -> Iterator[Observation]:
        last_t, last_i = 0.0, 0
        for item in frames:
            if isinstance(item, CameraProblem):
                yield Observation("camera-problem", last_i, last_t, message=item.message)
                self._prev = None  # the next good frame starts afresh
                continue
            last_t, last_i = item.t, item.index
            yield from self.process(item)

    def process(self, frame: Frame) -> list[Observation]:
        cfg = self.config
        image = frame.image
        if image.shape[1] != self.calibration.image_size[0] or \
                image.shape[0] != self.calibration.image_size[1]:
            return [self._obs("camera-problem", frame,
                              message=f"frames are {image.shape[1]}x{image.shape[0]} but the "
                              f"calibration is for {self.calibration.image_size[0]}x"
                              f"{self.calibration.image_size[1]}: recalibrate")]
        small = cv2.resize(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), None, fx=self._scale,
                           fy=self._scale, interpolation=cv2.INTER_AREA)
        small = cv2.GaussianBlur(small, (3, 3), 0)
        prev, self._prev = self._prev, small
        if prev is None:
            return []
        moving = cv2.absdiff(small, prev) > cfg.motion_level
        changed = int(np.count_nonzero(moving))
        out: list[Observation] = []
        if changed >= self._min_moving:
            kind = self._motion_kind(moving)
            if kind != self._moving_kind:
                out.append(self._obs(kind, frame))
            self._moving_kind, self._still = kind, 0
            self._last_motion_frame = frame.index
            self._need_read, self._candidate, self._agree, self._hand = True, None, 0, False
            return out
        self._moving_kind = ""
        self._still += 1
        if self._still % cfg.moved_check_frames == 0:
            out += self._check_camera(frame)
        if self._need_read and self._still >= cfg.still_frames:
            out += self._read(frame)
        return out

    def _motion_kind(self, moving: np.ndarray) -> str:
        ys, xs = np.nonzero(moving)
        extent = max(xs.max() - xs.min(), ys.max() - ys.min())
        return "spinning" if extent <= 2.5 * self._die_px else "rolling"

    def _read(self, frame: Frame) -> list[Observation]:
        cal, cfg = self.calibration, self.config
        mask = None
        if cal.reference is not None:
            mask = foreground(cal.top_down(frame.image, REFERENCE_PX_PER_MM), cal.reference)
            if self._largest_blob_dice(mask) > cfg.hand_dice:
                if self._hand:
                    return []
                self._hand = True
                return [self._obs("hand", frame, message="a hand (or something big) is on "
                                  "the mat: waiting for it to go")]
        self._hand = False
        dice = place(self.reader(frame.image), cal, mask=mask)
        fill = None if mask is None else self._strip_fill(mask)
        if self._candidate is not None and _agree(self._candidate, dice, cal.geometry.die_mm):
            self._agree += 1
        else:
            self._candidate, self._agree = dice, 1
        if self._agree < cfg.agree_reads:
            return []
        self._need_read = False
        if _agree(self._settled, dice, cal.geometry.die_mm) and self._settled_once:
            return []
        change = _classify(self._settled, dice, cal.geometry.die_mm,
                           strip_grew=fill is not None and self._settled_fill is not None
                           and fill - self._settled_fill >= STRIP_GREW_DICE)
        self._settled, self._settled_once, self._settled_fill = dice, True, fill
        latency = frame.index - self._last_motion_frame if self._last_motion_frame >= 0 else 0
        return [Observation("settled", frame.index, frame.t, tuple(dice), change,
                            frames_since_motion=latency)]

    _settled_once = False
    _settled_fill: float | None = None

    def _strip_fill(self, mask: np.ndarray) -> float:
        """What lies in the keep strip by the reference mask, in dice (its area over a
        die's): the strip's dice whether the reader reads them or not."""
        r = self.calibration.geometry.keep_strip
        k = REFERENCE_PX_PER_MM
        strip = mask[max(0, int(r.y * k)):int((r.y + r.h) * k),
                     max(0, int(r.x * k)):int((r.x + r.w) * k)]
        die_area = (self.calibration.geometry.die_mm * k) ** 2
        return float(np.count_nonzero(strip)) / die_area

    def _largest_blob_dice(self, mask: np.ndarray) -> float:
        n, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        if n <= 1:
            return 0.0
        die_area = (self.calibration.geometry.die_mm * REFERENCE_PX_PER_MM) ** 2
        return float(stats[1:, cv2.CC_STAT_AREA].max()) / die_area

    def _check_camera(self, frame: Frame) -> list[Observation]:
        shift = camera_shift(frame.image, self.calibration)
        if shift is None:
            return []
        if shift > MOVED_PX and not self._moved:
            self._moved = True
            return [self._obs("camera-moved", frame, message=f"the mat's markers moved "
                              f"{shift:.0f} px since calibration: put the camera back or run "
                              "zonkcam calibrate")]
        if shift <= MOVED_PX and self._moved:
            self._moved = False
            return [self._obs("camera-ok", frame, message="the markers are back in place")]
        return []

    def _obs(self, event: str, frame: Frame, **kw) -> Observation:
        return Observation(event, frame.index, frame.t, **kw)


def _agree(a: Sequence[TableDie], b: Sequence[TableDie], die_mm: float) -> bool:
    """Same dice (value, zone, cocked) in about the same places."""
    if len(a) != len(b):
        return False
    left = list(b)
    for d in a:
        match = next((e for e in left if e.value == d.value and e.zone == d.zone
                      and e.cocked == d.cocked and _near(d, e, die_mm / 2)), None)
        if match is None:
            return False
        left.remove(match)
    return True


def _near(a: TableDie, b: TableDie, tol: float) -> bool:
    return math.dist(a.center_mm, b.center_mm) <= tol


STRIP_GREW_DICE = 0.5
"""The keep strip's foreground grew by at least this many dice' areas: something joined
it, read or not."""


def _classify(before: Sequence[TableDie], after: Sequence[TableDie], die_mm: float,
              strip_grew: bool = False) -> str:
    """``keep`` when the dice left in the rolling area lay where they lay and dice joined
    the keep strip: it holds more dice than before, or (fewer dice rolling) a die lies
    in it where none lay or the strip's foreground grew (``strip_grew``), so that a die
    in the strip left unread (a white 1 at the far end of the strip) does not turn a
    keep into a throw. Else ``roll``, or ``clear`` for an empty mat."""
    if not after:
        return "clear"
    rolled_before = [d for d in before if d.zone == "rolling"]
    rolled_after = [d for d in after if d.zone == "rolling"]
    kept_before = [d for d in before if d.zone == "keep"]
    kept_after = [d for d in after if d.zone == "keep"]
    stayed = all(any(e.value == d.value and _near(d, e, die_mm / 2) for e in rolled_before)
                 for d in rolled_after)
    if not stayed:
        return "roll"
    if len(kept_after) > len(kept_before):
        return "keep"
    joined = any(not any(_near(d, e, die_mm / 2) for e in kept_before) for d in kept_after)
    if (joined or strip_grew) and len(rolled_after) < len(rolled_before):
        return "keep"
    return "roll"
