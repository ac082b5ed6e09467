"""Lab soak: the demo game plays many whole games unattended in one process.

Headless (SDL's dummy driver) and fast: small demo frames (320x240), no real-time
pacing, and a stand-in reader that reports what the demo table drew (the learned reader
is exercised by `make run` and the reader tests). Everything else is the real app loop:
table watcher, game flow, rules engine, SQLite event log, screen drawing, banners.
Reports resident memory at the start, along the way and at the end.

Run: python scripts/soak.py --games 200
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from zonkcam.app.demo import DemoDriver
from zonkcam.app.loop import TableApp
from zonkcam.app.players import AutoPlayer
from zonkcam.display.game_screen import GameScreen
from zonkcam.display.sounds import Sounds
from zonkcam.display.window import Window
from zonkcam.game import actions as A
from zonkcam.game.rules import load_rules
from zonkcam.mat.calibrate import calibrate
from zonkcam.record.logged_game import LoggedGame
from zonkcam.record.store import EventLog
from zonkcam.record.win_tables import cached_advisor
from zonkcam.sim.demo_table import DemoTable
from zonkcam.sim.lens import PLAIN
from zonkcam.table.observe import TableWatcher
from zonkcam.testing import TruthReader


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def main() -> None:
    ap = argparse.ArgumentParser(description="soak the demo game")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--rules", default="chicago")
    ap.add_argument("--target", type=int, default=3000)
    args = ap.parse_args()
    rules = dataclasses.replace(load_rules(args.rules), target=args.target)
    table = DemoTable(
        seed=1,
        autoplay=False,
        size=(320, 240),
        rest_frames=7,
        tumble_frames=(6, 9),
        look=dataclasses.replace(PLAIN, noise=0.0),
    )
    first = table.read()
    watcher = TableWatcher(calibrate(first.image, table.geometry), TruthReader(table))
    tmp = Path(tempfile.mkdtemp(prefix="zonkcam-soak-"))
    start, frames = time.monotonic(), 0
    print(f"RSS at start: {rss_mb():.1f} MB")
    with (
        EventLog(tmp / "games.sqlite3") as log,
        Window.open((800, 480), screenshots=tmp / "shots") as win,
    ):
        screen = GameScreen(win, sounds=Sounds(muted=True))
        for game in range(1, args.games + 1):
            logged = LoggedGame.new(log, rules)
            logged.play(A.Players(("Ann", "Bob")))
            app = TableApp(
                logged,
                watcher,
                screen,
                DemoDriver(table, AutoPlayer(cached_advisor())),
                say=lambda line: None,
            )
            while not logged.state.finished:
                app.tick(table.read())
                frames += 1
                if frames > 5000 * game:
                    raise SystemExit(f"game {game} did not finish")
            if game == 1 or game % 20 == 0 or game == args.games:
                print(
                    f"game {game:4d}: winner {logged.state.winner}, {frames} frames, "
                    f"RSS {rss_mb():.1f} MB, {time.monotonic() - start:.0f} s"
                )
    print(f"RSS at end: {rss_mb():.1f} MB; {args.games} games, {frames} frames, no exception")


if __name__ == "__main__":
    main()
