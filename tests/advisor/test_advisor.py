"""The advisor: published optima reproduced exactly, an independent oracle, the engine's
legality, monotone values, and the advice the table sees."""

from __future__ import annotations

import dataclasses
import functools
import itertools
import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from zonkcam.advisor.advice import Advisor, Best, Objective
from zonkcam.advisor.model import TurnModel
from zonkcam.advisor.points import long_run, solve_points
from zonkcam.advisor.solver import Solver
from zonkcam.app.demo import DemoDriver
from zonkcam.app.players import AutoPlayer
from zonkcam.controls import ROLL
from zonkcam.game import PRESETS, Die, Game, Phase, load_rules, parse_dice, score_roll
from zonkcam.game import actions as A
from zonkcam.game.dice import DETROIT_DICE
from zonkcam.game.engine import allowed, options_for
from zonkcam.game.state import PiggybackOffer

DATA = Path(__file__).parents[1] / "data"
FARKLE = load_rules(str(DATA / "farkle.toml"))
ZILCH = load_rules(str(DATA / "zilch.toml"))
TABLES = {**PRESETS, "farkle": FARKLE, "zilch": ZILCH}


@functools.cache
def solver(rules):
    return Solver(TurnModel(rules))


def optimum(rules, cap=20_000, on_board=True):
    s = solver(rules)
    return solve_points(s, [on_board], [0.0], cap).roll(s.model.start, 0)


# -- published figures ----------------------------------------------------------------------


def test_busche_neller_farkle_single_turn_optimum_is_446_571():
    # "Optimal Play of the Farkle Dice Game" (Busche & Neller, 2017): 1s, 5s and three of
    # a kind only, six dice, no minimum, hot dice roll on
    assert round(optimum(FARKLE), 3) == 446.571


def test_busche_zilch_long_run_average_is_620_855():
    # "Maximizing Expected Scores in the Game of Zilch" (Busche, 2010): three strategies,
    # for 0, 1 and 2 zilches in a row, average 620.855 points a turn
    result = long_run(solver(ZILCH))
    assert round(result.average, 3) == 620.855
    h = result.relative
    assert h[0] == 0 and 0 > h[1] > h[2]  # each zilch in a row makes the next one dearer


def test_zonk_chances_per_number_of_dice_are_exact():
    assert TurnModel(FARKLE).zonk_chances() == {
        1: Fraction(2, 3),
        2: Fraction(4, 9),
        3: Fraction(5, 18),
        4: Fraction(17, 108),
        5: Fraction(25, 324),
        6: Fraction(5, 162),
    }
    three_pairs = dataclasses.replace(
        FARKLE, points=dataclasses.replace(FARKLE.points, three_pairs=500)
    )
    assert TurnModel(three_pairs).zonk_chances()[6] == Fraction(5, 216)


@pytest.mark.parametrize("name", ["classic-10000", "detroit", "all-johnnys"])
def test_zonk_chances_agree_with_scoring_every_roll(name):
    rules = PRESETS[name]
    model = TurnModel(rules)
    for n, chance in model.zonk_chances().items():
        zonks = sum(
            score_roll(rules, tuple(map(Die, faces))).zonk
            for faces in itertools.product(range(1, 7), repeat=n)
        )
        if rules.points.colour_pairs and n == 6:
            continue  # colour pairs need coloured dice: checked below
        assert chance == Fraction(zonks, 6**n)


def test_detroit_colour_pairs_chances_count_every_coloured_roll():
    rules = PRESETS["detroit"]
    colours = ("white", "white", "red", "red", "green", "green")
    zonks = 0
    for faces in itertools.product((2, 3, 4, 6), repeat=6):  # only these can zonk
        zonks += score_roll(
            rules, tuple(Die(f, c) for f, c in zip(faces, colours, strict=True))
        ).zonk
    assert TurnModel(rules).zonk_chances()[6] == Fraction(zonks, 6**6)


# -- the bound on turn totals -------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(TABLES))
def test_the_turn_total_bound_does_not_move_the_optimum(name):
    # totals above the bound are played as bank-at-the-first-chance; doubling the bound
    # moves the start-of-turn optimum by less than a millionth of a point
    rules = TABLES[name]
    assert abs(optimum(rules, 20_000) - optimum(rules, 40_000)) < 1e-6


# -- an independent oracle: plain recursion over (turn total, dice) ------------------------------


def oracle_optimum(rules, bank_from=0, cap=20_000):
    """Expected points of a turn under optimal play, by memoised recursion on the engine's
    scoring (no set-aside context, so only for tables without it)."""
    dice = rules.dice
    rolls = {}
    for n in range(1, dice + 1):
        rolls[n] = []
        for faces in itertools.combinations_with_replacement(range(1, 7), n):
            ways = math.factorial(n)
            for f in range(1, 7):
                ways //= math.factorial(faces.count(f))
            keeps = score_roll(rules, tuple(map(Die, faces))).keeps
            rolls[n].append((ways / 6**n, [(n - len(k.dice), k.points) for k in keeps]))
    pair = 4 / 36 if rules.two_dice_pair_reroll else 0.0  # 2-2, 3-3, 4-4, 6-6: throw again

    @functools.cache
    def free(t, n):  # the player may bank
        return max(roll(t, n), t) if t >= bank_from else roll(t, n)

    @functools.cache
    def roll(t, n):
        if t >= cap:
            return t
        total = 0.0
        for chance, keeps in rolls[n]:
            options = [0.0]
            for left, points in keeps:
                if left == 0:
                    hot = free if rules.hot_dice == "may" else roll
                    options.append(hot(t + points, dice))
                else:
                    options.append((free if rules.bank_after_keep else roll)(t + points, left))
            total += chance * max(options)
        return total / (1 - pair) if n == 2 else total

    return roll(0, dice)


@pytest.mark.parametrize("name", ["classic-10000", "chicago", "farkle"])
def test_solver_agrees_with_plain_recursion(name):
    rules = dataclasses.replace(TABLES[name], entry_minimum=0)
    s = solver(rules)
    bank_from = rules.bank_minimum
    expected = oracle_optimum(rules, bank_from)
    got = solve_points(s, [True], [0.0], 20_000).roll(s.model.start, 0)
    assert got == pytest.approx(expected, abs=1e-6)


# -- properties: legal advice, monotone values -------------------------------------------------


@pytest.mark.parametrize("name", sorted(TABLES))
def test_values_never_fall_as_the_turn_total_rises(name):
    rules = TABLES[name]
    values, _ = ADVISOR.points(rules)
    S = values.solver.n_positions
    grid = values.X[: values.n_grid + 1, : 2 * S, :]
    assert (np.diff(grid, axis=0) >= -1e-9).all()
    bank = values.X[: values.n_grid + 1, values.solver.BANK0, :]
    allowed_bank = bank[np.isfinite(bank)]
    assert (np.diff(allowed_bank) >= 0).all()


ADVISOR = Advisor()
GAME_SETTINGS = settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def advised_action(advice, state):
    if advice.best is Best.BANK:
        return A.Bank()
    if advice.best is Best.KEEP:
        return A.Keep(advice.best_keep)
    if advice.best is Best.GO_FOR_1000:
        return A.GoFor1000()
    if advice.best is Best.REROLL:
        return A.Reroll()
    if advice.best is Best.PASS:
        return A.Pass()
    if advice.best is Best.PIGGYBACK:
        return A.Piggyback()
    return None  # roll: the dice decide


def random_roll(data, state):
    n = 1 if state.phase is Phase.GO_FOR_1000 else state.turn.dice_to_roll
    faces = data.draw(st.lists(st.integers(1, 6), min_size=n, max_size=n))
    if state.rules.points.colour_pairs and n == 6:
        if data.draw(st.booleans()):
            faces[1], faces[3], faces[5] = faces[0], faces[2], faces[4]
        return A.Roll(tuple(Die(f, c) for f, c in zip(faces, DETROIT_DICE, strict=True)))
    return A.Roll(tuple(Die(f) for f in faces))


@pytest.mark.parametrize("name", sorted(TABLES))
@GAME_SETTINGS
@given(data=st.data())
def test_advice_is_always_an_action_the_engine_accepts(name, data):
    rules = (
        dataclasses.replace(TABLES[name], target=3000)
        if TABLES[name].end != "turns"
        else dataclasses.replace(TABLES[name], turns=3)
    )
    game = Game(rules)
    game.play(A.Players(("Ann", "Bob", "Cy")[: data.draw(st.integers(1, 3))]))
    for _ in range(60):
        state = game.state
        if state.finished:
            break
        advice = ADVISOR.advise(state)
        assert advice is not None
        assert advice.bank is None or allowed(state, A.Bank())
        if state.phase is Phase.DECIDE:
            assert any(k.go_for_1000 for k in advice.keeps) == allowed(state, A.GoFor1000())
            keeps = [k for k in advice.keeps if not k.go_for_1000]
            assert [k.dice for k in keeps] == [k.dice for k in state.turn.score.keeps]
            for k in advice.keeps:  # the engine's own keeps (above), valued consistently
                assert k.value == max(v for v in (k.roll, k.bank) if v is not None)
        action = advised_action(advice, state)
        if action is not None:
            assert allowed(state, action), (advice, state.turn)
            if data.draw(st.integers(0, 3)):  # mostly follow the advice
                game.play(action)
                continue
        if state.phase in (Phase.ROLL, Phase.GO_FOR_1000):
            game.play(random_roll(data, state))
        elif state.phase is Phase.DECIDE:
            game.play(A.Keep(data.draw(st.sampled_from(state.turn.score.keeps)).dice))
        elif state.phase is Phase.PAIR:
            game.play(A.Reroll())


# -- the advice a table sees ---------------------------------------------------------------


def seated(rules, names=("Ann", "Bob", "Cy")):
    game = Game(rules)
    game.play(A.Players(tuple(names)))
    return game


def set_scores(game, **scores):
    for p in game.state.players:
        if p.name in scores:
            p.score, p.on_board = scores[p.name], True
    game.state.options = options_for(game.state)  # changed by hand: what the rules accept


def offer(game, total, dice):
    """The start of a turn straight after Cy banked ``total`` with ``dice`` left."""
    game.state.offer = PiggybackOffer(total, dice, "Cy")
    game.state.options = options_for(game.state)


def test_last_turn_of_the_final_round_plays_to_beat_the_leader():
    # the demo players banked 350 at 7,750 against 10,750 on their last turn: a sure loss
    game = seated(PRESETS["classic-10000"])
    set_scores(game, Ann=10_750, Bob=7_750, Cy=6_000)
    game.state.final_round_by = 0
    game.state.current = 1
    for action in (A.Roll(parse_dice([3, 3, 3, 5, 4])), A.Keep((3, 3, 3, 5))):
        game.play(action)
    state = game.state
    assert (state.player.name, state.turn.total, state.turn.dice_to_roll) == ("Bob", 350, 1)
    assert allowed(state, A.Bank())
    advice = ADVISOR.advise(state)
    assert advice.objective is Objective.LAST_TURN
    assert advice.best is Best.ROLL and advice.bank == 0.0  # banking 350 cannot win
    assert 0 < advice.roll < 0.05
    assert not AutoPlayer().wants_to_bank(state)


@pytest.mark.parametrize("lead", [50, 350, 1_000, 3_000])
def test_the_demo_players_never_bank_a_sure_loss_on_a_last_turn(lead):
    """Last turns of a final round played out by the demo's players with random dice: a
    bank leaves the banker at least level with the leader, whatever the lead."""
    import random

    player = AutoPlayer(ADVISOR)
    banked = 0
    for seed in range(25):
        game = seated(PRESETS["classic-10000"])
        set_scores(game, Ann=10_000 + lead, Bob=10_000, Cy=9_000)
        game.state.final_round_by, game.state.current = 0, 1
        rng = random.Random(seed)
        while game.state.player.name == "Bob" and not game.state.finished:
            state = game.state
            action = player.next_action(state, rng)
            after = game.play(action)
            if isinstance(action, A.Bank):
                banked += 1
                assert after.players[1].score >= after.players[0].score, (seed, state.turn)
    assert lead > 1_000 or banked  # small leads are caught and banked now and then


def test_a_bank_that_reaches_the_target_on_an_instant_table_is_the_advice():
    game = seated(PRESETS["chicago"])
    set_scores(game, Ann=9_900)
    for action in (A.Roll(parse_dice([1, 2, 2, 3, 4])), A.Keep((1,))):
        game.play(action)
    advice = ADVISOR.advise(game.state)
    assert advice.objective is Objective.POINTS
    assert advice.best is Best.BANK and "wins" in advice.note
    # the same 100 with four dice far from the target: expected points say roll on
    set_scores(game, Ann=5_000)
    assert ADVISOR.advise(game.state).best is Best.ROLL


def test_the_entry_minimum_refuses_the_bank_and_the_advice_knows():
    game = seated(PRESETS["classic-10000"])
    for action in (A.Roll(parse_dice([3, 3, 3, 5, 4])), A.Keep((3, 3, 3, 5))):
        game.play(action)
    assert not allowed(game.state, A.Bank())
    advice = ADVISOR.advise(game.state)
    assert advice.bank is None and advice.best is Best.ROLL
    set_scores(game, Ann=2_000)  # on the board: 350 with one die left is banked
    advice = ADVISOR.advise(game.state)
    assert advice.bank == 350 and advice.best is Best.BANK


def test_a_rich_piggyback_is_taken_and_a_poor_one_left():
    game = seated(PRESETS["chicago"])
    offer(game, 1_500, 4)
    advice = ADVISOR.advise(game.state)
    assert advice.best is Best.PIGGYBACK and allowed(game.state, A.Piggyback())
    assert AutoPlayer().wants_piggyback(game.state)
    offer(game, 100, 1)
    assert ADVISOR.advise(game.state).best is Best.ROLL


def test_a_pair_is_thrown_again():
    game = seated(PRESETS["classic-10000"])
    set_scores(game, Ann=2_000)
    for action in (
        A.Roll(parse_dice([1, 1, 1, 2, 3])),
        A.Keep((1, 1, 1)),
        A.Roll(parse_dice([4, 4])),
    ):
        game.play(action)
    assert game.state.phase is Phase.PAIR
    advice = ADVISOR.advise(game.state)
    assert advice.best is Best.REROLL and advice.roll > 0


def test_go_for_1000_is_worth_a_sixth_of_hot_dice_with_1000():
    rules = PRESETS["all-johnnys"]
    game = seated(rules)
    set_scores(game, Ann=3_000)
    game.play(A.Roll(parse_dice([1, 2, 3, 4, 6, 6])))
    advice = ADVISOR.advise(game.state)
    go = next(k for k in advice.keeps if k.go_for_1000)
    values, keys = ADVISOR.points(rules)
    model = values.model
    assert go.value == pytest.approx(values.free(model.hot, 1000, keys[(True, 0)]) / 6)
    assert allowed(game.state, A.GoFor1000())


def test_keep_values_are_what_rolling_on_or_banking_after_them_is_worth():
    rules = FARKLE
    game = seated(rules)
    game.play(A.Roll(parse_dice([1, 1, 5, 2, 3, 4])))
    advice = ADVISOR.advise(game.state)
    values, keys = ADVISOR.points(rules)
    p, model = keys[(True, 0)], values.model
    by_dice = {k.dice: k for k in advice.keeps}
    one = by_dice[(1,)]
    five_left = model.find(model.canonical(5))
    assert one.roll == pytest.approx(values.roll(five_left, 100, p))
    assert one.bank == 100 and one.dice_left == 5
    assert one.zonk_chance == pytest.approx(25 / 324)
    assert advice.bank == 250  # taking the points: the best keep, 1 1 5


class FakeTable:
    """What DemoDriver asks of the demo table, recorded."""

    busy = False

    def __init__(self) -> None:
        self.did: list[tuple] = []

    def throw(self, n):
        self.did.append(("throw", n))

    def pick_up(self):
        self.did.append(("pick up",))

    def keep(self, dice):
        self.did.append(("keep", tuple(dice)))


def test_the_demo_players_do_what_the_advisor_says():
    table = FakeTable()
    driver = DemoDriver(table, AutoPlayer(ADVISOR))
    game = seated(PRESETS["chicago"])
    offer(game, 1_500, 4)
    assert driver.step(game.state) == [ROLL]  # ROLL at the start of a turn: piggyback
    game = seated(PRESETS["chicago"])
    game.play(A.Roll(parse_dice([1, 5, 5, 3, 4])))
    assert driver.step(game.state) == []
    assert table.did[-1] == ("keep", ADVISOR.advise(game.state).best_keep)


def test_a_piggyback_on_one_die_is_said_in_the_singular():
    game = seated(PRESETS["chicago"])
    offer(game, 2_000, 1)
    advice = ADVISOR.advise(game.state)
    assert advice.best is Best.PIGGYBACK
    assert advice.note == "piggyback: 2000 with 1 die"


def test_a_final_turn_is_solved_once_per_lead_and_harder_the_further_behind():
    rules = PRESETS["classic-10000"]
    advisor = Advisor()
    near, far = advisor.final_turn(rules, 50, True), advisor.final_turn(rules, 3000, True)
    assert advisor.final_turn(rules, 3000, True) is far  # kept, not solved again
    start = advisor.model(rules).start
    assert 0 < far.roll(start, 0) < near.roll(start, 0) < 1
