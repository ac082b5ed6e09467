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

Run: python scripts/bench_real_table.py [--throws N] [--seed S] [--model-dir DIR]
[--source-only SRC] [--datasets DIR ...] [--confirm-below BAR] [--teach N]
[--table-dice FACES] [--rest SECONDS] [--slowdown X] [--size WxH] [--detail K]
[--json]
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

import numpy as np

from zonkcam.display.view import CONFIRM_BELOW
from zonkcam.errors import UserError
from zonkcam.game.actions import Landing
from zonkcam.mat.calibrate import Calibration, calibrate
from zonkcam.mat.layout import KEEP_COLOUR, PAPER_COLOUR, ROLLING_COLOUR
from zonkcam.sim.cutouts import CutOut, lab_distance, paste_die
from zonkcam.sim.demo_table import DemoDie, DemoTable, DiePose
from zonkcam.sim.lens import CameraLook
from zonkcam.table.observe import Reader, TableEvent, TableReport, TableWatcher
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
    """The cut-outs of a run, and those nearest each zone's colour."""

    cuts: list[CutOut]
    zone_matches: dict[str, list[CutOut]] = field(default_factory=dict)

    @classmethod
    def make(cls, cuts: list[CutOut]) -> Pool:
        matches = {
            zone: sorted(cuts, key=lambda c, z=colour: lab_distance(c.body_bgr, z))[:ZONE_MATCHES]
            for zone, colour in ZONE_COLOURS.items()
        }
        return cls(cuts, matches)

    @property
    def by_key(self) -> dict[str, CutOut]:
        return {c.key: c for c in self.cuts}


def run_session(
    pool: Pool,
    reader_for: Callable[[Calibration], Reader],
    *,
    throws: int,
    seed: int,
    look: CameraLook = MILD,
    size: tuple[int, int] = SIZE,
    teach: int = 0,
    rest: float | None = None,
    slowdown: float = 1.0,
    detail: int = 1,
) -> list[StepRecord]:
    """Play one seeded script of ``throws`` throws (with the keeps, pick-ups and hands
    between them) on a demo table drawn with ``pool``'s cut-outs; the watcher
    reads with ``reader_for(calibration)``. ``teach``: first "meet the dice" for that many
    throws (the reader must be an OnnxReader). ``rest``: the dice lie still this many
    seconds after each step and nobody waits for a report; the frames come in real time,
    the watcher's time counted ``slowdown`` times over. ``detail``: the table rendered that
    many times larger, each frame carrying the render as its detail, where the dice are
    read from (the Pi camera's main stream). Returns every step's record."""
    rng = np.random.default_rng(seed)
    table = DemoTable(
        seed=seed,
        size=size,
        look=look,
        autoplay=False,
        die_art=CutOutArt(pool.by_key, seed),
        rest_frames=20 if rest is None else max(1, round(rest * FPS)),
        detail=detail,
    )
    empty = table.read()
    cal = calibrate(empty.image, table.geometry)
    reader = reader_for(cal)
    watcher = TableWatcher(cal, reader)
    watcher.process(empty)
    if teach:
        meet_the_dice(table, watcher, reader, pool, teach, np.random.default_rng(seed + 99))
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
    return records


def meet_the_dice(
    table: DemoTable,
    watcher: TableWatcher,
    reader: Reader,
    pool: Pool,
    throws: int,
    rng: np.random.Generator,
) -> int:
    """ "Meet the dice" by throws, as the set-up screen plays it: ``throws`` throws of six of the
    pool's dice; after each settled throw the scorekeeper fixes every die read wrong (the
    truth) and confirms, and the dice read are taught in their eight turns. The dice are
    picked up after. Returns the dice taught."""
    taught = 0
    for _ in range(throws):
        picks = [pool.cuts[int(i)] for i in rng.choice(len(pool.cuts), 6, replace=False)]
        table.throw([c.value for c in picks], colours=[c.key for c in picks])
        settled = None
        while table.busy:
            frame = table.read()
            for o in watcher.process(frame):
                if o.event == TableEvent.SETTLED and o.change == Change.ROLL:
                    settled = (o, frame.truth.rolled)
        if settled is not None:
            o, truth = settled
            dice = [d for d in o.rolled if not d.cocked]
            pairs = _match(truth, dice, table.geometry.die_mm)
            seen = [(reader.recall(dice[j].bbox), truth[i].value) for i, j in pairs.items()]
            seen = [(s, v) for s, v in seen if s is not None]
            if seen:
                taught += len(seen)
                reader.teach([s for s, _ in seen], [v for _, v in seen], turns=True)
        table.pick_up()
        while table.busy:
            watcher.process(table.read())
    return taught


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


def report(s: Score, args: argparse.Namespace, pool: Pool, seconds: float) -> str:
    t = s.total
    read = sum(t.dice.values())
    lines = [
        f"real dice on the demo table ({args.size[0]}x{args.size[1]}"
        + (f", dice read from a {args.detail}x larger picture" if args.detail > 1 else "")
        + f", mild camera), {args.throws} "
        f"throws, seed {args.seed}, reader: {args.model_dir or 'the shipped models'}"
        + (f", dice from {args.source_only} only" if args.source_only else "")
        + (f", {args.teach} throws met first" if args.teach else ""),
        f"cut-outs{' (the table dice)' if args.table_dice else ''}: {len(pool.cuts)} from "
        + ", ".join(f"{k} {v}" for k, v in sorted(Counter(c.source for c in pool.cuts).items())),
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


def onnx_reader(model_dir: Path | None, threads: int) -> Callable[[Calibration], Reader]:
    """A factory of the learned reader for a calibration."""
    from zonkcam.table.reading import OnnxReader

    return lambda cal: OnnxReader.for_table(cal, model_dir, threads=threads)


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
        "--pool", type=_positive, default=POOL, metavar="N", help=f"cut-outs to make ({POOL})"
    )
    ap.add_argument(
        "--teach",
        type=int,
        default=0,
        metavar="N",
        help="first meet the dice for N throws (the scorekeeper fixes every misread), as "
        "zonkcam play --meet-dice throws does",
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
        pool = Pool.make(cuts)
        records = run_session(
            pool,
            onnx_reader(args.model_dir, args.threads),
            throws=args.throws,
            seed=args.seed,
            teach=args.teach,
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
                },
                indent=2,
            )
        )
    else:
        print(report(s, args, pool, seconds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
