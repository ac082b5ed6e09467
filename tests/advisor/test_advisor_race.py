"""Two players: the solved race against plain value iteration on tiny tables."""

from __future__ import annotations

import functools
import itertools
import math

import numpy as np
import pytest

from zonkcam.advisor.advice import Advisor, Best, Objective
from zonkcam.advisor.race import build, unsupported
from zonkcam.game import PRESETS, Die, Game, parse_dice, score_roll
from zonkcam.game import actions as A
from zonkcam.game.rules import rules_from_dict

pytestmark = pytest.mark.slow  # whole races solved both ways: `make check` leaves them out


STEP = 50


def rolls_of(rules):
    out = {}
    for n in range(1, rules.dice + 1):
        out[n] = []
        for faces in itertools.combinations_with_replacement(range(1, 7), n):
            ways = math.factorial(n)
            for f in range(1, 7):
                ways //= math.factorial(faces.count(f))
            keeps = score_roll(rules, tuple(map(Die, faces))).keeps
            out[n].append((ways / 6**n, [(n - len(k.dice), k.points) for k in keeps]))
    return out


def last_turn_oracle(rules, lead, on_board, cap=3_000):
    """A last turn's chance to end more than ``lead`` up (a tie half), by recursion."""
    rolls = rolls_of(rules)
    thr = max(rules.bank_minimum, 0 if on_board else rules.entry_minimum)

    def pay(t):
        return -1.0 if t < thr else (1.0 if t > lead else 0.5 if t == lead else 0.0)

    @functools.cache
    def free(t, n):
        return 1.0 if pay(t) == 1.0 else max(roll(t, n), pay(t))

    @functools.cache
    def roll(t, n):
        if t > lead + cap:
            return 1.0
        total = 0.0
        for chance, keeps in rolls[n]:
            best = 0.0
            for left, points in keeps:
                best = max(best, free(t + points, left or rules.dice))
            total += chance * best
        return total

    return roll(0, rules.dice)


def turn_oracle(rules, rolls, a, b, W, pig, last):
    """The turn of the player at scores (a, b) (in steps) against the values ``W`` and
    ``pig`` of the opponent's turns: ``roll(t, n)`` by recursion on the turn total."""
    thr = max(rules.bank_minimum, 0 if a > 0 else rules.entry_minimum)

    def bank(t, left):
        if t < thr:
            return -1.0
        if a * STEP + t >= rules.target:
            if rules.end == "instant":
                return 1.0
            return 1.0 - last(a * STEP + t - b * STEP, b)
        them = W[b, a + t // STEP]
        if rules.piggyback and 0 < left < rules.dice:
            them = max(them, pig.get((b, a + t // STEP, left, t), them))
        return 1.0 - them

    @functools.cache
    def free(t, n):
        now = bank(t, 0 if n == rules.dice else n)
        return now if now >= 1.0 else max(roll(t, n), now)

    zonk = {n: sum(c for c, k in rolls[n] if not k) for n in rolls}

    @functools.cache
    def roll(t, n):
        if t > rules.target + 3_000:
            return 1.0
        total = (1 - W[b, a]) * zonk[n]
        for chance, keeps in rolls[n]:
            if keeps:
                total += chance * max(free(t + p, left or rules.dice) for left, p in keeps)
        return total

    return roll


def race_oracle(rules, sweeps=400):
    """W[a, b] by value iteration: each sweep plays every turn out by recursion on the
    turn total against the values so far (hot dice: may bank)."""
    size = -(-rules.target // STEP)
    rolls = rolls_of(rules)
    W = np.full((size, size), 0.5)
    pig = {}

    @functools.cache
    def last(lead, b):
        return last_turn_oracle(rules, lead, b > 0 or not rules.entry_minimum)

    for _ in range(sweeps):
        old, new_pig = W.copy(), {}
        for a, b in itertools.product(range(size), repeat=2):
            roll = turn_oracle(rules, rolls, a, b, W, pig, last)
            W[a, b] = roll(0, rules.dice)
            if rules.piggyback:
                for k, t in itertools.product(
                    range(1, rules.dice), range(STEP, (size + 1) * STEP, STEP)
                ):
                    new_pig[(a, b, k, t)] = roll(t, k)
        pig = new_pig
        if np.abs(W - old).max() < 1e-10:
            break
    return W


TINY_INSTANT = rules_from_dict({"name": "tiny", "dice": 3, "target": 400, "end": "instant"})
TINY_FINAL = rules_from_dict(
    {
        "name": "tiny final",
        "dice": 2,
        "target": 250,
        "end": "final-round",
        "bank_minimum": 100,
        "entry_minimum": 150,
    }
)
TINY_PIGGYBACK = rules_from_dict(
    {"name": "tiny pig", "dice": 3, "target": 300, "end": "instant", "piggyback": True}
)


@pytest.mark.parametrize("rules", [TINY_INSTANT, TINY_FINAL, TINY_PIGGYBACK], ids=lambda r: r.name)
def test_race_agrees_with_value_iteration(rules):
    table = build(rules)
    expected = race_oracle(rules)
    assert np.abs(table.win - expected).max() < 1e-7


@pytest.mark.parametrize("rules", [TINY_INSTANT, TINY_FINAL, TINY_PIGGYBACK], ids=lambda r: r.name)
def test_the_start_of_every_turn_is_its_turn_values(rules):
    table = build(rules)
    start = table.solver.model.start
    for a, b in [(0, 0), (0, 100), (150, 50), (250, 0)]:
        if max(a, b) < table.size * table.step:
            assert table.turn_values(a, b).roll(start, 0) == pytest.approx(
                table.chance(a, b), abs=1e-9
            )


SMALL_CLASSIC = rules_from_dict({"name": "small", "base": "classic-10000", "target": 1200})


@functools.cache
def small_classic():
    return build(SMALL_CLASSIC)


def test_more_points_never_lower_the_chance_to_win():
    table = small_classic()
    W = table.win
    assert ((W >= -1e-12) & (W <= 1 + 1e-12)).all()
    assert (np.diff(W, axis=0) >= -1e-9).all()  # more of my points: never worse
    assert (np.diff(W, axis=1) <= 1e-9).all()  # more of theirs: never better
    assert W[0, 0] > 0.5  # going first is worth something


def test_tables_cover_races_to_a_target_on_points():
    assert unsupported(PRESETS["all-johnnys"]) is not None
    for name in ("classic-10000", "chicago", "detroit", "drinking"):
        assert unsupported(PRESETS[name]) is None
    assert "penalty" in unsupported(rules_from_dict({"three_zonk_penalty": 500}))


def test_two_players_with_a_table_get_win_advice():
    rules, table = SMALL_CLASSIC, small_classic()
    advisor = Advisor({rules: table})
    game = Game(rules)
    game.play(A.Players(("Ann", "Bob")))
    advice = advisor.advise(game.state)
    assert advice.objective is Objective.WIN
    assert advice.win_chance == pytest.approx(table.chance(0, 0))
    game.play(A.Roll(parse_dice([1, 1, 1, 5, 3])))
    advice = advisor.advise(game.state)
    assert advice.objective is Objective.WIN and advice.best in (Best.KEEP, Best.BANK)
    assert 0 < advice.win_chance <= 1
    # a third player: expected points again
    game = Game(rules)
    game.play(A.Players(("Ann", "Bob", "Cy")))
    assert advisor.advise(game.state).objective is Objective.POINTS
