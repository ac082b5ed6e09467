"""Rule sets: the presets say what docs/rules.md says; custom tables load from TOML."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from zonkcam.game import PRESETS, Game, RulesError, load_rules, parse_dice, score_roll
from zonkcam.game import actions as A
from zonkcam.game.errors import BankError
from zonkcam.game.rules import Points, rules_from_dict, rules_to_toml

DATA = Path(__file__).parents[1] / "data"

# -- presets match docs/rules.md -------------------------------------------------------


def test_the_five_tables():
    assert set(PRESETS) == {"classic-10000", "all-johnnys", "chicago", "detroit", "drinking"}
    dice = {name: r.dice for name, r in PRESETS.items()}
    assert dice == {"classic-10000": 5, "all-johnnys": 6, "chicago": 5, "detroit": 6, "drinking": 5}


def test_preset_table_options():
    c, j, ch, d, dr = (
        PRESETS[n] for n in ("classic-10000", "all-johnnys", "chicago", "detroit", "drinking")
    )
    assert (c.target, c.entry_minimum, c.bank_minimum, c.hot_dice, c.end) == (
        10_000,
        1000,
        300,
        "may",
        "final-round",
    )
    assert c.two_dice_pair_reroll
    assert (j.turns, j.end, j.winner_by, j.entry_minimum, j.hot_dice) == (
        21,
        "turns",
        "bees",
        1000,
        "may",
    )
    assert j.bees and j.newbie and j.frames and j.carry_over_extras
    assert (j.go_for_1000, j.straight_completion) == (1000, 750)
    for t in (ch, d):
        assert (t.target, t.hot_dice, t.end, t.piggyback) == (10_000, "must", "instant", True)
    assert (dr.target, dr.entry_minimum, dr.hot_dice, dr.bank_after_keep) == (
        10_000,
        350,
        "must",
        False,
    )
    dk = dr.drinking
    assert dk.penalties and dk.board_images and dk.barrier_handouts and dk.zonk_names
    assert (dk.rule_turn_over, dk.rule_first_to, dk.rule_exact) == (
        1000,
        (2500, 5000, 7500),
        (5150,),
    )


def test_load_rules_by_preset_name():
    for name, rules in PRESETS.items():
        assert load_rules(name) == rules


def test_unknown_preset_name():
    with pytest.raises(RulesError, match="classic-10000"):
        load_rules("yahtzee")


# -- round trip ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_round_trips_through_toml(name, tmp_path):
    rules = PRESETS[name]
    text = rules_to_toml(rules)
    assert rules_from_dict(tomllib.loads(text)) == rules
    path = tmp_path / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    assert load_rules(str(path)) == rules


# -- a custom table -----------------------------------------------------------------------

CUSTOM = """
base = "classic-10000"
name = "kitchen table"
target = 5000
bank_minimum = 0
hot_dice = "must"

[points]
full_house = 750
straights = [{faces = "12345", points = 1200}]
"""


def test_a_custom_table_loads(tmp_path):
    path = tmp_path / "kitchen.toml"
    path.write_text(CUSTOM, encoding="utf-8")
    rules = load_rules(str(path))
    assert rules.name == "kitchen table"
    assert (rules.target, rules.bank_minimum, rules.hot_dice) == (5000, 0, "must")
    # the rest comes from the base preset
    assert rules.entry_minimum == 1000 and rules.two_dice_pair_reroll
    assert rules.points.extra_die == 100
    # and it plays by those numbers
    assert score_roll(rules, parse_dice([2, 2, 2, 3, 3])).best.points == 750
    assert score_roll(rules, parse_dice([1, 2, 3, 4, 5])).best.points == 1200
    assert score_roll(rules, parse_dice([2, 3, 4, 5, 6])).best.points == 50  # 2-6 dropped
    game = Game(rules)
    for a in (
        {"players": ["A", "B"]},
        {"roll": [1, 1, 1, 2, 3]},
        {"keep": [1, 1, 1]},
        {"roll": [5, 3]},
        {"keep": [5]},
    ):
        game.play(A.action_from_json(a))
    assert game.state.turn.total == 1050
    # hot_dice = "must": a straight after the first roll may not be banked
    game = Game(rules)
    game.play(A.action_from_json({"players": ["A", "B"]}))
    game.play(A.action_from_json({"roll": [1, 2, 3, 4, 5]}))
    with pytest.raises(BankError, match="sets every die aside"):
        game.play(A.Bank())


def test_a_table_without_base_starts_from_plain_rules():
    rules = rules_from_dict({"dice": 6, "target": 3000})
    assert rules.dice == 6 and rules.target == 3000
    assert score_roll(rules, parse_dice([1, 2, 3, 4, 5, 6])).best.points == 150


@pytest.mark.parametrize(
    ("data", "key"),
    [
        ({"targett": 5000}, "targett"),
        ({"base": "classic-10000", "bank_min": 300}, "bank_min"),
        ({"points": {"fullhouse": 500}}, "fullhouse"),
        ({"drinking": {"penalty": True}}, "penalty"),
    ],
)
def test_a_wrong_key_names_the_key(data, key):
    with pytest.raises(RulesError) as info:
        rules_from_dict(data)
    assert key in str(info.value)


@pytest.mark.parametrize(
    ("data", "key"),
    [
        ({"target": "lots"}, "target"),
        ({"target": True}, "target"),
        ({"dice": 5.5}, "dice"),
        ({"entry_minimum": -100}, "entry_minimum"),
        ({"piggyback": "yes"}, "piggyback"),
        ({"hot_dice": 1}, "hot_dice"),
        ({"points": {"full_house": True}}, "full_house"),
        ({"points": {"straights": "12345"}}, "straights"),
        ({"points": {"straights": [{"faces": 12345, "points": 1000}]}}, "straights"),
        ({"drinking": {"rule_first_to": 2500}}, "rule_first_to"),
        ({"drinking": {"zonk_names": 1}}, "zonk_names"),
        ({"points": 5}, "points"),
    ],
)
def test_a_wrong_value_type_names_the_key(data, key):
    with pytest.raises(RulesError) as info:
        rules_from_dict(data)
    assert key in str(info.value)


@pytest.mark.parametrize(
    ("data", "word"),
    [
        ({"dice": 7}, "dice"),
        ({"hot_dice": "sometimes"}, "hot_dice"),
        ({"end": "never"}, "end"),
        ({"base": "yahtzee"}, "base"),
        ({"points": {"straights": [{"faces": "1234567", "points": 1}]}}, "straight"),
        ({"winner_by": "bees"}, "bees"),
        ({"points": {"three_pairs": 1500}}, "three_pairs"),
        ({"points": {"extra_die": 100, "extra_die_doubles": True}}, "extra_die_doubles"),
        ({"base": "all-johnnys", "points": {"nothing": 500}}, "newbie"),
        ({"points": {"nothing": -1}}, "nothing"),
        ({"three_zonk_penalty": "500"}, "three_zonk_penalty"),
    ],
)
def test_impossible_values_are_refused_with_the_key(data, word):
    with pytest.raises(RulesError) as info:
        rules_from_dict(data)
    assert word in str(info.value)


def test_toml_file_errors_name_the_file_and_key(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('base = "chicago"\ntarget = "ten thousand"\n', encoding="utf-8")
    with pytest.raises(RulesError) as info:
        load_rules(str(path))
    assert "target" in str(info.value) and "bad.toml" in str(info.value)
    path.write_text("target = = 3\n", encoding="utf-8")
    with pytest.raises(RulesError, match="TOML"):
        load_rules(str(path))
    with pytest.raises(RulesError, match="does not exist"):
        load_rules(str(tmp_path / "missing.toml"))


# -- the published tables (tests/data) -----------------------------------------------


def test_zilch_table_says_what_busche_played():
    rules = load_rules(str(DATA / "zilch.toml"))
    p = rules.points
    assert (rules.dice, rules.bank_minimum, rules.entry_minimum, rules.three_zonk_penalty) == (
        6,
        300,
        0,
        500,
    )
    assert (p.extra_die_doubles, p.three_pairs, p.nothing) == (True, 1500, 500)
    assert [(s.faces, s.points) for s in p.straights] == [((1, 2, 3, 4, 5, 6), 1500)]
    assert rules_from_dict(tomllib.loads(rules_to_toml(rules))) == rules


def test_farkle_table_is_ones_fives_and_triples_only():
    rules = load_rules(str(DATA / "farkle.toml"))
    assert rules.dice == 6 and rules.points == Points()
    assert (rules.entry_minimum, rules.bank_minimum, rules.end) == (0, 0, "instant")


def test_the_rule_choices_are_enums_and_their_words_round_trip(tmp_path):
    from zonkcam.game import RuleSet
    from zonkcam.game.rules import End, HotDice, WinnerBy

    for rules in PRESETS.values():
        assert isinstance(rules.end, End) and isinstance(rules.hot_dice, HotDice)
        assert isinstance(rules.winner_by, WinnerBy)
        path = tmp_path / "t.toml"
        path.write_text(rules_to_toml(rules))
        assert f'end = "{rules.end.value}"' in path.read_text()
        assert load_rules(str(path)).end is rules.end
    given = RuleSet(name="x", end="turns", turns=3, hot_dice="must")
    assert given.end is End.TURNS and given.hot_dice is HotDice.MUST
    with pytest.raises(RulesError, match="end must be one of 'final-round', 'instant', 'turns'"):
        RuleSet(name="x", end="later")


def test_the_presets_are_data_one_file_per_table():
    from zonkcam.game.rules import PRESET_NAMES, TABLES

    assert sorted(p.stem for p in TABLES.glob("*.toml")) == sorted(PRESET_NAMES)
    for name in PRESET_NAMES:  # each file reads as the preset, as a custom table would
        assert load_rules(str(TABLES / f"{name}.toml")) == PRESETS[name]
