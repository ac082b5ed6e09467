"""Long games: an action, an undo and a frame cost the same at any length of the game.

Costs are compared by the memory an operation allocates (tracemalloc's peak), which is
exact where timings are noisy; the timings themselves are `zonkcam bench --engine`.
"""

from __future__ import annotations

import dataclasses
import tracemalloc

import pytest

from zonkcam.game import PRESETS, Game, parse_dice
from zonkcam.game import actions as A
from zonkcam.game.engine import MAX_PLAYERS, replay
from zonkcam.game.errors import PlayerError
from zonkcam.game.game import CHECKPOINT_EVERY
from zonkcam.game.lines import Lines

pytestmark = pytest.mark.slow  # whole tables, games or kills: `make check` leaves them out


LONG = dataclasses.replace(PRESETS["chicago"], target=10**9)
ROLL, BANK = A.Roll(parse_dice([1, 2, 3, 4, 6])), A.Bank()


def long_game(actions: int) -> Game:
    """Three players roll a single 1 and bank it, turn after turn (two actions a turn)."""
    game = Game(LONG, [A.Players(("Ann", "Bob", "Cy"))])
    while len(game.events) < actions:
        game.play(ROLL if len(game.events) % 2 else BANK)
    return game


def allocated(operation) -> int:
    """The most memory ``operation()`` held at once while it ran, in bytes."""
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        operation()
        return tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()


# the same place in a checkpoint's stretch, early and late in the game
EARLY, LATE = 4 * CHECKPOINT_EVERY + 5, 100 * CHECKPOINT_EVERY + 5


def test_an_action_costs_the_same_late_in_a_long_game():
    early, late = long_game(EARLY), long_game(LATE)
    assert len(late.state.log) > 3000
    cost_early = allocated(lambda: early.play(ROLL))
    cost_late = allocated(lambda: late.play(ROLL))
    assert cost_late < 1.5 * cost_early + 2048, (cost_early, cost_late)


def test_an_undo_costs_the_same_late_in_a_long_game():
    early, late = long_game(EARLY), long_game(LATE)
    cost_early = allocated(early.undo)
    cost_late = allocated(late.undo)
    assert cost_late < 1.5 * cost_early + 2048, (cost_early, cost_late)


def test_drawing_a_keep_costs_the_same_late_in_a_long_game(tmp_path):
    from tests.display.test_screen_sounds import FakeMixer
    from zonkcam.display.game_screen import GameScreen
    from zonkcam.display.sounds import Sounds
    from zonkcam.display.window import Window

    early, late = long_game(EARLY), long_game(LATE)
    for game in (early, late):
        game.play(ROLL)  # a keep on screen: the roll's keeps are listed
    with Window.open((800, 480), screenshots=tmp_path) as window:
        ui = GameScreen(window, sounds=Sounds(mixer=FakeMixer()))
        ui.draw(early.state)
        cost_early = allocated(lambda: ui.draw(early.state))
        cost_late = allocated(lambda: ui.draw(late.state))
    assert cost_late < 1.5 * cost_early + 2048, (cost_early, cost_late)


def test_undo_goes_back_to_the_state_as_it_was_played():
    game = long_game(3 * CHECKPOINT_EVERY + 3)
    states = {}
    for _ in range(CHECKPOINT_EVERY + 5):
        states[len(game.events)] = game.state.to_json()
        game.play(ROLL if len(game.events) % 2 else BANK)
    for _ in range(CHECKPOINT_EVERY + 5):
        game.undo()
        now = game.state.to_json()
        before = states[len(game.events)]
        assert {k: v for k, v in now.items() if k != "log"} == {
            k: v for k, v in before.items() if k != "log"
        }
        assert now["log"][:-1] == before["log"] and now["log"][-1].startswith("UNDO: ")
        assert game.state.banners == ["UNDO"]


def test_undos_stay_in_the_log_and_a_resumed_game_is_the_same():
    game = long_game(2 * CHECKPOINT_EVERY - 1)
    played = list(game.events)
    moves: list[A.Action] = []

    def undos() -> int:
        return sum(line.startswith("UNDO: ") for line in game.state.log)

    for action in (ROLL, A.Undo(), A.Roll(parse_dice([5, 2, 3, 4, 6])), A.Undo(), ROLL):
        game.play(action)
        moves.append(action)
    assert undos() == 2  # the second undo went back to the state that said UNDO once
    for action in (BANK, A.Undo(), A.Undo(), A.Undo(), BANK, ROLL):
        game.play(action)
        moves.append(action)
    assert undos() == 1  # back before both: the state as it was then, and this UNDO
    again = Game(LONG, played + moves)  # what resuming from the event log does
    assert again.state == game.state and again.events == game.events
    # the state is a fold of the events: everything but the log's UNDO lines
    folded = replay(LONG, game.events).to_json()
    assert {k: v for k, v in folded.items() if k != "log"} == {
        k: v for k, v in game.state.to_json().items() if k != "log"
    }
    assert folded["log"] == [x for x in game.state.log if not x.startswith("UNDO: ")]


def test_lines_copies_share_and_stay_apart():
    a = Lines(["one", "two"])
    b = a.copy()
    b.append("three")
    a.append("other")
    assert a == ["one", "two", "other"] and b == ["one", "two", "three"]
    assert b[-1] == "three" and b[0] == "one" and b[1:] == ["two", "three"]
    assert b[5:] == [] and b[::-1] == ["three", "two", "one"] and list(reversed(b))[0] == "three"
    assert "two" in b and b.index("three") == 2 and b.count("one") == 1
    with pytest.raises(IndexError):
        b[3]
    assert Lines() == [] and Lines(["x"]) != ["y"]


def test_a_table_seats_a_bounded_number_of_players():
    game = Game(LONG, [A.Players(("Ann",))])
    for i in range(MAX_PLAYERS - 1):
        game.play(A.Join(f"P{i}"))
    with pytest.raises(PlayerError, match=f"at most {MAX_PLAYERS}"):
        game.play(A.Join("One more"))
    game.play(A.Leave("P0"))
    with pytest.raises(PlayerError, match="those who left"):
        game.play(A.Join("One more"))
    with pytest.raises(PlayerError, match=f"at most {MAX_PLAYERS}"):
        Game(LONG, [A.Players(tuple(f"P{i}" for i in range(MAX_PLAYERS + 1)))])


def test_a_replay_of_thousands_of_joins_stops_at_a_full_table(tmp_path, capsys):
    from zonkcam.cli import main

    path = tmp_path / "joins.jsonl"
    path.write_text(
        '{"players": ["Ann"]}\n' + "".join(f'{{"join": "P{i}"}}\n' for i in range(5000))
    )
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"line {MAX_PLAYERS + 1}:" in err and "at most" in err and len(err.splitlines()) == 1


def test_a_folded_game_undoes_like_a_played_one():
    """Game(rules, actions) folds without copying states; its kept states must still be
    the states as played, undo after undo."""
    played = long_game(3 * CHECKPOINT_EVERY + 7)
    played.play(A.Undo())  # the last bank, banked again
    played.play(BANK)
    folded = Game(
        LONG,
        [A.Players(("Ann", "Bob", "Cy"))]
        + [ROLL if i % 2 else BANK for i in range(1, 3 * CHECKPOINT_EVERY + 7)]
        + [A.Undo(), BANK],
    )
    assert folded.state == played.state
    for _ in range(2 * CHECKPOINT_EVERY + 3):
        assert folded.undo() == played.undo()
    with pytest.raises(PlayerError, match="at most"):  # a refused action: the rules' error
        Game(LONG, [A.Players(tuple(f"P{i}" for i in range(MAX_PLAYERS + 1)))])


def test_folding_more_actions_leaves_the_states_handed_out_as_they_were():
    game = long_game(5)
    before, shown = game.state, game.state.to_json()
    game.fold([ROLL if i % 2 else BANK for i in range(5, 5 + CHECKPOINT_EVERY + 3)])
    assert before.to_json() == shown and game.state is not before
    assert len(game.events) == 5 + CHECKPOINT_EVERY + 3
