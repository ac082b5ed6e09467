"""The night's awards at the top of the report: the biggest turn with its photo, the most
zonks, the comeback, first on the board, the luckiest and unluckiest die (only where two
dice told apart were thrown often enough)."""

from __future__ import annotations

import dataclasses
import re
from html import unescape
from pathlib import Path

import numpy as np

from zonkcam import cli
from zonkcam.game import PRESETS, parse_dice
from zonkcam.game import actions as A
from zonkcam.record.logged_game import LoggedGame
from zonkcam.record.photos import RollPhotos, photo_folder
from zonkcam.record.store import EventLog
from zonkcam.review.awards import LUCK_THROWS, awards, comeback
from zonkcam.review.dice import by_table_dice
from zonkcam.review.night import review_game

SHORT = dataclasses.replace(PRESETS["chicago"], target=300)
"""Chicago to 300: over as soon as a player reaches it."""
COMEBACK = [
    A.Players(("Ann", "Bob")),
    A.Roll(parse_dice([1, 1, 2, 3, 4])),  # Ann banks 200
    A.Keep((1, 1)),
    A.Bank(),
    A.Roll(parse_dice([5, 2, 3, 3, 6])),  # Bob banks 50: 150 behind
    A.Keep((5,)),
    A.Bank(),
    A.Roll(parse_dice([2, 2, 3, 4, 6])),  # Ann zonks
    A.Roll(parse_dice([1, 1, 1, 2, 3])),  # Bob: three 1s, 1,000, and wins
    A.Keep((1, 1, 1)),
    A.Bank(),
]
"""Ann leads by 200 after her first turn; Bob comes back with 1,000 and wins."""


def _text(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def _played(db: Path) -> None:
    """The comeback game, a photo kept of each of its rolls (as the table keeps them)."""
    with EventLog(db) as log:
        logged = LoggedGame.new(log, SHORT, [COMEBACK[0]])
        for action in COMEBACK[1:]:
            logged.play(action)
        assert logged.state.finished and logged.state.winners == ["Bob"]
    photos = RollPhotos(photo_folder(db))
    for seq, action in enumerate(COMEBACK, start=1):
        if isinstance(action, A.Roll):
            photos.save(1, seq, np.full((120, 160, 3), 20 * seq, np.uint8), [])
    photos.wait()


def test_the_report_opens_with_the_nights_awards(tmp_path):
    db, out = tmp_path / "g.sqlite3", tmp_path / "report"
    _played(db)
    assert cli.main(["games", "report", "--db", str(db), "--out", str(out)]) == 0
    html = (out / "index.html").read_text()
    assert html.index('id="awards"') < html.index('id="summary"') < html.index('id="game-1"')
    cards = re.findall(r'<article class="card award">(.*?)</article>', html)
    said = {_text(re.search(r"<h3>(.*?)</h3>", c).group(1)): _text(c) for c in cards}
    assert said["The biggest turn"].startswith(
        "The biggest turn Bob 1,000 points in one turn: their turn 2 in game 1 (chicago)"
    )
    assert said["The most zonks"] == "The most zonks Ann 1 zonk"
    assert said["The comeback"] == (
        "The comeback Bob 200 points behind Ann after 1 turn of game 1 (chicago), and won"
    )
    assert said["First on the board"] == (
        "First on the board Ann 200 points on the game's turn 1 (their turn 1)"
    )
    # no colour was read: no die is told apart, so no die is lucky, and it says why
    assert said["The luckiest die"].startswith("The luckiest die nobody nobody's: it takes two")
    assert "The unluckiest die" not in said
    # the biggest turn shows its last roll's photo (action 9), opening it large
    biggest = next(c for c in cards if "The biggest turn" in c)
    assert 'src="photos/game-0001-roll-00009.jpg"' in biggest
    assert 'href="#photo-1-9"' in biggest and 'id="photo-1-9"' in html
    assert "Luck is how often a die showed a 1 or a 5" in _text(html)


def test_a_winner_who_always_led_made_no_comeback():
    rules = SHORT
    led = [
        A.Players(("Ann", "Bob")),
        A.Roll(parse_dice([1, 1, 1, 2, 3])),
        A.Keep((1, 1, 1)),
        A.Bank(),
    ]
    g = review_game(1, rules, led, [0.0] * len(led))
    assert g.finished and g.winners == ["Ann"] and comeback(g) is None
    assert "The comeback" not in [a.title for a in awards([g])]
    back = review_game(1, rules, COMEBACK, [0.0] * len(COMEBACK))
    c = comeback(back)
    assert (c.player, c.behind, c.leader, c.after) == ("Bob", 200, "Ann", 1)


def _thrown(red: int, blue: int, green: int, throws: int) -> list[A.Action]:
    """Throws of a red, a blue and a green die (the colours the camera read), each showing a
    1 or a 5 in the first `red`, `blue`, `green` of them and a 3 in the rest."""
    rolls = []
    for i in range(throws):
        faces = [1 if i < n else 3 for n in (red, blue, green)]
        rolls.append(A.Roll(parse_dice(faces), ("red", "blue", "green")))
    return rolls


def test_the_luckiest_and_unluckiest_die_by_their_1s_and_5s():
    n = LUCK_THROWS
    tables = by_table_dice([(1, "chicago", 5, _thrown(n // 2, n // 3, n // 6, n))])
    won = {a.title: a for a in awards([], tables)}
    lucky, unlucky = won["The luckiest die"], won["The unluckiest die"]
    assert lucky.who == "the red die" and unlucky.who == "the green die"
    assert lucky.text.startswith(f"a 1 or a 5 in 50% of {n} throws (a fair die: 33%")
    assert unlucky.text.startswith(f"a 1 or a 5 in 17% of {n} throws")
    # give or take: two standard deviations of a fair die's share at n throws
    spread = 2 * (1 / 3 * 2 / 3 / n) ** 0.5
    assert f"give or take {spread:.0%}" in lucky.text


def test_no_die_is_lucky_without_enough_throws_or_dice_told_apart():
    few = by_table_dice([(1, "chicago", 5, _thrown(30, 20, 10, LUCK_THROWS - 1))])
    (award,) = [a for a in awards([], few) if "die" in a.title]
    assert award.who == "" and f"each thrown {LUCK_THROWS} times or more" in award.text
    # two dice of one colour are a pool, not a die: no luck of its own
    pooled = [A.Roll(parse_dice([1, 3]), ("red", "red"))] * 100
    pooled += [A.Roll(parse_dice([5]), ("blue",))] * 100
    (award,) = [
        a for a in awards([], by_table_dice([(1, "chicago", 5, pooled)])) if "die" in a.title
    ]
    assert award.who == "" and "(one was: the blue die)" in award.text
