"""Rules whose advisor tables would eat the Pi are refused where rules are loaded, and the
advisor and the solver allocate nothing past the cap (zonkcam/game/sizes.py).

The memory bombs run in a fresh process under an address-space limit, so that a table
allocated blindly ends that process (MemoryError) and not the test run.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import random
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from zonkcam.advisor import advice
from zonkcam.advisor.advice import Advisor, Objective
from zonkcam.advisor.model import TurnModel
from zonkcam.advisor.points import CAP
from zonkcam.advisor.race import SOLVE_CAP, last_turn_grid, solve_bytes, threshold, unsupported
from zonkcam.advisor.solver import Solver
from zonkcam.game import PRESETS, GameState, Phase, PlayerState, RulesError, load_rules
from zonkcam.game.rules import TABLES, Straight, rules_from_dict
from zonkcam.game.sizes import (
    TABLE_CAP,
    TableTooLarge,
    advisor_tables,
    positions_bound,
    step_of,
    top_keep,
)
from zonkcam.game.state import TurnState

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
LIMIT = 2 * 2**30
"""Address space of the process a bomb runs in (2 GB)."""

BOMBS = {
    # name: (TOML, what the refusal names)
    "straight": (
        'base = "classic-10000"\n[points]\nstraights = [{ faces = "2", points = 1000000000 }]\n',
        "points.straights (2) = 1,000,000,000",
    ),
    "go-for-1000": (
        'base = "all-johnnys"\ngo_for_1000 = 1000000000\n',
        "go_for_1000 = 1,000,000,000",
    ),
    "straight-completion": (
        'base = "all-johnnys"\nstraight_completion = 1000000000\n',
        "straight_completion = 1,000,000,000",
    ),
    "three-of-a-kind": (
        'base = "chicago"\n[points]\nthree_of_a_kind = 1000000000\n',
        "points.three_of_a_kind = 1,000,000,000",
    ),
    "megas": (
        'base = "all-johnnys"\n[points]\nsix_ones = 500000000\n',
        "points.six_ones = 500,000,000",
    ),
    "target": ('base = "classic-10000"\ntarget = 1000000000\n', "target = 1,000,000,000"),
    "entry-minimum": (
        'base = "classic-10000"\nentry_minimum = 1000000000\n',
        "entry_minimum = 1,000,000,000",
    ),
}


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (LIMIT, LIMIT))


def capped(*args: str, stdin: str = "", timeout: float = 120) -> subprocess.CompletedProcess:
    """``zonkcam ARGS`` in a fresh process limited to 2 GB of address space."""
    return subprocess.run(
        [sys.executable, "-m", "zonkcam", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
        preexec_fn=_limited,
    )


def refused_in_one_line(proc: subprocess.CompletedProcess, *words: str) -> str:
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 2, (proc.returncode, proc.stderr[-2000:])
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr[-2000:]
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


def bomb_file(tmp_path: Path, name: str) -> Path:
    path = tmp_path / f"{name}.toml"
    path.write_text(f'name = "{name}"\n' + BOMBS[name][0], encoding="utf-8")
    return path


# -- rules validation -----------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(BOMBS))
def test_rules_check_refuses_each_bomb_naming_the_key_the_value_and_the_cap(tmp_path, name):
    path = bomb_file(tmp_path, name)
    line = refused_in_one_line(capped("rules", "check", str(path)), BOMBS[name][1])
    assert line.startswith(f"zonkcam rules: {path}: ")
    assert "over the cap of 64 MB" in line


@pytest.mark.parametrize(
    "args",
    [
        ("advise", "--rules", "{file}"),
        ("advise", "--rules", "{file}", "--roll", "2", "2", "2", "2", "2"),
        ("solve", "--rules", "{file}"),
        ("score", "--rules", "{file}", "1", "5"),
        ("play", "--text", "--rules", "{file}", "--players", "Ann", "Bob", "--db", "{db}"),
        ("play", "--source", "demo", "--rules", "{file}", "--fast", "--games", "1", "--db", "{db}"),
    ],
    ids=["advise", "advise-roll", "solve", "score", "play-text", "demo"],
)
def test_every_command_that_loads_the_bomb_refuses_it_in_one_line(tmp_path, args):
    path = bomb_file(tmp_path, "straight")
    argv = [a.format(file=path, db=tmp_path / "g.db") for a in args]
    proc = capped(*argv, stdin="odds\nroll 22222\nodds\nquit\n")
    refused_in_one_line(proc, "points.straights (2) = 1,000,000,000", "over the cap of 64 MB")
    assert not proc.stdout or "zonk_chance" not in proc.stdout


def test_a_game_that_carries_the_bomb_is_not_imported(tmp_path):
    game = tmp_path / "game.jsonl"
    rules = {
        "base": "classic-10000",
        "name": "bomb",
        "points": {"straights": [{"faces": "2", "points": 1_000_000_000}]},
    }
    lines = [{"rules": rules}, {"players": ["Ann", "Bob"]}, {"roll": [2, 2, 2, 2, 2]}]
    game.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    db = tmp_path / "g.db"
    proc = capped("games", "import", str(game), "--db", str(db))
    refused_in_one_line(
        proc, f"{game} line 1: its rules: points.straights (2) = 1,000,000,000", "64 MB"
    )
    assert not db.exists() or "bomb" not in db.read_bytes().decode("latin-1")


def test_the_rules_loader_refuses_the_bomb_everywhere_rules_come_from():
    data = {"base": "chicago", "points": {"three_of_a_kind": 1_000_000_000}}
    with pytest.raises(RulesError, match=r"^game 3 rules: points.three_of_a_kind = 1,000,000,000"):
        rules_from_dict(data, where="game 3 rules")
    with pytest.raises(RulesError, match="over the cap of 64 MB"):
        dataclasses.replace(PRESETS["all-johnnys"], go_for_1000=1_000_000_000)


def test_a_table_where_nothing_scores_is_refused_in_one_line(tmp_path):
    zero = tmp_path / "zero.toml"
    zero.write_text(
        'base = "classic-10000"\nname = "zero"\n[points]\nsingle_one = 0\nsingle_five = 0\n'
        "three_ones = 0\nthree_of_a_kind = 0\nextra_die = 0\nfull_house = 0\nstraights = []\n",
        encoding="utf-8",
    )
    for action in ("check", "show"):
        refused_in_one_line(
            capped("rules", action, str(zero)),
            "nothing ever scores at this table",
            "points.single_one",
        )
    # two dice cannot roll three of a kind: only triples scoring is nothing either
    two = tmp_path / "two.toml"
    two.write_text(
        'base = "chicago"\ndice = 2\nname = "pairs"\n'
        "[points]\nsingle_one = 0\nsingle_five = 0\nstraights = []\n",
        encoding="utf-8",
    )
    refused_in_one_line(capped("rules", "check", str(two)), "no combination its 2 dice")


def test_a_table_that_scores_only_a_roll_of_nothing_is_shown():
    rules = rules_from_dict(
        {
            "base": "classic-10000",
            "points": {
                "single_one": 0,
                "single_five": 0,
                "three_ones": 0,
                "three_of_a_kind": 0,
                "extra_die": 0,
                "full_house": 0,
                "straights": [],
                "nothing": 500,
            },
        }
    )
    from zonkcam.commands.rules import rules_in_words

    assert "nothing scores (instead of a zonk; hot dice)  500" in rules_in_words(rules)


def real_tables():
    tables = {f.stem: f for f in sorted(TABLES.glob("*.toml"))}
    tables |= {f"tests/data/{f.name}": f for f in sorted(DATA.glob("*.toml"))}
    return tables


@pytest.mark.parametrize("name", sorted(real_tables()))
def test_the_presets_and_the_test_tables_are_accepted(name):
    path = real_tables()[name]
    proc = subprocess.run(
        [sys.executable, "-m", "zonkcam", "rules", "check", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert proc.returncode == 0 and ": OK (" in proc.stdout, proc.stderr
    rules = load_rules(str(path))
    assert advisor_tables(rules).bytes < 3_000_000  # every real table is far under the cap


# -- the boundary ----------------------------------------------------------------------------


def straight_table(tmp_path: Path, points: int) -> Path:
    path = tmp_path / f"straight-{points}.toml"
    path.write_text(
        f'base = "chicago"\nname = "long run"\n[points]\n'
        f'straights = [{{ faces = "12345", points = {points} }}]\n',
        encoding="utf-8",
    )
    return path


# chicago's tables: 5 dice, 5 positions (18 rows), one problem, turn totals in steps of 50:
# 8 bytes x (18 rows + 5 + 4) = 216 bytes a column; 64,000,000 // 216 = 296,296 columns =
# 400 up to 20,000, the total itself, and 295,895 steps of 50 a keep may add
AT_CAP = 295_895 * 50


def test_a_table_exactly_at_the_cap_is_accepted_and_one_step_more_is_refused(tmp_path):
    at = load_rules(str(straight_table(tmp_path, AT_CAP)))
    assert 0 <= TABLE_CAP - advisor_tables(at).bytes < 216  # no whole column more fits
    ok = capped("rules", "check", str(straight_table(tmp_path, AT_CAP)))
    assert ok.returncode == 0 and "OK (long run, 5 dice)" in ok.stdout, ok.stderr
    refused_in_one_line(
        capped("rules", "check", str(straight_table(tmp_path, AT_CAP + 50))),
        "points.straights (1-2-3-4-5) = 14,794,800",
        "table 64.0002 MB, over the cap of 64 MB",
    )


def test_a_table_at_the_cap_is_advised_on_within_the_memory_it_was_allowed(tmp_path):
    path = straight_table(tmp_path, AT_CAP)
    proc = capped("advise", "--rules", str(path), "--roll", "1", "2", "3", "4", "5")
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = json.loads(proc.stdout)
    assert out["best"] in ("bank", "keep") and out["keeps"][0]["points"] == AT_CAP
    solver = Solver(TurnModel(load_rules(str(path))))
    assert solver.table_bytes(CAP // 50, 1) <= advisor_tables(solver.model.rules).bytes


# -- the bound holds for every table a turn model builds -------------------------------------


def random_structures(count: int = 12) -> list:
    """Tables with every rule that adds positions, straights of every length and odd
    points (a step under 50), on 3 to 6 dice."""
    rng = random.Random(66)
    faces = [c for k in range(1, 6) for c in itertools.combinations(range(1, 7), k)]
    out: list = []
    for n in itertools.count():
        if len(out) == count:
            return out
        johnnys = n % 2 == 1
        base = PRESETS["all-johnnys" if johnnys else "classic-10000"]
        dice = 6 if johnnys else rng.choice([3, 4, 5, 6])
        straights = tuple(
            Straight(c, rng.randrange(1, 60) * 50) for c in rng.sample(faces, rng.randrange(0, 12))
        )
        doubles = not johnnys and rng.random() < 0.3
        points = dataclasses.replace(
            base.points,
            straights=tuple(s for s in straights if len(s.faces) <= dice),
            single_one=rng.choice([0, 100, 150]),
            single_five=rng.choice([25, 50, 100]),
            three_of_a_kind=rng.choice([30, 100]),
            extra_die=0 if doubles else rng.choice([7, 100]),
            extra_die_doubles=doubles,
            full_house=rng.choice([0, 250, 333]),
            nothing=0 if johnnys else rng.choice([0, 500]),
            three_pairs=rng.choice([0, 1500]) if dice == 6 else 0,
        )
        changes = {"dice": dice, "name": f"structure {n}"}
        if dice == 6:
            changes["straight_completion"] = rng.choice([0, 750, 3000, 100_000])
            changes["go_for_1000"] = rng.choice([0, 1000, 1001])
        try:
            out.append(dataclasses.replace(base, points=points, **changes))
        except RulesError:  # past the cap (a step of 1 with a big bonus): refused
            continue
    return out


def checked_tables():
    tables = [load_rules(str(f)) for f in real_tables().values()]
    return tables + random_structures()


@pytest.mark.parametrize("rules", checked_tables(), ids=lambda r: r.name)
def test_validation_bounds_every_table_the_advisor_builds(rules):
    solver = Solver(TurnModel(rules))
    assert len(solver.model.positions) <= positions_bound(rules)
    assert solver.step % step_of(rules)[0] == 0
    assert solver.max_shift * solver.step <= top_keep(rules)[0]
    bound = advisor_tables(rules).bytes
    problems = (2 if rules.entry_minimum else 1) * (3 if rules.three_zonk_penalty else 1)
    problems = 6 if rules.three_zonk_penalty else problems  # the long run
    assert solver.table_bytes(-(-CAP // solver.step), problems) <= bound
    if rules.end == "final-round":
        lead = rules.target + CAP  # the leads validation answers for
        for on_board in (True, False):
            grid = last_turn_grid(solver, lead, threshold(rules, on_board))
            assert solver.table_bytes(grid, 1) <= bound


# -- the advisor and the solver never allocate past the cap ----------------------------------


def test_the_solver_refuses_a_table_past_its_cap_before_allocating():
    solver = Solver(TurnModel(PRESETS["classic-10000"]), cap=10_000_000)
    solver.fit(400, 2)  # 0.2 MB
    with pytest.raises(TableTooLarge, match=r"would take 43 MB, over the cap of 10 MB"):
        solver.fit(100_000, 2)


LEAD_SCRIPT = """
import sys
from zonkcam.advisor.advice import Advisor
from zonkcam.game.rules import PRESETS
from zonkcam.game.state import GameState, Phase, PlayerState, TurnState
rules = PRESETS["classic-10000"]
for lead in (3000, 10**9):
    leader = PlayerState("Ann", score=10_000 + lead, on_board=True)
    me = PlayerState("Bob", score=10_000, on_board=True)
    turn = TurnState(phase=Phase.ROLL, total=0, dice_to_roll=5)
    state = GameState(rules=rules, players=[leader, me], current=1, turn=turn, final_round_by=0)
    advice = Advisor().advise(state)
    print(lead, advice.objective, advice.best)
"""


def test_a_lead_past_any_table_the_cap_allows_gets_points_advice():
    # a last turn 1,000,000,000 behind would be a table of 20,000,000 turn totals (4 GB)
    proc = subprocess.run(
        [sys.executable, "-c", LEAD_SCRIPT],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        preexec_fn=_limited,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.splitlines() == ["3000 last turn roll", "1000000000 points roll"]


def test_the_per_score_tables_kept_stay_under_their_cap(monkeypatch):
    rules = PRESETS["classic-10000"]
    last = [Advisor().final_turn(rules, lead, True).X.nbytes for lead in (700, 800, 900)]
    monkeypatch.setattr(advice, "KEEP_BYTES", sum(last))
    advisor = Advisor()
    for lead in range(0, 1000, 100):
        advisor.final_turn(rules, lead, True)
        assert sum(v.X.nbytes for v in advisor._last.values()) <= sum(last)
    assert [key[1] for key in advisor._last] == [700, 800, 900]  # the latest that fit


def state_at(rules, me: int, leader: int) -> GameState:
    players = [PlayerState("Ann", score=leader, on_board=True), PlayerState("Bob", score=me)]
    turn = TurnState(phase=Phase.ROLL, total=0, dice_to_roll=rules.dice)
    return GameState(rules=rules, players=players, current=1, turn=turn, final_round_by=0)


def test_a_normal_last_turn_is_still_advised_as_one():
    rules = PRESETS["classic-10000"]
    assert Advisor().objective(state_at(rules, 8000, 10_500)) is Objective.LAST_TURN


# -- the two-player race: `solve` says when it would pass its own cap ------------------------


def test_the_presets_races_fit_the_solve_cap():
    for name in ("classic-10000", "chicago", "detroit", "drinking"):
        assert unsupported(PRESETS[name]) is None
        assert solve_bytes(PRESETS[name]) < 400_000_000


def test_solve_says_a_race_past_its_cap_is_not_solved(tmp_path):
    path = tmp_path / "long.toml"
    path.write_text('base = "chicago"\nname = "long"\ntarget = 1000000000\n', encoding="utf-8")
    proc = capped("solve", "--rules", str(path))
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr[-2000:]
    last = proc.stdout.strip().splitlines()[-1]
    assert last.startswith("no two-player table: long's race to 1,000,000,000 would take")
    assert f"over the cap of {SOLVE_CAP // 1_000_000:,} MB" in last
    with pytest.raises(ValueError, match="over the cap of 1,000 MB"):
        from zonkcam.advisor.race import build

        build(load_rules(str(path)))
