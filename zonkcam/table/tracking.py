"""The dice on the table, kept die by die from one settled state to the next.

Two pure steps, no images:

* :class:`Ballot` gathers the reads of one still table and votes die by die (a die is
  matched across reads by where it lies on the mat): whether it is there at all, its
  value and how sure the reads are of it. A die the reader misses in one read of several
  is still there; a value the reads disagree on comes out with a low confidence.
* :func:`compare` sets the voted dice against the last settled state. A die whose place
  did not change in the picture is the same die, read or not; so a keep is the dice that
  left the rolling area while the strip gained dice, whatever else flickers, and a throw is
  a rolling area where no die lies where one lay.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum

from zonkcam.table.zones import TableDie, Zone
from zonkcam.vision.geometry import SAME_DIE, SAME_SPOT, STILL_THERE


class Change(StrEnum):
    """What happened on the table between two settled states."""

    START = "start"
    """The first look at the table: what lies there already (nothing is played)."""
    ROLL = "roll"
    """Dice thrown: no die lies in the rolling area where one lay."""
    KEEP = "keep"
    """Dice left the rolling area for the keep strip; the others lie as they lay."""
    MOVED = "moved"
    """Rolled dice moved without a throw: some lie as they lay, or those that moved were
    pushed a little with the same face up (a question)."""
    PICKUP = "pickup"
    """Dice taken off the table (in a hand), none thrown or kept."""
    CLEAR = "clear"
    """No die on the table any more."""
    READ = "read"
    """A die reported unread when the table settled is read now, nothing having moved: the
    same throw, its dice complete."""


@dataclass
class _Candidate:
    """One die as seen across the reads of a still table."""

    seen: list[TableDie] = field(default_factory=list)

    @property
    def centre(self) -> tuple[float, float]:
        xs, ys = zip(*(d.center_mm for d in self.seen), strict=True)
        return sum(xs) / len(xs), sum(ys) / len(ys)

    def votes(self) -> Counter[int]:
        out: Counter[int] = Counter()
        for d in self.seen:
            if not d.cocked:
                out[d.value] += 1
        return out

    def voted(self, reads: int) -> TableDie:
        """The die as the reads vote: the value most read (ties to the surer reads), its
        confidence the mean over all reads (a read without the die, or with another value,
        counts 0), cocked and zone as most reads say, the place as last read."""
        weights: Counter[int] = Counter()
        for d in self.seen:
            if not d.cocked:
                weights[d.value] += d.confidence
        votes = self.votes()
        last = self.seen[-1]
        cocked = sum(d.cocked for d in self.seen) * 2 > len(self.seen)
        zone = Counter(d.zone for d in self.seen).most_common(1)[0][0]
        if cocked or not votes:
            return last.as_read(
                last.value, sum(d.confidence for d in self.seen) / reads, cocked=True, zone=zone
            )
        value = max(votes, key=lambda v: (votes[v], weights[v]))
        agreeing = [d for d in self.seen if not d.cocked and d.value == value]
        place = agreeing[-1]
        return place.as_read(
            value, sum(d.confidence for d in agreeing) / reads, zone=zone, cocked=False
        )


PLAINLY = 0.75
"""A die seen in this share of the reads is plainly there (in less than 1 - PLAINLY,
plainly not), and a die that this share of its reads give one value plainly shows it:
the reads of a still table are decided once every die is plain both ways."""
THERE = 0.4
"""Once decided, a die seen in this share of the reads or more is there."""


class Ballot:
    """The reads of one still table, voted die by die."""

    def __init__(self, die_mm: float, *, min_reads: int = 2, max_reads: int = 5) -> None:
        self.die_mm = die_mm
        self.min_reads, self.max_reads = min_reads, max_reads
        self.reads = 0
        self._candidates: list[_Candidate] = []

    def add(self, dice: Sequence[TableDie]) -> None:
        """One more read of the still table."""
        self.reads += 1
        pairs = sorted(
            (
                (math.dist(d.center_mm, c.centre), i, j)
                for i, d in enumerate(dice)
                for j, c in enumerate(self._candidates)
            ),
            key=lambda p: p[0],
        )
        used_dice: set[int] = set()
        used_candidates: set[int] = set()
        for dist, i, j in pairs:
            if dist > SAME_SPOT * self.die_mm:
                break
            if i in used_dice or j in used_candidates:
                continue
            used_dice.add(i)
            used_candidates.add(j)
            self._candidates[j].seen.append(dice[i])
        for i, d in enumerate(dice):
            if i not in used_dice:
                self._candidates.append(_Candidate([d]))

    def missing(self, dice: Sequence[TableDie]) -> list[TableDie]:
        """The dice seen in earlier reads that none of ``dice`` (a new read) lies near: as
        each was seen last (to be read where it lay)."""
        reach = SAME_SPOT * self.die_mm
        return [
            c.seen[-1]
            for c in self._candidates
            if not any(math.dist(c.centre, d.center_mm) <= reach for d in dice)
        ]

    @property
    def decided(self) -> bool:
        """Enough reads that every die is plainly there or not, and every die there plainly
        shows one value (or the reads are used up)."""
        if self.reads < self.min_reads:
            return False
        if self.reads >= self.max_reads:
            return True
        for c in self._candidates:
            share = len(c.seen) / self.reads
            if 1 - PLAINLY < share < PLAINLY:
                return False
            votes = c.votes()
            if share >= PLAINLY and votes and max(votes.values()) < PLAINLY * sum(votes.values()):
                return False
        return True

    def dice(self) -> list[TableDie]:
        """The dice the reads vote to be there (once decided: seen in at least 0.4 of the
        reads), with their voted values."""
        return [c.voted(self.reads) for c in self._candidates if len(c.seen) >= THERE * self.reads]


@dataclass(frozen=True)
class Comparison:
    """The table now, against the last settled state."""

    dice: tuple[TableDie, ...]
    """Every die on the table now."""
    change: Change | None
    """What happened; None when nothing did (a die read late is no change)."""
    keep: tuple[TableDie, ...] = ()
    """The dice that went from the rolling area to the keep strip (KEEP; with a throw,
    ROLL), with the values read while they lay in the rolling area where that is known."""
    new: tuple[TableDie, ...] = ()
    """The dice that came to lie where none lay."""
    gone: tuple[TableDie, ...] = ()
    """The dice of the last settled state that are no longer where they lay."""


def _rolling(d: TableDie) -> bool:
    return d.zone in (Zone.ROLLING, Zone.OFF)


def compare(
    before: Sequence[TableDie],
    voted: Sequence[TableDie],
    die_mm: float,
    *,
    changed_before: Sequence[bool],
    changed_now: Sequence[bool],
    unread_in_strip: int = 0,
    picked_up: Sequence[TableDie] = (),
) -> Comparison:
    """Set the voted dice of a still table against the last settled state ``before``.

    ``changed_before`` tells for each die of ``before`` whether the picture changed where
    it lay (or no die is seen there any more), ``changed_now`` for each voted die whether
    it changed where that die lies: the watcher works them out from its pictures, so this
    step takes plain values. A die of ``before`` whose place did not change is still
    there, read or not; one whose place changed is gone, unless a die of its value is read
    where it lay. A voted die where the picture did not change and no die lay was missed
    before (it changes nothing). ``unread_in_strip`` counts die-like things new in the
    keep strip that the reader could not read; ``picked_up`` are rolled dice taken away
    since the last throw (they may be set down in the strip next)."""
    stayed, gone, new, late = _match(before, voted, die_mm, changed_before, changed_now)
    now = tuple(stayed + late + new)
    stayed_rolling = [d for d in stayed if _rolling(d)]
    gone_rolling = [d for d in gone if _rolling(d)]
    new_rolling = [d for d in new if _rolling(d)]
    new_kept = [d for d in new if d.zone == Zone.KEEP]
    moved = {"new": tuple(new), "gone": tuple(gone)}
    if not new and not gone and not unread_in_strip:
        return Comparison(now, None)
    if not now:
        return Comparison(now, Change.CLEAR, **moved)
    if new_rolling:
        if stayed_rolling or _slid(gone_rolling, new_rolling, die_mm):
            return Comparison(now, Change.MOVED, **moved)
        kept = _kept(new_kept, gone_rolling, unread_in_strip=0)
        return Comparison(now, Change.ROLL, keep=kept, **moved)
    if new_kept or unread_in_strip:
        kept = _kept(new_kept, list(picked_up) + gone_rolling, unread_in_strip)
        return Comparison(now, Change.KEEP, keep=kept, **moved)
    return Comparison(now, Change.PICKUP, **moved)


def _match(
    before: Sequence[TableDie],
    voted: Sequence[TableDie],
    die_mm: float,
    changed_before: Sequence[bool],
    changed_now: Sequence[bool],
) -> tuple[list[TableDie], list[TableDie], list[TableDie], list[TableDie]]:
    """The dice of ``before`` that stayed and those gone, and the voted dice new to the
    table and those only read late (missed before where nothing changed): a voted die
    within SAME_DIE of a die that stayed is that die, one of the value of a gone die
    within STILL_THERE of where it lay brings that die back."""
    stayed = [d for d, c in zip(before, changed_before, strict=True) if not c]
    gone = [d for d, c in zip(before, changed_before, strict=True) if c]
    new: list[TableDie] = []
    late: list[TableDie] = []
    for v, changed in zip(voted, changed_now, strict=True):
        same = next(
            (s for s in stayed if math.dist(v.center_mm, s.center_mm) <= SAME_DIE * die_mm), None
        )
        if same is not None:  # a die that lies as it lay (or a side face of it)
            if same.unread and v.known:  # never read before, read now
                stayed[stayed.index(same)] = replace(v, zone=same.zone)
            continue
        back = next(
            (
                g
                for g in gone
                if g.known
                and v.known
                and g.value == v.value
                and g.zone == v.zone
                and math.dist(v.center_mm, g.center_mm) <= die_mm * STILL_THERE
            ),
            None,
        )
        if back is not None:  # its place changed (a neighbour's shadow), the die did not
            gone.remove(back)
            stayed.append(back)
        elif changed:
            new.append(v)
        else:
            late.append(v)
    return stayed, gone, new, late


SLIDE_DICE = 2.0
"""A die that shows the same face within this many dice of where one lay was pushed, not
thrown (a die thrown lands that near with that face up about once in a hundred throws of
one die: a question, not a wrong score)."""


def _slid(gone: list[TableDie], new: list[TableDie], die_mm: float) -> bool:
    """Whether the dice that came could each be a die that went, pushed a little along the
    mat with the same face up (a finger moved the last die left to throw)."""
    if len(gone) != len(new):
        return False
    left = list(gone)
    for d in new:
        match = next(
            (
                g
                for g in left
                if g.known
                and d.known
                and g.value == d.value
                and math.dist(g.center_mm, d.center_mm) <= SLIDE_DICE * die_mm
            ),
            None,
        )
        if match is None:
            return False
        left.remove(match)
    return True


def _kept(
    new_kept: list[TableDie], left_rolling: list[TableDie], unread_in_strip: int
) -> tuple[TableDie, ...]:
    """The dice moved to the strip: the dice that left the rolling area when as many came
    to the strip (their values were read in the rolling area, where the reader sees them
    best; not when one of them was never read), else the dice read in the strip."""
    arrived = len(new_kept) + unread_in_strip
    if arrived and len(left_rolling) == arrived and all(d.known for d in left_rolling):
        return tuple(left_rolling)
    return tuple(new_kept)
