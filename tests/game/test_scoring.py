"""Scoring single rolls: every worked number of docs/rules.md and its sources, keeps, zonk odds."""

from __future__ import annotations

import dataclasses
import itertools
from fractions import Fraction

import pytest

from zonkcam.game import PRESETS, Die, parse_dice, score_roll
from zonkcam.game.errors import BadDiceError, IllegalKeepError
from zonkcam.game.rules import Points, rules_from_dict
from zonkcam.game.scoring import RollContext, clear_keep_cache, colours_needed

CLASSIC = PRESETS["classic-10000"]
JOHNNYS = PRESETS["all-johnnys"]
CHICAGO = PRESETS["chicago"]
DETROIT = PRESETS["detroit"]
DRINKING = PRESETS["drinking"]


def best_points(rules, roll, context=None) -> int:
    best = score_roll(rules, parse_dice(roll), context).best
    return 0 if best is None else best.points


def keep_points(rules, roll, keep, context=None) -> int:
    return score_roll(rules, parse_dice(roll), context).keep_for(keep).points


# -- the common core ----------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(PRESETS))
@pytest.mark.parametrize(
    ("roll", "keep", "points"),
    [
        ([1, 2, 3, 4, 6], [1], 100),
        ([5, 2, 3, 4, 6], [5], 50),
        ([2, 2, 2, 3, 4], [2, 2, 2], 200),
        ([3, 3, 3, 2, 4], [3, 3, 3], 300),
        ([4, 4, 4, 2, 3], [4, 4, 4], 400),
        ([5, 5, 5, 2, 3], [5, 5, 5], 500),
        ([6, 6, 6, 2, 3], [6, 6, 6], 600),
        ([1, 1, 1, 2, 3], [1, 1, 1], 1000),
        ([1, 5, 2, 3, 6], [1, 5], 150),
        ([1, 1, 2, 3, 4], [1, 1], 200),
    ],
)
def test_common_combinations_in_every_table(name, roll, keep, points):
    assert keep_points(PRESETS[name], roll, keep) == points


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_keeping_fewer_scoring_dice_is_legal(name):
    # docs/rules.md: roll 1,5,5,6,6: keeping just the 1 is legal.
    score = score_roll(PRESETS[name], parse_dice([1, 5, 5, 6, 6]))
    assert score.keep_for([1]).points == 100
    assert score.keep_for([5]).points == 50
    assert score.keep_for([1, 5, 5]).points == 200
    assert score.best.points == 200
    assert sorted(score.best.dice) == [1, 5, 5]


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_non_scoring_die_in_a_keep_is_refused(name):
    score = score_roll(PRESETS[name], parse_dice([1, 5, 5, 6, 6]))
    with pytest.raises(IllegalKeepError, match="scoring"):
        score.keep_for([1, 6])
    with pytest.raises(IllegalKeepError, match="roll was"):
        score.keep_for([1, 1])  # only one 1 was rolled
    with pytest.raises(IllegalKeepError):
        score.keep_for([])


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_zonk_iff_nothing_scores(name):
    rules = PRESETS[name]
    zonk = score_roll(rules, parse_dice([2, 3, 4, 6, 6]))
    assert zonk.zonk and zonk.best is None and zonk.keeps == ()
    with pytest.raises(IllegalKeepError, match="nothing"):
        zonk.keep_for([2])
    assert not score_roll(rules, parse_dice([2, 3, 4, 6, 5])).zonk


def test_keeps_are_sorted_best_first():
    score = score_roll(CLASSIC, parse_dice([1, 1, 5, 2, 2]))
    points = [k.points for k in score.keeps]
    assert points == sorted(points, reverse=True)
    assert {k.dice: k.points for k in score.keeps} == {
        (1,): 100,
        (5,): 50,
        (1, 1): 200,
        (1, 5): 150,
        (1, 1, 5): 250,
    }


def test_without_a_rule_for_more_of_a_kind():
    # docs/rules.md: six of a kind scores as two triples; a fourth die scores only as 1 or 5.
    six = dataclasses.replace(DETROIT, points=dataclasses.replace(DETROIT.points, colour_pairs=0))
    assert keep_points(six, [2, 2, 2, 2, 2, 2], [2, 2, 2, 2, 2, 2]) == 400
    assert keep_points(CHICAGO, [4, 4, 4, 4, 1], [4, 4, 4, 1]) == 500
    with pytest.raises(IllegalKeepError):
        score_roll(CHICAGO, parse_dice([4, 4, 4, 4, 1])).keep_for([4, 4, 4, 4])
    assert keep_points(CHICAGO, [5, 5, 5, 5, 2], [5, 5, 5, 5]) == 550
    assert keep_points(CHICAGO, [1, 1, 1, 1, 2], [1, 1, 1, 1]) == 1100
    assert keep_points(DETROIT, [1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1]) == 2000


# -- classic-10000 ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("roll", "keep", "points"),
    [
        ([4, 4, 4, 4, 6], [4, 4, 4, 4], 500),  # the classic source: four 4s = 400 + 100
        ([3, 3, 3, 3, 3], [3, 3, 3, 3, 3], 500),  # the classic source: five 3s = 300 + 100 + 100
        ([1, 1, 1, 1, 2], [1, 1, 1, 1], 1100),  # docs/rules.md: four 1s
        ([6, 6, 6, 6, 6], [6, 6, 6, 6, 6], 800),  # the classic source: Nathan's "Yahtzee" = 800
        ([4, 4, 4, 5, 5], [4, 4, 4, 5, 5], 500),  # the classic source: full house
        ([2, 2, 2, 3, 3], [2, 2, 2, 3, 3], 500),  # full house of non-scoring faces
        ([2, 3, 4, 5, 6], [2, 3, 4, 5, 6], 1000),  # the classic source: straight 2-6
        ([1, 2, 3, 4, 5], [1, 2, 3, 4, 5], 1000),  # the classic source: straight 1-5
        ([2, 2, 2, 4, 6], [2, 2, 2], 200),  # the classic source: Chris keeps the three 2s
        ([3, 3, 3, 4, 5], [3, 3, 3, 5], 350),  # the classic source: the 350 turn
        ([1, 2, 4, 6, 6], [1], 100),  # the classic source: Nathan's first roll
        ([1, 3, 4, 5, 2], [1, 5], 150),
    ],
)
def test_classic_worked_numbers(roll, keep, points):
    assert keep_points(CLASSIC, roll, keep) == points


def test_classic_full_house_is_not_a_three_and_two_singles_when_worth_less():
    # Three 2s and a pair of 1s: 200 + 200 = 400 < full house 500.
    assert best_points(CLASSIC, [2, 2, 2, 1, 1]) == 500
    # Three 1s and a pair of 5s: 1,000 + 100 beats the full house.
    assert best_points(CLASSIC, [1, 1, 1, 5, 5]) == 1100


def test_classic_full_house_needs_two_different_faces():
    # Five 2s are 200 + 100 + 100, not a full house of 2s over 2s.
    assert best_points(CLASSIC, [2, 2, 2, 2, 2]) == 400
    assert score_roll(CLASSIC, parse_dice([2, 2, 2, 2, 2])).best.combos == ("five 2s",)


@pytest.mark.parametrize("roll", [[2, 3, 4, 5, 6], [2, 2, 2, 3, 3]])
def test_classic_all_dice_combos_need_all_five_dice(roll):
    # With only four of the five dice rolled there is no straight or full house.
    four = roll[:4]
    partial = score_roll(CLASSIC, parse_dice(four))
    assert all(k.points < 500 for k in partial.keeps)
    ctx = RollContext(full_roll=False)
    assert best_points(CLASSIC, roll, ctx) < 500


# -- all-johnnys --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("roll", "keep", "points"),
    [
        ([6, 6, 6, 6, 2, 3], [6, 6, 6, 6], 700),  # four 6s = 600 + 100
        ([4, 4, 4, 2, 3, 6], [4, 4, 4], 400),
        ([1, 1, 1, 2, 3, 4], [1, 1, 1], 1000),
        ([1, 2, 3, 4, 5, 6], [1, 2, 3, 4, 5, 6], 2000),
        ([3, 3, 3, 3, 3, 3], [3, 3, 3, 3, 3, 3], 3000),  # megas: six 3s
        ([2, 2, 2, 2, 2, 2], [2, 2, 2, 2, 2, 2], 2000),
        ([6, 6, 6, 6, 6, 6], [6, 6, 6, 6, 6, 6], 6000),
        ([1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1], 10_000),  # mega-ones
        ([5, 5, 5, 5, 5, 2], [5, 5, 5, 5, 5], 700),
    ],
)
def test_all_johnnys_worked_numbers(roll, keep, points):
    assert keep_points(JOHNNYS, roll, keep) == points


def test_all_johnnys_sixes_and_run_need_all_six_dice():
    partial = RollContext(full_roll=False)
    # five 3s rolled with five dice: 300 + 100 + 100, not a mega
    assert keep_points(JOHNNYS, [3, 3, 3, 3, 3], [3, 3, 3, 3, 3]) == 500
    # 1-2-3-4-5 with five dice is no run: only the 1 and the 5 score
    assert best_points(JOHNNYS, [1, 2, 3, 4, 5]) == 150
    assert best_points(JOHNNYS, [1, 2, 3, 4, 5, 6], partial) == 150


def test_all_johnnys_carry_over_context():
    # A set-aside three 6s makes each later 6 of the cycle worth 100.
    ctx = RollContext(
        full_roll=False, carried=frozenset({6}), set_aside=(6, 6, 6), set_aside_points=600
    )
    assert keep_points(JOHNNYS, [6, 2, 3], [6], ctx) == 100
    assert keep_points(JOHNNYS, [6, 6, 2], [6, 6], ctx) == 200
    # A later 5 after three 5s is worth 100, not 50.
    ctx5 = RollContext(
        full_roll=False, carried=frozenset({5}), set_aside=(5, 5, 5), set_aside_points=500
    )
    assert keep_points(JOHNNYS, [5, 2, 3], [5], ctx5) == 100
    # Without the carried triple a single 6 scores nothing.
    assert score_roll(JOHNNYS, parse_dice([6, 2, 3]), RollContext(full_roll=False)).zonk


def test_all_johnnys_straight_completion_context():
    # Set aside a 1, then roll 2-3-4-5-6: 750 in place of the 100 -> the keep adds 650.
    ctx = RollContext(full_roll=False, set_aside=(1,), set_aside_points=100)
    assert keep_points(JOHNNYS, [2, 3, 4, 5, 6], [2, 3, 4, 5, 6], ctx) == 650
    # Set aside 1 and 5 (150), roll 2-3-4-6: 750 in place of 150.
    ctx2 = RollContext(full_roll=False, set_aside=(1, 5), set_aside_points=150)
    assert keep_points(JOHNNYS, [2, 3, 4, 6], [2, 3, 4, 6], ctx2) == 600
    # No completion when the faces do not make 1-6.
    ctx3 = RollContext(full_roll=False, set_aside=(1,), set_aside_points=100)
    assert score_roll(JOHNNYS, parse_dice([2, 3, 4, 6, 6]), ctx3).zonk


# -- chicago, detroit, drinking -----------------------------------------------------------


@pytest.mark.parametrize("run", [[1, 2, 3, 4, 5], [2, 3, 4, 5, 6], [6, 5, 4, 3, 2]])
def test_chicago_run_is_1500(run):
    assert best_points(CHICAGO, run) == 1500


def test_chicago_run_needs_all_five_dice():
    assert best_points(CHICAGO, [2, 3, 4, 5]) == 50
    assert best_points(CHICAGO, [2, 3, 4, 5, 6], RollContext(full_roll=False)) == 50


def test_detroit_run_is_1000():
    assert best_points(DETROIT, [1, 2, 3, 4, 5, 6]) == 1000
    assert best_points(DETROIT, [6, 4, 2, 1, 3, 5]) == 1000
    assert best_points(DETROIT, [1, 2, 3, 4, 5]) == 150  # no run with five dice


def test_detroit_colour_pairs_are_1000():
    # Seed: both reds 2, both whites 3, both greens 4.
    dice = parse_dice(["2r", "2r", "3w", "3w", "4g", "4g"])
    score = score_roll(DETROIT, dice)
    assert score.best.points == 1000
    assert score.best.dice == (2, 2, 3, 3, 4, 4)
    # The same values with the colours mixed up are a zonk.
    mixed = parse_dice(["2r", "2w", "3r", "3g", "4w", "4g"])
    assert score_roll(DETROIT, mixed).zonk
    # Without colours nobody can tell: no colour pairs.
    assert score_roll(DETROIT, parse_dice([2, 2, 3, 3, 4, 4])).zonk


def test_six_equal_detroit_dice_are_colour_pairs_whatever_their_colours():
    # both whites, both reds and both greens show the one number: no colours needed
    plain = score_roll(DETROIT, parse_dice([3, 3, 3, 3, 3, 3]))
    coloured = score_roll(DETROIT, parse_dice(["3w", "3r", "3g", "3w", "3r", "3g"]))
    assert plain.best.points == coloured.best.points == 1000
    assert plain.best.combos == ("colour pairs",)
    assert colours_needed(DETROIT, parse_dice([3, 3, 3, 3, 3, 3])) is None
    assert colours_needed(DETROIT, parse_dice([3, 3, 3, 3, 4, 4])) is not None
    # with fewer dice rolled there are no pairs to make
    assert score_roll(DETROIT, parse_dice([3, 3, 3, 3, 3])).best.points == 300


def test_detroit_colour_pairs_need_all_six_dice():
    dice = parse_dice(["2r", "2r", "3w", "3w"])
    assert score_roll(DETROIT, dice).zonk


def test_detroit_colour_pairs_with_scoring_faces_take_the_better_partition():
    # 1-1 white, 5-5 red, 1-1 green: colour pairs 1,000 against three 1s + 1 + 5 + 5 = 1,200
    dice = parse_dice(["1w", "1w", "5r", "5r", "1g", "1g"])
    assert score_roll(DETROIT, dice).best.points == 1200
    # 2-2 white, 2-2 red, 6-6 green: colour pairs 1,000 beats three 2s (200)
    dice = parse_dice(["2w", "2w", "2r", "2r", "6g", "6g"])
    assert score_roll(DETROIT, dice).best.points == 1000


@pytest.mark.parametrize("roll", [[2, 2, 2, 5, 1, 3], [2, 2, 2, 5, 1, 6], [2, 2, 2, 5, 1]])
def test_detroit_combinations_add_up_three_2s_a_5_and_a_1(roll):
    assert best_points(DETROIT, roll) == 350
    assert keep_points(DETROIT, roll, [1, 2, 2, 2, 5]) == 350


def test_drinking_run_is_only_1_to_5():
    assert best_points(DRINKING, [1, 2, 3, 4, 5]) == 1500
    assert best_points(DRINKING, [5, 3, 1, 4, 2]) == 1500
    # 2-3-4-5-6 is not a run here: only the 5 scores
    assert best_points(DRINKING, [2, 3, 4, 5, 6]) == 50
    assert best_points(DRINKING, [2, 2, 2, 3, 3]) == 200  # and no full house


# -- dice ---------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", [0, 7, -1, "8", "x", 2.5, True])
def test_die_values_outside_1_to_6_are_refused(bad):
    with pytest.raises(BadDiceError):
        parse_dice([1, bad])


def test_die_colours_parse():
    dice = parse_dice(["2w", "2r", "3g"])
    assert dice == (Die(2, "white"), Die(2, "red"), Die(3, "green"))
    with pytest.raises(BadDiceError, match="colour"):
        parse_dice(["2w", 3])
    with pytest.raises(BadDiceError):
        parse_dice(["2z"])


def test_too_many_dice_for_the_table_are_refused():
    with pytest.raises(BadDiceError, match="5 dice"):
        score_roll(CLASSIC, parse_dice([1, 2, 3, 4, 5, 6]))
    with pytest.raises(BadDiceError):
        score_roll(CLASSIC, ())


# -- exact zonk chances -------------------------------------------------------------------

ONES_FIVES_TRIPLES = rules_from_dict({"dice": 6, "name": "ones-fives-triples"})


def test_ones_fives_triples_rules_are_what_they_say():
    p = ONES_FIVES_TRIPLES.points
    assert p == Points()  # defaults: 1s, 5s, triples, three 1s; nothing else
    assert p.extra_die == p.full_house == p.six_of_a_kind == p.six_ones == p.colour_pairs == 0
    assert p.straights == ()


@pytest.mark.parametrize(
    ("n", "zonks"),
    [(1, 4), (2, 16), (3, 60), (4, 204), (5, 600), (6, 1440)],
)
def test_exact_zonk_chances_by_enumeration(n, zonks):
    total = zonk_count = 0
    for faces in itertools.product(range(1, 7), repeat=n):
        total += 1
        zonk_count += score_roll(ONES_FIVES_TRIPLES, tuple(Die(f) for f in faces)).zonk
    assert total == 6**n
    assert Fraction(zonk_count, total) == Fraction(zonks, 6**n)


def test_zonk_chance_presets_agree_where_no_extra_combo_can_rescue():
    # Classic adds straights, full houses and four/five of a kind; with five dice and
    # no 1, 5 or triple none of them can be rolled, so the zonk count is still 600.
    count = sum(
        score_roll(CLASSIC, tuple(Die(f) for f in faces)).zonk
        for faces in itertools.product(range(1, 7), repeat=5)
    )
    assert count == 600
    # Detroit's run needs a 1 and a 5; with no colours read there are no colour pairs.
    count = sum(
        score_roll(DETROIT, tuple(Die(f) for f in faces)).zonk
        for faces in itertools.product(range(1, 7), repeat=6)
    )
    assert count == 1440
    # All-johnnys megas and run always contain a triple, a 1 or a 5: still 1,440.
    replaced = dataclasses.replace(JOHNNYS, carry_over_extras=False)
    count = sum(
        score_roll(replaced, tuple(Die(f) for f in faces)).zonk
        for faces in itertools.product(range(1, 7), repeat=6)
    )
    assert count == 1440


# -- options for other published tables: doubling, three pairs, nothing scores ----------------

ZILCH_POINTS = rules_from_dict(
    {
        "dice": 6,
        "name": "zilch points",
        "points": {"extra_die_doubles": True, "three_pairs": 1500, "nothing": 500},
    }
)


@pytest.mark.parametrize(
    ("roll", "keep", "points"),
    [
        ([2, 2, 2, 2, 3, 4], [2, 2, 2, 2], 400),  # each die beyond three doubles
        ([2, 2, 2, 2, 2, 4], [2, 2, 2, 2, 2], 800),
        ([1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1], 8000),
        ([2, 2, 3, 3, 4, 4], [2, 2, 3, 3, 4, 4], 1500),  # three pairs
        ([2, 2, 2, 2, 3, 3], [2, 2, 2, 2, 3, 3], 1500),  # four of a kind and a pair
        ([2, 2, 3, 4, 6, 6], [2, 2, 3, 4, 6, 6], 500),  # nothing scores
    ],
)
def test_zilch_options_score_what_they_say(roll, keep, points):
    assert score_roll(ZILCH_POINTS, parse_dice(roll)).keep_for(keep).points == points


def test_three_pairs_and_nothing_need_all_six_dice():
    five = score_roll(ZILCH_POINTS, parse_dice([2, 2, 3, 3, 4]))
    assert five.zonk  # no three pairs with five dice, and nothing scores only with six
    ctx = RollContext(full_roll=False)
    assert score_roll(ZILCH_POINTS, parse_dice([2, 2, 3, 3, 4, 4]), ctx).zonk


def test_nothing_is_never_offered_beside_a_scoring_keep():
    score = score_roll(ZILCH_POINTS, parse_dice([1, 2, 3, 4, 6, 6]))
    assert [k.dice for k in score.keeps] == [(1,)]


def test_a_cleared_keep_cache_works_each_roll_out_afresh():
    rules, dice = PRESETS["classic-10000"], parse_dice([1, 1, 5, 2, 3])
    kept = score_roll(rules, dice).keeps
    assert score_roll(rules, dice).keeps is kept  # the roll's keeps, from the cache
    clear_keep_cache()
    again = score_roll(rules, dice).keeps
    assert again == kept and again is not kept
