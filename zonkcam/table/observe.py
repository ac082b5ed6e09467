"""From camera frames to table reports: throws, keeps, things in the way, camera trouble.

:class:`TableWatcher` takes frames one at a time. Motion on the table (the mat and a
margin round it; see :mod:`zonkcam.table.changes`) means a throw or a hand is under way.
Once the table has been still for ``still_frames`` frames it is looked at:

1. What changed since the table last settled (at a small size, and at a finer one where
   pips show)? Nothing (a finger came and went, a shadow passed): nothing to report.
   Otherwise only the changed parts of the frame are read, at the size calibration says
   a die has.
2. Reads of the still table are voted die by die (:class:`~zonkcam.table.tracking.Ballot`)
   until every die is plainly there or not, with one value: a die missed in one read is
   read again where it lay (:meth:`ReadsAt.read_at`), a value the reads disagree on comes
   out unsure.
3. Anything on the mat that is not a die (a fingertip, a sleeve, a phone, a cup, a hand's
   shadow) means "wait": nothing is reported until it has gone, and then the table is
   compared with how it was before it came.
4. The voted dice are set against the last settled state
   (:func:`~zonkcam.table.tracking.compare`): a die whose place did not change, and where
   something die-like is still seen (:func:`~zonkcam.table.zones.seen_there`: a die the
   colour of the mat under it shows its pips), is the same die, read or not; the change
   is a ``roll``, a ``keep``, a ``moved`` die (a question), a ``pickup`` or a ``clear``,
   reported once.
5. Something die-like that came and that no read found is read where it lies, at the
   die's calibrated size; what that cannot read either is reported at once as an
   ``unread`` die (its value asked for, never guessed), so a throw is never held back.
   While the table stays still it is looked at again a few times, and a look that reads
   it reports a ``read`` change: the same throw, its dice complete.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Protocol, runtime_checkable

import cv2
import numpy as np

from zonkcam.game.dice import Die
from zonkcam.mat.calibrate import MOVED_PX, REFERENCE_PX_PER_MM, Calibration, camera_shift
from zonkcam.sources import CameraProblem, Frame
from zonkcam.table.changes import ChangeMap, Region, TableView
from zonkcam.table.tracking import Ballot, Change, compare
from zonkcam.table.zones import (
    Leftovers,
    MarkSight,
    TableDie,
    Zone,
    foreground,
    leftovers,
    place,
    printed,
    seen_there,
)
from zonkcam.vision.die import Reading
from zonkcam.vision.geometry import LATE_READ, SAME_PIECE, SAME_SPOT, die_at_box

Reader = Callable[[np.ndarray, Region | None], Sequence[Reading]]
"""Reads dice from a BGR frame, only within ``region`` when one is given (the ONNX reader,
or a fake in tests); boxes in frame px."""


@runtime_checkable
class ReadsAt(Protocol):
    """A reader that can also read a die where one is known to lie (the ONNX reader)."""

    def read_at(
        self, image: np.ndarray, boxes: Sequence[tuple[float, float, float, float]]
    ) -> list[Reading | None]:
        """The die in each box (frame px), or None where the crop shows no readable die."""
        ...


@runtime_checkable
class ReadsDetail(Protocol):
    """A reader that reads a frame's detail image (Frame.detail, the same view at a higher
    resolution) where the frame has one: it is called ``reader(image, region,
    detail=...)``, and ``reader.read_at(image, boxes, detail=...)``; regions and boxes in
    ``image`` px (the ONNX reader)."""

    reads_detail: bool


class TableEvent(StrEnum):
    ROLLING = "rolling"
    """Something moves on the table (dice thrown, a hand)."""
    SPINNING = "spinning"
    """Motion confined to about one die: a die still spinning."""
    BLOCKED = "blocked"
    """The table is still but something that is not a die lies on the mat: waiting."""
    SETTLED = "settled"
    CAMERA_PROBLEM = "camera-problem"
    CAMERA_MOVED = "camera-moved"
    CAMERA_OK = "camera-ok"


SPINNING_DICE = 2.5
"""Motion that spans no more than this many dice is a die still spinning, not a throw or
a hand."""
UNCHANGED_DICE = 0.3
"""A still table that changed over less than this many dice' areas since it last settled
lies as it lay (a finger, a shadow came and went): nothing to read."""


@dataclass(frozen=True)
class WatchConfig:
    still_frames: int = 1
    """Frames without motion before the table is looked at (a look that motion
    interrupts starts again)."""
    min_reads: int = 2
    """Reads of a still table before its dice are voted."""
    max_reads: int = 5
    """The most reads voted when they disagree (a die seen in some, a value unclear)."""
    motion_width: int = 320
    """Frames are compared at this width."""
    motion_level: int = 18
    """Colour change (of 255) that counts as motion from one frame to the next."""
    change_level: int = 24
    """Colour change that counts as a change since the table last settled."""
    fine_width: int = 640
    """The still table is also compared with its last settled look at this width, where
    pips show: a die the colour of the mat under it is seen coming and going by them."""
    fine_level: int = 40
    """Colour change that counts at ``fine_width`` (spots smaller than a pip left out)."""
    motion_die_share: float = 0.15
    """Moving pixels, as a share of one die's area, that mean something moved."""
    changed_share: float = 0.25
    """A die whose place changed over this share moved (or went)."""
    hand_dice: float = 7.0
    """Something on the mat bigger than this many dice is a hand: not worth reading."""
    recheck_frames: int = 30
    """While something is in the way, look again this often (frames)."""
    unread_looks: int = 3
    """Something die-like that came and that no read could read (a die still turning,
    blurred) is reported as an unread die at once and, while the table stays still, looked
    at again up to this many times ..."""
    unread_recheck_frames: int = 8
    """... this many frames apart."""
    refresh_frames: int = 60
    """A still table's look is taken again this often, for light that drifts slowly."""
    moved_check_frames: int = 90
    """How often (in still frames) to check that the camera has not moved."""


@dataclass(frozen=True)
class TableReport:
    """What the table watcher reports at a frame: its event (the table moving, settled,
    blocked, camera trouble) and, once settled, the dice on it and what changed. What the
    screen shows of the camera is :class:`~zonkcam.display.view.CameraView`."""

    event: TableEvent
    frame: int
    t: float
    dice: tuple[TableDie, ...] = ()
    """settled: every die on the table (in all zones)."""
    change: Change | None = None
    """settled: what happened since the last settled state."""
    keep: tuple[TableDie, ...] = ()
    """settled: the dice this change moved from the rolling area to the keep strip."""
    unread: int = 0
    """settled: dice in the rolling area that no read could read (``unread`` dice among
    ``dice``: where they lie, their values to be asked for)."""
    message: str = ""
    frames_since_motion: int = 0
    """settled: frames from the last moving frame to this report (the latency)."""
    reads: int = 0
    """settled: how many reads of the still table were voted."""

    @property
    def rolled(self) -> tuple[TableDie, ...]:
        return tuple(d for d in self.dice if d.zone == Zone.ROLLING)

    @property
    def in_strip(self) -> tuple[TableDie, ...]:
        return tuple(d for d in self.dice if d.zone == Zone.KEEP)

    @property
    def off_mat(self) -> tuple[TableDie, ...]:
        return tuple(d for d in self.dice if d.zone == Zone.OFF)

    def to_json(self) -> dict:
        out: dict = {"event": str(self.event), "frame": self.frame, "t": round(self.t, 3)}
        if self.event == TableEvent.SETTLED:
            out.update(
                change=str(self.change),
                values=sorted(d.value for d in self.rolled if d.known),
                rolling=[d.to_json() for d in self.rolled],
                keep=[d.to_json() for d in self.in_strip],
                kept=sorted(d.value for d in self.keep),
                off_mat=[d.to_json() for d in self.off_mat],
                cocked=sum(d.cocked for d in self.dice),
                unread=self.unread,
                reads=self.reads,
                latency_frames=self.frames_since_motion,
            )
        if self.message:
            out["message"] = self.message
        return out


@dataclass
class _Look:
    """One still spell of the table: what changed, and the reads so far."""

    changes: ChangeMap
    regions: list[Region]
    ballot: Ballot
    die_mm: float
    masks: tuple[np.ndarray | None, MarkSight | None] = (None, None)
    """What differs from the empty mat in the last read: zones.foreground and zones.marks."""

    def moved(self, die: TableDie, share: float, others: Sequence[TableDie] = ()) -> bool:
        """Whether ``die`` (as it lay when the table last settled) moved or went: its place
        changed, or no die is seen there any more (a die the colour of the mat under it
        changes the picture little when it goes). ``others``: the dice round it."""
        if self.changes.share(die.bbox) > share:
            return True
        if die.zone == Zone.OFF:
            return False
        around = [d.center_mm for d in others if d is not die]
        return not seen_there(*self.masks, die.center_mm, self.die_mm, around)


@dataclass
class TableWatcher:
    calibration: Calibration
    reader: Reader
    config: WatchConfig = field(default_factory=WatchConfig)

    def __post_init__(self) -> None:
        cal, cfg = self.calibration, self.config
        self.view = TableView(cal, cfg.motion_width)
        self.fine_view = TableView(cal, min(cfg.fine_width, cal.image_size[0]))
        self._print = printed(cal.reference) if cal.reference is not None else None
        die = self.view.die_px * self.view.scale
        self._min_moving = max(4, int(cfg.motion_die_share * die * die))
        self._die_mm = cal.geometry.die_mm
        self._prev: np.ndarray | None = None
        self._moving_kind: TableEvent | None = None
        self._still = 0
        self._last_motion_frame = -1
        self._need_look = True
        self._look: _Look | None = None
        self._recheck_at = 0
        self._blocked = False
        self._base: np.ndarray | None = None
        """The table (small frame) when it last settled."""
        self._fine_base: np.ndarray | None = None
        """The same at ``fine_width``."""
        self.state: tuple[TableDie, ...] = ()
        """The dice on the table when it last settled."""
        self._started = False
        """Whether the table has settled, or moved, since watching began: until then what
        lies there was already there (reported as START, nothing to play)."""
        self._picked_up: list[TableDie] = []
        self._moved = False
        self._late_at = 0
        """When (still frames) to look again at the unread dice of the last report (0: no
        look due)."""
        self._late_looks = 0

    def watch(self, frames: Iterable[Frame | CameraProblem]) -> Iterator[TableReport]:
        last_t, last_i = 0.0, 0
        for item in frames:
            if isinstance(item, CameraProblem):
                yield TableReport(TableEvent.CAMERA_PROBLEM, last_i, last_t, message=item.message)
                self._prev = None  # the next good frame starts afresh
                continue
            last_t, last_i = item.t, item.index
            yield from self.process(item)

    def process(self, frame: Frame) -> list[TableReport]:
        cfg, cal = self.config, self.calibration
        image = frame.image
        if image.shape[1] != cal.image_size[0] or image.shape[0] != cal.image_size[1]:
            return [
                self._obs(
                    TableEvent.CAMERA_PROBLEM,
                    frame,
                    message=f"frames are {image.shape[1]}x{image.shape[0]} but the "
                    f"calibration is for {cal.image_size[0]}x{cal.image_size[1]}: "
                    "recalibrate",
                )
            ]
        small = self.view.small(image)
        prev, self._prev = self._prev, small
        if prev is None:
            return []
        moving = self.view.difference(small, prev, cfg.motion_level)
        out: list[TableReport] = []
        if np.count_nonzero(moving) >= self._min_moving:
            kind = self._motion_kind(moving)
            if kind != self._moving_kind:
                out.append(self._obs(kind, frame))
            self._moving_kind, self._still = kind, 0
            self._last_motion_frame = frame.index
            self._started = True  # whatever settles next came after we began watching
            self._need_look, self._look, self._recheck_at = True, None, 0
            self._late_at = 0
            return out
        self._moving_kind = None
        self._still += 1
        if self._still % cfg.moved_check_frames == 0:
            out += self._check_camera(frame)
        if self._need_look and self._still >= max(cfg.still_frames, self._recheck_at):
            out += self._look_at(frame, small)
        elif not self._need_look and self._late_at and self._still >= self._late_at:
            out += self._look_again(frame)
        elif not self._need_look and self._still % cfg.refresh_frames == 0:
            # nothing moved: only the light can have drifted
            self._base, self._fine_base = small, self.fine_view.small(frame.image)
        return out

    def _motion_kind(self, moving: np.ndarray) -> TableEvent:
        ys, xs = np.nonzero(moving)
        extent = max(xs.max() - xs.min(), ys.max() - ys.min())
        die = self.view.die_px * self.view.scale
        return TableEvent.SPINNING if extent <= SPINNING_DICE * die else TableEvent.ROLLING

    def _look_at(self, frame: Frame, small: np.ndarray) -> list[TableReport]:
        cal, cfg = self.calibration, self.config
        fine = self.fine_view.small(frame.image)
        if self._look is None:
            changes = self.view.changes(
                self._base,
                small,
                cfg.change_level,
                None if self._fine_base is None else (self._fine_base, fine, self.fine_view),
                cfg.fine_level,
            )
            if self._base is not None and changes.dice < UNCHANGED_DICE:
                self._need_look = self._blocked = False  # the table is as it was
                return []
            self._look = _Look(
                changes,
                changes.regions(),
                Ballot(self._die_mm, min_reads=cfg.min_reads, max_reads=cfg.max_reads),
                self._die_mm,
            )
        look = self._look
        top = mask = marks_mask = None
        if cal.reference is not None:
            top = cal.top_down(frame.image, REFERENCE_PX_PER_MM)
            mask = foreground(top, cal.reference)
            marks_mask = MarkSight(top, cal.reference, self._print)
            if self._largest_blob_dice(mask) > cfg.hand_dice:
                return self._wait(
                    frame, "something big (a hand?) is on the mat: waiting for it to go"
                )
        look.masks = mask, marks_mask
        seen: list[Reading] = []
        for region in look.regions:
            seen += self._read(frame, region)
        read = place(seen, cal, mask=mask, marks_mask=marks_mask)
        lost = look.ballot.missing(read)  # seen in an earlier read, not in this one
        read += self._read_at(frame, [d.bbox for d in lost], mask, marks_mask)
        first = look.ballot.reads == 0
        look.ballot.add(read)
        if first and top is not None:  # something in the way? no need to read it again
            left = self._leftovers(top, read, look.changes)
            if left.in_the_way:
                return self._wait(frame, left.in_the_way)
        if not look.ballot.decided:
            return []
        voted = look.ballot.dice()
        left = self._leftovers(top, voted, look.changes) if top is not None else Leftovers()
        if left.in_the_way:
            return self._wait(frame, left.in_the_way)
        if left.unread:  # die-like, and no read found it: read it where it lies
            boxes = [self._die_box(x, y) for x, y, _ in left.unread]
            found = self._read_at(frame, boxes, mask, marks_mask)
            voted += found
            reach = self._die_mm * SAME_PIECE  # a piece that near a die read there is of it
            left = replace(left, unread=tuple(u for u in left.unread if not _near(u, found, reach)))
        unread = [self._unread_die(x, y) for x, y, zone in left.unread if zone == Zone.ROLLING]
        return self._settle(frame, small, fine, voted + unread, left, look)

    def _die_box(self, x_mm: float, y_mm: float) -> tuple[float, float, float, float]:
        """The frame box of a die lying flat at mat mm (x, y), at its calibrated size."""
        half = self._die_mm / 2
        return _box(self.calibration.mat_to_image(_square(x_mm, y_mm, half)))

    def _unread_die(self, x_mm: float, y_mm: float) -> TableDie:
        """A die seen at mat mm (x, y) that no read could read: its value unknown."""
        box = self._die_box(x_mm, y_mm)
        square = tuple(map(tuple, _square(x_mm, y_mm, self._die_mm / 2).tolist()))
        return TableDie(
            Reading(Die(1), 0.0, box), (x_mm, y_mm), Zone.ROLLING, footprint_mm=square, unread=True
        )

    def _detail(self, frame: Frame) -> dict[str, np.ndarray]:
        """The frame's detail image, for a reader that takes it (ReadsDetail)."""
        if frame.detail is None or not isinstance(self.reader, ReadsDetail):
            return {}
        return {"detail": frame.detail}

    def _read(self, frame: Frame, region: Region | None) -> Sequence[Reading]:
        """The dice the reader reads in ``region`` of the frame (from its detail image where
        the frame has one and the reader takes it)."""
        return self.reader(frame.image, region, **self._detail(frame))

    def _read_at(
        self,
        frame: Frame,
        boxes: Sequence[tuple[float, float, float, float]],
        mask: np.ndarray | None,
        marks_mask: MarkSight | None,
    ) -> list[TableDie]:
        """The dice read where they are known to lie (boxes in frame px), placed on the mat;
        nothing for a box whose crop shows no readable die (or a reader that cannot)."""
        if not boxes or not isinstance(self.reader, ReadsAt):
            return []
        got = self.reader.read_at(frame.image, boxes, **self._detail(frame))
        got = [r for r in got if r is not None]
        return place(got, self.calibration, mask=mask, marks_mask=marks_mask) if got else []

    def _look_again(self, frame: Frame) -> list[TableReport]:
        """Look again at the last report's unread dice, each in a die's margin round it; a
        die read there is filled in (a ``read`` report), nothing else changes."""
        cal, cfg = self.calibration, self.config
        unread = [d for d in self.state if d.unread]
        self._late_looks -= 1
        self._late_at = self._still + cfg.unread_recheck_frames if self._late_looks > 0 else 0
        if not unread:
            self._late_at = 0
            return []
        mask = marks_mask = None
        if cal.reference is not None:
            top = cal.top_down(frame.image, REFERENCE_PX_PER_MM)
            mask, marks_mask = foreground(top, cal.reference), MarkSight(top, cal.reference)
        pad = self.view.die_px
        rx0, ry0, rx1, ry1 = self.view.roi_box
        seen: list[Reading] = []
        for d in unread:
            x0, y0, x1, y1 = d.bbox
            region = (
                max(rx0, int(x0 - pad)),
                max(ry0, int(y0 - pad)),
                min(rx1, int(np.ceil(x1 + pad))),
                min(ry1, int(np.ceil(y1 + pad))),
            )
            seen += self._read(frame, region)
        read = [r for r in place(seen, cal, mask=mask, marks_mask=marks_mask) if r.known]
        reach = self._die_mm * LATE_READ
        still = [d for d in unread if not _near((*d.center_mm, d.zone), read, reach)]
        read += [
            r for r in self._read_at(frame, [d.bbox for d in still], mask, marks_mask) if r.known
        ]
        filled = {}
        for d in unread:
            match = _nearest(d, read, SAME_SPOT * self._die_mm)
            if match is not None:
                filled[id(d)] = replace(match, zone=d.zone)
        if not filled:
            return []
        self.state = tuple(filled.get(id(d), d) for d in self.state)
        if not any(d.unread for d in self.state):
            self._late_at = 0
        return [self._settled(frame, self.state, Change.READ, reads=1)]

    def confirm(self, bbox: tuple[float, float, float, float], value: int) -> bool:
        """The scorekeeper gave the value of the die at ``bbox`` (frame px; a die of the last
        report): it is taken as confirmed from now on (a keep of it is of that value).
        Returns whether such a die lies on the table."""
        k = die_at_box([d.bbox for d in self.state], bbox, SAME_SPOT * self.view.die_px)
        if k is None:
            return False
        state = list(self.state)
        state[k] = state[k].confirmed(value)
        self.state = tuple(state)
        return True

    def _leftovers(
        self, top: np.ndarray, read: Sequence[TableDie], changes: ChangeMap
    ) -> Leftovers:
        """What lies on the mat besides the dice: those read now, and those lying where the
        picture did not change (their reads are in the last settled state)."""
        share = self.config.changed_share
        kept = [d for d in self.state if changes.share(d.bbox) <= share]
        assert self.calibration.reference is not None
        left = leftovers(top, self.calibration.reference, kept + list(read), self.calibration)
        # only what came since the table last settled counts as new and unread
        half = self._die_mm / 2
        new = tuple(
            u
            for u in left.unread
            if changes.share(
                _box(
                    self.calibration.mat_to_image(
                        [[u[0] - half, u[1] - half], [u[0] + half, u[1] + half]]
                    )
                )
            )
            > share
        )
        return Leftovers(left.in_the_way, new)

    def _wait(self, frame: Frame, message: str) -> list[TableReport]:
        """Something is in the way: look again later (or after it moves)."""
        self._look = None
        self._recheck_at = self._still + self.config.recheck_frames
        if self._blocked:
            return []
        self._blocked = True
        return [self._obs(TableEvent.BLOCKED, frame, message=message)]

    def _settle(
        self,
        frame: Frame,
        small: np.ndarray,
        fine: np.ndarray,
        voted: list[TableDie],
        left: Leftovers,
        look: _Look,
    ) -> list[TableReport]:
        share = self.config.changed_share
        comparison = compare(
            self.state,
            voted,
            self._die_mm,
            changed_before=[look.moved(d, share, self.state) for d in self.state],
            changed_now=[look.moved(d, share, self.state) for d in voted],
            unread_in_strip=left.unread_in(Zone.KEEP),
            picked_up=self._picked_up,
        )
        unread_before = sum(d.unread for d in self.state)
        self._look, self._need_look, self._blocked = None, False, False
        self._base, self._fine_base, self.state = small, fine, comparison.dice
        if any(d.unread for d in self.state) and self.config.unread_looks > 0:
            self._late_looks = self.config.unread_looks
            self._late_at = self._still + self.config.unread_recheck_frames
        else:
            self._late_at = 0
        change = comparison.change
        if not self._started:
            self._started = True
            change = Change.START if comparison.dice else None
        elif change is None and sum(d.unread for d in self.state) < unread_before:
            change = Change.READ  # nothing moved, and a die unread before is read now
        if change is None:
            return []
        if change is Change.PICKUP:  # they may be set down in the keep strip next
            self._picked_up += [d for d in comparison.gone if d.zone != Zone.KEEP]
        elif change is not Change.READ:
            self._picked_up = []
        return [self._settled(frame, comparison.dice, change, comparison.keep, look.ballot.reads)]

    def _settled(
        self,
        frame: Frame,
        dice: tuple[TableDie, ...],
        change: Change,
        keep: tuple[TableDie, ...] = (),
        reads: int = 1,
    ) -> TableReport:
        """The report of the table settled at ``frame`` on ``dice``, ``change`` since it
        last did; its unread dice are those in the rolling area."""
        latency = frame.index - self._last_motion_frame if self._last_motion_frame >= 0 else 0
        return TableReport(
            TableEvent.SETTLED,
            frame.index,
            frame.t,
            dice,
            change,
            keep=keep,
            unread=sum(d.unread and d.zone == Zone.ROLLING for d in dice),
            frames_since_motion=latency,
            reads=reads,
        )

    def _largest_blob_dice(self, mask: np.ndarray) -> float:
        n, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        if n <= 1:
            return 0.0
        die_area = (self._die_mm * REFERENCE_PX_PER_MM) ** 2
        return float(stats[1:, cv2.CC_STAT_AREA].max()) / die_area

    def _check_camera(self, frame: Frame) -> list[TableReport]:
        shift = camera_shift(frame.image, self.calibration)
        if shift is None:
            return []
        if shift > MOVED_PX and not self._moved:
            self._moved = True
            return [
                self._obs(
                    TableEvent.CAMERA_MOVED,
                    frame,
                    message=f"the mat's markers moved "
                    f"{shift:.0f} px since calibration: put the camera back or run "
                    "zonkcam calibrate",
                )
            ]
        if shift <= MOVED_PX and self._moved:
            self._moved = False
            return [self._obs(TableEvent.CAMERA_OK, frame, message="the markers are back in place")]
        return []

    def _obs(self, event: TableEvent, frame: Frame, **kw) -> TableReport:
        return TableReport(event, frame.index, frame.t, **kw)


def _box(pts: np.ndarray) -> tuple[float, float, float, float]:
    return (
        float(pts[:, 0].min()),
        float(pts[:, 1].min()),
        float(pts[:, 0].max()),
        float(pts[:, 1].max()),
    )


def _square(x_mm: float, y_mm: float, half: float) -> np.ndarray:
    return np.array(
        [
            [x_mm - half, y_mm - half],
            [x_mm + half, y_mm - half],
            [x_mm + half, y_mm + half],
            [x_mm - half, y_mm + half],
        ]
    )


def _near(spot: tuple[float, float, Zone], dice: Sequence[TableDie], reach: float) -> bool:
    """Whether one of ``dice`` lies within ``reach`` mm of a leftover's ``spot``."""
    return any(math.dist(spot[:2], d.center_mm) <= reach for d in dice)


def _nearest(die: TableDie, dice: Sequence[TableDie], reach: float) -> TableDie | None:
    best = min(dice, key=lambda d: math.dist(d.center_mm, die.center_mm), default=None)
    if best is None or math.dist(best.center_mm, die.center_mm) > reach:
        return None
    return best
