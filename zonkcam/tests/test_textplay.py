"""The terminal scorekeeper: typed lines become the right table actions."""

from __future__ import annotations

import pytest

from zonkcam.advisor.advice import Advisor, best_words
from zonkcam.game import actions as A
from zonkcam.game.dice import parse_dice
from zonkcam.game.errors import TableError
from zonkcam.game.game import Game
from zonkcam.game.rules import PRESETS
from zonkcam.scorekeeper import Scorekeeper
from zonkcam.store import EventLog
from zonkcam.textplay import TextScorekeeper, parse_line


@pytest.fixture
def game():
    return Game(PRESETS["classic-10000"], [A.Players(("Ann", "Bob"))])


def test_digits_are_a_roll_then_a_keep(game):
    assert parse_line("12466", game.state) == A.Roll(parse_dice([1, 2, 4, 6, 6]))
    assert parse_line("1 2 4 6 6", game.state) == A.Roll(parse_dice([1, 2, 4, 6, 6]))
    game.play(A.Roll(parse_dice([1, 5, 5, 6, 6])))
    assert parse_line("51", game.state) == A.Keep((1, 5))
    assert parse_line("#1", game.state) == A.Keep((1, 5, 5))
    assert parse_line("keep 5", game.state) == A.Keep((5,))


def test_words(game):
    assert parse_line("b", game.state) == A.Bank()
    assert parse_line("undo", game.state) == A.Undo()
    assert parse_line("spaced Bob", game.state) == A.Penalty("spaced", "Bob")
    assert parse_line("land choose Bob", game.state) == A.Land("choose", "Bob")
    assert parse_line("leave Ann", game.state) == A.Leave("Ann")
    assert parse_line("roll 2w 2w 3r 3r 4g 4g", game.state) == A.Roll(
        parse_dice(["2w", "2w", "3r", "3r", "4g", "4g"]))
    assert parse_line("help", game.state) == "help"


@pytest.mark.parametrize("line", ["foo", "1x9", "land up", "#3", "keep"])
def test_nonsense_is_refused(game, line):
    with pytest.raises(TableError):
        parse_line(line, game.state)


def test_session_prints_refusals_and_saves(tmp_path):
    typed = iter(["12466", "2", "1", "b", "board", "quit"])
    shown: list[str] = []
    with EventLog(tmp_path / "g.db") as log:
        keeper = Scorekeeper.new(log, PRESETS["classic-10000"])
        keeper.play(A.Players(("Ann", "Bob")))
        TextScorekeeper(keeper, read=lambda _: next(typed), write=shown.append).run()
        stored = log.actions(keeper.game_id)
    text = "\n".join(shown)
    assert "every kept die must be part of a scoring combination" in text
    assert "needs 1000 in one turn to get on the board" in text
    assert stored[1:] == [A.Roll(parse_dice([1, 2, 4, 6, 6])), A.Keep((1,))]
    assert "resume with: zonkcam play --text --resume 1" in shown[-1]


def test_bytes_that_are_not_utf8_at_a_strict_terminal_are_one_line(tmp_path):
    import os
    import subprocess
    import sys

    proc = subprocess.run(
        [sys.executable, "-m", "zonkcam", "play", "--text", "--db", str(tmp_path / "g.db"),
         "--players", "Ann", "Bob"], input=b"\xff\xfe12\n23466\njoin Z\x1b[2Jed\nquit\n",
        capture_output=True, timeout=60, env=dict(os.environ, PYTHONIOENCODING="utf-8:strict"))
    out = proc.stdout.decode()
    assert proc.returncode == 0 and b"Traceback" not in proc.stderr, proc.stderr
    refusals = [x for x in out.splitlines() if x.startswith("! ")]
    assert len(refusals) == 2 and all("not printable text" in x for x in refusals)
    assert "Ann zonks" in out and "\x1b" not in out
    with EventLog(tmp_path / "g.db") as log:
        assert len(log.actions(1)) == 2


def test_a_line_the_terminal_cannot_decode_is_refused(game, tmp_path):
    lines = iter([None, "quit"])

    def read(_prompt):
        line = next(lines)
        if line is None:
            raise UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte")
        return line

    shown: list[str] = []
    with EventLog(tmp_path / "g.db") as log:
        keeper = Scorekeeper.new(log, PRESETS["chicago"], [A.Players(("Ann",))])
        TextScorekeeper(keeper, read=read, write=shown.append).run()
    assert "! that line is not UTF-8 text; type it again" in shown


def test_odds_shows_the_advice_for_the_current_state(tmp_path):
    typed = iter(["odds", "15533", "odds", "quit"])
    shown: list[str] = []
    advisor = Advisor()
    with EventLog(tmp_path / "g.db") as log:
        keeper = Scorekeeper.new(log, PRESETS["chicago"])
        keeper.play(A.Players(("Ann", "Bob")))
        TextScorekeeper(keeper, read=lambda _: next(typed), write=shown.append,
                        advisor=advisor).run()
        state = keeper.state
    odds = [s for s in shown if s.startswith("odds for Ann")]
    assert len(odds) == 2
    first, second = odds
    assert "nothing scores on the next roll: 7.7%" in first  # five dice: 25/324
    assert "bank not allowed  |  roll on 340" in first
    assert "best: roll 5 dice" in first
    advice = advisor.advise(state)
    assert f"best: {best_words(advice, state)}" in second
    assert "#1 keep 1 5 5" in second and "roll on" in second
    assert f"bank {advice.bank:,.0f}" in second


def test_odds_is_a_view_word(game):
    assert parse_line("odds", game.state) == "odds"
