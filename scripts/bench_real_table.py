"""Lab benchmark: the table watcher with real dice, cut out of the labelled photos.

Dice cut out of the labelled photo sets (zonkcam.sim.cutouts: GrabCut seeded by the box,
both sets, every source) are laid on the demo table's calibrated mat in place of rendered
dice (DemoTable's ``die_art``), under a mild camera (MILD: 1280x960, 8 degree tilt, uneven
light, blur, JPEG), and a seeded script plays with them: throws of 1-6 dice, keeps slid into
the strip, re-throws of the rest, pick-ups, a hand over the mat between throws, dice thrown
touching the board images or off the mat, and dice whose body is the colour of a zone of the
mat (thrown into the rolling area, kept into the strip, landing on the white round a
marker). The
watcher (zonkcam.table.observe.TableWatcher) reads every frame with the learned reader;
each step's settled reports are set against the truth.

Reported, overall, per kind of die and per source: throws exactly right (the roll reported
with exactly the thrown values), throws right or asked (no die wrong without a '?', none
missed), throws never reported, dice right, dice flagged '?' (confidence under the bar, or
unread: no value), SILENT WRONG dice (a wrong value, not flagged), missed dice, GHOST dice
(a die in the reported state where none lies) and false reports (a settled report that is
not what happened: a die 'moved' after a throw, a roll that was not thrown, a second
report).

By default the player waits (up to 2 s) for each report. ``--rest SECONDS`` plays as
quick players do: the dice lie still that long, then the next hand comes whatever was
reported, and the frames come in real time (30 fps; a frame that comes while the watcher
is busy is lost, as with a camera; the watcher's time is its process's CPU time, which
other programs on the machine do not inflate; ``--slowdown X`` counts it X times over, 2.5
for a Pi 5): a throw not reported by then is lost, and the time from the dice
at rest to each throw's report is given.

Meeting the dice before the throws. ``--meet throws`` (``--teach N`` alone does the same):
N throws (6 with no --teach) of six dice; after each settled throw the scorekeeper fixes
every misread and the dice are taught, as zonkcam play --meet-dice throws does.
``--meet faces``: the table's own dice are met face by face, as zonkcam play --meet-dice
faces does. For each value 1-6 every one of the table's dice is laid on the mat showing it
(the demo table throws them with that face up); once they lie still the dice of the settled
scene are taught that value in their eight turns, except a die that plainly shows another
face (zonkcam.table.teaching.plainly_other: reported cocked, or read as another value at
least PLAINLY_OTHER sure): those are pointed out, not taught. The dice are picked up, next
value. Reported besides the figures above: the dice laid, taught, pointed out (cocked,
another value) and not seen (not in the settled scene, or no value or crop read to teach).
The meeting plays throws of its own, so the script's throws after it are not those of a run
without it; ``--net-alone`` meets the dice and then reads the throws by the net alone: the
same throws, without what the taught faces ask.

The table's dice (``--dice K``; 6 with ``--meet faces``). No photo set says which physical
die a cut-out is, so a die is a look: cut-outs of one source and one kind (DieKind) whose
body colours all lie within LOOK_LAB of each other (lab_distance; complete-linkage
clustering of the pool). The table takes K looks that have LOOK_FACES or more cut-outs of
every value, spread over the sources; where fewer looks have, it takes those and says so
(the looks each source has are reported). For each look and value one cut-out, drawn by
the seed, is the meeting's and the others are the throws': a cut-out never serves both.
The meeting's cut-outs are taken from photos (near-duplicate groups: one scene) that none of
the throws' come from where the set allows; the throws' cut-outs that share one are
counted. Each die of a throw is one of the table's looks (those not lying on the table
first; a throw of more dice than there are looks repeats looks) showing a drawn value: one
of that look and value's throws' cut-outs. Without --meet, --dice K plays the same dice
and throws unmet: the figures the meeting is set against. Looks need more cut-outs than
the default pool holds: with --dice or --meet faces the pool is MEET_POOL.

Run: python scripts/bench_real_table.py [--throws N] [--seed S] [--model-dir DIR]
[--source-only SRC] [--datasets DIR ...] [--confirm-below BAR] [--pool N]
[--meet faces|throws] [--net-alone] [--teach N] [--dice K] [--table-dice FACES]
[--rest SECONDS] [--slowdown X] [--size WxH] [--detail K] [--json]
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

import cv2
import numpy as np

from zonkcam.display.view import CONFIRM_BELOW
from zonkcam.errors import UserError
from zonkcam.game.actions import Landing
from zonkcam.mat.calibrate import Calibration, calibrate
from zonkcam.mat.layout import KEEP_COLOUR, PAPER_COLOUR, ROLLING_COLOUR
from zonkcam.sim.cutouts import CutOut, DieKind, lab_distance, paste_die
from zonkcam.sim.demo_table import DemoDie, DemoTable, DiePose
from zonkcam.sim.lens import CameraLook
from zonkcam.table.observe import Reader, TableEvent, TableReport, TableWatcher
from zonkcam.table.teaching import PLAINLY_OTHER, plainly_other
from zonkcam.table.tracking import Change
from zonkcam.table.zones import TableDie, Zone
from zonkcam.train.dataset import load_cutouts

ROOT = Path(__file__).resolve().parents[1]
DATASETS = (
    ROOT.parent / "shared" / "datasets" / "real-dice-dev",
    ROOT.parent / "shared" / "datasets" / "rune55-dev",
)
MILD = CameraLook(
    tilt_deg=8.0,
    barrel=0.02,
    light_falloff=0.2,
    blur=0.8,
    jpeg_quality=80,
    clutter=3,
    noise=2.0,
    mat_share=0.8,
)
"""A mild realistic camera: a little tilted, lit a little unevenly, a little soft, JPEG."""
SIZE = (1280, 960)
POOL = 150
"""Cut-outs made for a run (drawn across sources and kinds); dice are drawn from them."""
ZONE_COLOURS = {"rolling": ROLLING_COLOUR, "keep": KEEP_COLOUR, "paper": PAPER_COLOUR}
ZONE_MATCHES = 4
"""The cut-outs nearest each zone's colour that the zone-colour steps draw from."""
PATIENCE = 60
"""Still frames (2 s at 30 fps) a player waits for a report after the table's rest."""
FPS = 30.0
MATCH_MM = 0.75
"""A reported die within this many die edges of a die on the table is that die."""
LOOK_LAB = 20.0
"""Cut-outs of one source and kind whose body colours all lie within this of each other
(lab_distance, Lab 0-255 units) are one look: taken for one physical die."""
LOOK_FACES = 2
"""A look can be one of the table's dice when it has this many cut-outs of every value:
one to meet the die with, the others to throw it."""
DICE = 6
"""The table's dice (looks) with --meet faces."""
MEET_POOL = 600
"""Cut-outs made for a run with the table's looks (--dice, --meet faces)."""
MEET_THROWS = 6
"""Throws of --meet throws with no --teach."""


class Step(StrEnum):
    """What one step of the script does."""

    THROW = "throw"
    KEEP = "keep"
    PICKUP = "pickup"
    REACH = "reach"
    """A hand reaches over the mat and goes; nothing changes."""


EXPECTED = {
    Step.THROW: {Change.ROLL},
    Step.KEEP: {Change.KEEP},
    Step.PICKUP: {Change.CLEAR, Change.PICKUP},
    Step.REACH: set(),
}
"""The settled report each step should give (one, or none)."""


@dataclass
class StepRecord:
    """One scripted step and what the watcher made of it."""

    step: Step
    truth: tuple[DemoDie, ...]
    """Every die on the table after the step (``color`` names its cut-out)."""
    arrived: tuple[DemoDie, ...]
    """The dice this step threw or moved (the ones whose reading it tests)."""
    reports: list[TableReport]
    """The settled reports during the step."""
    state: tuple[TableDie, ...]
    """The dice the watcher holds on the table after the step."""
    note: str = ""
    """What was special (touching a board image, off the mat, a zone-coloured die)."""
    waits: list[str] = field(default_factory=list)
    """Why the watcher waited (its 'blocked' messages) during the step."""
    late: int = 0
    """Still frames the step's report came after the script's rest (0: in time)."""
    rest: bool = False
    """The dice lay still only a while before the next step (--rest)."""
    report_ms: float | None = None
    """--rest: from the first frame with the dice at rest to the step's report (ms of
    camera time, the watcher's time counted as it ran); None: not reported."""


class CutOutArt:
    """DemoTable die art: each die drawn from the cut-out its ``color`` names."""

    def __init__(self, cuts: dict[str, CutOut], seed: int = 0) -> None:
        self.cuts = cuts
        self.rng = np.random.default_rng(seed)

    def draw(self, image: np.ndarray, pose: DiePose) -> tuple[float, float, float, float]:
        cut = self.cuts[pose.die.color]
        blur = pose.side_px * 0.35 if pose.moving else 0.0
        return paste_die(
            image,
            cut,
            pose.centre_px,
            pose.side_px,
            pose.yaw_deg if not pose.moving else float(self.rng.uniform(0, 360)),
            blur_px=blur,
            blur_deg=float(self.rng.uniform(0, 180)),
            shadow=pose.shadow_px,
        )


@dataclass
class Pool:
    """The cut-outs of a run, and those nearest each zone's colour; with the table's looks
    (``dice``) the cut-outs are the throws' and the meeting's are the looks' own."""

    cuts: list[CutOut]
    zone_matches: dict[str, list[CutOut]] = field(default_factory=dict)
    dice: TableDice | None = None

    @classmethod
    def make(cls, cuts: list[CutOut], dice: TableDice | None = None) -> Pool:
        matches = {
            zone: sorted(cuts, key=lambda c, z=colour: lab_distance(c.body_bgr, z))[:ZONE_MATCHES]
            for zone, colour in ZONE_COLOURS.items()
        }
        return cls(cuts, matches, dice)

    @classmethod
    def of_looks(cls, dice: TableDice) -> Pool:
        """The throws' cut-outs of the table's looks."""
        return cls.make(dice.throw_cuts, dice)

    @property
    def by_key(self) -> dict[str, CutOut]:
        return {c.key: c for c in self.cuts}

    @property
    def art(self) -> dict[str, CutOut]:
        """Every cut-out the table may draw: the throws' and the meeting's."""
        meeting = self.dice.meeting.values() if self.dice is not None else ()
        return {c.key: c for c in (*self.cuts, *meeting)}


# -- the table's own dice: looks -----------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Look:
    """One die as the photos show it: cut-outs of one source and one kind whose body
    colours all lie within LOOK_LAB of each other."""

    source: str
    kind: DieKind
    cuts: tuple[CutOut, ...]

    def of(self, value: int) -> list[CutOut]:
        return [c for c in self.cuts if c.value == value]

    @property
    def qualifies(self) -> bool:
        """Enough cut-outs of every value to meet the die and throw it (LOOK_FACES)."""
        return all(len(self.of(v)) >= LOOK_FACES for v in range(1, 7))


def body_lab(cut: CutOut) -> np.ndarray:
    """The body colour in Lab (0-255 units), as lab_distance measures it."""
    px = np.array([[cut.body_bgr]], np.float32).astype(np.uint8)
    return cv2.cvtColor(px, cv2.COLOR_BGR2LAB).reshape(3).astype(np.float32)


def looks_of(cuts: Sequence[CutOut], within: float = LOOK_LAB) -> list[Look]:
    """The cut-outs clustered into looks: within each source and DieKind, complete linkage
    on body colour (the two nearest clusters merge while every pair of their cut-outs
    lies within ``within``). Largest first; the cut-outs in their given order."""
    groups: dict[tuple[str, DieKind], list[CutOut]] = defaultdict(list)
    for c in cuts:
        groups[(c.source, c.kind)].append(c)
    out: list[Look] = []
    for (source, kind), members in groups.items():
        lab = np.stack([body_lab(c) for c in members])
        far = np.linalg.norm(lab[:, None] - lab[None], axis=-1)
        np.fill_diagonal(far, np.inf)
        clusters: dict[int, list[int]] = {i: [i] for i in range(len(members))}
        while len(clusters) > 1:
            a, b = np.unravel_index(int(np.argmin(far)), far.shape)
            if far[a, b] > within:
                break
            a, b = min(a, b), max(a, b)
            far[a] = np.maximum(far[a], far[b])  # complete linkage: the farthest pair
            far[:, a] = far[a]
            far[a, a] = np.inf
            far[b, :] = far[:, b] = np.inf
            clusters[a] += clusters.pop(b)
        for idx in clusters.values():
            out.append(Look(source, kind, tuple(members[i] for i in sorted(idx))))
    out.sort(key=lambda k: -len(k.cuts))
    return out


@dataclass
class TableDice:
    """The table's own dice (looks), each value's meeting cut-out and throws' cut-outs."""

    looks: list[Look]
    meeting: dict[tuple[int, int], CutOut]
    """(look, value) -> the cut-out the meeting lays."""
    throws: dict[tuple[int, int], list[CutOut]]
    """(look, value) -> the cut-outs the throws draw from."""
    qualifying: dict[str, int]
    """Looks with LOOK_FACES cut-outs of every value, per source of the pool."""
    wanted: int
    shared: int = 0
    """Throws' cut-outs from a photo (near-duplicate group) the meeting's come from: kept
    where their look and value had no other."""

    @classmethod
    def choose(cls, cuts: Sequence[CutOut], k: int, rng: np.random.Generator) -> TableDice:
        """``k`` looks of ``cuts`` with LOOK_FACES cut-outs of every value (fewer where
        fewer have), spread over the sources; for each look and value one cut-out is the
        meeting's, drawn at random from the photos that cost the throws least, and the
        rest, less those from the meeting's photos where others are left, the throws'."""
        looks = looks_of(cuts)
        sources = sorted({c.source for c in cuts})
        good = {s: [lk for lk in looks if lk.source == s and lk.qualifies] for s in sources}
        queues = {s: [v[int(i)] for i in rng.permutation(len(v))] for s, v in good.items()}
        table: list[Look] = []
        while len(table) < k and any(queues.values()):
            for q in queues.values():
                if q and len(table) < k:
                    table.append(q.pop(0))
        dice = cls(table, {}, {}, {s: len(v) for s, v in good.items()}, k)
        dice._split(rng)
        return dice

    def _split(self, rng: np.random.Generator) -> None:
        cands = {(i, v): lk.of(v) for i, lk in enumerate(self.looks) for v in range(1, 7)}
        everyone = [c for cs in cands.values() for c in cs]
        scenes: set[str] = set()  # the meeting's photos (near-duplicate groups)

        def cost(key: tuple[int, int], c: CutOut) -> tuple[int, int]:
            """(looks and values left with no throws' cut-out off the meeting's photos,
            throws' cut-outs that the meeting's photos would take)."""
            taken = scenes | {c.group}
            chosen = {id(m) for m in self.meeting.values()} | {id(c)}
            starved = sum(
                not any(id(d) not in chosen and d.group not in taken for d in cs)
                for cs in cands.values()
            )
            lost = 0
            if c.group not in scenes:
                lost = sum(d.group == c.group and id(d) not in chosen for d in everyone)
            return starved, lost

        for n in rng.permutation(len(cands)):
            key = list(cands)[int(n)]
            order = [cands[key][int(i)] for i in rng.permutation(len(cands[key]))]
            pick = min(order, key=lambda c, k=key: cost(k, c))
            self.meeting[key] = pick
            scenes.add(pick.group)
        met = {id(m) for m in self.meeting.values()}
        for key, cs in cands.items():
            rest = [c for c in cs if id(c) not in met]
            apart = [c for c in rest if c.group not in scenes]
            self.throws[key] = apart or rest
            self.shared += 0 if apart else len(rest)

    @property
    def throw_cuts(self) -> list[CutOut]:
        return [c for cs in self.throws.values() for c in cs]

    @property
    def look_of(self) -> dict[str, int]:
        """Cut-out key -> its look (the throws' and the meeting's)."""
        out = {c.key: i for (i, _), cs in self.throws.items() for c in cs}
        out.update({c.key: i for (i, _), c in self.meeting.items()})
        return out

    def draw(self, n: int, on_table: set[str], rng: np.random.Generator) -> list[CutOut]:
        """``n`` dice for a throw: the looks not lying on the table first (in a random
        order), then the others, round again where there are more dice than looks; each
        shows a value drawn at random: one of that look and value's throws' cut-outs (one
        not on the table, where there is one)."""
        look_of = self.look_of
        lying = {look_of[k] for k in on_table if k in look_of}
        order = [int(i) for i in rng.permutation(len(self.looks))]
        turn = [i for i in order if i not in lying] + [i for i in order if i in lying]
        used = set(on_table)
        picks: list[CutOut] = []
        for j in range(n):
            look = turn[j % len(turn)]
            value = int(rng.integers(1, 7))
            cs = self.throws[(look, value)]
            free = [c for c in cs if c.key not in used] or cs
            pick = free[int(rng.integers(len(free)))]
            used.add(pick.key)
            picks.append(pick)
        return picks

    def lines(self) -> list[str]:
        """The table's dice, in words."""
        counts = ", ".join(f"{s} {n}" for s, n in sorted(self.qualifying.items()))
        n = len(self.looks)
        out = [
            f"the table's dice: {n} look{'' if n == 1 else 's'} (a look: one source's cut-outs "
            f"of one kind, body colours within {LOOK_LAB:g} of each other); looks with "
            f"{LOOK_FACES} cut-outs of every value: {counts}"
            + (
                f"; {self.wanted} wanted, only {len(self.looks)} there: a throw of more dice "
                "repeats looks"
                if len(self.looks) < self.wanted
                else ""
            ),
            *(
                f"  {i + 1}) {lk.source}, {lk.kind.name}: {len(lk.cuts)} cut-outs"
                for i, lk in enumerate(self.looks)
            ),
        ]
        photos = len({c.group for c in self.meeting.values()})
        out.append(
            f"the meeting's cut-outs (never thrown): {len(self.meeting)} from {photos} "
            f"photos; the throws': "
            f"{len(self.throw_cuts)}, "
            + (
                f"{self.shared} of them from a photo the meeting's come from (their look and "
                "value have no other)"
                if self.shared
                else "none from a photo the meeting's come from"
            )
        )
        return out

    def to_json(self) -> dict:
        return {
            "wanted": self.wanted,
            "looks": [
                {"source": lk.source, "kind": lk.kind.name, "cut_outs": len(lk.cuts)}
                for lk in self.looks
            ],
            "qualifying": dict(sorted(self.qualifying.items())),
            "meeting_cut_outs": len(self.meeting),
            "meeting_photos": len({c.group for c in self.meeting.values()}),
            "throw_cut_outs": len(self.throw_cuts),
            "shared_photo_cut_outs": self.shared,
        }


def run_session(
    pool: Pool,
    reader_for: Callable[[Calibration, DemoTable], Reader],
    *,
    throws: int,
    seed: int,
    look: CameraLook = MILD,
    size: tuple[int, int] = SIZE,
    teach: int = 0,
    faces: bool = False,
    net_alone: bool = False,
    rest: float | None = None,
    slowdown: float = 1.0,
    detail: int = 1,
) -> tuple[list[StepRecord], Meeting | None]:
    """Play one seeded script of ``throws`` throws (with the keeps, pick-ups and hands
    between them) on a demo table drawn with ``pool``'s cut-outs; the watcher
    reads with ``reader_for(calibration, table)``. ``teach``: first "meet the dice" for
    that many throws; ``faces``: first meet the table's dice (``pool.dice``) face by face
    (the reader's dice must carry their sights, and it must ``teach``, as OnnxReader's
    do); ``net_alone``: after it, the throws are read by the net alone (the same script,
    without what the taught faces ask). ``rest``: the dice lie
    still this many seconds after each step and nobody waits for a report; the frames come
    in real time, the watcher's time counted ``slowdown`` times over. ``detail``: the table
    rendered that many times larger, each frame carrying the render as its detail, where
    the dice are read from (the Pi camera's main stream). With the table's looks
    (``pool.dice``) each throw's dice are drawn from them. Returns every step's record and
    the meeting's figures (None: no meeting)."""
    rng = np.random.default_rng(seed)
    table = DemoTable(
        seed=seed,
        size=size,
        look=look,
        autoplay=False,
        die_art=CutOutArt(pool.art, seed),
        rest_frames=20 if rest is None else max(1, round(rest * FPS)),
        detail=detail,
    )
    empty = table.read()
    cal = calibrate(empty.image, table.geometry)
    reader = reader_for(cal, table)
    watcher = TableWatcher(cal, reader)
    watcher.process(empty)
    meeting = None
    asking = getattr(reader, "asking", None)
    if asking is not None:  # as the app meets: what is taught is judged by the net alone
        reader.asking = False
    if faces:
        assert pool.dice is not None, "meeting face by face needs the table's looks"
        meeting = meet_faces(table, watcher, reader, pool.dice)
    elif teach:
        meeting = meet_the_dice(
            table, watcher, reader, pool, teach, np.random.default_rng(seed + 99)
        )
    if asking is not None:
        reader.asking = asking and not net_alone
    records: list[StepRecord] = []
    free_at = 0.0  # --rest: when the watcher is free for the next frame (camera seconds)

    def play(step: Step, note: str = "") -> StepRecord:
        nonlocal free_at
        before = {id(p): (p.die.zone, p.die.x_mm, p.die.y_mm) for p in table.poses}
        reports: list[TableReport] = []
        waits: list[str] = []
        frame = table.last
        rest_at: float | None = None
        report_at: float | None = None

        def watch() -> None:
            nonlocal frame, free_at, rest_at, report_at
            frame = table.read()
            taken = frame.index / FPS
            truth = frame.truth
            if rest_at is None and not truth.moving and not truth.hand:
                rest_at = taken
            if rest is not None:
                if taken < free_at:
                    return  # the watcher is still busy with an earlier frame: this one is lost
                start = time.process_time()  # the watcher's own CPU time: what other
                seen = watcher.process(frame)  # programs on this machine do is not counted
                free_at = taken + (time.process_time() - start) * slowdown
            else:
                seen = watcher.process(frame)
            for o in seen:
                if o.event == TableEvent.SETTLED:
                    reports.append(o)
                    if report_at is None and o.change in EXPECTED[step]:
                        report_at = free_at if rest is not None else taken
                elif o.event == TableEvent.BLOCKED:
                    waits.append(o.message)

        while table.busy:
            watch()
        late = 0
        while rest is None and EXPECTED[step] and not reports and late < PATIENCE:
            table.rest(1)  # the player waits for the screen, a frame at a time
            while table.busy:
                watch()
            late += 1
        arrived = tuple(
            p.die
            for p in table.poses
            if before.get(id(p)) is None
            or math.hypot(before[id(p)][1] - p.die.x_mm, before[id(p)][2] - p.die.y_mm) > 1.0
        )
        assert frame is not None
        rec = StepRecord(
            step,
            frame.truth.dice,
            arrived,
            reports,
            watcher.state,
            note,
            waits,
            late if reports else 0,
            rest is not None,
            None
            if report_at is None or rest_at is None or rest is None
            else max(0.0, (report_at - rest_at) * 1000),
        )
        records.append(rec)
        return rec

    done = 0
    while done < throws:
        kept = sum(p.die.zone == Zone.KEEP for p in table.poses)
        rolled = [p.die for p in table.poses if p.die.zone == Zone.ROLLING]
        if rolled and len(rolled) >= 2 and kept + 1 < 6 and rng.random() < 0.35:
            wanted = [d.value for d in rolled[: int(rng.integers(1, len(rolled)))]]
            table.keep(wanted)
            play(Step.KEEP)
            kept = sum(p.die.zone == Zone.KEEP for p in table.poses)
        elif table.poses and (kept >= 5 or rng.random() < 0.2):
            table.pick_up()
            play(Step.PICKUP)
            kept = 0
        if rng.random() < 0.15:
            table.reach()
            play(Step.REACH)
        n = 6 - kept if kept else int(rng.integers(1, 7))
        on_table = {p.die.color for p in table.poses}
        if pool.dice is not None:
            picks = pool.dice.draw(n, on_table, rng)
        else:
            free = [c for c in pool.cuts if c.key not in on_table]
            picks = [free[int(i)] for i in rng.choice(len(free), size=n, replace=False)]
        notes, onto, off_mat = [], {}, []
        zone = None
        if rng.random() < 0.3:  # a die the colour of a zone of the mat
            zone = str(rng.choice(list(ZONE_COLOURS)))
            match = [c for c in pool.zone_matches[zone] if c.key not in on_table]
            if match:
                picks[0] = match[int(rng.integers(len(match)))]
                notes.append(f"{zone}-coloured {picks[0].kind.name} die")
            else:
                zone = None
        if rng.random() < 0.2 and n >= 2:
            label = str(rng.choice([b.label for b in table.geometry.board_images]))
            onto[n - 1] = Landing[label]
            notes.append(f"touching {label}")
        if rng.random() < 0.12 and n >= 3:
            off_mat.append(n - 2)
            notes.append("one off the mat")
        at = {}
        if zone == "paper":  # it lands on the white round a marker
            g = table.geometry
            spots = [
                (28.0, 72.0),
                (g.width_mm - 28.0, 72.0),
                (28.0, g.height_mm - 72.0),
                (g.width_mm - 28.0, g.height_mm - 72.0),
            ]
            x, y = spots[int(rng.integers(len(spots)))]
            at[0] = (x + float(rng.uniform(-4, 4)), y + float(rng.uniform(-4, 4)))
        table.throw(
            [c.value for c in picks],
            colours=[c.key for c in picks],
            onto=onto,
            off_mat=off_mat,
            at=at,
        )
        play(Step.THROW, "; ".join(notes))
        done += 1
        if zone == "keep":  # the die the colour of the strip goes into it
            first = next((p.die for p in table.poses if p.die.color == picks[0].key), None)
            if first is not None and first.zone == Zone.ROLLING:
                table.keep([first.value])
                play(Step.KEEP, notes[0])
    return records, meeting


@dataclass
class Meeting:
    """What meeting the dice did."""

    mode: str
    """faces or throws."""
    laid: int = 0
    """Dice laid (faces) or thrown (throws)."""
    taught: int = 0
    cocked: int = 0
    """Reported cocked: not taught."""
    other: int = 0
    """Read as another value at least PLAINLY_OTHER sure: pointed out, not taught."""
    unseen: int = 0
    """Not in the settled scene, or no value or crop read to teach."""
    extra: int = 0
    """Dice of a settled scene where none was laid (taught or pointed out with the rest,
    as the set-up screen does: it cannot tell)."""

    @property
    def pointed_out(self) -> int:
        return self.cocked + self.other

    def line(self) -> str:
        how = (
            "face by face (each value in turn, every die showing it)"
            if self.mode == "faces"
            else "by throws"
        )
        return (
            f"met {how}: {self.laid} dice laid"
            + (f" (and {self.extra} in the scenes where none lay)" if self.extra else "")
            + f"; taught {self.taught}, pointed out "
            f"{self.pointed_out} (cocked {self.cocked}, read as another value with "
            f"{PLAINLY_OTHER:g} or more {self.other}), not seen {self.unseen}"
        )

    def to_json(self) -> dict:
        return {
            "laid": self.laid,
            "taught": self.taught,
            "pointed_out": self.pointed_out,
            "cocked": self.cocked,
            "other_value": self.other,
            "unseen": self.unseen,
            "extra": self.extra,
        }


def _settle(table: DemoTable, watcher: TableWatcher) -> tuple[TableReport, tuple] | None:
    """Play the table's script out; the last settled roll and the dice rolled then."""
    settled = None
    while table.busy:
        frame = table.read()
        for o in watcher.process(frame):
            if o.event == TableEvent.SETTLED and o.change == Change.ROLL:
                settled = (o, frame.truth.rolled)
    return settled


def meet_faces(table: DemoTable, watcher: TableWatcher, reader: Reader, dice: TableDice) -> Meeting:
    """Meet the table's dice face by face, as the set-up screen does: for each value,
    every look's meeting cut-out of that value is laid on the mat (thrown with that face
    up); once still, every die of the settled scene is taught the value in its eight turns
    (with the colour read), except one that plainly shows another face (plainly_other:
    pointed out) and one with no value or crop read. Then the dice are picked up."""
    m = Meeting("faces")
    for value in range(1, 7):
        cuts = [dice.meeting[(i, value)] for i in range(len(dice.looks))]
        table.throw([value] * len(cuts), colours=[c.key for c in cuts])
        m.laid += len(cuts)
        settled = _settle(table, watcher)
        seen, colours = [], []
        if settled is None:
            m.unseen += len(cuts)
        else:
            o, truth = settled
            found = len(_match(truth, o.rolled, table.geometry.die_mm))
            m.unseen += len(truth) - found
            m.extra += len(o.rolled) - found
            for d in o.rolled:
                other = plainly_other(d, value)
                if other == "cocked":
                    m.cocked += 1
                elif other == "not read":
                    m.unseen += 1
                elif other is not None:
                    m.other += 1
                elif (s := d.sight) is not None:
                    seen.append(s)
                    colours.append(d.color)
                else:
                    m.unseen += 1
        if seen:
            reader.teach(seen, [value] * len(seen), colours, turns=True)
            m.taught += len(seen)
        table.pick_up()
        while table.busy:
            watcher.process(table.read())
    return m


def meet_the_dice(
    table: DemoTable,
    watcher: TableWatcher,
    reader: Reader,
    pool: Pool,
    throws: int,
    rng: np.random.Generator,
) -> Meeting:
    """ "Meet the dice" by throws, as the set-up screen plays it: ``throws`` throws of six
    of the pool's dice (with the table's looks: each look once, showing a value drawn at
    random, its meeting cut-out); after each settled throw the scorekeeper fixes every die
    read wrong (the truth) and confirms, and the dice read are taught in their eight turns.
    The dice are picked up after."""
    m = Meeting("throws")
    looks = pool.dice
    for _ in range(throws):
        if looks is None:
            picks = [pool.cuts[int(i)] for i in rng.choice(len(pool.cuts), 6, replace=False)]
        else:
            picks = [looks.meeting[(i, int(rng.integers(1, 7)))] for i in range(len(looks.looks))]
        table.throw([c.value for c in picks], colours=[c.key for c in picks])
        m.laid += len(picks)
        settled = _settle(table, watcher)
        if settled is None:
            m.unseen += len(picks)
        else:
            o, truth = settled
            cocked = sum(d.cocked for d in o.rolled)
            dice = [d for d in o.rolled if not d.cocked]
            pairs = _match(truth, dice, table.geometry.die_mm)
            seen = [(dice[j].sight, truth[i].value) for i, j in pairs.items()]
            seen = [(s, v) for s, v in seen if s is not None]
            m.cocked += cocked
            m.unseen += max(0, len(truth) - len(seen) - cocked)
            if seen:
                m.taught += len(seen)
                reader.teach([s for s, _ in seen], [v for _, v in seen], turns=True)
        table.pick_up()
        while table.busy:
            watcher.process(table.read())
    return m


def table_dice(cuts: list[CutOut], faces: int, rng: np.random.Generator) -> list[CutOut]:
    """A table's own dice: ``faces`` of the cut-outs, as many of each value as can be
    (a set of dice is its faces: six dice, 36), drawn at random."""
    by_value: dict[int, list[CutOut]] = {}
    for c in cuts:
        by_value.setdefault(c.value, []).append(c)
    out: list[CutOut] = []
    for v in sorted(by_value):
        group = by_value[v]
        take = min(len(group), max(1, faces // 6))
        out += [group[int(i)] for i in rng.choice(len(group), take, replace=False)]
    return out


# -- scoring -------------------------------------------------------------------------------


class Outcome(StrEnum):
    RIGHT = "right"
    FLAGGED = "flagged"
    """Read with a confidence under the bar (the screen's '?'), whatever the value."""
    SILENT_WRONG = "silent wrong"
    MISSED = "missed"


@dataclass
class Tally:
    dice: Counter = field(default_factory=Counter)
    ghosts: int = 0
    throws: int = 0
    throws_right: int = 0
    throws_asked: int = 0
    """Throws reported with every die right or flagged '?' (and none missed or extra), at
    least one flagged: what the table asks about instead of scoring wrong."""
    false_reports: int = 0

    def to_json(self) -> dict:
        out = {str(k): self.dice[k] for k in Outcome}
        out.update(
            ghosts=self.ghosts,
            throws=self.throws,
            throws_right=self.throws_right,
            throws_asked=self.throws_asked,
            false_reports=self.false_reports,
        )
        return out


@dataclass
class Score:
    total: Tally = field(default_factory=Tally)
    kinds: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    sources: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    throws: int = 0
    throws_reported: int = 0
    late: int = 0
    """Steps whose report came only while the player waited (PATIENCE)."""
    report_ms: list[float] = field(default_factory=list)
    """--rest: each reported throw's time from the dice at rest to its report."""
    lines: list[str] = field(default_factory=list)
    """One line per thing gone wrong."""

    def tallies(self, cut: CutOut | None) -> list[Tally]:
        if cut is None:
            return [self.total, self.kinds["(unknown)"], self.sources["(unknown)"]]
        return [self.total, self.kinds[cut.kind.name], self.sources[cut.source]]


def _match(dice: Sequence[DemoDie], state: Sequence[TableDie], die_mm: float) -> dict[int, int]:
    """Truth die index -> reported die index, nearest first, within MATCH_MM die edges."""
    pairs = sorted(
        (math.hypot(d.x_mm - r.center_mm[0], d.y_mm - r.center_mm[1]), i, j)
        for i, d in enumerate(dice)
        for j, r in enumerate(state)
    )
    out: dict[int, int] = {}
    used: set[int] = set()
    for dist, i, j in pairs:
        if dist > MATCH_MM * die_mm:
            break
        if i not in out and j not in used:
            out[i] = j
            used.add(j)
    return out


def score(records: Sequence[StepRecord], pool: Pool, bar: float, die_mm: float = 16.0) -> Score:
    """Set each step's reports against its truth."""
    cuts = pool.by_key
    s = Score()
    seen: list[DemoDie] = []  # every die that lay on the table, latest last
    ghosts_seen: set[tuple[int, int, int]] = set()
    for n, rec in enumerate(records, 1):
        seen += rec.truth
        involved = {cuts[d.color] for d in rec.arrived if d.color in cuts}
        expected = EXPECTED[rec.step]
        changes = [o.change for o in rec.reports]
        if rec.late:
            s.late += 1
            s.lines.append(
                f"  step {n} ({rec.step}): reported {rec.late} frames after the table's rest"
                + (f" (it waited: {'; '.join(sorted(set(rec.waits)))})" if rec.waits else "")
            )
        elif not rec.reports and EXPECTED[rec.step]:
            s.lines.append(
                f"  step {n} ({rec.step}): nothing reported "
                + ("before the next hand came" if rec.rest else f"in {PATIENCE} frames")
                + (f" (it waited: {'; '.join(sorted(set(rec.waits)))})" if rec.waits else "")
            )
        good = [c for c in changes if c in expected]
        false = len([c for c in changes if c is not Change.READ]) - min(1, len(good))
        if false:
            s.lines.append(
                f"  step {n} ({rec.step}{', ' + rec.note if rec.note else ''}): reported "
                f"{', '.join(map(str, changes))}"
            )
            for t in _per_involved(s, involved):
                t.false_reports += false
        match = _match(rec.truth, rec.state, die_mm)
        arrived = {id(d) for d in rec.arrived}
        outcomes = []
        for i, d in enumerate(rec.truth):
            if id(d) not in arrived:
                continue
            cut = cuts.get(d.color)
            if i not in match:
                outcome = Outcome.MISSED
            else:
                r = rec.state[match[i]]
                if not r.known or r.confidence < bar:
                    outcome = Outcome.FLAGGED
                elif r.value == d.value:
                    outcome = Outcome.RIGHT
                else:
                    outcome = Outcome.SILENT_WRONG
            outcomes.append(outcome)
            for t in s.tallies(cut):
                t.dice[outcome] += 1
            if outcome in (Outcome.SILENT_WRONG, Outcome.MISSED):
                what = (
                    "missed"
                    if outcome == Outcome.MISSED
                    else f"read {rec.state[match[i]].value} ({rec.state[match[i]].confidence:.2f})"
                )
                s.lines.append(
                    f"  step {n} ({rec.step}): a {d.value} ({cut.kind.name if cut else '?'}, "
                    f"{cut.source if cut else '?'}, {d.zone}) {what}"
                )
        if rec.step == Step.THROW:
            s.throws += 1
            rolls = [o for o in rec.reports if o.change == Change.ROLL]
            s.throws_reported += bool(rolls)
            if rolls and rec.report_ms is not None:
                s.report_ms.append(rec.report_ms)
            thrown = sorted(d.value for d in rec.truth if d.zone == Zone.ROLLING)
            last = [o for o in rec.reports if o.change in (Change.ROLL, Change.READ)]
            rolled = [d for d in last[-1].rolled if not d.cocked] if rolls else []
            read = sorted(d.value for d in rolled if d.known) if rolls else None
            right = read == thrown
            asked = (
                bool(rolls)
                and not right
                and len(rolled) == len(thrown)
                and all(o in (Outcome.RIGHT, Outcome.FLAGGED) for o in outcomes)
            )
            for t in _per_involved(s, involved):
                t.throws += 1
                t.throws_right += right
                t.throws_asked += asked
            if not right:
                shown = (
                    sorted((d.value if d.known else "?" for d in rolled), key=str)
                    if rolls
                    else "nothing"
                )
                s.lines.append(
                    f"  step {n} (throw{', ' + rec.note if rec.note else ''}): "
                    f"thrown {thrown}, read {shown}{' (asked)' if asked else ''}"
                )
        matched = set(match.values())
        for j, r in enumerate(rec.state):
            if j in matched:
                continue
            key = (round(r.center_mm[0] / 4), round(r.center_mm[1] / 4), r.value)
            if key in ghosts_seen:
                continue
            ghosts_seen.add(key)
            near = min(
                reversed(seen),
                key=lambda d: math.hypot(d.x_mm - r.center_mm[0], d.y_mm - r.center_mm[1]),
                default=None,
            )
            cut = (
                cuts.get(near.color)
                if near is not None
                and math.hypot(near.x_mm - r.center_mm[0], near.y_mm - r.center_mm[1]) < die_mm
                else None
            )
            for t in s.tallies(cut):
                t.ghosts += 1
            s.lines.append(
                f"  step {n} ({rec.step}): GHOST {r.value} at {r.center_mm[0]:.0f},"
                f"{r.center_mm[1]:.0f} mm ({r.zone}; where a "
                f"{cut.kind.name + ' die from ' + cut.source if cut else 'no die'} lay)"
            )
    return s


def _per_involved(s: Score, involved: set[CutOut]) -> list[Tally]:
    """The tallies a step's throw or report counts in: the total once, and each kind and
    source of the dice it moved once."""
    out = [s.total]
    out += [s.kinds[k] for k in sorted({c.kind.name for c in involved})]
    out += [s.sources[k] for k in sorted({c.source for c in involved})]
    return out


def report(
    s: Score, args: argparse.Namespace, pool: Pool, seconds: float, meeting: Meeting | None = None
) -> str:
    t = s.total
    read = sum(t.dice.values())
    looks = pool.dice.lines() if pool.dice is not None else []
    met = [meeting.line()] if meeting is not None and (args.meet or pool.dice) else []
    lines = [
        f"real dice on the demo table ({args.size[0]}x{args.size[1]}"
        + (f", dice read from a {args.detail}x larger picture" if args.detail > 1 else "")
        + f", mild camera), {args.throws} "
        f"throws, seed {args.seed}, reader: {args.model_dir or 'the shipped models'}"
        + (f", dice from {args.source_only} only" if args.source_only else "")
        + (f", {args.teach} throws met first" if args.teach else "")
        + (", the table's dice met face by face first" if args.meet == "faces" else "")
        + (", the throws read by the net alone" if args.net_alone else ""),
        f"cut-outs{' (the table dice)' if args.table_dice else ''}"
        f"{' (the throws of the table dice)' if pool.dice is not None else ''}: "
        f"{len(pool.cuts)} from "
        + ", ".join(f"{k} {v}" for k, v in sorted(Counter(c.source for c in pool.cuts).items())),
        *looks,
        *met,
        f"throws exactly right: {t.throws_right} of {s.throws}; right or asked: "
        f"{t.throws_right + t.throws_asked}; never reported: {s.throws - s.throws_reported}",
        (
            f"the dice lie still {args.rest:g} s, then the next hand comes (real time, the "
            f"watcher's time counted {args.slowdown:g}x): dice at rest to the throw's report "
            + _spread(s.report_ms)
            if args.rest is not None
            else f"steps reported only while the player waited (up to {PATIENCE} frames "
            f"more): {s.late}"
        ),
        f"dice (thrown or slid into the strip): {read}; right {t.dice[Outcome.RIGHT]}, "
        f"flagged '?' (under {args.confirm_below:g}) {t.dice[Outcome.FLAGGED]}, SILENT WRONG "
        f"{t.dice[Outcome.SILENT_WRONG]}, missed {t.dice[Outcome.MISSED]}",
        f"ghost dice: {t.ghosts}; false reports: {t.false_reports}",
        "",
        _table("kind of die", s.kinds),
        "",
        _table("source", s.sources),
        "",
        "what went wrong:" if s.lines else "nothing went wrong",
        *s.lines,
        f"({seconds:.0f} s)",
    ]
    return "\n".join(lines)


def _size(text: str) -> tuple[int, int]:
    """WxH, e.g. 640x480."""
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"takes WIDTHxHEIGHT, e.g. 640x480, not {text!r}"
        ) from None
    if not (64 <= w <= 4096 and 64 <= h <= 4096):
        raise argparse.ArgumentTypeError(f"{text}: each side 64 to 4096 px")
    return w, h


def _spread(ms: Sequence[float]) -> str:
    """Median, p95 and most of some times (ms), in words."""
    if not ms:
        return "(no throw reported)"
    xs = sorted(ms)
    p95 = xs[min(len(xs) - 1, int(round(0.95 * (len(xs) - 1))))]
    return f"median {statistics.median(xs):.0f} ms, p95 {p95:.0f} ms, most {xs[-1]:.0f} ms"


def _table(title: str, tallies: dict[str, Tally]) -> str:
    head = (
        f"{title:<24} {'dice':>5} {'right':>6} {'?':>4} {'silent':>7} {'missed':>7} "
        f"{'ghosts':>7} {'throws right':>13} {'or asked':>9} {'false':>6}"
    )
    rows = [head]
    for name, t in sorted(tallies.items(), key=lambda kv: -sum(kv[1].dice.values())):
        rows.append(
            f"{name:<24} {sum(t.dice.values()):>5} {t.dice[Outcome.RIGHT]:>6} "
            f"{t.dice[Outcome.FLAGGED]:>4} {t.dice[Outcome.SILENT_WRONG]:>7} "
            f"{t.dice[Outcome.MISSED]:>7} {t.ghosts:>7} "
            f"{f'{t.throws_right} of {t.throws}':>13} {t.throws_right + t.throws_asked:>9} "
            f"{t.false_reports:>6}"
        )
    return "\n".join(rows)


def onnx_reader(model_dir: Path | None, threads: int) -> Callable[[Calibration, DemoTable], Reader]:
    """A factory of the learned reader for a calibration."""
    from zonkcam.table.reading import OnnxReader

    return lambda cal, _table: OnnxReader.for_table(cal, model_dir, threads=threads)


def _positive(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"takes a whole number, not {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"takes 1 or more, not {n}")
    return n


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--throws", type=_positive, default=40, metavar="N", help="throws (40)")
    ap.add_argument("--seed", type=int, default=0, metavar="S", help="the script's seed (0)")
    ap.add_argument(
        "--model-dir",
        type=Path,
        default=None,
        metavar="DIR",
        help="read with the models in DIR (default: the shipped ones)",
    )
    ap.add_argument("--threads", type=_positive, default=1, metavar="N", help="reader threads (1)")
    ap.add_argument(
        "--source-only",
        default=None,
        metavar="SRC",
        help="draw dice only from source SRC (epanemu, matteop65, rune55): with the "
        "--model-dir of a twin trained without SRC, a leave-one-source-out measure",
    )
    ap.add_argument(
        "--datasets",
        type=Path,
        nargs="+",
        default=None,
        metavar="DIR",
        help="labelled photo sets (default: ../shared/datasets/real-dice-dev and rune55-dev)",
    )
    ap.add_argument(
        "--confirm-below",
        type=float,
        default=CONFIRM_BELOW,
        metavar="BAR",
        help=f"a die read with a confidence under BAR is flagged '?' ({CONFIRM_BELOW:g})",
    )
    ap.add_argument(
        "--pool",
        type=_positive,
        default=None,
        metavar="N",
        help=f"cut-outs to make ({POOL}; {MEET_POOL} with --dice or --meet faces)",
    )
    ap.add_argument(
        "--meet",
        choices=("faces", "throws"),
        default=None,
        help="first meet the dice: 'faces', the table's dice (--dice) laid showing each "
        "value in turn and taught it, as zonkcam play --meet-dice faces does; 'throws', "
        "throws of six dice, the scorekeeper fixing every misread, as zonkcam play "
        f"--meet-dice throws does (--teach N throws; {MEET_THROWS})",
    )
    ap.add_argument(
        "--teach",
        type=int,
        default=0,
        metavar="N",
        help="the throws of --meet throws; given alone, --meet throws with N throws",
    )
    ap.add_argument(
        "--dice",
        type=_positive,
        default=None,
        metavar="K",
        help="play with K of the table's own dice, each a look (cut-outs of one source and "
        f"kind, close in colour) with {LOOK_FACES} or more cut-outs of every value; one of "
        f"each value met, the others thrown ({DICE} with --meet faces)",
    )
    ap.add_argument(
        "--net-alone",
        action="store_true",
        help="meet the dice, then read the throws by the net alone: the same throws as with "
        "the taught faces asking, to tell what they change",
    )
    ap.add_argument(
        "--table-dice",
        type=int,
        default=0,
        metavar="FACES",
        help="play with only FACES of the cut-outs, the table's own dice (36: six dice); "
        "default: all of them",
    )
    ap.add_argument(
        "--rest",
        type=float,
        default=None,
        metavar="SECONDS",
        help="the dice lie still SECONDS after each step, then the next hand comes, in real "
        "time: frames that come while the watcher is busy are lost (default: the player "
        "waits up to 2 s for each report)",
    )
    ap.add_argument(
        "--slowdown",
        type=float,
        default=1.0,
        metavar="X",
        help="with --rest: count the watcher's time X times over (2.5: a Pi 5)",
    )
    ap.add_argument(
        "--size",
        type=_size,
        default=SIZE,
        metavar="WxH",
        help=f"the camera's frames (default {SIZE[0]}x{SIZE[1]}; 640x480: a Pi camera's lores)",
    )
    ap.add_argument(
        "--detail",
        type=int,
        default=1,
        metavar="K",
        help="render the table K times larger and read the dice from that picture, as from "
        "the Pi camera's main stream (default 1: from the frames themselves)",
    )
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args(argv)
    try:
        if args.teach < 0 or args.table_dice < 0:
            raise UserError("--teach and --table-dice take 0 or more")
        if args.meet == "faces" and args.teach:
            raise UserError("--teach counts the throws of --meet throws, not of --meet faces")
        if args.net_alone and not (args.meet or args.teach):
            raise UserError("--net-alone reads the throws after a meeting: give --meet too")
        if args.meet == "throws" and not args.teach:
            args.teach = MEET_THROWS
        looks = args.dice or (DICE if args.meet == "faces" else 0)
        if looks and args.table_dice:
            raise UserError(
                "--table-dice takes faces of the pool; --dice and --meet faces take the "
                "table's dice as looks: one or the other"
            )
        if args.pool is None:
            args.pool = MEET_POOL if looks else POOL
        if args.rest is not None and not 0 < args.rest <= 60:
            raise UserError("--rest takes seconds, more than 0 and at most 60")
        if not 1 <= args.detail <= 4:
            raise UserError("--detail takes a whole factor from 1 to 4")
        if not 0 < args.slowdown <= 100:
            raise UserError("--slowdown takes a factor, more than 0 and at most 100")
        datasets = list(args.datasets or [d for d in DATASETS if d.is_dir()])
        if not datasets:
            raise UserError(
                f"no labelled photo sets under {DATASETS[0].parent}: name one (--datasets)"
            )
        for d in datasets:
            if not (d / "labels.jsonl").is_file():
                raise UserError(f"{d}: no labels.jsonl there")
        if args.model_dir is not None and not args.model_dir.is_dir():
            raise UserError(f"--model-dir {args.model_dir}: no such folder")
        start = time.perf_counter()
        cuts = load_cutouts(
            datasets,
            args.pool,
            np.random.default_rng(args.seed),
            sources=[args.source_only] if args.source_only else None,
        )
        if len(cuts) < 12:
            raise UserError(
                f"only {len(cuts)} dice could be cut out"
                + (f" of source {args.source_only!r}" if args.source_only else "")
                + " (a source's name: epanemu, matteop65, rune55)"
            )
        if args.table_dice:
            cuts = table_dice(cuts, args.table_dice, np.random.default_rng(args.seed + 7))
        if looks:
            dice = TableDice.choose(cuts, looks, np.random.default_rng(args.seed + 7))
            if not dice.looks:
                raise UserError(
                    f"no look among the {len(cuts)} cut-outs has {LOOK_FACES} of every value "
                    f"(a look: one source's cut-outs of one kind within {LOOK_LAB:g} in "
                    "colour): cut more (--pool N)"
                )
            pool = Pool.of_looks(dice)
        else:
            pool = Pool.make(cuts)
        records, meeting = run_session(
            pool,
            onnx_reader(args.model_dir, args.threads),
            throws=args.throws,
            seed=args.seed,
            teach=args.teach,
            faces=args.meet == "faces",
            net_alone=args.net_alone,
            rest=args.rest,
            slowdown=args.slowdown,
            size=args.size,
            detail=args.detail,
        )
        s = score(records, pool, args.confirm_below)
        seconds = time.perf_counter() - start
    except UserError as exc:
        print(f"bench_real_table: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(
            json.dumps(
                {
                    "throws": s.throws,
                    "seed": args.seed,
                    "model_dir": str(args.model_dir) if args.model_dir else None,
                    "source_only": args.source_only,
                    "teach": args.teach,
                    "table_dice": args.table_dice,
                    "confirm_below": args.confirm_below,
                    "rest": args.rest,
                    "slowdown": args.slowdown,
                    "size": list(args.size),
                    "detail": args.detail,
                    "throws_reported": s.throws_reported,
                    "late": s.late,
                    "report_ms": [round(v, 1) for v in s.report_ms],
                    "total": s.total.to_json(),
                    "kinds": {k: v.to_json() for k, v in sorted(s.kinds.items())},
                    "sources": {k: v.to_json() for k, v in sorted(s.sources.items())},
                    "wrong": [line.strip() for line in s.lines],
                    "seconds": round(seconds, 1),
                }
                | (
                    {
                        "meet": meeting.mode if meeting is not None else None,
                        "net_alone": args.net_alone,
                        "meeting": meeting.to_json() if meeting is not None else None,
                        "dice": pool.dice.to_json() if pool.dice is not None else None,
                    }
                    if args.meet or pool.dice is not None
                    else {}
                ),
                indent=2,
            )
        )
    else:
        print(report(s, args, pool, seconds, meeting))
    return 0


if __name__ == "__main__":
    sys.exit(main())
