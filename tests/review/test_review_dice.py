"""`zonkcam games dice`: the night's dice from the log, pooled by what tells them apart,
corrections counted as corrected."""

from __future__ import annotations

from zonkcam import cli
from zonkcam.game import PRESETS, parse_dice
from zonkcam.game import actions as A
from zonkcam.record.logged_game import LoggedGame
from zonkcam.record.store import EventLog
from zonkcam.review.dice import NO_COLOUR, pools


def _game(log, rules, rolls, undo_first=None):
    logged = LoggedGame.new(log, PRESETS[rules], [A.Players(("Ann", "Bob"))])
    if undo_first:  # a misread roll, taken back and thrown as it lay
        logged.play(A.Roll(parse_dice(undo_first)))
        logged.play(A.Undo())
    for roll in rolls:  # each a turn: thrown, the best keep kept, banked
        logged.play(A.Roll(parse_dice(roll)))
        logged.play(A.Keep(logged.state.turn.score.keeps[0].dice))
        logged.play(A.Bank())
    return logged.game_id


def test_the_pools_count_every_die_as_kept_and_detroit_dice_by_colour(tmp_path):
    with EventLog(tmp_path / "g.sqlite3") as log:
        plain = _game(log, "chicago", [[1, 2, 3, 4, 6]], undo_first=[6, 6, 6, 6, 6])
        coloured = _game(log, "detroit", [["1w", "2w", "2r", "4r", "4g", "6g"]])
        from zonkcam.record.logged_game import saved_game

        chicago = pools(saved_game(log, plain)[0].events)
        detroit = pools(saved_game(log, coloured)[0].events)
    assert [p.name for p in chicago] == ["every die"]
    assert chicago[0].verdict.counts[5] == 1  # the five 6s were taken back: one 6 counts
    assert chicago[0].dice == 5 and "pooled" in chicago[0].text
    assert {p.name: p.verdict.counts for p in detroit} == {
        "white": (1, 1, 0, 0, 0, 0),
        "red": (0, 1, 0, 1, 0, 0),
        "green": (0, 0, 0, 1, 0, 1),
    }


def test_dice_the_camera_read_are_followed_by_their_colour():
    whites = ["white"] * 5
    rolls = [A.Roll(parse_dice([1 + i % 6, 2, 3, 4, 5, 6]), ("red", *whites)) for i in range(40)]
    rolls[7] = A.Roll(parse_dice([6, 6, 3, 4, 5, 6]), ("red", "red", *whites[1:]))  # misread
    rolls.append(A.Roll(parse_dice([2, 2]), ("red", "white")))
    rolls.append(A.Roll(parse_dice([4, 4])))  # typed in: no colour
    white, red, none = pools(rolls)  # the most thrown first
    assert (red.name, red.dice, red.verdict.throws) == ("red", 1, 42)
    assert red.followed == 40 / 41 and "red die (followed by its colour in 98% of" in red.text
    assert (white.name, white.dice, white.verdict.throws) == ("white", 5, 200)
    assert "white (5 dice of one colour, pooled)" in white.text
    assert (none.name, none.dice, none.verdict.counts) == (NO_COLOUR, 2, (0, 0, 0, 2, 0, 0))
    # a colour thrown twice in most throws is two dice, pooled
    two = pools(
        [A.Roll(parse_dice([3, 4]), ("blue", "blue"))] * 30 + [A.Roll(parse_dice([5]), ("blue",))]
    )
    assert [(p.name, p.dice, p.followed) for p in two] == [("blue", 2, 1.0)]


def test_games_dice_prints_each_pool_and_its_verdict(tmp_path, capsys):
    db = tmp_path / "g.sqlite3"
    with EventLog(db) as log:
        _game(log, "chicago", [[1, 2, 3, 4, 6], [5, 5, 2, 3, 4]])
    assert cli.main(["games", "dice", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "every die (5 dice with no colour to tell them apart, pooled): too few throws" in out
    assert "faces 1-6:" in out
    assert cli.main(["games", "dice", "7", "--db", str(db)]) == 2
    assert "no game 7" in capsys.readouterr().err
    assert cli.main(["games", "dice", "--night", "03/12/2026", "--db", str(db)]) == 2
    assert "--night takes a day as YYYY-MM-DD" in capsys.readouterr().err
    assert cli.main(["games", "dice", "--night", "1999-01-01", "--db", str(db)]) == 0
    assert "no throws" in capsys.readouterr().out
