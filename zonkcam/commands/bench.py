"""`zonkcam bench`: reader speed on rendered table frames, and peak memory."""

from __future__ import annotations

import argparse
import json
import resource
import time
from pathlib import Path

from zonkcam.commands.read import add_views_option, reader_settings

SIZES = ((640, 480), (1280, 960), (2304, 1296))
HARD_SIZE = (1280, 960)
CROWDS = (10, 20, 40)
"""`--crowd`: 1280x960 tables of this many small dice (synth.crowd_frames)."""
FAR_SIZE = (2560, 1920)
FAR = (0.015, 0.02, 0.03)
"""`--far`: 2560x1920 tables of five dice this share of the frame wide (synth.far_frames)."""
CLOSEUPS = (0.2, 0.3, 0.4)
"""`--close`: 1280x960 close-ups of dice this share of the frame wide (synth.closeup_frames;
their boxes, side faces and perspective included, come out about 0.33, 0.5 and 0.6)."""


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "bench",
        help="reader ms per frame (median, p95) on rendered tables, and peak RSS",
        description="Renders seeded dice-table frames at 640x480, 1280x960 and 2304x1296 "
        "with 5 and 6 dice and times read_dice on each (decode excluded); also how many "
        "frames it reads right and, per body colour, how many dice it names right. "
        "--crowd adds crowded tables of 10, 20 and 40 small dice at 1280x960, --far "
        "tables of five tiny dice at 2560x1920, --close close-ups of one or two big dice, "
        "each with the dice missed, extra and misread.",
    )
    p.add_argument("--frames", type=int, default=30, help="frames per size and dice count")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--model-dir", type=Path, default=None)
    p.add_argument("--json", action="store_true")
    p.add_argument(
        "--crowd",
        action="store_true",
        help="also read crowded tables (10, 20 and 40 small dice, 1280x960, --frames each)",
    )
    p.add_argument(
        "--far",
        action="store_true",
        help="also read tables seen from afar (five dice 0.015, 0.02 and 0.03 of a "
        "2560x1920 frame wide, --frames each)",
    )
    p.add_argument(
        "--close",
        action="store_true",
        help="also read close-ups (one or two dice 0.2, 0.3 and 0.4 of a 1280x960 frame "
        "wide, --frames each)",
    )
    p.add_argument(
        "--engine",
        action="store_true",
        help="the game record instead: time per action, undo, resume (from the SQLite log) "
        "and one frame drawn with a keep on screen, against the game's length (100 to "
        "10,000 actions)",
    )
    add_views_option(p)
    p.set_defaults(func=run)


ENGINE_LENGTHS = (100, 1000, 2000, 5000, 10_000)
"""Game lengths `--engine` measures at (actions, the seating included)."""


def run_engine(args: argparse.Namespace) -> int:
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
    from zonkcam.record.scorekeeper import Scorekeeper
    from zonkcam.record.store import EventLog

    # four players at the classic table with a target nobody reaches: a game of any length
    rules = dataclasses.replace(PRESETS["classic-10000"], target=10**9)
    ahead = 400
    actions = scripted_game(rules, ("Ann", "Bob", "Cy", "Di"), max(ENGINE_LENGTHS) + ahead,
                            seed=args.seed)

    def ms(operation) -> float:  # noqa: ANN001
        t0 = time.perf_counter()
        operation()
        return (time.perf_counter() - t0) * 1000

    rows = []
    with tempfile.TemporaryDirectory(prefix="zonkcam-bench-") as tmp, \
            Window.open((800, 480), screenshots=Path(tmp) / "shots") as window:
        ui = GameScreen(window, sounds=Sounds(muted=True))
        for n in ENGINE_LENGTHS:
            game = Game(rules, actions[:n])
            per_action = ms(lambda game=game, n=n: [game.play(a) for a in actions[n:n + ahead]])
            # undo after each of a checkpoint's stretch of actions, one after the other
            undos = [ms(game.undo) for _ in range(CHECKPOINT_EVERY)]
            db = Path(tmp) / f"g{n}.sqlite3"
            with EventLog(db) as log:
                game_id = log.new_game(rules, actions[:n])
            resumes = []
            for _ in range(5):
                with EventLog(db) as log:
                    resumes.append(ms(lambda log=log, game_id=game_id:
                                      Scorekeeper.resume(log, game_id)))
            at = Game(rules, actions[:n])
            for action in actions[n:]:
                if at.state.phase is Phase.DECIDE:
                    break  # a keep on screen
                at.play(action)
            ui.draw(at.state)
            frames = [ms(lambda state=at.state: ui.draw(state)) for _ in range(30)]
            rows.append({
                "actions": n, "action_us": round(per_action * 1000 / ahead, 1),
                "undo_ms": round(statistics.median(undos), 2), "undo_max_ms": round(max(undos), 2),
                "resume_ms": round(statistics.median(resumes), 1),
                "frame_ms": round(statistics.median(frames), 2)})
    if args.json:
        print(json.dumps({"rules": "classic-10000, four players, no end", "rows": rows}))
        return 0
    print("classic-10000, four automatic players, no end; medians (undo: and the slowest of "
          f"{CHECKPOINT_EVERY} in a row; resume: from the SQLite log)")
    print(f"{'actions':>8} {'µs/action':>10} {'undo ms':>8} {'max':>6} {'resume ms':>10} "
          f"{'frame ms':>9}")
    for r in rows:
        print(f"{r['actions']:>8} {r['action_us']:>10.1f} {r['undo_ms']:>8.2f} "
              f"{r['undo_max_ms']:>6.2f} {r['resume_ms']:>10.1f} {r['frame_ms']:>9.2f}")
    return 0


def run(args: argparse.Namespace) -> int:
    if args.engine:
        return run_engine(args)
    from zonkcam.commands.read import load_model_or_fail
    from zonkcam.vision import synth
    from zonkcam.vision.metrics import Tally, match
    from zonkcam.vision.reader import read_dice

    model = load_model_or_fail(args.model_dir, args.threads)
    settings = reader_settings(args)
    colors: dict[str, list[int]] = {}  # truth colour -> [dice found, named right]

    def row(frames, size: str, n: int, name_colors: bool = True) -> dict:
        """One row: the frames read, timed and scored (colours only if name_colors)."""
        tally, right = Tally(), 0
        for f in frames:
            t0 = time.perf_counter()
            dice = read_dice(f.image, model, settings)
            ms = (time.perf_counter() - t0) * 1000
            right += int(sorted(d.value for d in dice) == sorted(d.value for d in f.dice))
            truth = [(t.value, t.bbox) for t in f.dice]
            found = match(truth, [(d.value, d.bbox) for d in dice])
            tally.add(found, ms)
            for i, j in found.matches if name_colors else ():
                named = colors.setdefault(f.dice[i].color, [0, 0])
                named[0] += 1
                named[1] += int(dice[j].color == f.dice[i].color)
        scores = tally.summary()
        return {
            "size": size,
            "dice": n,
            "frames": tally.images,
            "ms_median": scores["ms_median"],
            "ms_p95": scores["ms_p95"],
            "frames_read_right": round(right / tally.images, 3),
            "dice_thrown": tally.truth,
            **{k: scores[k] for k in ("missed", "extra", "misread")},
        }

    rows = [
        row(synth.table_frames(w, h, n, args.frames, args.seed), f"{w}x{h}", n)
        for w, h in SIZES
        for n in (5, 6)
    ]
    w, h = HARD_SIZE
    crowd = [
        row(synth.crowd_frames(w, h, n, args.frames, args.seed), f"{w}x{h}", n, False)
        for n in (CROWDS if args.crowd else ())
    ]
    fw, fh = FAR_SIZE
    far = [
        {"die_share": share,
         **row(synth.far_frames(fw, fh, share, args.frames, args.seed), f"{fw}x{fh}", 5, False)}
        for share in (FAR if args.far else ())
    ]
    close = [
        {"die_share": share,
         **row(synth.closeup_frames(w, h, share, args.frames, args.seed), f"{w}x{h}",
               2 if share < 0.3 else 1, False)}
        for share in (CLOSEUPS if args.close else ())
    ]
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    result = {
        "threads": args.threads,
        "views": args.views,
        "recheck": not args.no_recheck,
        "second_opinions": 0 if args.no_second_opinion else len(model.second_opinions),
        "mirrors": args.mirrors,
        "value_net_alone": args.value_net_alone,
        "crowd_look": settings.crowd_count,
        "tiny_look": settings.tiny_look_size,
        "big_look": settings.big_look_size,
        "recrop": settings.recrop_shrink,
        "size_bars": settings.size_bars,
        "find_up": settings.find_up,
        "rows": rows,
        "crowd": crowd,
        "far": far,
        "close": close,
        "colors": {
            c: {"dice": n, "named_right": round(k / n, 3)} for c, (n, k) in sorted(colors.items())
        },
        "peak_rss_mb": round(rss_mb, 1),
    }
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"threads={args.threads} views={args.views} recheck={not args.no_recheck} "
          f"second_opinions={result['second_opinions']} mirrors={args.mirrors} "
          f"value_net_alone={args.value_net_alone} crowd_look={settings.crowd_count} "
          f"tiny_look={settings.tiny_look_size} big_look={settings.big_look_size} "
          f"recrop={settings.recrop_shrink} size_bars={settings.size_bars} "
          f"find_up={settings.find_up}  "
          "(ms per frame, decode excluded)")
    for r in rows:
        print(
            f"{r['size']:>10} {r['dice']} dice: median {r['ms_median']:6.2f} ms  "
            f"p95 {r['ms_p95']:6.2f} ms  frames read right {r['frames_read_right']:.2f}"
        )
    for r in crowd:
        print(
            f"{r['size']:>10} {r['dice']:>2} small dice (crowd): median {r['ms_median']:6.2f} ms  "
            f"frames read right {r['frames_read_right']:.2f}  missed {r['missed']} extra "
            f"{r['extra']} misread {r['misread']} of {r['dice_thrown']}"
        )
    for r in far:
        print(
            f"{r['size']:>10} from afar, 5 dice {r['die_share']:.3f} of the frame: median "
            f"{r['ms_median']:6.2f} ms  frames read right {r['frames_read_right']:.2f}  "
            f"missed {r['missed']} extra {r['extra']} misread {r['misread']} of "
            f"{r['dice_thrown']}"
        )
    for r in close:
        print(
            f"{r['size']:>10} close-up, {r['dice']} {'die ' if r['dice'] == 1 else 'dice'} "
            f"{r['die_share']:.1f} of the frame: median {r['ms_median']:6.2f} ms  frames read "
            f"right {r['frames_read_right']:.2f}  missed {r['missed']} extra {r['extra']} "
            f"misread {r['misread']} of {r['dice_thrown']}"
        )
    print("body colour named right (dice found, the first six rows): " + ", ".join(
        f"{c} {v['named_right']:.2f} of {v['dice']}" for c, v in result["colors"].items()))
    print(f"peak RSS {rss_mb:.0f} MB (this process; frames are rendered one at a time)")
    return 0
