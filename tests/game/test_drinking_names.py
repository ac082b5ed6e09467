"""The drinking table shows zonk names only: no real name in the game's log lines, and a
player still without a zonk name is shown (and may be called) by seat."""

from __future__ import annotations

import re

import pytest

from zonkcam.app.main import DEMO_ZONK_NAMES, demo_zonk_names
from zonkcam.game import PRESETS, Game, TableError, parse_dice
from zonkcam.game import actions as A
from zonkcam.game.engine import check_namer
from zonkcam.game.errors import PlayerError

DRINKING = PRESETS["drinking"]
REAL = ("Ann", "Bob", "Cy", "Dee")


def _roll(*values: int) -> A.Roll:
    return A.Roll(parse_dice(list(values)))


def test_no_real_name_in_the_log_of_a_night_at_the_drinking_table():
    game = Game(DRINKING, demo_zonk_names(["Ann", "Bob", "Cy"]))
    assert game.state.log[0] == "Players: Player 1, Player 2, Player 3 (Player 1 starts)"
    assert game.state.log[1] == f"Player 3 names Player 1 {DEMO_ZONK_NAMES[0]!r}"
    for action in [
        A.Join("Dee"),
        A.ZonkName("Dee", "Hoppy", "Ann"),
        _roll(1, 2, 3, 4, 6),
        A.Land(A.Landing.CHOOSE, "Bob"),
        A.Penalty(A.PenaltyKind.SPACED, "Cy"),
        A.Undo(),
        A.Drunk("Bob"),
        A.Bank(),  # under 350: refused, and nothing is logged
        A.Keep((1,)),
        _roll(1, 1, 1, 4),
        A.Bank(),  # 1,100: hand-outs and a rule
        A.HandedOut("Ann"),
        A.RuleMade(),
        A.Undo(),
        A.Leave("Dee"),
        A.Undo(),
    ]:
        try:
            game.play(action)
        except TableError:
            assert isinstance(action, A.Bank)
    log = list(game.state.log)
    assert f"{DEMO_ZONK_NAMES[0]} names Player 4 'Hoppy'" in log
    assert "Player 4 joins the game" in log and "UNDO: spaced Lucky" in log
    assert f"DRINK CHOOSE: {DEMO_ZONK_NAMES[1]} drinks" in log
    assert "UNDO: Hoppy leaving" in log and "UNDO: rules made" in log
    assert f"HANDED OUT: {DEMO_ZONK_NAMES[0]} 4" in log
    assert not [line for line in log if any(name in line for name in REAL)]
    assert game.state.shown_names() == dict(zip(REAL, [*DEMO_ZONK_NAMES[:3], "Hoppy"], strict=True))


def test_a_player_without_a_zonk_name_is_shown_and_found_by_seat():
    game = Game(DRINKING, [A.Players(("Ann", "Bob"))])
    assert game.state.log[-1] == "Players: Player 1, Player 2 (Player 1 starts)"
    game.play(_roll(1, 2, 3, 4, 6))
    game.play(A.Penalty(A.PenaltyKind.SPACED, "player 2"))  # the board's name, any case
    assert game.state.log[-1] == "SPACED: Player 2 loses their next turn and drinks"
    game.play(A.ZonkName("Player 2", "Noodle", "Ann"))
    assert game.state.log[-1] == "Player 1 names Player 2 'Noodle'"
    assert game.state.find("Player 2") is None  # named now: only by that name
    assert game.state.find("noodle") is game.state.find("Bob")
    # a name of that form would be two players' names
    for action in (A.ZonkName("Ann", "Player 7", "Bob"), A.Join("player 3")):
        with pytest.raises(PlayerError, match="without a zonk name"):
            game.play(action)
    # elsewhere names are names
    classic = Game(PRESETS["classic-10000"], [A.Players(("Ann", "Player 2"))])
    assert classic.state.log[-1] == "Players: Ann, Player 2 (Ann starts)"
    assert classic.state.find("Player 1") is None


def test_the_chooser_of_a_zonk_name_is_checked_before_the_name():
    state = Game(DRINKING, [A.Players(("Ann", "Bob")), A.Join("Dee")]).state
    target, namer = check_namer(state, "Dee", "bob")
    assert (target.name, namer.name) == ("Dee", "Bob")
    with pytest.raises(PlayerError, match="no player called 'Xyz'"):
        check_namer(state, "Dee", "Xyz")
    with pytest.raises(PlayerError, match="nobody names themself: Dee cannot"):
        check_namer(state, "Dee", "Dee")
    left = Game(DRINKING, [A.Players(("Ann", "Bob", "Cy")), A.Leave("Cy")]).state
    with pytest.raises(PlayerError, match="has left"):
        check_namer(left, "Ann", "Cy")
    classic = Game(PRESETS["classic-10000"], [A.Players(("Ann", "Bob"))]).state
    with pytest.raises(TableError, match="does not use zonk names"):
        check_namer(classic, "Ann", "Bob")


def test_games_list_shows_a_drinking_games_zonk_names_not_the_real_ones(tmp_path, capsys):
    from zonkcam.cli import main
    from zonkcam.record.logged_game import LoggedGame
    from zonkcam.record.store import EventLog

    db = tmp_path / "g.db"
    with EventLog(db) as log:
        LoggedGame.new(log, DRINKING, demo_zonk_names(["Ann", "Bob", "Cy"]))
        LoggedGame.new(log, PRESETS["chicago"], [A.Players(("Ann", "Bob"))])
    assert main(["games", "--db", str(db), "list"]) == 0
    rows = capsys.readouterr().out.splitlines()
    drinking = next(row for row in rows if " drinking " in row)
    assert drinking.endswith(", ".join(DEMO_ZONK_NAMES[:3]))
    assert not any(name in drinking for name in REAL)
    assert next(row for row in rows if " chicago " in row).endswith("Ann, Bob")


@pytest.mark.slow
def test_the_demo_game_on_the_drinking_table_prints_no_real_name(tmp_path, capsys):
    from zonkcam.cli import main

    argv = ["play", "--source", "demo", "--rules", "drinking", "--fast", "--games", "1"]
    argv += ["--db", str(tmp_path / "g.db"), "--screenshots", str(tmp_path / "s"), "--mute"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    first = next(line for line in out.splitlines() if line.startswith("Game 1: "))
    assert first.endswith(", ".join(DEMO_ZONK_NAMES[:3]))
    assert not re.search(r"\b(Ann|Bob|Cy)\b", out), out
