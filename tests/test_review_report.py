"""`zonkcam games report`: the night's HTML page, built from a saved log, self-contained,
and rendered by headless Chromium where it is installed."""

from __future__ import annotations

import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from zonkcam import cli
from zonkcam.game import actions as A
from zonkcam.game.dice import parse_dice
from zonkcam.game.rules import PRESETS
from zonkcam.record.logged_game import LoggedGame
from zonkcam.record.store import EventLog
from zonkcam.review.night import review_game


def _night(db: Path) -> None:
    """Two chicago games alike: Ann banks 150, Bob zonks, Ann makes hot dice and zonks."""
    with EventLog(db) as log:
        for _ in range(2):
            keeper = LoggedGame.new(log, PRESETS["chicago"], [A.Players(("Ann", "Bob"))])
            for action in (
                A.Roll(parse_dice([1, 5, 2, 3, 6])),  # Ann keeps 1 5 and banks 150
                A.Keep((1, 5)),
                A.Bank(),
                A.Roll(parse_dice([2, 2, 3, 4, 6])),  # Bob zonks
                A.Roll(parse_dice([1, 1, 1, 5, 5])),  # Ann: all five score, hot dice
                A.Keep((1, 1, 1, 5, 5)),
                A.Roll(parse_dice([2, 3, 4, 6, 6])),  # ... and zonks the lot
            ):
                keeper.play(action)


class _Tags(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags: list[str] = []
        self.links: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.links += [v for k, v in attrs if k in ("href", "src") and v]


def test_a_game_is_played_back_into_its_race_zonks_and_hot_dice(tmp_path):
    db = tmp_path / "g.sqlite3"
    _night(db)
    with EventLog(db) as log:
        g = review_game(1, log.rules(1), log.actions(1), log.action_times(1))
    assert g.players == ["Ann", "Bob"]
    assert [t.number for t in g.turns] == [1, 2, 3]
    assert [(t.player, t.points, t.zonk) for t in g.turns] == [
        ("Ann", 150, False),
        ("Bob", 0, True),
        ("Ann", 0, True),
    ]
    assert g.race[-1] == (3, {"Ann": 150, "Bob": 0})
    assert g.zonks == {"Ann": 1, "Bob": 1} and g.hot_dice == {"Ann": 1}
    assert all(t.seconds >= 0 for t in g.turns)


def test_the_report_is_one_self_contained_page(tmp_path, capsys):
    db, out = tmp_path / "g.sqlite3", tmp_path / "report"
    _night(db)
    assert cli.main(["games", "report", "--db", str(db), "--out", str(out)]) == 0
    assert "2 games, 0 roll photos" in capsys.readouterr().out
    text = (out / "index.html").read_text()
    parser = _Tags()
    parser.feed(text)
    assert "script" not in parser.tags and parser.links == []  # nothing to fetch
    assert parser.tags.count("svg") == 2 * 3 + 1  # per game: race, zonks, hot dice; the die
    for words in ("Game 1: chicago", "Game 2: chicago", "The score race", "Is any die loaded?"):
        assert words in text
    assert "too few throws to tell" in text and "The biggest turns" in text
    assert cli.main(["games", "report", "9", "--db", str(db), "--out", str(out)]) == 2


@pytest.mark.skipif(not shutil.which("chromium"), reason="headless Chromium is not installed")
def test_headless_chromium_renders_the_report(tmp_path):
    db, out = tmp_path / "g.sqlite3", tmp_path / "report"
    _night(db)
    assert cli.main(["games", "report", "--db", str(db), "--out", str(out)]) == 0
    flags = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        f"--user-data-dir={tmp_path / 'profile'}",
    ]
    url = (out / "index.html").as_uri()
    dom = subprocess.run(
        ["chromium", *flags, "--dump-dom", url], capture_output=True, text=True, timeout=120
    )
    assert dom.returncode == 0, dom.stderr[-2000:]
    assert dom.stdout.count("<svg") == 7 and "Is any die loaded?" in dom.stdout
    shot = tmp_path / "report.png"
    subprocess.run(
        ["chromium", *flags, f"--screenshot={shot}", "--window-size=900,2400", url],
        capture_output=True,
        timeout=120,
        check=True,
    )
    assert shot.stat().st_size > 20_000  # charts drawn, not a blank page
