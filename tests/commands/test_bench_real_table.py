"""scripts/bench_real_table.py: real dice cut out of the labelled photos, played on the demo
table with quick players, and its refusals of bad settings."""

from __future__ import annotations

import importlib.util
import json
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from zonkcam.game import Die
from zonkcam.testing import TruthReader
from zonkcam.vision.die import Sight

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "datasets"


def _bench():
    spec = importlib.util.spec_from_file_location(
        "bench_real_table", ROOT / "scripts" / "bench_real_table.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, module)  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    "args, wanted",
    [
        (["--detail", "9"], "--detail takes a whole factor from 1 to 4"),
        (["--rest", "0"], "--rest takes seconds"),
        (["--slowdown", "-1"], "--slowdown takes a factor"),
        (["--meet", "faces", "--teach", "2"], "--teach counts the throws of --meet throws"),
        (["--meet", "faces", "--table-dice", "36"], "one or the other"),
        (["--dice", "3", "--table-dice", "36"], "one or the other"),
        (["--net-alone"], "--net-alone reads the throws after a meeting"),
    ],
)
def test_bad_settings_are_one_line(args, wanted, capsys, tmp_path):
    assert _bench().main(["--datasets", str(tmp_path), *args]) == 2
    err = capsys.readouterr().err
    assert wanted in err and "Traceback" not in err


def test_a_size_that_is_not_wxh_is_refused(capsys):
    with pytest.raises(SystemExit):
        _bench().main(["--size", "640by480"])
    assert "WIDTHxHEIGHT" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.shared
@pytest.mark.skipif(not (SHARED / "real-dice-dev").is_dir(), reason="no ../shared datasets")
def test_quick_players_on_the_pi_cameras_two_pictures(capsys):
    # the next hand 0.5 s after the dice stop; 640x480 frames, the dice read from a picture
    # twice as large: every throw is accounted for, and each report's time is given
    rc = _bench().main(
        ["--throws", "3", "--rest", "0.5", "--slowdown", "2.5"]
        + ["--size", "640x480", "--detail", "2", "--json"]
    )
    assert rc == 0
    res = json.loads(capsys.readouterr().out)
    assert res["size"] == [640, 480] and res["detail"] == 2 and res["rest"] == 0.5
    assert res["total"]["throws"] == 3
    assert len(res["report_ms"]) == res["throws_reported"] <= 3
    assert all(0 <= ms < 2000 for ms in res["report_ms"])


# -- the table's own dice, met face by face ------------------------------------------------


def _cut(value, group, index, kind, bgr, source="src"):
    """A synthetic cut-out: a square die body of colour ``bgr`` with a dark pip."""
    from zonkcam.sim.cutouts import CutOut

    image = np.full((40, 40, 3), bgr, np.uint8)
    image[16:24, 16:24] = 20
    alpha = np.ones((40, 40), np.float32)
    return CutOut(image, alpha, value, source, group, f"{group}.jpg", index, kind, bgr)


def _three_dice():
    """Three dice (a red, a white and a black one), each photographed three times showing
    each value: the n-th photo of a value shows all three dice (as staged photos do)."""
    from zonkcam.sim.cutouts import DieKind

    bodies = [
        (DieKind("red", False, True), (40.0, 40.0, 200.0)),
        (DieKind("white", False, False), (230.0, 230.0, 230.0)),
        (DieKind("black", True, True), (30.0, 30.0, 30.0)),
    ]
    return [
        _cut(v, f"v{v}-{n}", i, kind, bgr)
        for v in range(1, 7)
        for n in range(3)
        for i, (kind, bgr) in enumerate(bodies)
    ]


class _Teachable(TruthReader):
    """Reads what the demo table drew (``misread``: a value read as another, sure of it),
    each die with a sight of the cut-out drawn at its box, and keeps what it is taught."""

    def __init__(self, table, misread=None):
        super().__init__(table)
        self.misread = misread or {}
        self.taught = []
        self.drawn: dict[int, str] = {}
        """The cut-out drawn where each sight was taken (by the sight's id)."""

    def __call__(self, image, region=None):
        return [
            self._seen(replace(r, die=Die(self.misread[r.value], None), confidence=0.95))
            if r.value in self.misread
            else self._seen(r)
            for r in super().__call__(image, region)
        ]

    def _seen(self, r):
        t = self.table.last.truth
        cx, cy = (r.bbox[0] + r.bbox[2]) / 2, (r.bbox[1] + r.bbox[3]) / 2
        near = min(
            range(len(t.dice)),
            key=lambda i: (
                abs((t.boxes[i][0] + t.boxes[i][2]) / 2 - cx)
                + abs((t.boxes[i][1] + t.boxes[i][3]) / 2 - cy)
            ),
        )
        sight = Sight(np.zeros(1, np.float32), np.zeros((64, 64, 3), np.uint8))
        self.drawn[id(sight)] = t.dice[near].color
        return replace(r, sight=sight)

    def teach(self, seen, values, colours=None, turns=False):
        assert turns
        self.taught += [(self.drawn[id(s)], v) for s, v in zip(seen, values, strict=True)]
        return len(seen)


def test_looks_are_one_sources_cut_outs_of_one_kind_all_close_in_colour():
    from zonkcam.sim.cutouts import DieKind, lab_distance

    bench = _bench()
    red = DieKind("red", False, True)
    a, b, c = (40.0, 40.0, 200.0), (40.0, 40.0, 185.0), (40.0, 40.0, 170.0)
    assert lab_distance(a, b) < bench.LOOK_LAB < lab_distance(a, c)
    assert lab_distance(b, c) < bench.LOOK_LAB
    cuts = [
        _cut(1, "p1", 0, red, a),
        _cut(2, "p2", 0, red, a),
        _cut(3, "p3", 0, red, b),
        _cut(4, "p4", 0, red, c),  # near b, not near a: not one look with both
        _cut(5, "p5", 0, DieKind("amber", False, True), a),  # another kind
        _cut(6, "p6", 0, red, a, source="other"),  # another source
    ]
    looks = bench.looks_of(cuts)
    assert sorted(sorted(c.value for c in lk.cuts) for lk in looks) == [[1, 2, 3], [4], [5], [6]]
    assert all(
        lab_distance(x.body_bgr, y.body_bgr) <= bench.LOOK_LAB
        for lk in looks
        for x in lk.cuts
        for y in lk.cuts
    )
    assert not any(lk.qualifies for lk in looks)


def test_the_meeting_and_the_throws_take_other_cut_outs_from_other_photos():
    bench = _bench()
    cuts = _three_dice()
    dice = bench.TableDice.choose(cuts, 6, np.random.default_rng(0))
    assert len(dice.looks) == 3 and dice.qualifying == {"src": 3}  # six wanted, three there
    assert "6 wanted, only 3 there" in dice.lines()[0]
    met = set(dice.meeting.values())
    assert len(met) == 18 and {(c.value, c.kind) for c in met} == {
        (v, lk.kind) for lk in dice.looks for v in range(1, 7)
    }
    thrown = dice.throw_cuts
    assert len(thrown) == 36 and not met & set(thrown)
    assert not {c.group for c in met} & {c.group for c in thrown} and dice.shared == 0
    # a look whose 6s were photographed only once together: they share that photo, and say so
    lone = [c for c in cuts if c.value != 6 or c.group == "v6-0"]
    lone = [*lone, _cut(6, "v6-0", 9, cuts[0].kind, cuts[0].body_bgr)]
    dice = bench.TableDice.choose(lone, 1, np.random.default_rng(0))
    assert dice.shared >= 1 and "from a photo the meeting's come from" in dice.lines()[-1]


@pytest.mark.slow
def test_meet_faces_teaches_each_dies_meeting_cut_outs_and_the_throws_never_use_one():
    bench = _bench()
    dice = bench.TableDice.choose(_three_dice(), 3, np.random.default_rng(0))
    pool = bench.Pool.of_looks(dice)
    readers = []

    def reader_for(cal, table):
        readers.append(_Teachable(table, misread={4: 2}))  # every 4 read a sure 2
        return readers[-1]

    records, meeting = bench.run_session(
        pool, reader_for, throws=4, seed=0, size=(640, 480), faces=True
    )
    (reader,) = readers
    wanted = {(c.key, v) for (_, v), c in dice.meeting.items() if v != 4}
    assert set(reader.taught) == wanted and len(reader.taught) == 15
    assert (meeting.laid, meeting.taught, meeting.other, meeting.cocked) == (18, 15, 3, 0)
    assert meeting.unseen == meeting.extra == 0
    met = {c.key for c in dice.meeting.values()}
    thrown = {d.color for rec in records for d in rec.arrived}
    assert sum(rec.step == bench.Step.THROW for rec in records) == 4
    assert thrown and not thrown & met and thrown <= {c.key for c in dice.throw_cuts}


@pytest.mark.slow
@pytest.mark.shared
@pytest.mark.skipif(not (SHARED / "real-dice-dev").is_dir(), reason="no ../shared datasets")
def test_meet_faces_on_one_sources_real_dice_reports_the_meeting(capsys):
    rc = _bench().main(
        ["--throws", "1", "--meet", "faces", "--source-only", "epanemu", "--json"]
        + ["--size", "640x480"]
    )
    assert rc == 0
    res = json.loads(capsys.readouterr().out)
    looks = len(res["dice"]["looks"])
    assert res["meet"] == "faces" and 1 <= looks <= 6 and res["dice"]["qualifying"]["epanemu"]
    m = res["meeting"]
    assert m["laid"] + m["extra"] == m["taught"] + m["pointed_out"] + m["unseen"]
    assert m["laid"] == 6 * looks
    assert res["dice"]["meeting_cut_outs"] == 6 * looks and res["total"]["throws"] == 1
