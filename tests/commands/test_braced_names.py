"""Names are data: a player's name with braces (``{}``, ``Ann{``, ``{0.__class__}``) is
shown as it is by every command that shows names, and never read as a format string."""

from __future__ import annotations

import dataclasses
import html
import json

import pygame
import pytest

from tests.display.screen_helpers import press
from zonkcam.app.loop import TableApp
from zonkcam.app.text import TextPlay
from zonkcam.cli import main
from zonkcam.display.game_screen import GameScreen
from zonkcam.display.sounds import Sounds
from zonkcam.game import PRESETS, parse_dice
from zonkcam.game import actions as A
from zonkcam.record.logged_game import LoggedGame
from zonkcam.record.store import EventLog

NAMES = ("{}", "Ann{", "{0.__class__}", "}{!r}{x:>99999}")
SHORT = dataclasses.replace(PRESETS["chicago"], target=300)


def _played(db, finished: bool) -> None:
    """A chicago game to 300 of the four braced names: the first banks 150, the others
    zonk, the first banks 200 more (and wins) when `finished`."""
    with EventLog(db) as log:
        logged = LoggedGame.new(log, SHORT, [A.Players(NAMES)])
        logged.play(A.Roll(parse_dice([1, 5, 2, 3, 6])))
        logged.play(A.Keep((1, 5)))
        logged.play(A.Bank())
        for _ in NAMES[1:]:
            logged.play(A.Roll(parse_dice([2, 2, 3, 4, 6])))
        if finished:
            logged.play(A.Roll(parse_dice([1, 1, 3, 4, 6])))
            logged.play(A.Keep((1, 1)))
            logged.play(A.Bank())
        assert logged.state.finished is finished


@pytest.mark.parametrize("finished", [True, False], ids=["finished", "in-play"])
def test_braced_names_in_the_report_show_export_and_list(tmp_path, capsys, finished):
    """The report's summary put each leader's name into a format string ("Ann{ won with
    ...": a traceback, or the name's class printed); every command shows the names as
    they were typed."""
    db = tmp_path / "g.db"
    _played(db, finished)
    out = tmp_path / "report"
    assert main(["games", "report", "--db", str(db), "--out", str(out)]) == 0, capsys.readouterr()
    page = html.unescape((out / "index.html").read_text())
    leader = "won" if finished else "leads"
    others = "; ".join(f"{n} 0" for n in NAMES[1:]).replace("; ", ", ")
    score = 350 if finished else 150
    assert f"{NAMES[0]} {leader} with {score:,}; {others}" in page
    for name in NAMES:
        assert name in page
    assert "<class" not in page  # what "{0.__class__}".format(...) would have put there

    capsys.readouterr()
    assert main(["games", "show", "1", "--db", str(db)]) == 0
    shown = capsys.readouterr().out
    assert all(name in shown for name in NAMES)
    assert main(["games", "export", "1", "--db", str(db)]) == 0
    first = json.loads(capsys.readouterr().out.splitlines()[1])
    assert first == {"players": list(NAMES)}
    assert main(["games", "list", "--db", str(db)]) == 0
    assert ", ".join(NAMES) in capsys.readouterr().out
    assert main(["games", "dice", "--db", str(db)]) == 0


def test_braced_names_in_the_text_mode(tmp_path):
    shown: list[str] = []
    lines = iter(["15236", "k 1 5", "bank", "board", "sheet", "log", "quit"])
    with EventLog(tmp_path / "g.db") as log:
        logged = LoggedGame.new(log, SHORT, [A.Players(NAMES)])
        TextPlay(logged, read=lambda _p: next(lines), write=shown.append).run()
    text = "\n".join(shown)
    assert f"{NAMES[0]} banks 150" in text
    assert all(name in text for name in NAMES)


def test_braced_names_on_the_screen_and_its_charts(window, tmp_path):
    with EventLog(tmp_path / "g.sqlite3") as log:
        logged = LoggedGame.new(log, SHORT, [A.Players(NAMES[:2])])
        for action in (
            A.Roll(parse_dice([1, 5, 2, 3, 6])),
            A.Keep((1, 5)),
            A.Bank(),
            A.Roll(parse_dice([2, 2, 3, 4, 6])),
            A.Roll(parse_dice([1, 1, 3, 4, 6])),
            A.Keep((1, 1)),
            A.Bank(),
        ):
            logged.play(action)
        screen = GameScreen(window, sounds=Sounds(muted=True))
        app = TableApp(logged, watcher=None, screen=screen, say=lambda line: None)
        screen.draw(logged.state)
        texts = " ".join(t.text for t in screen.painter.texts)
        assert NAMES[0] in texts and NAMES[1] in texts
        press(pygame.K_s)  # SELECT: the game's charts
        for command in screen.commands():
            app.handle(command)
        screen.draw(logged.state)
        assert screen.show_charts, screen.message
        texts = [t.text for t in screen.painter.texts]
        assert f"WINNER: {NAMES[0]}" in texts
