"""A clock that jumps (a Pi without a real-time clock boots with the wrong time and is set
right during the night): durations never go negative, a turn across a jump or longer
than anyone takes is "unknown", a game is dated by what its players saw, and
`games show` says where the clock jumped."""

from __future__ import annotations

import dataclasses
import datetime
import html
import re
import sqlite3
from pathlib import Path

from zonkcam.cli import main
from zonkcam.game import PRESETS, parse_dice
from zonkcam.game import actions as A
from zonkcam.record.clock import LONGEST_S, duration_words, in_order, timeline
from zonkcam.record.logged_game import LoggedGame
from zonkcam.record.store import EventLog
from zonkcam.review.night import review_game
from zonkcam.review.report import page

SHORT = dataclasses.replace(PRESETS["chicago"], target=300)
DAY = 86400.0
YEARS_2 = 2 * 365 * DAY
NIGHT = datetime.datetime(2026, 12, 5, 20, 0)
R = NIGHT.timestamp()
"""The real time of the night: 5 December 2026, 20:00 local time."""


def _actions() -> list[A.Action]:
    """Eight actions: the seating; Ann banks 150 (actions 2-4, her turn ends at 4); Bob
    zonks (5); Ann banks 200 and wins (6-8)."""
    return [
        A.Players(("Ann", "Bob")),
        A.Roll(parse_dice([1, 5, 2, 3, 6])),
        A.Keep((1, 5)),
        A.Bank(),
        A.Roll(parse_dice([2, 2, 3, 4, 6])),
        A.Roll(parse_dice([1, 1, 3, 4, 6])),
        A.Keep((1, 1)),
        A.Bank(),
    ]


def _game(log: EventLog) -> None:
    first, *rest = _actions()
    logged = LoggedGame.new(log, SHORT, [first])
    for action in rest:
        logged.play(action)
    assert logged.state.finished


def _timed(db: Path, *games: list[float]) -> None:
    """One game per list of times, each action written at its time."""
    with EventLog(db) as log:
        for _ in games:
            _game(log)
    con = sqlite3.connect(db)
    with con:
        for game_id, times in enumerate(games, start=1):
            assert len(times) == 8
            for seq, at in enumerate(times, start=1):
                con.execute(
                    "UPDATE events SET at = ? WHERE game_id = ? AND seq = ?", (at, game_id, seq)
                )
    con.close()


BACK_A_DAY = [R + 20 * i for i in range(5)] + [R - DAY + 100 + 20 * i for i in range(3)]
"""Actions 1-5 on the night, then the clock set back a day (at action 6)."""
AHEAD_AND_BACK = [R, R + 20, R + 40, R + YEARS_2 + 60, R + YEARS_2 + 80, R + 100, R + 120, R + 140]
"""Right, then two years ahead (actions 4-5), then right again."""


def _day(at: float) -> str:
    return datetime.datetime.fromtimestamp(at).strftime("%Y-%m-%d")


def _report(db: Path, out: Path, *extra: str) -> str:
    assert main(["games", "report", *extra, "--db", str(db), "--out", str(out)]) == 0
    text = html.unescape(re.sub(r"<[^>]+>", " ", (out / "index.html").read_text()))
    return " ".join(text.split())


def test_the_clock_set_back_a_day_mid_game(tmp_path, capsys):
    """Was "How long it ran from 20:00 to 20:02: -1438 min"."""
    db = tmp_path / "g.db"
    _timed(db, BACK_A_DAY)
    with EventLog(db) as log:
        g = review_game(1, SHORT, log.actions(1), log.action_times(1))
    assert [t.seconds for t in g.turns] == [60, 20, None]  # Ann's second turn: across it
    assert g.ended - g.started == 120 and g.timed
    assert [(j.index, j.words()) for j in g.jumps] == [(5, "back 23 h 59 min")]
    text = _report(db, tmp_path / "r")
    assert "How long it ran from 20:00 to 20:02: 2 min (the clock jumped in game 1:" in text
    assert "-" not in re.search(r"How long it ran[^(]*", text).group(0)
    assert "Ann 2 200 unknown" in text  # the biggest turns: how long it took
    # dated by the clock after the jump, as set: the day before
    before = _day(R - DAY)
    assert main(["games", "show", "1", "--db", str(db)]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert last == (
        f"the clock jumped back 23 h 59 min at action 6 ({_day(R)} 20:01 to {before} 20:01): the "
        f"game's times are read by the clock after the jump; it began {before} 20:00, its "
        f"night {before} (--night)"
    )
    assert "Game 1" in _report(db, tmp_path / "r2", "--night", before)


def test_the_clock_two_years_ahead_then_set_right(tmp_path, capsys):
    """Was a turn that "took 1051200 min", and the game left out of --night for the real
    day (dated by its latest time, two years ahead)."""
    db = tmp_path / "g.db"
    _timed(db, AHEAD_AND_BACK)
    with EventLog(db) as log:
        g = review_game(1, SHORT, log.actions(1), log.action_times(1))
        assert log.games_of(_day(R)) == [1] and log.games_of(_day(R + YEARS_2)) == []
        assert log.games()[0].updated == R + 140  # its last action, not its latest time
    assert [t.seconds for t in g.turns] == [None, 20, None]
    assert g.ended - g.started == 100
    assert [j.words() for j in g.jumps] == ["forward 2 years", "back 2 years"]
    text = _report(db, tmp_path / "r", "--night", _day(R))
    assert "How long it ran from 20:00 to 20:02: 2 min" in text
    assert " min " not in text.replace("2 min (", "")  # no turn took "1051200 min"
    assert text.count("unknown") == 2
    assert main(["games", "show", "1", "--db", str(db)]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert (
        last.startswith("the clock jumped forward 2 years at action 4 (")
        and (
            f"and back 2 years at action 6 ({_day(R + YEARS_2)} 20:01 to {_day(R)} 20:01): the "
            f"game's times are read by the clock after the last jump; it began {_day(R)} 20:00"
        )
        in last
    )
    assert main(["games", "list", "--db", str(db)]) == 0
    assert f"   1  {_day(R)} 20:02  " in capsys.readouterr().out


def test_a_game_played_wholly_two_years_ahead_is_dated_by_the_game_after_it(tmp_path, capsys):
    db = tmp_path / "g.db"
    _timed(db, [R + YEARS_2 + 20 * i for i in range(8)], [R + 600 + 20 * i for i in range(8)])
    with EventLog(db) as log:
        assert log.games_of(_day(R)) == [1, 2]
        assert log.began() == {1: R + 600, 2: R + 600}
    assert main(["games", "show", "1", "--db", str(db)]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert last == (
        "the clock was ahead while it was played (it seemed to begin after games saved "
        f"after it): it is taken to begin with them; it began {_day(R)} 20:10, its night "
        f"{_day(R)} (--night)"
    )
    assert main(["games", "show", "2", "--db", str(db)]) == 0
    assert "clock" not in capsys.readouterr().out  # nothing to say of a steady clock


def test_durations_are_never_negative_and_a_turn_past_belief_is_unknown():
    # a step back of a second (the clock trimmed): no jump, no time
    small = timeline([R, R + 10, R + 9, R + 30])
    assert small.jumps == () and small.times == (R - 1, R + 9, R + 9, R + 30)
    # an hour between each action: a turn of seven hours is past belief
    hourly = [R + 3600 * i for i in range(8)]
    g = review_game(1, SHORT, _actions(), hourly)
    assert [t.seconds for t in g.turns] == [3 * 3600, 3600, 3 * 3600]
    slow = [R, R + 1, R + 2, R + 3, R + 4, R + 5 + LONGEST_S - 1, R + 5 + LONGEST_S, R + 7 * 3600]
    g = review_game(1, SHORT, _actions(), slow)
    assert g.turns[-1].seconds is None and g.jumps == ()  # no gap past it, the turn is
    # every step back: the times never go back, nor any turn below 0
    back = [R + 100 - 10 * i for i in range(8)]
    g = review_game(1, SHORT, _actions(), back)
    assert all(t.seconds is None or t.seconds >= 0 for t in g.turns)
    assert g.ended >= g.started and not g.timed  # every step a jump: no times to tell
    assert "-" not in re.search(r"How long it ran</th><td>[^<]*", page("n", [g], [], {})).group(0)


def test_the_timeline_and_the_order_of_games():
    t = timeline(AHEAD_AND_BACK)
    assert t.times == (R + 40, R + 60, R + 80, R + 80, R + 100, R + 100, R + 120, R + 140)
    assert t.jumped(2, 3) and not t.jumped(3, 4) and t.jumped(4, 5) and not t.jumped(5, 7)
    assert timeline([]).began is None
    assert in_order([R + YEARS_2, None, R, R + 50]) == [R, None, R, R + 50]
    assert [duration_words(s) for s in (40, 720, 3 * 3600 + 300, DAY, YEARS_2)] == [
        "40 s",
        "12 min",
        "3 h 5 min",
        "1 day",
        "2 years",
    ]
