"""Playing whole turns and games: every table rule of docs/rules.md and the narrated classic game.

Expected numbers come from the rule documents, worked out by hand in the comments.
"""

from __future__ import annotations

import copy
import dataclasses

import pytest

from tests.game.options_helpers import check_options
from zonkcam.game import PRESETS, Game, Phase, TableError
from zonkcam.game import actions as A
from zonkcam.game.engine import apply, new_game, replay
from zonkcam.game.errors import (
    BadDiceError,
    BankError,
    GameOverError,
    IllegalKeepError,
    PlayerError,
    TurnError,
)
from zonkcam.game.rules import rules_from_dict

CLASSIC = PRESETS["classic-10000"]
JOHNNYS = PRESETS["all-johnnys"]
CHICAGO = PRESETS["chicago"]
DETROIT = PRESETS["detroit"]
DRINKING = PRESETS["drinking"]

# A first roll that zonks, per number of dice (no 1, no 5, no triple, no run).
ZONK = {2: [2, 3], 3: [2, 3, 4], 4: [2, 3, 4, 6], 5: [2, 3, 4, 6, 6], 6: [2, 2, 3, 4, 6, 6]}


def act(obj):
    return A.action_from_json(obj) if isinstance(obj, dict) else obj


def play(rules, actions, game=None) -> Game:
    game = game or Game(rules)
    for a in actions:
        game.play(act(a))
    return game


def who(game, name):
    return next(p for p in game.state.players if p.name == name)


def zonk_turn(rules):
    return [{"roll": ZONK[rules.dice]}]


def refused(game, action, exc, match=None):
    """The action raises ``exc`` (message matching) and changes nothing at all."""
    before = copy.deepcopy(game.state.to_json())
    events = list(game.events)
    with pytest.raises(exc, match=match) as info:
        game.play(act(action))
    assert game.state.to_json() == before
    assert game.events == events
    # apply() on the same state is refused too and leaves that state as it was
    with pytest.raises(exc):
        apply(game.state, act(action))
    assert game.state.to_json() == before
    return info.value


# -- the narrated classic game (tests/data/narrated-classic.jsonl) ----------------------

SEED_000 = [
    {"players": ["Nathan", "Chris", "Miguel"]},
    # Nathan: 1 (100), 1+5 (250), pair 4-4 re-rolled, 3-4: zonk
    {"roll": [1, 2, 4, 6, 6]},
    {"keep": [1]},
    {"roll": [1, 3, 4, 5]},
    {"keep": [1, 5]},
    {"roll": [4, 4]},
    {"reroll": True},
    {"roll": [3, 4]},
    # Chris: full house 500, hot dice, four 4s -> 1,000, stop
    {"roll": [4, 4, 4, 5, 5]},
    {"keep": [4, 4, 4, 5, 5]},
    {"roll": [4, 4, 4, 4, 6]},
    {"keep": [4, 4, 4, 4]},
    {"bank": True},
    # Miguel is watching The Phantom Menace: crossed off
    {"leave": "Miguel"},
    # Nathan: five 6s = 800, hot dice, 2-2-3-4-6: zonk
    {"roll": [6, 6, 6, 6, 6]},
    {"keep": [6, 6, 6, 6, 6]},
    {"roll": [2, 2, 3, 4, 6]},
    # Chris: straight 1,000, straight 2,000, three 2s 2,200, stop -> 3,200
    {"roll": [2, 3, 4, 5, 6]},
    {"keep": [2, 3, 4, 5, 6]},
    {"roll": [1, 2, 3, 4, 5]},
    {"keep": [1, 2, 3, 4, 5]},
    {"roll": [2, 2, 2, 4, 6]},
    {"keep": [2, 2, 2]},
    {"bank": True},
    # Nathan: 1, then 2-2-4-4 zonk
    {"roll": [1, 5, 5, 6, 6]},
    {"keep": [1]},
    {"roll": [2, 2, 4, 4]},
    # Chris: three 3s and the 5 = 350, stop -> 3,550
    {"roll": [3, 3, 3, 4, 5]},
    {"keep": [3, 3, 3, 5]},
    {"bank": True},
]


def test_seed_000_narrated_game():
    game = Game(CLASSIC)
    chris_after = []
    for a in SEED_000:
        game.play(act(a))
        if a == {"bank": True}:
            chris_after.append(who(game, "Chris").score)
    assert chris_after == [1000, 3200, 3550]
    assert who(game, "Nathan").score == 0
    assert not who(game, "Nathan").on_board
    assert who(game, "Nathan").zonks == 3
    assert who(game, "Miguel").left
    assert who(game, "Chris").zonks == 0
    assert game.state.player.name == "Nathan"
    assert not game.state.finished


def test_seed_000_every_number_the_players_say():
    # "100", "250" (Nathan); "500", "1,000" (Chris); "800" (Nathan);
    # "1,000", "2,000", "2,200" (Chris); "100" (Nathan); "350" (Chris)
    said = []
    game = Game(CLASSIC)
    for a in SEED_000:
        game.play(act(a))
        if "keep" in a:
            said.append(game.state.turn.total)
    assert said == [100, 250, 500, 1000, 800, 1000, 2000, 2200, 100, 350]


def test_seed_000_turn_totals_along_the_way():
    game = play(CLASSIC, SEED_000[:5])
    assert game.state.turn.total == 250  # "250"
    assert game.state.turn.dice_to_roll == 2
    game.play(act({"roll": [4, 4]}))
    assert game.state.phase is Phase.PAIR  # pair: may re-roll instead of zonking
    assert game.state.turn.total == 250
    game = play(CLASSIC, SEED_000[:10])  # Chris's full house
    assert game.state.turn.total == 500
    assert game.state.turn.dice_to_roll == 5  # hot dice: all five again
    game = play(CLASSIC, SEED_000[:16])  # Nathan's five 6s
    assert game.state.turn.total == 800
    # "he can't [stop] because he hasn't scored 1,000 to get on the board yet"
    refused(game, {"bank": True}, BankError, "1000")


def test_seed_000_replays_the_same_from_json_lines():
    actions = [A.action_from_json(a) for a in SEED_000]
    assert [A.action_to_json(a) for a in actions] == SEED_000
    assert replay(CLASSIC, actions).to_json() == play(CLASSIC, SEED_000).state.to_json()


# -- classic-10000 ------------------------------------------------------------------------


def test_classic_entry_needs_1000_in_one_turn():
    game = play(CLASSIC, [{"players": ["A", "B"]}, {"roll": [1, 1, 1, 2, 3]}])
    # 1,000 straight after the roll: on the board
    game.play(act({"bank": True}))
    assert who(game, "A").score == 1000 and who(game, "A").on_board
    # B with 700 (hot dice) may not bank yet
    play(
        CLASSIC,
        [{"roll": [5, 5, 5, 2, 3]}, {"keep": [5, 5, 5]}, {"roll": [1, 1]}, {"keep": [1, 1]}],
        game,
    )
    assert game.state.turn.total == 700
    refused(game, {"bank": True}, BankError, "1000")
    # 1,700: that is enough
    play(CLASSIC, [{"roll": [1, 1, 1, 2, 3]}, {"keep": [1, 1, 1]}, {"bank": True}], game)
    assert who(game, "B").score == 1700
    game2 = play(
        CLASSIC,
        [
            {"players": ["A", "B"]},
            {"roll": [5, 5, 5, 2, 3]},
            {"keep": [5, 5, 5]},
            {"roll": [1, 2]},
            {"keep": [1]},
        ],
    )
    assert game2.state.turn.total == 600
    err = refused(game2, {"bank": True}, BankError)
    assert "1000" in str(err) and "board" in str(err)


def test_classic_no_bank_under_300_even_on_the_board():
    game = play(
        CLASSIC,
        [
            {"players": ["A"]},
            {"roll": [1, 1, 1, 2, 3]},
            {"bank": True},
            {"roll": [1, 5, 2, 3, 6]},
            {"keep": [1, 5]},
        ],
    )
    assert who(game, "A").on_board
    assert game.state.turn.total == 150
    err = refused(game, {"bank": True}, BankError)
    assert "300" in str(err)
    # straight after a roll too: 150 + 100 = 250 < 300
    game.play(act({"roll": [1, 2, 3]}))
    refused(game, {"bank": True}, BankError, "300")
    game.play(act({"keep": [1]}))
    game.play(act({"roll": [5, 2]}))
    game.play(act({"bank": True}))  # 250 + the best keep (5) = 300
    assert who(game, "A").score == 1300


def test_classic_two_dice_pair_reroll_and_pass():
    start = [{"players": ["A", "B"]}, {"roll": [1, 5, 5, 2, 3]}, {"keep": [1, 5, 5]}]
    game = play(CLASSIC, start + [{"roll": [6, 6]}])
    assert game.state.phase is Phase.PAIR
    assert who(game, "A").zonks == 0
    refused(game, {"bank": True}, TableError)
    refused(game, {"keep": [6, 6]}, TableError)
    # pass: the zonk is taken, B's turn
    passed = play(CLASSIC, [{"pass": True}], Game(CLASSIC, game.events))
    assert who(passed, "A").zonks == 1 and passed.state.player.name == "B"
    # re-roll: the turn total survives and the two dice go again
    game.play(act({"reroll": True}))
    assert game.state.turn.total == 200 and game.state.turn.dice_to_roll == 2
    refused(game, {"bank": True}, BankError)
    game.play(act({"roll": [1, 3]}))
    game.play(act({"keep": [1]}))
    assert game.state.turn.total == 300


@pytest.mark.parametrize("pair", [[2, 2], [3, 3], [4, 4], [6, 6]])
def test_classic_pair_rule_only_for_two_dice_non_scoring_pairs(pair):
    base = [{"players": ["A", "B"]}, {"roll": [1, 5, 5, 2, 3]}, {"keep": [1, 5, 5]}]
    assert play(CLASSIC, base + [{"roll": pair}]).state.phase is Phase.PAIR
    # not a pair: plain zonk
    game = play(CLASSIC, base + [{"roll": [2, 3]}])
    assert who(game, "A").zonks == 1 and game.state.player.name == "B"
    # three dice showing a pair and more: not the pair rule
    base3 = [{"players": ["A", "B"]}, {"roll": [1, 5, 2, 3, 6]}, {"keep": [1, 5]}]
    game = play(CLASSIC, base3 + [{"roll": pair + [3 if pair[0] != 3 else 4]}])
    assert who(game, "A").zonks == 1


def test_reroll_and_pass_refused_where_there_is_no_pair():
    game = play(CLASSIC, [{"players": ["A", "B"]}])
    refused(game, {"reroll": True}, TurnError)
    refused(game, {"pass": True}, TurnError)
    for rules in (CHICAGO, DRINKING):
        g = play(
            rules,
            [
                {"players": ["A", "B"]},
                {"roll": [1, 5, 5, 2, 3]},
                {"keep": [1, 5, 5]},
                {"roll": [6, 6]},
            ],
        )
        assert who(g, "A").zonks == 1  # no pair rule at these tables


def test_classic_hot_dice_may_bank_or_roll_on():
    game = play(
        CLASSIC, [{"players": ["A", "B"]}, {"roll": [2, 3, 4, 5, 6]}, {"keep": [2, 3, 4, 5, 6]}]
    )
    assert game.state.turn.dice_to_roll == 5 and game.state.turn.total == 1000
    game.play(act({"bank": True}))
    assert who(game, "A").score == 1000
    # straight after a roll whose best keep is every die: bank scores it
    game = play(CLASSIC, [{"players": ["A", "B"]}, {"roll": [1, 2, 3, 4, 5]}, {"bank": True}])
    assert who(game, "A").score == 1000


def test_classic_final_round_then_highest_total_wins():
    rules = dataclasses.replace(CLASSIC, target=2000)
    game = play(
        rules,
        [
            {"players": ["A", "B", "C"]},
            {"roll": [1, 1, 1, 2, 3]},
            {"bank": True},  # A 1,000
            {"roll": [1, 1, 1, 1, 2]},
            {"bank": True},  # B 1,100
            {"roll": [2, 3, 4, 6, 6]},  # C zonks
            {"roll": [1, 1, 1, 1, 1]},
            {"keep": [1, 1, 1, 1, 1]},
            {"bank": True},
        ],
    )
    # A reached 2,000 or more (1,000 + 1,200): B and C get one more turn each
    assert who(game, "A").score == 2200
    assert not game.state.finished
    assert game.state.to_json()["final_round"]
    assert game.state.player.name == "B"
    play(
        rules,
        [
            {"roll": [1, 1, 1, 5, 2]},
            {"keep": [1, 1, 1, 5]},
            {"roll": [1]},
            {"keep": [1]},
            {"bank": True},
        ],
        game,
    )
    assert who(game, "B").score == 2250  # 1,100 + 1,050 + 100 (hot dice, may bank)
    assert game.state.player.name == "C"
    assert not game.state.finished
    game.play(act({"roll": [2, 3, 4, 6, 6]}))  # C zonks: the round is over
    assert game.state.finished
    assert game.state.winner == "B" and game.state.winners == ["B"]
    refused(game, {"roll": [1, 2, 3, 4, 5]}, GameOverError)


def test_classic_final_round_tie():
    rules = dataclasses.replace(CLASSIC, target=1000)
    game = play(
        rules,
        [
            {"players": ["A", "B"]},
            {"roll": [1, 1, 1, 2, 3]},
            {"bank": True},
            {"roll": [1, 1, 1, 2, 3]},
            {"bank": True},
        ],
    )
    assert game.state.finished
    assert game.state.winners == ["A", "B"] and game.state.winner is None


def test_dice_from_earlier_rolls_never_combine():
    # two 1s set aside, then a third 1: 100 more, not three 1s
    game = play(
        CLASSIC,
        [
            {"players": ["A", "B"]},
            {"roll": [1, 1, 2, 3, 4]},
            {"keep": [1, 1]},
            {"roll": [1, 2, 3]},
            {"keep": [1]},
        ],
    )
    assert game.state.turn.total == 300
    game = play(
        CHICAGO,
        [{"players": ["A", "B"]}, {"roll": [5, 2, 3, 4, 4]}, {"keep": [5]}, {"roll": [5, 5, 2, 3]}],
    )
    refused(game, {"keep": [5, 5, 2]}, IllegalKeepError)
    game.play(act({"keep": [5, 5]}))
    assert game.state.turn.total == 150


@pytest.mark.parametrize("name", ["chicago", "detroit", "drinking"])
def test_instant_end_at_the_target(name):
    rules = dataclasses.replace(PRESETS[name], target=1000)
    game = play(
        rules,
        [{"players": ["A", "B", "C"]}]
        + zonk_turn(rules)
        + [{"roll": [1, 1, 1, 2, 3] + ([4] if rules.dice == 6 else [])}, {"bank": True}],
    )
    assert game.state.finished and game.state.winners == ["B"]
    assert who(game, "C").turns == 0  # nobody else gets another turn
    refused(game, {"roll": ZONK[rules.dice]}, GameOverError)


# -- illegal actions: the specific error, state unchanged ----------------------------------


def test_keeping_a_non_scoring_die_is_refused():
    game = play(CLASSIC, [{"players": ["A", "B"]}, {"roll": [1, 2, 4, 6, 6]}])
    err = refused(game, {"keep": [1, 6]}, IllegalKeepError)
    assert "scoring" in str(err)
    refused(game, {"keep": [5]}, IllegalKeepError, "roll was")
    refused(game, {"keep": [6, 6]}, IllegalKeepError)
    refused(game, A.Keep((7,)), IllegalKeepError)


def test_die_values_outside_1_to_6_are_refused():
    game = play(CLASSIC, [{"players": ["A", "B"]}])
    for bad in ([1, 2, 3, 4, 7], [0, 2, 3, 4, 5], ["x", 2, 3, 4, 5]):
        with pytest.raises(BadDiceError):
            game.play(act({"roll": bad}))
    assert game.state.to_json() == play(CLASSIC, [{"players": ["A", "B"]}]).state.to_json()
    with pytest.raises(BadDiceError):
        A.action_from_json({"keep": [9]})


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_wrong_number_of_dice_is_refused(name):
    rules = PRESETS[name]
    game = play(rules, [{"players": ["A", "B"]}])
    err = refused(game, {"roll": [1] * (rules.dice - 1)}, BadDiceError)
    assert str(rules.dice) in str(err)
    refused(game, {"roll": [2, 3]}, BadDiceError)
    # after keeping one die, the next roll has one die fewer
    game.play(act({"roll": [1] + ZONK[rules.dice][1:]}))
    game.play(act({"keep": [1]}))
    refused(game, {"roll": ZONK[rules.dice]}, BadDiceError, str(rules.dice - 1))


def test_drinking_banking_after_touching_the_dice_is_refused():
    game = play(DRINKING, [{"players": ["A", "B"]}, {"roll": [1, 1, 1, 2, 3]}, {"keep": [1, 1, 1]}])
    err = refused(game, {"bank": True}, BankError)
    assert "roll again" in str(err)


def test_actions_out_of_turn_order_are_refused():
    game = Game(CLASSIC)
    refused(game, {"roll": [1, 2, 3, 4, 5]}, TurnError, "players")
    game.play(act({"players": ["A", "B"]}))
    refused(game, {"players": ["C"]}, TurnError)
    refused(game, {"keep": [1]}, TurnError)  # keep before rolling
    refused(game, {"bank": True}, BankError)  # bank before rolling
    game.play(act({"roll": [1, 2, 3, 4, 6]}))
    refused(game, {"roll": [1, 2, 3, 4, 6]}, TurnError)  # roll again without keeping
    game.play(act({"keep": [1]}))
    refused(game, {"keep": [1]}, TurnError)  # second keep of the same roll
    refused(game, {"go_for_1000": True}, TableError)  # not at this table
    refused(game, {"piggyback": True}, TableError)
    refused(game, {"penalty": "spaced", "player": "B"}, TableError)
    refused(game, {"land": "left"}, TableError)


def test_undo_with_nothing_to_undo_is_refused():
    game = Game(CLASSIC)
    with pytest.raises(TurnError):
        game.play(A.Undo())


# -- all-johnnys --------------------------------------------------------------------------


def test_johnnys_four_sixes_and_carry_over_until_hot_dice():
    game = play(
        JOHNNYS, [{"players": ["A", "B"]}, {"roll": [6, 6, 6, 6, 2, 3]}, {"keep": [6, 6, 6, 6]}]
    )
    assert game.state.turn.total == 700
    game.play(act({"roll": [6, 2]}))
    game.play(act({"keep": [6]}))  # a later 6 while the four 6s stay set aside: +100
    assert game.state.turn.total == 800
    game.play(act({"roll": [6]}))
    game.play(act({"keep": [6]}))  # and another: +100, all six set aside -> hot dice
    assert game.state.turn.total == 900
    assert game.state.turn.dice_to_roll == 6
    # all six picked up: a single 6 is worth nothing again
    game.play(act({"roll": [6, 2, 2, 3, 3, 4]}))
    assert who(game, "A").zonks == 1
    assert game.state.player.name == "B"


def test_johnnys_carry_over_of_fives_and_later_triples():
    game = play(
        JOHNNYS,
        [
            {"players": ["A", "B"]},
            {"roll": [1, 2, 2, 3, 4, 6]},
            {"keep": [1]},
            {"roll": [5, 5, 5, 2, 3]},
            {"keep": [5, 5, 5]},
            {"roll": [5, 2]},
            {"keep": [5]},
        ],
    )
    assert game.state.turn.total == 100 + 500 + 100  # the later 5 is worth 100, not 50


def test_johnnys_straight_completion_after_a_one():
    game = play(
        JOHNNYS,
        [
            {"players": ["A", "B"]},
            {"roll": [1, 2, 2, 3, 4, 6]},
            {"keep": [1]},
            {"roll": [2, 3, 4, 5, 6]},
            {"keep": [2, 3, 4, 5, 6]},
        ],
    )
    # 750 in place of the 100: the turn total is 750, all six dice picked up
    assert game.state.turn.total == 750
    assert game.state.turn.dice_to_roll == 6
    refused(game, {"bank": True}, BankError, "1000")  # 750 does not break the ice
    play(JOHNNYS, [{"roll": [1, 1, 1, 2, 3, 4]}, {"keep": [1, 1, 1]}, {"bank": True}], game)
    assert who(game, "A").score == 1750


def test_johnnys_straight_completion_after_a_one_and_a_five():
    game = play(
        JOHNNYS,
        [
            {"players": ["A", "B"]},
            {"roll": [1, 5, 2, 2, 3, 3]},
            {"keep": [1, 5]},
            {"roll": [2, 3, 4, 6]},
            {"keep": [2, 3, 4, 6]},
        ],
    )
    assert game.state.turn.total == 750
    assert game.state.turn.dice_to_roll == 6
    # the same set-aside dice from two rolls of the cycle
    game = play(
        JOHNNYS,
        [
            {"players": ["A", "B"]},
            {"roll": [1, 2, 2, 3, 3, 4]},
            {"keep": [1]},
            {"roll": [5, 2, 2, 3, 6]},
            {"keep": [5]},
            {"roll": [2, 3, 4, 6]},
            {"keep": [2, 3, 4, 6]},
        ],
    )
    assert game.state.turn.total == 750


def test_johnnys_go_for_1000_success_is_hot_dice():
    game = play(
        JOHNNYS, [{"players": ["A", "B"]}, {"roll": [1, 2, 3, 4, 5, 5]}, {"go_for_1000": True}]
    )
    refused(game, {"roll": [6, 6]}, BadDiceError)  # one die alone
    game.play(act({"roll": [6]}))
    assert game.state.turn.total == 1000
    assert game.state.turn.dice_to_roll == 6
    game.play(act({"bank": True}))  # hot dice: may bank; 1,000 breaks the ice
    assert who(game, "A").score == 1000
    assert who(game, "A").bees == 1


def test_johnnys_go_for_1000_failure_is_a_zonk():
    game = play(
        JOHNNYS,
        [
            {"players": ["A", "B"]},
            {"roll": [1, 2, 3, 4, 6, 6]},
            {"go_for_1000": True},
            {"roll": [6]},
        ],
    )
    a = who(game, "A")
    assert a.zonks == 1 and a.score == 0 and a.bees == 0
    assert game.state.player.name == "B"
    assert a.sheet[-1].startswith("Z")
    assert "1000" in a.sheet[-1]  # zonks while going for 1000 are marked as such


def test_johnnys_go_for_1000_only_after_the_first_roll():
    game = play(
        JOHNNYS,
        [
            {"players": ["A", "B"]},
            {"roll": [1, 2, 3, 4, 6, 6]},
            {"keep": [1]},
            {"roll": [1, 2, 3, 4, 6]},
        ],
    )
    refused(game, {"go_for_1000": True}, TurnError)
    game = play(JOHNNYS, [{"players": ["A", "B"]}, {"roll": [1, 1, 3, 3, 4, 6]}])
    refused(game, {"go_for_1000": True}, TurnError)  # two faces twice


def test_johnnys_bees_two_barriers_in_one_bank():
    game = play(
        JOHNNYS,
        [
            {"players": ["A"]},
            {"roll": [1, 1, 1, 6, 6, 6]},
            {"keep": [1, 1, 1, 6, 6, 6]},
            {"roll": [1, 2, 2, 3, 3, 4]},
            {"keep": [1]},
            {"bank": True},
        ],
    )
    a = who(game, "A")
    assert a.score == 1700 and a.bees == 1
    play(
        JOHNNYS,
        [
            {"roll": [1, 1, 1, 2, 3, 4]},
            {"keep": [1, 1, 1]},
            {"roll": [4, 4, 4]},
            {"keep": [4, 4, 4]},
            {"bank": True},
        ],
        game,
    )
    # 1,700 + 1,400 = 3,100 crosses 2,000 and 3,000: +2
    assert who(game, "A").score == 3100
    assert who(game, "A").bees == 3
    assert who(game, "A").sheet == ["1700 (+1)", "3100 (+2)"]


def test_johnnys_break_the_ice_then_small_banks():
    game = play(JOHNNYS, [{"players": ["A"]}, {"roll": [1, 2, 2, 3, 4, 6]}, {"keep": [1]}])
    refused(game, {"bank": True}, BankError, "1000")
    game = play(
        JOHNNYS,
        [
            {"players": ["A"]},
            {"roll": [1, 1, 1, 2, 3, 4]},
            {"bank": True},
            {"roll": [1, 2, 2, 3, 4, 6]},
            {"bank": True},
        ],
    )
    assert who(game, "A").score == 1100
    assert who(game, "A").bees == 1


def test_johnnys_newbie_gives_a_bee_and_counts_as_a_zonk():
    game = play(JOHNNYS, [{"players": ["A", "B"]}, {"roll": [2, 2, 3, 4, 6, 6]}])
    a = who(game, "A")
    assert a.bees == 1 and a.zonks == 1 and a.score == 0
    assert game.state.player.name == "B"
    assert a.sheet[0].startswith("Z") and "(+1)" in a.sheet[0]
    # a zonk on a later roll is no newbie
    game = play(
        JOHNNYS,
        [
            {"players": ["A", "B"]},
            {"roll": [1, 2, 2, 3, 4, 6]},
            {"keep": [1]},
            {"roll": [2, 2, 3, 4, 6]},
        ],
    )
    assert who(game, "A").bees == 0 and who(game, "A").zonks == 1


def _late_zonk():
    """A johnnys turn that zonks on its second roll (no newbie)."""
    return [{"roll": [1, 2, 2, 3, 4, 6]}, {"keep": [1]}, {"roll": [2, 2, 3, 4, 6]}]


def test_johnnys_unearned_frame_gives_nothing():
    game = play(JOHNNYS, [{"players": ["A"]}] + _late_zonk() * 3)
    assert who(game, "A").zonks == 3 and who(game, "A").bees == 0


def test_johnnys_earned_frame_gives_a_bee_on_the_third_zonk():
    bank_1000 = [{"roll": [1, 1, 1, 2, 3, 4]}, {"bank": True}]
    game = play(JOHNNYS, [{"players": ["A"]}] + _late_zonk() + bank_1000 + _late_zonk() * 2)
    a = who(game, "A")
    assert a.zonks == 3
    assert a.bees == 1 + 1  # the barrier + the earned frame
    assert "+1" in a.sheet[-1]
    # the next frame starts unearned
    play(JOHNNYS, _late_zonk() * 3, game)
    assert who(game, "A").bees == 2


def test_johnnys_newbie_as_third_zonk_gives_two_bees():
    newbie = [{"roll": [2, 2, 3, 4, 6, 6]}]
    game = play(JOHNNYS, [{"players": ["A"]}] + _late_zonk() * 2 + newbie)
    a = who(game, "A")
    assert a.zonks == 3 and a.bees == 2
    assert "+2" in a.sheet[-1]
    # earned or not: still 2 in all for that newbie
    bank_1000 = [{"roll": [1, 1, 1, 2, 3, 4]}, {"bank": True}]
    game = play(JOHNNYS, [{"players": ["A"]}] + bank_1000 + _late_zonk() * 2 + newbie)
    assert who(game, "A").bees == 1 + 2


def test_johnnys_scoresheet_marks_big_zonks():
    game = play(JOHNNYS, [{"players": ["A"]}] + _late_zonk())  # a zonk with five dice
    assert who(game, "A").sheet[-1].startswith("Z") and "5" in who(game, "A").sheet[-1]
    play(
        JOHNNYS, [{"roll": [1, 5, 2, 2, 3, 4]}, {"keep": [1, 5]}, {"roll": [2, 2, 3, 4]}], game
    )  # four dice: a plain zonk
    assert who(game, "A").sheet[-1] == "Z"
    play(
        JOHNNYS,
        [{"roll": [1, 1, 1, 5, 5, 5]}, {"keep": [1, 1, 1, 5, 5, 5]}, {"roll": [2, 2, 3, 4, 6, 6]}],
        game,
    )  # six dice after hot dice: no newbie
    assert who(game, "A").bees == 0  # no newbie B; the third zonk closes an unearned frame
    assert "6" in who(game, "A").sheet[-1]


def test_johnnys_21_turns_then_most_bees_wins():
    # A banks 1,900 once (+1 B) and then zonks late; B rolls a newbie every turn.
    a_turns = [
        [
            {"roll": [1, 1, 1, 5, 5, 2]},
            {"keep": [1, 1, 1, 5, 5]},
            {"roll": [1]},
            {"keep": [1]},
            {"roll": [1, 1, 1, 5, 5, 5]},
            {"keep": [1, 1, 1, 5, 5, 5]},
        ]
    ]
    game = play(JOHNNYS, [{"players": ["A", "B"]}])
    # 1,100 + 100 (hot dice) + 1,500 (hot dice) = 2,700: crosses 1,000 and 2,000
    play(JOHNNYS, a_turns[0] + [{"bank": True}], game)
    assert who(game, "A").score == 2700 and who(game, "A").bees == 2
    for turn in range(21):
        assert not game.state.finished
        if turn > 0:
            play(JOHNNYS, _late_zonk(), game)
        play(JOHNNYS, [{"roll": [2, 2, 3, 4, 6, 6]}], game)  # B: newbie
    assert who(game, "A").turns == 21 and who(game, "B").turns == 21
    assert game.state.finished
    # A: 2 B's + 1 for the earned first frame (20 zonks: 6 frames closed, 1 earned) = 3
    assert who(game, "A").bees == 3
    # B: 21 newbies + 7 frames closed by a newbie = 28
    assert who(game, "B").bees == 28
    assert game.state.winner == "B"  # most B's wins, not most points
    refused(game, {"roll": [1, 2, 3, 4, 5, 6]}, GameOverError)


def test_johnnys_tie_on_bees_is_broken_by_points():
    rules = rules_from_dict({"base": "all-johnnys", "turns": 1})
    game = play(
        rules,
        [
            {"players": ["A", "B"]},
            {"roll": [1, 1, 1, 2, 3, 4]},
            {"bank": True},
            {"roll": [1, 1, 1, 5, 2, 3]},
            {"bank": True},
        ],
    )
    assert game.state.finished
    assert who(game, "A").bees == who(game, "B").bees == 1
    assert game.state.winner == "B"  # 1,050 beats 1,000


# -- chicago and detroit -------------------------------------------------------------------


def test_chicago_hot_dice_must_roll_again():
    game = play(CHICAGO, [{"players": ["A", "B"]}, {"roll": [1, 2, 3, 4, 5]}])
    # nothing kept yet: banking would take the points, every die, so the bank is refused
    refused(game, {"bank": True}, BankError, "no bank straight after this roll")
    game.play(act({"keep": [1, 2, 3, 4, 5]}))
    assert game.state.turn.total == 1500
    refused(game, {"bank": True}, BankError, r"A set every die aside \(hot dice\), so must roll")
    game.play(act({"roll": [1, 2, 2, 3, 4]}))
    game.play(act({"bank": True}))
    assert who(game, "A").score == 1600


def test_chicago_piggyback_bank_scores_it_all_for_the_new_player():
    game = play(CHICAGO, [{"players": ["A", "B"]}, {"roll": [1, 1, 1, 2, 3]}, {"bank": True}])
    assert who(game, "A").score == 1000  # two dice left unset
    game.play(act({"piggyback": True}))
    assert game.state.turn.total == 1000 and game.state.turn.dice_to_roll == 2
    refused(game, {"bank": True}, BankError)  # must roll first
    game.play(act({"roll": [5, 2]}))
    game.play(act({"bank": True}))
    assert who(game, "B").score == 1050
    assert who(game, "A").score == 1000


def test_chicago_piggyback_zonk_loses_it_all():
    game = play(
        CHICAGO,
        [
            {"players": ["A", "B"]},
            {"roll": [1, 1, 1, 2, 3]},
            {"keep": [1, 1, 1]},
            {"bank": True},
            {"piggyback": True},
            {"roll": [2, 3]},
        ],
    )
    assert who(game, "B").score == 0 and who(game, "B").zonks == 1
    assert who(game, "A").score == 1000
    assert game.state.player.name == "A"


def test_chicago_without_piggyback_the_next_player_starts_fresh():
    game = play(CHICAGO, [{"players": ["A", "B"]}, {"roll": [1, 1, 1, 2, 3]}, {"bank": True}])
    assert game.state.turn.total == 0 and game.state.turn.dice_to_roll == 5
    game.play(act({"roll": [5, 2, 3, 4, 4]}))
    refused(game, {"piggyback": True}, TurnError)  # only at the start of the turn
    # no offer after a zonk
    game = play(
        CHICAGO,
        [{"players": ["A", "B"]}, {"roll": [1, 1, 1, 2, 3]}, {"keep": [1, 1, 1]}, {"roll": [2, 3]}],
    )
    assert who(game, "A").zonks == 1
    refused(game, {"piggyback": True}, TurnError)


def test_chicago_ends_instantly_at_the_target():
    rules = dataclasses.replace(CHICAGO, target=1000)
    game = play(rules, [{"players": ["A", "B"]}, {"roll": [1, 1, 1, 2, 3]}, {"bank": True}])
    assert game.state.finished and game.state.winner == "A"
    refused(game, {"piggyback": True}, GameOverError)


def test_detroit_colour_pairs_in_play():
    game = play(DETROIT, [{"players": ["A", "B"]}, {"roll": ["2r", "2r", "3w", "3w", "4g", "4g"]}])
    game.play(act({"keep": [2, 2, 3, 3, 4, 4]}))
    assert game.state.turn.total == 1000
    assert game.state.turn.dice_to_roll == 6  # hot dice (must roll)
    refused(game, {"bank": True}, BankError)
    game.play(act({"roll": [1, 2, 3, 4, 5, 6]}))
    refused(game, {"bank": True}, BankError)  # the run uses every die: hot dice, must roll
    game.play(act({"keep": [1, 2, 3, 4, 5, 6]}))
    game.play(act({"roll": [2, 2, 2, 5, 1, 3]}))
    game.play(act({"bank": True}))
    assert who(game, "A").score == 2350  # 1,000 + 1,000 + 350


def test_detroit_three_dice_of_one_colour_are_refused():
    game = play(DETROIT, [{"players": ["A", "B"]}])
    refused(game, {"roll": ["2r", "2r", "2r", "3w", "4g", "4g"]}, BadDiceError)


def test_detroit_piggyback():
    game = play(
        DETROIT,
        [
            {"players": ["A", "B"]},
            {"roll": [2, 2, 2, 5, 1, 3]},
            {"bank": True},
            {"piggyback": True},
        ],
    )
    assert game.state.turn.total == 350 and game.state.turn.dice_to_roll == 1
    game.play(act({"roll": [1]}))
    game.play(act({"keep": [1]}))  # the last die scores: hot dice, all six again
    assert game.state.turn.total == 450 and game.state.turn.dice_to_roll == 6


# -- drinking -----------------------------------------------------------------------------


def test_drinking_entry_is_350():
    game = play(DRINKING, [{"players": ["A", "B"]}, {"roll": [3, 3, 3, 2, 4]}])
    refused(game, {"bank": True}, BankError, "350")
    game = play(DRINKING, [{"players": ["A", "B"]}, {"roll": [3, 3, 3, 5, 4]}, {"bank": True}])
    assert who(game, "A").score == 350 and who(game, "A").on_board
    # on the board: small banks are fine (no house minimum here)
    play(DRINKING, zonk_turn(DRINKING) + [{"roll": [5, 2, 3, 4, 6]}, {"bank": True}], game)
    assert who(game, "A").score == 400


def test_drinking_hot_dice_must_roll():
    game = play(DRINKING, [{"players": ["A", "B"]}, {"roll": [1, 2, 3, 4, 5]}])
    refused(game, {"bank": True}, BankError, "sets every die aside \\(hot dice\\)")
    game.play(act({"keep": [1, 2, 3, 4, 5]}))
    refused(game, {"bank": True}, BankError)
    game.play(act({"roll": [5, 2, 3, 4, 6]}))
    game.play(act({"bank": True}))  # taking the points after the next roll
    assert who(game, "A").score == 1550


def test_drinking_taking_the_points_and_touching_the_dice():
    game = play(DRINKING, [{"players": ["A", "B"]}, {"roll": [1, 1, 1, 2, 3]}, {"bank": True}])
    assert who(game, "A").score == 1000  # taking the points: the best keep
    game = play(DRINKING, [{"players": ["A", "B"]}, {"roll": [1, 1, 1, 2, 3]}, {"keep": [1, 1, 1]}])
    refused(game, {"bank": True}, BankError)
    game.play(act({"roll": [5, 2]}))
    game.play(act({"bank": True}))  # after the next roll the points may be taken
    assert who(game, "A").score == 1050


def test_drinking_spaced_skips_the_next_turn_and_drinks():
    game = play(DRINKING, [{"players": ["A", "B", "C"]}, {"penalty": "spaced", "player": "B"}])
    b = who(game, "B")
    assert b.drinks == 1 and b.spaced == 1
    assert game.state.player.name == "A"  # A's turn goes on
    play(DRINKING, zonk_turn(DRINKING), game)
    assert game.state.player.name == "C"  # B lost the turn
    assert who(game, "B").spaced == 0
    play(DRINKING, zonk_turn(DRINKING), game)
    assert game.state.player.name == "A"
    play(DRINKING, zonk_turn(DRINKING), game)
    assert game.state.player.name == "B"  # only one turn lost


def test_drinking_spaced_current_player_loses_their_next_turn():
    game = play(DRINKING, [{"players": ["A", "B"]}, {"penalty": "spaced"}])
    assert who(game, "A").drinks == 1
    assert game.state.player.name == "A"
    play(DRINKING, zonk_turn(DRINKING) + zonk_turn(DRINKING), game)
    assert game.state.player.name == "B"  # A's next turn is skipped


def test_drinking_sloppy_ends_the_turn_with_no_points():
    game = play(
        DRINKING,
        [
            {"players": ["A", "B"]},
            {"roll": [1, 1, 1, 2, 3]},
            {"keep": [1, 1, 1]},
            {"penalty": "sloppy"},
        ],
    )
    a = who(game, "A")
    assert a.score == 0 and a.drinks == 1
    assert game.state.player.name == "B"
    assert game.state.turn.total == 0
    refused(game, {"penalty": "sloppy", "player": "A"}, TurnError)  # only the roller


def test_drinking_board_images():
    base = [{"players": ["A", "B", "C"]}, {"roll": [1, 2, 3, 4, 6]}]
    # left = next in turn order, right = previous
    assert [p.drinks for p in play(DRINKING, base + [{"land": "left"}]).state.players] == [0, 1, 0]
    assert [p.drinks for p in play(DRINKING, base + [{"land": "right"}]).state.players] == [0, 0, 1]
    chosen = play(DRINKING, base + [{"land": "choose", "player": "C"}])
    assert [p.drinks for p in chosen.state.players] == [0, 0, 1]
    social = play(DRINKING, base + [{"land": "social"}])
    assert [p.drinks for p in social.state.players] == [1, 1, 1]
    game = play(DRINKING, base)
    refused(game, {"land": "choose"}, TableError)  # choose must name someone
    # from B's seat: left is C, right is A
    game = play(
        DRINKING,
        [{"players": ["A", "B", "C"]}]
        + zonk_turn(DRINKING)
        + [{"roll": [1, 2, 3, 4, 6]}, {"land": "left"}, {"land": "right"}],
    )
    assert [p.drinks for p in game.state.players] == [1, 0, 1]
    # a zonk roll has no scoring die to land
    game = play(DRINKING, [{"players": ["A", "B", "C"]}])
    refused(game, {"land": "left"}, TurnError)


def test_drinking_barrier_handouts_equal_the_number_of_players():
    game = play(DRINKING, [{"players": ["A", "B", "C"]}, {"roll": [1, 1, 1, 2, 3]}, {"bank": True}])
    assert who(game, "A").handouts == 3
    play(
        DRINKING,
        zonk_turn(DRINKING) * 2
        + [
            {"roll": [1, 2, 3, 4, 5]},
            {"keep": [1, 2, 3, 4, 5]},
            {"roll": [5, 5, 5, 2, 3]},
            {"bank": True},
        ],
        game,
    )
    # 1,000 + 2,000 = 3,000: crosses 2,000 and 3,000 -> 2 x 3 players
    assert who(game, "A").score == 3000
    assert who(game, "A").handouts == 3 + 6


def test_drinking_rule_for_more_than_1000_in_a_turn():
    game = play(DRINKING, [{"players": ["A", "B"]}, {"roll": [1, 1, 1, 2, 3]}, {"bank": True}])
    assert who(game, "A").rules == 0  # exactly 1,000 is not more than 1,000
    play(DRINKING, [{"roll": [1, 1, 1, 5, 3]}, {"bank": True}], game)
    assert who(game, "B").rules == 1


def test_drinking_first_to_2500_5000_7500_make_rules():
    # Each turn: the run (1,500, hot dice) then a roll taken for its best keep.
    def turn(best_roll):
        return [
            {"roll": [1, 2, 3, 4, 5]},
            {"keep": [1, 2, 3, 4, 5]},
            {"roll": best_roll},
            {"bank": True},
        ]

    game = play(DRINKING, [{"players": ["A", "B"]}] + turn([1, 1, 1, 2, 3]))  # A 2,500
    a = who(game, "A")
    assert a.score == 2500
    assert a.rules == 1 + 1  # more than 1,000 in a turn + first to 2,500
    play(DRINKING, turn([1, 1, 1, 2, 3]), game)  # B 2,500: not the first
    assert who(game, "B").rules == 1  # only the turn over 1,000
    play(DRINKING, turn([1, 1, 1, 2, 3]), game)  # A 5,000: first to 5,000
    assert who(game, "A").score == 5000 and who(game, "A").rules == 2 + 2
    play(DRINKING, turn([1, 1, 1, 2, 3]), game)  # B 5,000
    assert who(game, "B").rules == 2
    play(DRINKING, turn([1, 1, 1, 2, 3]), game)  # A 7,500
    assert who(game, "A").rules == 4 + 2


def test_drinking_exactly_5150():
    # A: 1,550 x 3 = 4,650, then 500 straight after a roll -> 5,150
    game = play(DRINKING, [{"players": ["A", "B"]}])
    for _ in range(3):
        play(
            DRINKING,
            [
                {"roll": [1, 2, 3, 4, 5]},
                {"keep": [1, 2, 3, 4, 5]},
                {"roll": [5, 2, 3, 4, 6]},
                {"bank": True},
            ]
            + zonk_turn(DRINKING),
            game,
        )
    a = who(game, "A")
    assert a.score == 4650
    # three turns over 1,000, first to 2,500
    assert a.rules == 3 + 1
    play(DRINKING, [{"roll": [5, 5, 5, 2, 3]}, {"bank": True}], game)
    a = who(game, "A")
    assert a.score == 5150
    assert a.rules == 4 + 1 + 1  # first to 5,000 and exactly 5,150


def test_drinking_zonk_names():
    game = play(
        DRINKING,
        [{"players": ["Ann", "Bob"]}, {"zonk_name": "Scooby", "player": "Ann", "by": "Bob"}],
    )
    assert who(game, "Ann").zonk_name == "Scooby"
    refused(
        game, {"zonk_name": "Shaggy", "player": "Bob", "by": "Bob"}, PlayerError, "names themself"
    )
    game.play(act({"zonk_name": "Shaggy", "player": "Bob", "by": "Ann"}))
    game.play(act({"roll": [1, 1, 1, 2, 3]}))
    assert "Scooby rolls" in game.state.log[-1]
    assert "Ann" not in game.state.log[-1]
    # a zonk name finds the player too
    game.play(act({"penalty": "spaced", "player": "Shaggy"}))
    assert who(game, "Bob").spaced == 1
    # other tables have no zonk names
    other = play(CLASSIC, [{"players": ["Ann", "Bob"]}])
    refused(other, {"zonk_name": "Scooby", "player": "Ann", "by": "Bob"}, TableError)


# -- players joining and leaving -----------------------------------------------------------


def test_players_join_and_leave():
    game = play(CLASSIC, [{"players": ["A", "B"]}, {"join": "C"}])
    assert [p.name for p in game.state.players] == ["A", "B", "C"]
    play(CLASSIC, zonk_turn(CLASSIC) * 2, game)
    assert game.state.player.name == "C"  # the newcomer gets a turn
    refused(game, {"join": "A"}, PlayerError)
    refused(game, {"leave": "Zed"}, PlayerError)
    game.play(act({"leave": "A"}))
    play(CLASSIC, zonk_turn(CLASSIC), game)  # C zonks
    assert game.state.player.name == "B"  # A is crossed off and skipped
    play(CLASSIC, zonk_turn(CLASSIC), game)
    assert game.state.player.name == "C"
    refused(game, {"leave": "A"}, PlayerError)  # already left


def test_current_player_leaving_passes_the_dice():
    game = play(
        CLASSIC,
        [{"players": ["A", "B", "C"]}, {"roll": [1, 2, 3, 4, 6]}, {"keep": [1]}, {"leave": "A"}],
    )
    assert game.state.player.name == "B"
    assert game.state.turn.total == 0
    assert who(game, "A").score == 0


def test_everyone_leaving_ends_the_game():
    game = play(CLASSIC, [{"players": ["A", "B"]}, {"leave": "B"}])
    assert not game.state.finished
    game.play(act({"leave": "A"}))
    assert game.state.finished


def test_duplicate_or_empty_seating_is_refused():
    game = Game(CLASSIC)
    refused(game, {"players": ["A", "a"]}, PlayerError)
    refused(game, {"players": []}, PlayerError)


# -- purity and undo ----------------------------------------------------------------------


def test_apply_does_not_change_the_given_state():
    state = replay(CLASSIC, [act({"players": ["A", "B"]})])
    before = state.to_json()
    after = apply(state, act({"roll": [1, 2, 3, 4, 6]}))
    assert state.to_json() == before
    assert after.phase is Phase.DECIDE


def test_undo_restores_the_previous_state():
    game = play(CLASSIC, SEED_000[:12])
    before = game.state.to_json()
    game.play(act({"bank": True}))
    assert who(game, "Chris").score == 1000
    game.play(A.Undo())
    after = game.state.to_json()
    assert who(game, "Chris").score == 0
    assert {k: v for k, v in after.items() if k != "log"} == {
        k: v for k, v in before.items() if k != "log"
    }
    assert after["log"][: len(before["log"])] == before["log"]
    assert game.events == [act(a) for a in SEED_000[:12]]


def test_new_game_is_in_setup():
    state = new_game(CLASSIC)
    assert state.phase is Phase.SETUP and state.players == [] and not state.finished


def test_drinking_game_over_shows_only_zonk_names():
    rules = dataclasses.replace(DRINKING, target=1000)
    game = play(
        rules,
        [
            {"players": ["Ann", "Bob"]},
            {"zonk_name": "Scooby", "player": "Ann", "by": "Bob"},
            {"zonk_name": "Shaggy", "player": "Bob", "by": "Ann"},
            {"roll": [1, 1, 1, 2, 3]},
            {"bank": True},
        ],
    )
    assert game.state.finished
    shown = game.state.log[game.state.log.index("Scooby names Player 2 'Shaggy'") + 1 :]
    assert any("Scooby" in line for line in shown)
    assert not any("Ann" in line or "Bob" in line for line in game.state.log)
    with pytest.raises(GameOverError) as info:
        game.play(act({"roll": [1, 2, 3, 4, 5]}))
    assert "Ann" not in str(info.value)


# -- the JSON Lines form -------------------------------------------------------------------


@pytest.mark.parametrize(
    "obj",
    [
        {"players": ["Nathan", "Chris"]},
        {"roll": [1, 2, 4, 6, 6]},
        {"roll": ["2r", "2r", "3w", "3w", "4g", "4g"]},
        {"keep": [1, 5]},
        {"bank": True},
        {"reroll": True},
        {"pass": True},
        {"go_for_1000": True},
        {"piggyback": True},
        {"penalty": "spaced", "player": "Ann"},
        {"penalty": "sloppy"},
        {"land": "left"},
        {"land": "choose", "player": "Bob"},
        {"join": "Dee"},
        {"leave": "Dee"},
        {"zonk_name": "Scooby", "player": "Ann", "by": "Bob"},
        {"undo": True},
    ],
)
def test_json_lines_round_trip(obj):
    assert A.action_to_json(A.action_from_json(obj)) == obj


def test_json_lines_parse_to_the_right_actions():
    assert A.action_from_json({"keep": [5, 1]}) == A.Keep((1, 5))
    assert A.action_from_json({"bank": True}) == A.Bank()
    assert A.action_from_json({"land": "social"}) == A.Land("social")
    assert A.action_from_json({"zonk_name": "Z", "player": "P", "by": "B"}) == A.ZonkName(
        "P", "Z", "B"
    )


@pytest.mark.parametrize(
    "obj",
    [
        {},
        [],
        {"bank": False},
        {"roll": 12345},
        {"penalty": "rude"},
        {"land": "up"},
        {"fly": True},
        {"bank": True, "keep": [1]},
        {"join": ""},
    ],
)
def test_json_lines_errors_are_table_errors(obj):
    with pytest.raises(TableError):
        A.action_from_json(obj)


def test_game_preview_changes_nothing_until_accepted():
    game = play(CLASSIC, [{"players": ["A", "B"]}, {"roll": [1, 2, 3, 4, 6]}])
    before = game.state.to_json()
    keep = act({"keep": [1]})
    after = game.preview(keep)  # legal: the state it would lead to, nothing played
    assert after.turn.total == 100
    assert game.state.to_json() == before and len(game.events) == 2
    with pytest.raises(IllegalKeepError):
        game.preview(act({"keep": [6]}))
    assert game.state.to_json() == before
    game.accept(keep, after)
    assert game.state.turn.total == 100 and game.events[-1] == keep


def test_undo_after_the_winning_bank_reopens_the_game():
    rules = dataclasses.replace(CHICAGO, target=1000)
    game = play(rules, [{"players": ["A", "B"]}, {"roll": [1, 1, 1, 2, 3]}])
    before = game.state.to_json()
    game.play(act({"bank": True}))
    assert game.state.finished
    game.play(act({"undo": True}))
    assert not game.state.finished
    assert {k: v for k, v in game.state.to_json().items() if k != "log"} == {
        k: v for k, v in before.items() if k != "log"
    }
    game.play(act({"keep": [1, 1, 1]}))  # play goes on
    assert game.state.turn.total == 1000


def test_a_player_who_left_cannot_win():
    rules = dataclasses.replace(CLASSIC, target=1000)
    game = play(
        rules,
        [{"players": ["A", "B", "C"]}, {"roll": [1, 1, 1, 1, 2]}, {"bank": True}, {"leave": "A"}],
    )
    assert who(game, "A").score == 1100
    play(rules, [{"roll": [1, 1, 1, 2, 3]}, {"bank": True}] + zonk_turn(rules), game)
    assert game.state.finished
    assert game.state.winners == ["B"]


# -- the three-zonk penalty (Zilch) -----------------------------------------------------------

PENALTY = rules_from_dict({"dice": 6, "name": "penalty", "three_zonk_penalty": 500})


def test_the_third_zonk_in_a_row_costs_the_penalty():
    game = play(
        PENALTY, [{"players": ["Ann"]}, {"roll": [1, 2, 3, 4, 6, 6]}, {"keep": [1]}, {"bank": True}]
    )
    assert who(game, "Ann").score == 100
    play(PENALTY, zonk_turn(PENALTY) * 2, game)
    assert who(game, "Ann").score == 100 and who(game, "Ann").zonks_in_a_row == 2
    play(PENALTY, zonk_turn(PENALTY), game)
    ann = who(game, "Ann")
    assert (ann.score, ann.zonks_in_a_row, ann.zonks) == (-400, 0, 3)
    assert ann.sheet[-1] == "Z (-500)"
    assert game.state.log[-1] == "THREE ZONKS: Ann loses 500 (total -400)"
    assert "THREE ZONKS" in game.state.banners


def test_a_bank_starts_the_zonk_count_again():
    game = play(
        PENALTY,
        [{"players": ["Ann"]}]
        + zonk_turn(PENALTY) * 2
        + [{"roll": [5, 2, 3, 4, 6, 6]}, {"bank": True}]
        + zonk_turn(PENALTY) * 2,
    )
    ann = who(game, "Ann")
    assert (ann.score, ann.zonks_in_a_row) == (50, 2)
    assert "THREE ZONKS" not in " ".join(game.state.log)


def test_without_the_penalty_zonks_in_a_row_cost_nothing():
    rules = rules_from_dict({"dice": 6})
    game = play(rules, [{"players": ["Ann"]}] + zonk_turn(rules) * 4)
    assert who(game, "Ann").score == 0 and who(game, "Ann").zonks_in_a_row == 0


# -- the scorekeeper's night: dead ends, drinks due, words ---------------------------------


def test_the_seating_cannot_be_undone():
    # undoing the seating would leave a game in which every action is refused
    game = play(CLASSIC, [{"players": ["Ann", "Bob"]}])
    refused(game, A.Undo(), TurnError, "players seated")
    game.play(act({"roll": [1, 1, 1, 2, 3]}))
    game.play(A.Undo())
    refused(game, A.Undo(), TurnError, "players seated")
    assert game.state.player.name == "Ann"


def test_a_stored_undo_of_the_seating_still_loads():
    game = Game(CLASSIC, [])
    game.fold([A.Players(("Ann", "Bob")), A.Undo()])
    assert game.state.phase is Phase.SETUP and game.events == []
    game.play(A.Players(("Cy",)))
    assert game.state.player.name == "Cy"


def test_undo_says_in_words_what_it_took_back():
    game = play(
        CLASSIC, [{"players": ["Ann", "Bob"]}, {"roll": [1, 1, 1, 2, 3]}, {"keep": [1, 1, 1]}]
    )
    game.play(A.Undo())
    assert game.state.log[-1] == "UNDO: keep 1 1 1"
    game = play(
        DRINKING,
        [
            {"players": ["Ann", "Bob"]},
            {"roll": [1, 2, 3, 4, 6]},
            {"land": "choose", "player": "Bob"},
        ],
    )
    game.play(A.Undo())
    assert game.state.log[-1] == "UNDO: land choose Player 2"  # drinking: no real names
    assert all(
        "{" not in A.describe(a)
        for a in (A.Bank(), A.Penalty("sloppy"), A.Join("Cy"), A.Drunk(), A.Drunk("Cy"))
    )


def test_johnnys_newbie_third_zonk_of_an_unearned_frame_says_unearned():
    newbie = [{"roll": [2, 2, 3, 4, 6, 6]}]
    game = play(JOHNNYS, [{"players": ["A"]}] + _late_zonk() * 2 + newbie)
    frame = [x for x in game.state.log if x.startswith("FRAME:")]
    assert frame == ["FRAME: A's newbie closes an unearned frame, +1 B"]
    bank_1000 = [{"roll": [1, 1, 1, 2, 3, 4]}, {"bank": True}]
    game = play(JOHNNYS, [{"players": ["A"]}] + bank_1000 + _late_zonk() * 2 + newbie)
    assert any("closes an earned frame" in x for x in game.state.log[-4:])


def test_what_the_table_waits_for_offers_a_bank_only_where_it_is_allowed():
    # Ann is not on the board: 100 cannot be banked, and the refusal must not offer it
    game = play(CLASSIC, [{"players": ["Ann", "Bob"]}, {"roll": [1, 2, 3, 4, 6]}, {"keep": [1]}])
    error = refused(game, {"keep": [1]}, TurnError)
    assert "bank" not in str(error)
    game = play(CLASSIC, [{"players": ["Ann", "Bob"]}, {"roll": [1, 2, 3, 4, 6]}])
    error = refused(game, {"roll": [1, 2, 3, 4, 6]}, TurnError)
    assert "bank" not in str(error)
    game = play(
        CLASSIC, [{"players": ["Ann", "Bob"]}, {"roll": [1, 1, 1, 2, 3]}, {"keep": [1, 1, 1]}]
    )
    assert "or bank" in str(refused(game, {"keep": [1]}, TurnError))


def test_drinks_due_are_marked_drunk_one_player_or_everyone():
    game = play(
        DRINKING,
        [
            {"players": ["A", "B", "C"]},
            {"roll": [1, 2, 3, 4, 6]},
            {"land": "social"},
            {"land": "left"},
        ],
    )
    assert [p.drinks_due for p in game.state.players] == [1, 2, 1]
    game.play(act({"drunk": "B"}))
    assert [p.drinks_due for p in game.state.players] == [1, 0, 1]
    assert game.state.log[-1] == "DRUNK: Player 2 2"  # no zonk names given: seats
    refused(game, {"drunk": "B"}, PlayerError, "owes no drink")
    refused(game, {"drunk": "Zed"}, PlayerError, "no player")
    game.play(act({"drunk": True}))
    assert [p.drinks_due for p in game.state.players] == [0, 0, 0]
    assert [p.drinks for p in game.state.players] == [1, 2, 1]  # drunk, still counted
    assert game.state.log[-1] == "DRUNK: Player 1 1, Player 3 1"
    refused(game, {"drunk": True}, PlayerError, "nobody owes")
    game.play(A.Undo())
    assert game.state.to_json()["players"][0]["drinks_due"] == 1
    refused(play(CLASSIC, [{"players": ["A"]}]), {"drunk": True}, TableError, "no drinks")
    assert A.action_from_json(A.action_to_json(A.Drunk("B"))) == A.Drunk("B")
    assert A.action_from_json({"drunk": True}) == A.Drunk()


def test_hand_outs_given_and_rules_made_leave_only_what_is_still_owed():
    # A banks 1,550 (the run, then a 5): crosses 1,000 (3 hand-outs) and makes a rule
    run = [{"roll": [1, 2, 3, 4, 5]}, {"keep": [1, 2, 3, 4, 5]}, {"roll": [5, 2, 3, 4, 6]}]
    game = play(DRINKING, [{"players": ["A", "B", "C"]}, *run, {"bank": True}])
    a = who(game, "A")
    assert (a.handouts_due, a.rules_due) == (3, 1)
    refused(game, {"handed": "B"}, PlayerError, "Player 2 has no drinks to hand out")
    game.play(act({"handed": "A"}))
    assert game.state.log[-1] == "HANDED OUT: Player 1 3"
    a = who(game, "A")
    assert (a.handouts, a.handouts_due, a.rules_due) == (3, 0, 1)  # the total stays
    refused(game, {"handed": True}, PlayerError, "nobody has drinks to hand out")
    game.play(act({"ruled": True}))
    assert game.state.log[-1] == "RULES MADE: Player 1 1"
    assert (who(game, "A").rules, who(game, "A").rules_due) == (1, 0)
    refused(game, {"ruled": "A"}, PlayerError, "has no drinking rules to make")
    # B banks 1,550 too: only B's new hand-outs and rule are owed
    play(DRINKING, [*run, {"bank": True}], game)
    owed = [(p.handouts_due, p.rules_due) for p in game.state.players]
    assert owed == [(0, 0), (3, 1), (0, 0)]
    b = game.state.to_json()["players"][1]
    assert (b["handouts"], b["handouts_due"], b["rules"], b["rules_due"]) == (3, 3, 1, 1)
    game.play(act({"handed": True}))
    assert who(game, "B").handouts_due == 0
    game.play(A.Undo())
    assert game.state.log[-1] == "UNDO: hand-outs given"
    assert who(game, "B").handouts_due == 3
    # the night's review counts the hand-outs by the "hands out" lines: all 6
    assert [x for x in game.state.log if " hands out " in x] == [
        "Player 1 hands out 3 drinks",
        "Player 2 hands out 3 drinks",
    ]
    refused(play(CLASSIC, [{"players": ["A"]}]), {"handed": True}, TableError, "no hand-outs")
    refused(play(CLASSIC, [{"players": ["A"]}]), {"ruled": True}, TableError, "no drinking rules")
    for obj in ({"handed": "B"}, {"handed": True}, {"ruled": "B"}, {"ruled": True}):
        assert A.action_to_json(A.action_from_json(obj)) == obj
    assert A.action_from_json({"ruled": True}) == A.RuleMade()
    assert A.describe(A.HandedOut("B")) == "B's hand-outs given"


def test_hand_outs_can_be_given_after_the_game():
    rules = dataclasses.replace(DRINKING, target=1000, entry_minimum=0)
    game = play(rules, [{"players": ["A", "B"]}, {"roll": [1, 1, 1, 2, 3]}, {"bank": True}])
    assert game.state.finished and who(game, "A").handouts_due == 2
    game.play(A.HandedOut("A"))
    assert who(game, "A").handouts_due == 0 and game.state.finished


def test_drinks_due_can_be_drunk_after_the_game():
    rules = dataclasses.replace(DRINKING, target=1000, entry_minimum=0)
    game = play(
        rules,
        [{"players": ["A", "B"]}, {"roll": [1, 1, 1, 2, 3]}, {"land": "left"}, {"bank": True}],
    )
    assert game.state.finished and who(game, "B").drinks_due == 1
    game.play(A.Drunk("B"))
    assert who(game, "B").drinks_due == 0 and game.state.finished


def test_an_edited_copy_of_a_preset_is_not_named_as_the_preset(tmp_path):
    from zonkcam.game import load_rules
    from zonkcam.game.rules import rules_to_toml

    path = tmp_path / "ours.toml"
    path.write_text(rules_to_toml(CLASSIC))
    assert load_rules(str(path)) == CLASSIC  # unedited: the preset itself
    path.write_text(rules_to_toml(CLASSIC).replace("target = 10000", "target = 5000"))
    edited = load_rules(str(path))
    assert edited.name == "classic-10000 (custom)" and edited.target == 5000
    path.write_text(rules_to_toml(CLASSIC).replace('"classic-10000"', '"ours"'))
    assert load_rules(str(path)).name == "ours"


def test_each_state_carries_what_the_rules_accept_next():
    johnnys, chicago = PRESETS["all-johnnys"], PRESETS["chicago"]
    seated = [{"players": ["A", "B"]}]
    kept_three = [*seated, {"roll": [1, 5, 5, 2, 3]}, {"keep": [1, 5, 5]}]
    pair = play(CLASSIC, [*kept_three, {"roll": [6, 6]}])
    away = play(johnnys, [*seated, {"roll": [1, 2, 3, 4, 6, 6]}])
    going = play(johnnys, [{"go_for_1000": True}], Game(johnnys, away.events))
    offered = play(chicago, [*seated, {"roll": [5, 5, 5, 2, 3]}, {"bank": True}])
    rolled = play(chicago, [*seated, {"roll": [1, 5, 5, 2, 3]}])
    kept = play(chicago, [{"keep": [1, 5]}], Game(chicago, rolled.events))
    states = [Game(CLASSIC).state, pair.state, away.state, going.state, offered.state]
    for state in [*states, rolled.state, kept.state]:
        check_options(state)
    assert pair.state.options.pair and away.state.options.go_for_1000
    assert going.state.options.roll == 1 and offered.state.options.piggyback
    assert rolled.state.options.bank and kept.state.options.bank
    assert rolled.state.options.keep([5, 1]).points == kept.state.turn.total
    assert rolled.state.options.roll_after(rolled.state.options.keep([1, 5])) == 3
