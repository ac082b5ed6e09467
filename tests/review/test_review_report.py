"""`zonkcam games report`: the night's HTML page, built from a saved log, self-contained,
and rendered by headless Chromium where it is installed."""

from __future__ import annotations

import dataclasses
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from zonkcam import cli
from zonkcam.app.players import scripted_game
from zonkcam.game import PRESETS, parse_dice
from zonkcam.game import actions as A
from zonkcam.record.logged_game import LoggedGame
from zonkcam.record.photos import RollPhotos, photo_folder
from zonkcam.record.store import EventLog
from zonkcam.review.night import review_game
from zonkcam.review.report import faces_chart, page

CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)


def _night(db: Path) -> None:
    """Two chicago games alike: Ann banks 150, Bob zonks, Ann makes hot dice and zonks."""
    with EventLog(db) as log:
        for _ in range(2):
            logged = LoggedGame.new(log, PRESETS["chicago"], [A.Players(("Ann", "Bob"))])
            for action in (
                A.Roll(parse_dice([1, 5, 2, 3, 6])),  # Ann keeps 1 5 and banks 150
                A.Keep((1, 5)),
                A.Bank(),
                A.Roll(parse_dice([2, 2, 3, 4, 6])),  # Bob zonks
                A.Roll(parse_dice([1, 1, 1, 5, 5])),  # Ann: all five score, hot dice
                A.Keep((1, 1, 1, 5, 5)),
                A.Roll(parse_dice([2, 3, 4, 6, 6])),  # ... and zonks the lot
            ):
                logged.play(action)


class _Tags(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags: list[str] = []
        self.links: list[str] = []
        """Links out of the page (a photo's file)."""
        self.anchors: list[str] = []
        """Links within it (#game-1), without their #."""
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        for k, v in attrs:
            if k in ("href", "src") and v and v.startswith("#"):
                self.anchors.append(v[1:])
            elif k in ("href", "src") and v:
                self.links.append(v)
            elif k == "id":
                self.ids.add(v)


def test_a_game_is_played_back_into_its_race_zonks_and_hot_dice(tmp_path):
    db = tmp_path / "g.sqlite3"
    _night(db)
    with EventLog(db) as log:
        g = review_game(1, log.rules(1), log.actions(1), log.action_times(1))
    assert g.players == ["Ann", "Bob"]
    assert [t.number for t in g.turns] == [1, 1, 2]  # each player's own, as the sheet
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
    assert "url(" not in text and "@import" not in text  # nor from the style
    assert set(parser.anchors) <= parser.ids  # a link within the page finds its place
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
    flags = [*CHROMIUM_FLAGS, f"--user-data-dir={tmp_path / 'profile'}"]
    url = (out / "index.html").as_uri()
    dom = subprocess.run(
        ["chromium", *flags, "--dump-dom", url], capture_output=True, text=True, timeout=120
    )
    assert dom.returncode == 0, dom.stderr[-2000:]
    assert dom.stdout.count("<svg") == 7 and "Is any die loaded?" in dom.stdout
    assert '<section id="summary">' in dom.stdout and "The night in short" in dom.stdout
    shot = tmp_path / "report.png"
    subprocess.run(
        ["chromium", *flags, f"--screenshot={shot}", "--window-size=900,2400", url],
        capture_output=True,
        timeout=120,
        check=True,
    )
    assert shot.stat().st_size > 20_000  # charts drawn, not a blank page


SHORT_CHICAGO = dataclasses.replace(PRESETS["chicago"], target=300)
"""Chicago to 300: over as soon as a player reaches it."""


def _short_night(db: Path) -> None:
    """Two games to 300, Ann wins both: 150, Bob zonks, 200 (Ann's turn 2 ends it)."""
    with EventLog(db) as log:
        for _ in range(2):
            logged = LoggedGame.new(log, SHORT_CHICAGO, [A.Players(("Ann", "Bob"))])
            for action in (
                A.Roll(parse_dice([1, 5, 2, 3, 6])),
                A.Keep((1, 5)),
                A.Bank(),
                A.Roll(parse_dice([2, 2, 3, 4, 6])),  # Bob zonks
                A.Roll(parse_dice([1, 1, 3, 4, 6])),
                A.Keep((1, 1)),
                A.Bank(),
            ):
                logged.play(action)
            assert logged.state.finished


def _text(html: str) -> str:
    """The page's words, tags dropped and entities undone."""
    import html as html_

    return html_.unescape(re.sub(r"<[^>]+>", " ", html))


def test_the_report_opens_with_the_nights_summary(tmp_path, capsys):
    db, out = tmp_path / "g.sqlite3", tmp_path / "report"
    _short_night(db)
    with EventLog(db) as log:
        LoggedGame.new(log, PRESETS["drinking"], [A.Players(("Cy", "Dee"))])  # no turn
    assert cli.main(["games", "report", "--db", str(db), "--out", str(out)]) == 0
    html = (out / "index.html").read_text()
    # typed in all at once: its times are when it was typed in, which dates no night
    h1 = re.search(r"<h1>(.*?)</h1>", html).group(1)
    assert _text(h1) == "The night's games at the chicago table", h1
    assert html.index('<section id="summary">') < html.index('<section id="game-1">')
    summary = " ".join(_text(html[html.index('id="summary"') : html.index('id="game-1"')]).split())
    for words in (
        "The night's winner Ann: 2 of the 2 finished games won",
        "Game 1 (chicago): Ann won with 350; Bob 0",
        "Game 3 (drinking), player 1, player 2: no turn played",
        "The biggest turn 200 by Ann (their turn 2 in game 1)",
        "The most zonks Bob: 2",
        "Drinks handed out none: no drinking table",
        "How long it ran no times kept",
    ):
        assert words in summary, words
    # the game with no turn is one line, not a section of empty charts
    assert 'id="game-3"' not in html and "Game 3: drinking: no turn played." in _text(html)


def test_the_summary_says_how_long_the_night_ran_and_turns_how_long_each_took(tmp_path):
    db = tmp_path / "g.sqlite3"
    _short_night(db)
    with EventLog(db) as log:
        actions = log.actions(1)
    start = 1_800_000_000.0  # each action 20 s after the one before
    times = [start + 20 * i for i in range(len(actions))]
    g = review_game(1, SHORT_CHICAGO, actions, times)
    assert g.timed and [t.seconds for t in g.turns] == [60, 20, 60]  # from the turn before
    html = page("night", [g], [], {})
    assert f"How long it ran</th><td>from {_clock(start)} to {_clock(times[-1])}: 2 min" in html
    assert "<th>took</th>" in html and "<td>1 min 0 s</td>" in html
    # the same game typed in all at once: no times kept, never "took 0 s"
    typed = review_game(1, SHORT_CHICAGO, actions, [start + 0.001 * i for i in range(len(actions))])
    html = page("night", [typed], [], {})
    assert not typed.timed and "No times kept" in html and " s</td>" not in html


def _clock(at: float) -> str:
    import datetime

    return f"{datetime.datetime.fromtimestamp(at):%H:%M}"


def test_turns_are_numbered_per_player_as_the_score_sheet_numbers_them(tmp_path):
    rules = PRESETS["classic-10000"]
    actions = scripted_game(rules, ("Ann", "Bob", "Cy"), 120, seed=2)
    g = review_game(1, rules, actions, [0.0] * len(actions))
    from zonkcam.game import Game

    state = Game(rules, actions).state
    for p in state.players:
        mine = [t.number for t in g.turns if t.player == p.name]
        assert mine == list(range(1, len(p.sheet) + 1)), p.name
    assert [t.number for t in g.turns][:4] == [1, 1, 1, 2]
    html = page("night", [g], [], {})
    assert "<th>their turn</th>" in html


def test_the_all_johnnys_race_plots_bees(tmp_path):
    rules = PRESETS["all-johnnys"]
    actions = scripted_game(rules, ("Ann", "Bob"), 10_000, seed=3)
    g = review_game(1, rules, actions, [0.0] * len(actions))
    from zonkcam.game import Game

    state = Game(rules, actions).state
    assert state.finished and g.by_bees
    assert g.bees_race[-1][1] == {p.name: p.bees for p in state.players}
    top = max(p.bees for p in state.players)
    html = page("night", [g], [], {})
    race = html[html.index("The race for B") : html.index("<h3>Zonks")]
    assert f"{top} B's" in _text(race) and "The score race" not in html
    winner = state.players[0] if state.winners == ["Ann"] else state.players[1]
    assert f"{winner.name} won with {winner.bees} B's and {winner.score:,} points" in _text(html)


def test_the_fairness_chart_counts_each_face_and_names_its_dashed_line():
    svg = faces_chart([3, 5, 7, 2, 9, 4])
    labels = re.findall(r">([^<]+)</text>", svg)
    assert labels[0] == "a fair die: 5.0 of each face"
    counts = labels[1::2]
    assert counts == ["3", "5", "7", "2", "9", "4"] and labels[2::2] == list("123456")
    assert svg.count('stroke-dasharray="5,4"') == 2  # the line and its legend


def test_a_sloppy_turn_is_said_in_words(tmp_path):
    rules = PRESETS["drinking"]
    actions = [
        A.Players(("Ann", "Bob")),
        A.ZonkName("Bob", "Wobbly", "Ann"),
        A.ZonkName("Ann", "Sparky", "Bob"),
        A.Roll(parse_dice([1, 5, 5, 2, 3])),
        A.Penalty(A.PenaltyKind.SLOPPY),
    ]
    g = review_game(1, rules, actions, [5.0 * i for i in range(len(actions))])
    assert [(t.player, t.sloppy, t.zonk, t.points) for t in g.turns] == [("Sparky", True, False, 0)]
    html = page("night", [g], [], {})
    slowest = html[html.index("The slowest turns") :]
    # it took from the seating to the penalty
    assert "<td>sloppy (a die fell off the table): no points</td><td>20 s</td>" in slowest


def test_the_drinking_table_shows_no_real_name(tmp_path):
    db, out = tmp_path / "g.sqlite3", tmp_path / "report"
    rules = PRESETS["drinking"]
    with EventLog(db) as log:
        # Cy's zonk name comes after a turn; Dee never gets one
        logged = LoggedGame.new(
            log,
            rules,
            [
                A.Players(("Annabel", "Bartholomew", "Cyprian", "Deirdre")),
                A.ZonkName("Annabel", "Sparky", "Deirdre"),
                A.ZonkName("Bartholomew", "Wobbly", "Annabel"),
            ],
        )
        for action in scripted_game(rules, ("Sparky", "Wobbly", "Cyprian", "Deirdre"), 40, 1)[1:]:
            if logged.state.log and len(logged.state.players[0].sheet) == 1:
                if not logged.state.players[2].zonk_name:
                    logged.play(A.ZonkName("Cyprian", "Hoppy", "Bartholomew"))
            logged.play(action)
    assert cli.main(["games", "report", "--db", str(db), "--out", str(out)]) == 0
    html = (out / "index.html").read_text()
    for real in ("Annabel", "Bartholomew", "Cyprian", "Deirdre"):
        assert real not in html, real
    for shown in ("Sparky", "Wobbly", "Hoppy", "player 4"):
        assert shown in html, shown


def _photographed(db: Path) -> int:
    """Keep a photo of every roll of game 1 (the game's log places), as the table does."""
    import numpy as np

    photos = RollPhotos(photo_folder(db))
    with EventLog(db) as log:
        rolls = [n for n, a in enumerate(log.actions(1), start=1) if isinstance(a, A.Roll)]
    for n in rolls:
        photos.save(1, n, np.full((120, 160, 3), 40 * n % 255, np.uint8), [])
    photos.wait()
    return len(rolls)


def test_roll_photos_are_thumbnails_by_turn(tmp_path, capsys):
    db, out = tmp_path / "g.sqlite3", tmp_path / "report"
    _short_night(db)
    assert _photographed(db) == 3
    assert cli.main(["games", "report", "1", "--db", str(db), "--out", str(out)]) == 0
    assert "1 game, 3 roll photos" in capsys.readouterr().out
    html = (out / "index.html").read_text()
    photos = html[html.index("Roll photos by turn (3)") :]
    rows = re.findall(r'<div class="turn"><p>(.*?)</p><div>(.*?)</div></div>', photos)
    assert [(_text(who), len(re.findall("<img ", imgs))) for who, imgs in rows] == [
        ("Ann's turn 1: 150", 1),
        ("Bob's turn 1: zonk", 1),
        ("Ann's turn 2: 200", 1),
    ]
    parser = _Tags()
    parser.feed(html)
    # each photo once in its turn, and the biggest turn's last roll among the awards
    assert "script" not in parser.tags and parser.tags.count("img") == 3 + 1
    assert all((out / link).is_file() and not re.match(r"\w+:", link) for link in parser.links)
    assert set(parser.anchors) <= parser.ids | {"_"}  # "#_": closing a photo opened large


@pytest.mark.skipif(not shutil.which("chromium"), reason="headless Chromium is not installed")
def test_headless_chromium_draws_the_summary_and_the_thumbnails(tmp_path):
    db, out = tmp_path / "g.sqlite3", tmp_path / "report"
    _short_night(db)
    _photographed(db)
    assert cli.main(["games", "report", "--db", str(db), "--out", str(out)]) == 0
    # a copy of the page with a script that writes each image's decoded size into the page
    probe = out / "probe.html"
    probe.write_text(
        (out / "index.html")
        .read_text()
        .replace(' loading="lazy"', "")
        .replace(
            "</body>",
            "<script>addEventListener('load', () => { document.body.dataset.sizes = "
            "[...document.images].map(i => i.naturalWidth + 'x' + i.naturalHeight)"
            ".join(' '); });</script></body>",
        )
    )
    flags = [*CHROMIUM_FLAGS, f"--user-data-dir={tmp_path / 'profile'}"]
    dom = subprocess.run(
        ["chromium", *flags, "--virtual-time-budget=5000", "--dump-dom", probe.as_uri()],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert dom.returncode == 0, dom.stderr[-2000:]
    assert '<section id="summary">' in dom.stdout and "The night's winner" in dom.stdout
    sizes = re.search(r'data-sizes="([^"]*)"', dom.stdout).group(1).split()
    assert sizes == ["160x120"] * 4  # every photo decoded (the award's too), at its own size


def _stubs(folder: Path, names: list[str], calls: Path) -> dict[str, str]:
    """Commands that only note how they were called; a PATH that holds only them."""
    folder.mkdir(exist_ok=True)
    for name in names:
        stub = folder / name
        stub.write_text(f'#!/bin/sh\necho "{name} $*" >> {calls}\n')
        stub.chmod(0o755)
    return {"PATH": str(folder), "HOME": str(folder)}


@pytest.mark.skipif(not Path("/bin/bash").exists(), reason="CI's scripts are bash")
def test_ci_installs_chromium_where_it_is_missing_so_the_browser_test_runs(tmp_path):
    root = Path(__file__).resolve().parents[2]
    assert ".ci/chromium\nmake test" in (root / ".ci/run").read_text()  # before the tests
    script = str(root / ".ci/chromium")
    calls = tmp_path / "calls"
    env = _stubs(tmp_path / "bin", ["apt-get"], calls)
    ran = subprocess.run(["/bin/bash", script], env=env, capture_output=True, text=True)
    if ran.returncode == 0 and not calls.exists():  # not root: said in one line, and on
        assert "only root can install it" in ran.stderr
        return
    assert ran.returncode == 0, ran.stderr
    assert calls.read_text().splitlines() == [
        "apt-get update -qq",
        "apt-get install -y -qq chromium",
    ]
    assert ran.stdout == ""  # quietly
    # where chromium is there already, nothing is installed
    calls.unlink()
    _stubs(tmp_path / "bin", ["chromium"], tmp_path / "unused")
    ran = subprocess.run(["/bin/bash", script], env=env, capture_output=True, text=True)
    assert ran.returncode == 0 and not calls.exists()


def test_a_game_everyone_left_is_a_line_with_no_winner():
    rules = PRESETS["chicago"]
    actions = [
        A.Players(("Ann", "Bob")),
        A.Roll(parse_dice([1, 5, 2, 3, 6])),
        A.Keep((1, 5)),
        A.Bank(),
        A.Leave("Bob"),
        A.Leave("Ann"),
    ]
    g = review_game(1, rules, actions, [0.0] * len(actions))
    assert g.finished and not g.winners
    html = page("night", [g], [], {})
    assert "Game 1 (chicago): over, with nobody left to win" in html


def test_the_report_replaces_a_link_in_its_folder_never_writing_through_it(tmp_path, capsys):
    db, out = tmp_path / "g.sqlite3", tmp_path / "report"
    _short_night(db)
    assert _photographed(db) == 3
    out.mkdir()
    (out / "photos").mkdir()
    victim, photo_victim = tmp_path / "victim.txt", tmp_path / "photo-victim.txt"
    victim.write_text("keep me")
    photo_victim.write_text("keep me too")
    (out / "index.html").symlink_to(victim)
    (out / "photos" / "game-0001-roll-00002.jpg").symlink_to(photo_victim)
    assert cli.main(["games", "report", "1", "--db", str(db), "--out", str(out)]) == 0
    assert "1 game, 3 roll photos" in capsys.readouterr().out
    assert victim.read_text() == "keep me" and photo_victim.read_text() == "keep me too"
    index, photo = out / "index.html", out / "photos" / "game-0001-roll-00002.jpg"
    assert not index.is_symlink() and "Roll photos by turn (3)" in index.read_text()
    assert not photo.is_symlink() and photo.read_bytes()[:2] == b"\xff\xd8"  # a JPEG
    assert sorted(p.name for p in out.iterdir()) == ["index.html", "photos"]  # no temp file


def test_the_report_refuses_a_photos_folder_that_is_a_link(tmp_path, capsys):
    db, out, elsewhere = tmp_path / "g.sqlite3", tmp_path / "report", tmp_path / "elsewhere"
    _short_night(db)
    _photographed(db)
    out.mkdir()
    elsewhere.mkdir()
    (out / "photos").symlink_to(elsewhere, target_is_directory=True)
    assert cli.main(["games", "report", "1", "--db", str(db), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "a link there is not followed" in err and str(out / "photos") in err
    assert list(elsewhere.iterdir()) == [] and not (out / "index.html").exists()


def test_games_show_photos_replaces_a_link_never_writing_through_it(tmp_path, capsys):
    db, into = tmp_path / "g.sqlite3", tmp_path / "photos"
    _short_night(db)
    _photographed(db)
    into.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    (into / "game-0001-roll-00002.jpg").symlink_to(victim)
    assert cli.main(["games", "show", "1", "--db", str(db), "--photos", str(into)]) == 0
    assert "3 roll photos of game 1 copied" in capsys.readouterr().out
    assert victim.read_text() == "keep me"
    assert len([p for p in into.iterdir() if not p.is_symlink()]) == 3


def test_drinks_owed_and_drinks_marked_drunk_are_told_apart(tmp_path):
    """Was "3 drinks taken", counting the drinks owed, of which 2 were marked drunk."""
    db, out = tmp_path / "g.sqlite3", tmp_path / "report"
    with EventLog(db) as log:
        logged = LoggedGame.new(
            log,
            PRESETS["drinking"],
            [
                A.Players(("Ann", "Bob")),
                A.ZonkName("Ann", "Sparky", "Bob"),
                A.ZonkName("Bob", "Wobbly", "Ann"),
            ],
        )
        for _ in range(3):  # Ann, Bob, Ann: a die off the table each time, a drink owed
            logged.play(A.Roll(parse_dice([1, 5, 5, 2, 3])))
            logged.play(A.Penalty(A.PenaltyKind.SLOPPY))
        logged.play(A.Drunk("Ann"))  # Ann's two drunk; Bob's one still due
    assert cli.main(["games", "report", "--db", str(db), "--out", str(out)]) == 0
    html = (out / "index.html").read_text()
    text = " ".join(_text(html).split())
    assert "Drinks owed 3 (penalties and board images), 2 of them marked drunk" in text
    assert "2 of the 3 marked drunk (Sparky 2)" in text  # the game's own
    assert "taken" not in text and "drank" not in text


def test_five_and_six_dice_tables_are_never_pooled(tmp_path, capsys):
    """Was one pool, "every die (6 dice ...)", of a chicago game's five dice and a
    six-dice game's: dice of different sets, counted as one."""
    db, out = tmp_path / "g.sqlite3", tmp_path / "report"
    with EventLog(db) as log:
        for rules, roll in (("chicago", [1, 2, 3, 4, 6]), ("detroit", [1, 2, 3, 4, 6, 6])):
            logged = LoggedGame.new(log, PRESETS[rules], [A.Players(("Ann", "Bob"))])
            for _ in range(4):  # no colour read: a pool of every die of the table
                logged.play(A.Roll(parse_dice(roll)))
                logged.play(A.Keep((1,)))
                logged.play(A.Bank())
    assert cli.main(["games", "report", "--db", str(db), "--out", str(out)]) == 0
    html = (out / "index.html").read_text()
    dice = html[html.index("Is any die loaded?") :]
    assert re.findall(r"<h3>(.*?)</h3>", dice) == [
        "The 5-dice table (chicago): game 1",
        "The 6-dice table (detroit): game 2",
    ]
    charts = [re.findall(r">(\d+)</text>", svg) for svg in re.findall(r"<svg.*?</svg>", dice)]
    # each die's faces: the count over each bar, then the face under it
    assert [c[0::2] for c in charts] == [["4", "4", "4", "4", "0", "4"], list("444408")]
    text = _text(dice)
    assert "every die (5 dice with no colour" in text and "every die (6 dice with no" in text
    assert cli.main(["games", "dice", "--db", str(db)]) == 0
    said = capsys.readouterr().out
    assert "The 5-dice table (chicago), game 1:\n  every die (5 dice" in said
    assert "The 6-dice table (detroit), game 2:\n  every die (6 dice" in said


def test_games_typed_in_or_imported_are_not_dated_by_when_they_were(tmp_path, capsys):
    """Was "The night of <the day it was imported>": an import writes every action at the
    moment of the import, and the page named that day as the night's."""
    import datetime
    import sqlite3

    played, imported = tmp_path / "played.sqlite3", tmp_path / "imported.sqlite3"
    _short_night(played)
    night = datetime.datetime(2026, 12, 5, 20, 0).timestamp()
    with sqlite3.connect(played) as con:  # played at the table: an action every 20 s
        con.execute("UPDATE events SET at = ? + 20 * seq WHERE game_id = 1", (night,))
    exported = tmp_path / "game1.jsonl"
    assert cli.main(["games", "export", "1", "--db", str(played), "--out", str(exported)]) == 0
    assert cli.main(["games", "import", str(exported), "--db", str(imported)]) == 0
    a_month_on = night + 30 * 86400
    with sqlite3.connect(imported) as con:  # imported a month on: every action at once
        con.execute("UPDATE events SET at = ?", (a_month_on,))
    for db, out in ((played, "at-the-table"), (imported, "imported")):
        argv = ["games", "report", "1", "--db", str(db), "--out", str(tmp_path / out)]
        assert cli.main(argv) == 0
    page = _text((tmp_path / "imported" / "index.html").read_text())
    month_on = datetime.date.fromtimestamp(a_month_on)
    assert f"{month_on.day} {month_on:%B}" not in page  # the import's day, nowhere
    assert "The night's games at the chicago table" in page
    assert "When it was played is not known: it was typed in all at once" in page
    table = (tmp_path / "at-the-table" / "index.html").read_text()
    assert "The night of Saturday 5 December 2026 at the chicago table" in table
    assert "Played on Saturday 5 December 2026, from 20:00 to 20:02 (2 min)" in _text(table)


def test_the_race_chart_marks_round_steps_on_both_axes():
    """Was labelled only at 0 and its highest total."""
    from zonkcam.review import report

    series = {"Ann": [(n, 240 * n) for n in range(1, 45)], "Bob": [(44, 10_550)]}
    svg = report.line_chart(series)
    marks = re.findall(r'<text class="tick"[^>]*>([^<]+)</text>', svg)
    assert marks == [
        "points",
        *["0", "2,000", "4,000", "6,000", "8,000", "10,000", "12,000"],
        *["0", "10", "20", "30", "40", "50"],
    ]
    assert ">44 turns played<" in svg
    # each player's colour and final total, in a legend beside the chart
    assert re.findall(r"<li [^>]*>([^<]+)</li>", svg) == ["Ann 10,560", "Bob 10,550"]
    ticks = report.ticks  # 1, 2 or 5 times a power of ten
    assert ticks(10_550, 6) == [0, 2000, 4000, 6000, 8000, 10_000, 12_000]
    assert ticks(44, 8) == [0, 10, 20, 30, 40, 50]
    assert ticks(3, 8) == [0, 1, 2, 3] and ticks(7, 5) == [0, 2, 4, 6, 8]


PROBE = """<script>
addEventListener('load', () => {
  const tops = s => [...document.querySelectorAll(s)].map(e => e.getBoundingClientRect().top);
  const awards = tops('#awards .award'), game = tops('#game-1 .card');
  const img = document.querySelector('.turn img'), link = img.closest('a');
  const to = link.getAttribute('href');
  if (to.startsWith('#')) location.hash = to;  // the photo's link followed, within the page
  const big = img.getBoundingClientRect();
  const close = img.closest('.turn').querySelector('.close')?.getBoundingClientRect() || {};
  document.body.dataset.probe = JSON.stringify({
    awards: awards.length, awardRows: new Set(awards).size, gameRows: new Set(game).size,
    cards: game.length, body: document.body.getBoundingClientRect().width,
    scroll: document.documentElement.scrollWidth, big: [big.width, big.height],
    close: close.width > 0 && close.top >= 0 && close.top < innerHeight,
    window: [innerWidth, innerHeight],
  });
});
</script></body>"""
"""Lays the page out, then follows a photo's link, and writes what it measured into the
page: the awards' and the first game's cards (how many rows they take), the page's width
and the photo opened large."""
FRAME = """<!DOCTYPE html><html><body style="margin:0">
<iframe id="page" src="probe.html" style="width:{width}px;height:800px;border:0"></iframe>
<script>addEventListener('load', () => {{
  document.body.dataset.probe = document.getElementById('page').contentDocument.body.dataset.probe;
}});</script></body></html>"""
"""The probe in a window `width` px wide: headless Chromium's own window is at least 500 px
wide, a phone's is narrower."""


@pytest.mark.skipif(not shutil.which("chromium"), reason="headless Chromium is not installed")
@pytest.mark.parametrize("width", [1280, 390], ids=["laptop", "phone"])
def test_headless_chromium_fills_the_width_and_opens_a_photo_large(tmp_path, width):
    """Was a column of 60em (40% of a laptop's width) and 96 px photos that only linked to
    their files."""
    import html
    import json

    db, out = tmp_path / "g.sqlite3", tmp_path / "report"
    _short_night(db)
    _photographed(db)
    assert cli.main(["games", "report", "1", "--db", str(db), "--out", str(out)]) == 0
    (out / "probe.html").write_text((out / "index.html").read_text().replace("</body>", PROBE))
    (out / "frame.html").write_text(FRAME.format(width=width))
    flags = [*CHROMIUM_FLAGS, f"--user-data-dir={tmp_path / 'profile'}"]
    dom = subprocess.run(
        ["chromium", *flags, "--window-size=1400,1000", "--virtual-time-budget=5000"]
        + ["--allow-file-access-from-files", "--dump-dom", (out / "frame.html").as_uri()],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert dom.returncode == 0, dom.stderr[-2000:]
    seen = json.loads(html.unescape(re.search(r'data-probe="([^"]*)"', dom.stdout).group(1)))
    assert seen["window"] == [width, 800]
    assert seen["scroll"] <= width  # nothing wider than the window
    assert seen["body"] > 0.95 * width  # the page takes the window's width
    assert seen["awards"] == 4  # the biggest turn, most zonks, first on the board, luck
    if width > 1000:  # side by side
        assert seen["awardRows"] == 1 and seen["gameRows"] < seen["cards"]
    else:  # one above the other
        assert seen["awardRows"] == 4 and seen["gameRows"] == seen["cards"]
    # the 160 px thumbnail opened over the page, as large as the window lets it
    w, h = seen["big"]
    assert w > 0.9 * width and h > 0.8 * 800 and seen["close"]
