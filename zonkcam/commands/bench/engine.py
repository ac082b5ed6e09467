"""`zonkcam bench --engine`: what a long game costs: time per action, undo, resume from the
SQLite log and one frame drawn, against the game's length."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

ENGINE_LENGTHS = (100, 1000, 2000, 5000, 10_000)
"""Game lengths `--engine` measures at (actions, the seating included)."""


def run(args: argparse.Namespace) -> int:
    """`zonkcam bench --engine`: what a long game costs."""
    import dataclasses
    import os
    import statistics
    import tempfile

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from zonkcam.app.players import scripted_game
    from zonkcam.display.game_screen import GameScreen
    from zonkcam.display.sounds import Sounds
    from zonkcam.display.window import Window
    from zonkcam.game.game import CHECKPOINT_EVERY, Game
    from zonkcam.game.rules import PRESETS
    from zonkcam.game.state import Phase
    from zonkcam.record.logged_game import LoggedGame
    from zonkcam.record.store import EventLog

    # four players at the classic table with a target nobody reaches: a game of any length
    # (10 million: a final round's table for it stays under the rules' cap on tables)
    rules = dataclasses.replace(PRESETS["classic-10000"], target=10**7)
    ahead = 400
    actions = scripted_game(
        rules, ("Ann", "Bob", "Cy", "Di"), max(ENGINE_LENGTHS) + ahead, seed=args.seed
    )

    def ms(operation) -> float:  # noqa: ANN001
        t0 = time.perf_counter()
        operation()
        return (time.perf_counter() - t0) * 1000

    rows = []
    with (
        tempfile.TemporaryDirectory(prefix="zonkcam-bench-") as tmp,
        Window.open((800, 480), screenshots=Path(tmp) / "shots") as window,
    ):
        ui = GameScreen(window, sounds=Sounds(muted=True))
        for n in ENGINE_LENGTHS:
            game = Game(rules, actions[:n])
            per_action = ms(lambda game=game, n=n: [game.play(a) for a in actions[n : n + ahead]])
            # undo after each of a checkpoint's stretch of actions, one after the other
            undos = [ms(game.undo) for _ in range(CHECKPOINT_EVERY)]
            db = Path(tmp) / f"g{n}.sqlite3"
            with EventLog(db) as log:
                game_id = log.new_game(rules, actions[:n])
            resumes = []
            for _ in range(5):
                with EventLog(db) as log:
                    resumes.append(
                        ms(lambda log=log, game_id=game_id: LoggedGame.resume(log, game_id))
                    )
            at = Game(rules, actions[:n])
            for action in actions[n:]:
                if at.state.phase is Phase.DECIDE:
                    break  # a keep on screen
                at.play(action)
            ui.draw(at.state)
            frames = [ms(lambda state=at.state: ui.draw(state)) for _ in range(30)]
            rows.append(
                {
                    "actions": n,
                    "action_us": round(per_action * 1000 / ahead, 1),
                    "undo_ms": round(statistics.median(undos), 2),
                    "undo_max_ms": round(max(undos), 2),
                    "resume_ms": round(statistics.median(resumes), 1),
                    "frame_ms": round(statistics.median(frames), 2),
                }
            )
    if args.json:
        print(json.dumps({"rules": "classic-10000, four players, no end", "rows": rows}))
        return 0
    print(
        "classic-10000, four automatic players, no end; medians (undo: and the slowest of "
        f"{CHECKPOINT_EVERY} in a row; resume: from the SQLite log)"
    )
    print(
        f"{'actions':>8} {'µs/action':>10} {'undo ms':>8} {'max':>6} {'resume ms':>10} "
        f"{'frame ms':>9}"
    )
    for r in rows:
        print(
            f"{r['actions']:>8} {r['action_us']:>10.1f} {r['undo_ms']:>8.2f} "
            f"{r['undo_max_ms']:>6.2f} {r['resume_ms']:>10.1f} {r['frame_ms']:>9.2f}"
        )
    return 0
