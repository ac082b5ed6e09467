"""The night's review counts each player's hand-outs as the game state does (the drinking
table's barrier hand-outs), whatever the players are called."""

from __future__ import annotations

from zonkcam.app.players import scripted_game
from zonkcam.game import PRESETS, Game, parse_dice
from zonkcam.game import actions as A
from zonkcam.review.night import review_game, shown


def _review(rules, actions):
    return review_game(1, rules, actions, [5.0 * i for i in range(len(actions))])


def test_the_review_counts_the_hand_outs_the_game_gave():
    rules = PRESETS["drinking"]
    actions = scripted_game(rules, ("Ann", "Bob", "Cy"), 400, 3)
    state = Game(rules, actions).state
    handed = {shown(state, p): p.handouts for p in state.players}
    assert sum(handed.values()) > 0  # the game crossed barriers
    assert _review(rules, actions).handouts == handed


def test_a_zonk_name_that_begins_with_a_players_name_hands_out_nothing_for_them():
    rules = PRESETS["drinking"]
    named = [A.ZonkName("Bea", "Al hands out 2", "Al"), A.ZonkName("Al", "Sparky", "Bea")]
    # Bea banks 1,000: a barrier, a drink to hand out per player
    actions = [A.Players(("Bea", "Al")), *named, A.Roll(parse_dice([1, 1, 1, 2, 3])), A.Bank()]
    log = Game(rules, actions).state.log
    assert "Al hands out 2 hands out 2 drinks" in log
    assert _review(rules, actions).handouts == {"Al hands out 2": 2, "Sparky": 0}
