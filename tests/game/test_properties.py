"""Property tests: random rolls against an independent brute-force scorer, and random
action sequences in every table against the engine's invariants (purity, replay, undo)."""

from __future__ import annotations

import copy
import dataclasses
import itertools
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tests.game.options_helpers import check_options
from zonkcam.game import PRESETS, Die, Game, Phase, TableError, load_rules, score_roll
from zonkcam.game import actions as A
from zonkcam.game.dice import DETROIT_DICE
from zonkcam.game.engine import replay
from zonkcam.game.scoring import RollContext

pytestmark = (
    pytest.mark.slow
)  # thousands of generated games and rolls: `make check` leaves them out


NAMES = sorted(PRESETS)
SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# -- an independent scorer ----------------------------------------------------------------


def oracle_combos(rules, roll, context=None, colour_pairs=False):
    """Every (counts, points) combination the rules allow for this roll, from docs/rules.md."""
    p = rules.points
    values = [d.value for d in roll]
    full = len(values) == rules.dice if context is None else context.full_roll
    combos = []

    def vec(faces):
        return tuple(faces.count(f) for f in range(1, 7))

    if p.single_one:
        combos.append((vec([1]), p.single_one))
    if p.single_five:
        combos.append((vec([5]), p.single_five))
    for f in range(1, 7):
        triple = p.three_ones if f == 1 else f * p.three_of_a_kind
        if not triple:
            continue
        combos.append((vec([f] * 3), triple))
        if p.extra_die:  # four or more of a kind: +extra for each die beyond three
            for n in (4, 5, 6):
                combos.append((vec([f] * n), triple + (n - 3) * p.extra_die))
        if p.extra_die_doubles:  # or each die beyond three doubles it
            for n in (4, 5, 6):
                combos.append((vec([f] * n), triple * 2 ** (n - 3)))
    if full:
        for s in p.straights:
            combos.append((vec(list(s.faces)), s.points))
        if p.full_house:
            for a, b in itertools.permutations(range(1, 7), 2):
                combos.append((vec([a] * 3 + [b] * 2), p.full_house))
        for f in range(1, 7):
            mega = p.six_ones if f == 1 else f * p.six_of_a_kind
            if mega:
                combos.append((vec([f] * 6), mega))
        if colour_pairs and p.colour_pairs:
            combos.append((vec(values), p.colour_pairs))
        if p.three_pairs and len(values) == 6 and all(values.count(v) % 2 == 0 for v in values):
            combos.append((vec(values), p.three_pairs))
    if context is not None:
        for f in context.carried:
            combos.append((vec([f]), p.extra_die))
        if (
            rules.straight_completion
            and context.set_aside
            and sorted(values + list(context.set_aside)) == [1, 2, 3, 4, 5, 6]
        ):
            combos.append((vec(values), rules.straight_completion - context.set_aside_points))
    return [(c, pts) for c, pts in combos if pts > 0]


def oracle_keeps(rules, roll, context=None, colour_pairs=False):
    """{sorted kept values: best partition points} for every fully scoring sub-multiset."""
    combos = oracle_combos(rules, roll, context, colour_pairs)

    @cache
    def best(counts):
        if not any(counts):
            return 0
        top = None
        for c, pts in combos:
            rest = tuple(h - n for h, n in zip(counts, c, strict=True))
            if min(rest) < 0:
                continue
            sub = best(rest)
            if sub is not None and (top is None or sub + pts > top):
                top = sub + pts
        return top

    values = sorted(d.value for d in roll)
    out = {}
    for r in range(1, len(values) + 1):
        for sub in set(itertools.combinations(values, r)):
            pts = best(tuple(sub.count(f) for f in range(1, 7)))
            if pts is not None:
                out[tuple(sub)] = pts
    full = len(values) == rules.dice if context is None else context.full_roll
    if not out and full and rules.points.nothing:  # nothing scores: all dice, a fixed worth
        out[tuple(values)] = rules.points.nothing
    return out


def check_against_oracle(rules, roll, context=None, colour_pairs=False):
    full = len(roll) == rules.dice if context is None else context.full_roll
    if rules.points.colour_pairs and full and len(roll) == 6 and len({d.value for d in roll}) == 1:
        colour_pairs = True  # six equal dice pair whatever their colours (docs/rules.md)
    score = score_roll(rules, roll, context)
    expected = oracle_keeps(rules, roll, context, colour_pairs)
    got = {k.dice: k.points for k in score.keeps}
    assert len(got) == len(score.keeps)  # no keep listed twice
    assert got == expected
    assert score.zonk == (not expected)
    if expected:
        assert score.best.points == max(expected.values())
        assert [k.points for k in score.keeps] == sorted(
            (k.points for k in score.keeps), reverse=True
        )
    rolled = sorted(d.value for d in roll)
    for k in score.keeps:
        assert k.points > 0
        assert all(k.dice.count(v) <= rolled.count(v) for v in set(k.dice))
        assert score.keep_for(list(reversed(k.dice))) == k


def test_oracle_sanity():
    # the oracle itself on hand-worked numbers
    classic = PRESETS["classic-10000"]
    assert oracle_keeps(classic, [Die(v) for v in (4, 4, 4, 4, 6)])[(4, 4, 4, 4)] == 500
    assert oracle_keeps(classic, [Die(v) for v in (4, 4, 4, 5, 5)])[(4, 4, 4, 5, 5)] == 500
    assert oracle_keeps(classic, [Die(v) for v in (2, 3, 4, 6, 6)]) == {}
    johnnys = PRESETS["all-johnnys"]
    assert oracle_keeps(johnnys, [Die(1)] * 6)[(1,) * 6] == 10_000


@pytest.mark.parametrize("name", NAMES)
def test_every_possible_roll_against_the_oracle(name):
    # exhaustive over the multisets of 1 to N dice (the order of dice never matters)
    rules = PRESETS[name]
    n_rolls = 0
    for n in range(1, rules.dice + 1):
        for values in itertools.combinations_with_replacement(range(1, 7), n):
            check_against_oracle(rules, [Die(v) for v in values])
            n_rolls += 1
    assert n_rolls == {5: 461, 6: 923}[rules.dice]


@pytest.mark.parametrize("table", ["zilch.toml", "farkle.toml"])
def test_every_possible_roll_of_the_published_tables_against_the_oracle(table):
    rules = load_rules(str(Path(__file__).parents[1] / "data" / table))
    for n in range(1, rules.dice + 1):
        for values in itertools.combinations_with_replacement(range(1, 7), n):
            check_against_oracle(rules, [Die(v) for v in values])


def dice_lists(n_min=1, n_max=6):
    return st.lists(st.integers(1, 6), min_size=n_min, max_size=n_max)


@pytest.mark.parametrize("name", NAMES)
@SETTINGS
@given(values=dice_lists())
def test_every_keep_scores_its_best_partition(name, values):
    rules = PRESETS[name]
    assume(len(values) <= rules.dice)
    check_against_oracle(rules, [Die(v) for v in values])


@pytest.mark.parametrize("name", NAMES)
@SETTINGS
@given(values=st.lists(st.integers(1, 6), min_size=5, max_size=6))
def test_full_rolls_against_the_oracle(name, values):
    # full rolls are where straights, full houses, megas live: test them more often
    rules = PRESETS[name]
    values = values[: rules.dice]
    assume(len(values) == rules.dice)
    check_against_oracle(rules, [Die(v) for v in values])


@SETTINGS
@given(data=st.data())
def test_detroit_coloured_rolls_against_the_oracle(data):
    rules = PRESETS["detroit"]
    colours = ["white", "white", "red", "red", "green", "green"]
    faces = data.draw(st.lists(st.integers(1, 6), min_size=6, max_size=6))
    # bias towards real colour pairs half of the time
    if data.draw(st.booleans()):
        faces[1], faces[3], faces[5] = faces[0], faces[2], faces[4]
    order = data.draw(st.permutations(range(6)))
    roll = [Die(faces[i], colours[i]) for i in order]
    pairs = faces[0] == faces[1] and faces[2] == faces[3] and faces[4] == faces[5]
    check_against_oracle(rules, roll, colour_pairs=pairs)


@SETTINGS
@given(data=st.data())
def test_johnnys_rolls_in_context_against_the_oracle(data):
    rules = PRESETS["all-johnnys"]
    set_aside = data.draw(st.lists(st.integers(1, 6), max_size=4))
    n = data.draw(st.integers(1, 6 - len(set_aside)))
    values = data.draw(st.lists(st.integers(1, 6), min_size=n, max_size=n))
    carried = frozenset(data.draw(st.sets(st.integers(1, 6), max_size=2)))
    ctx = RollContext(
        full_roll=n == 6,
        carried=carried,
        set_aside=tuple(set_aside),
        set_aside_points=data.draw(st.sampled_from([0, 50, 100, 150, 200])),
    )
    check_against_oracle(rules, [Die(v) for v in values], ctx)


@SETTINGS
@given(data=st.data())
def test_johnnys_straight_completion_always_ends_at_750(data):
    rules = PRESETS["all-johnnys"]
    # set aside some of the 1 and 5 (what can be set aside alone), roll the rest of 1-6
    aside = data.draw(st.sampled_from([(1,), (5,), (1, 5)]))
    rest = [f for f in range(1, 7) if f not in aside]
    rest = data.draw(st.permutations(rest))
    points = sum(100 if v == 1 else 50 for v in aside)
    ctx = RollContext(full_roll=False, set_aside=aside, set_aside_points=points)
    keep = score_roll(rules, [Die(v) for v in rest], ctx).keep_for(rest)
    assert points + keep.points == 750


# -- random games -------------------------------------------------------------------------


@st.composite
def next_action(draw, state):
    """A plausible next action for ``state``: usually legal, sometimes not."""
    t = state.turn
    names = [p.name for p in state.players]
    if draw(st.integers(0, 9)):
        # usually what the phase asks for
        kind = draw(
            st.sampled_from(
                {
                    Phase.ROLL: ["roll"] * 4 + ["bank", "piggyback"],
                    Phase.DECIDE: ["keep"] * 4 + ["bank"] * 2 + ["go_for_1000", "land"],
                    Phase.PAIR: ["reroll", "pass"],
                    Phase.GO_FOR_1000: ["roll"],
                }.get(t.phase, ["roll"])
            )
        )
    else:
        kind = draw(
            st.sampled_from(
                [
                    "roll",
                    "keep",
                    "bank",
                    "reroll",
                    "pass",
                    "go_for_1000",
                    "piggyback",
                    "penalty",
                    "land",
                    "join",
                    "leave",
                    "zonk_name",
                    "wild_keep",
                    "wild_roll",
                ]
            )
        )
    if kind == "leave" and draw(st.integers(0, 2)):
        kind = "penalty"  # leaving ends small games early: keep it rare
    if kind == "roll" or kind == "wild_roll":
        n = 1 if t.phase is Phase.GO_FOR_1000 else max(t.dice_to_roll, 1)
        if kind == "wild_roll":
            n = draw(st.integers(1, 6))
        faces = draw(st.lists(st.integers(1, 6), min_size=n, max_size=n))
        if state.rules.points.colour_pairs and n == 6 and draw(st.booleans()):
            if draw(st.booleans()):
                faces[1], faces[3], faces[5] = faces[0], faces[2], faces[4]
            return A.Roll(tuple(Die(f, c) for f, c in zip(faces, DETROIT_DICE, strict=True)))
        return A.Roll(tuple(Die(f) for f in faces))
    if kind == "keep" and t.score is not None and t.score.keeps:
        keep = draw(st.sampled_from(t.score.keeps))
        return A.Keep(keep.dice)
    if kind in ("keep", "wild_keep"):
        return A.Keep(tuple(sorted(draw(st.lists(st.integers(1, 6), min_size=1, max_size=3)))))
    if kind == "bank":
        return A.Bank()
    if kind == "reroll":
        return A.Reroll()
    if kind == "pass":
        return A.Pass()
    if kind == "go_for_1000":
        return A.GoFor1000()
    if kind == "piggyback":
        return A.Piggyback()
    if kind == "penalty":
        who = draw(st.sampled_from(names + [None]))
        return A.Penalty(draw(st.sampled_from(["spaced", "sloppy"])), who)
    if kind == "land":
        image = draw(st.sampled_from(["left", "right", "choose", "social"]))
        return A.Land(image, draw(st.sampled_from(names)) if image == "choose" else None)
    if kind == "join":
        return A.Join(draw(st.sampled_from(["Dee", "Eve"] + names)))
    if kind == "leave":
        return A.Leave(draw(st.sampled_from(names)))
    return A.ZonkName(
        draw(st.sampled_from(names)),
        draw(st.sampled_from(["Zed", "Yak"])),
        draw(st.sampled_from(names)),
    )


def scores(state):
    return {p.name: p.score for p in state.players}


def check_step(before, action, after):
    """Invariants of one accepted action."""
    for p in after.players:
        assert min(p.score, p.bees, p.zonks, p.drinks, p.handouts, p.rules, p.turns, p.spaced) >= 0
        assert p.score % 50 == 0
    assert after.turn.total >= 0
    old, new = scores(before), scores(after)
    if isinstance(action, A.Bank):
        banker = before.player.name
        t = before.turn
        gain = t.total + (t.score.best.points if t.phase is Phase.DECIDE else 0)
        assert new[banker] == old[banker] + gain
        assert {k: v for k, v in new.items() if k != banker} == {
            k: v for k, v in old.items() if k != banker
        } | {k: 0 for k in new if k not in old and k != banker}
    else:
        # totals change only on a bank
        assert {k: new[k] for k in old} == old
        assert all(new[k] == 0 for k in new if k not in old)
    if isinstance(action, A.Roll) and before.phase is Phase.ROLL:
        roller = before.player.name
        zonked = (
            next(p for p in after.players if p.name == roller).zonks
            > next(p for p in before.players if p.name == roller).zonks
        )
        if after.phase is Phase.DECIDE:
            assert after.turn.score.keeps and not zonked
        elif after.phase is not Phase.PAIR:
            assert zonked  # no keep at all: the turn ends with a zonk
            assert after.turn.total == 0 or after.finished


def random_game(name, data, steps):
    rules = PRESETS[name]
    if data.draw(st.booleans()):
        # a short game, so that the end of the game comes within the steps too
        short = {"turns": 3} if rules.end == "turns" else {"target": 1500}
        rules = dataclasses.replace(rules, **short)
    n_players = data.draw(st.integers(1, 3))
    game = Game(rules)
    game.play(A.Players(tuple(["Ann", "Bob", "Cat"][:n_players])))
    for _ in range(steps):
        if game.state.finished:
            break
        action = data.draw(next_action(game.state))
        before = game.state
        snapshot = copy.deepcopy(before.to_json())
        try:
            game.play(action)
        except TableError:
            # refused: nothing changed, nothing recorded
            assert game.state is before
            assert before.to_json() == snapshot
            continue
        assert before.to_json() == snapshot  # the old state is untouched (purity)
        check_step(before, action, game.state)
    return game


GAME_SETTINGS = settings(
    max_examples=35,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _without_log(j):
    return {k: v for k, v in j.items() if k != "log"}


@pytest.mark.parametrize("name", NAMES)
@GAME_SETTINGS
@given(data=st.data())
def test_random_games_keep_the_invariants_replay_and_undo(name, data):
    game = random_game(name, data, steps=45)
    events = list(game.events)
    final = game.state.to_json()
    # replaying the events gives the same state
    assert replay(game.rules, events).to_json() == final
    # and the JSON Lines form of the events gives the same events
    assert [A.action_from_json(A.action_to_json(a)) for a in events] == events
    if len(events) < 2:
        return
    # undo after any action restores the state before it ...
    i = data.draw(st.integers(1, len(events) - 1))
    previous = replay(game.rules, events[:i]).to_json()
    g = Game(game.rules, events[: i + 1])
    g.play(A.Undo())
    now = g.state.to_json()
    assert _without_log(now) == _without_log(previous)
    assert now["log"][: len(previous["log"])] == previous["log"]
    assert g.events == events[:i]
    # ... also straight after the last action, and the game goes on from there as before
    previous = replay(game.rules, events[:-1]).to_json()
    game.play(A.Undo())
    assert _without_log(game.state.to_json()) == _without_log(previous)
    assert game.events == events[:-1]
    game.play(events[-1])
    assert _without_log(game.state.to_json()) == _without_log(final)


@pytest.mark.parametrize("name", NAMES)
@GAME_SETTINGS
@given(data=st.data())
def test_a_states_options_are_what_trying_each_action_says(name, data):
    game = random_game(name, data, steps=45)
    states = [game.state_after(n) for n in range(len(game.events) + 1)]
    resumed = Game(game.rules, game.events)  # folded at once, as a resume does
    states.append(resumed.state)
    assert resumed.state.options == game.state.options
    if len(game.events) > 1:
        states.append(game.undo())
    for state in states:
        check_options(state)
