"""`zonkcam play`: the table app (camera, screen, buttons), or `--text` in a terminal.

With a Pi camera it plays for real; with no camera it plays the demo game: the demo
table throws dice, automatic players choose keeps and bank, and everything runs through
the real reader, table logic, rules engine and screen. With no display it plays one short
game on SDL's dummy driver, saves a screenshot per turn and prints the game log. The demo
plays only its own games: a game people played is never handed to its players.
"""

from __future__ import annotations

import argparse
import atexit
import os
import shlex
import sys
import time
from collections.abc import Callable
from pathlib import Path

from zonkcam.errors import UserError
from zonkcam.game import actions as A
from zonkcam.game.errors import RulesError, TableError
from zonkcam.game.game import Game
from zonkcam.game.names import escaped, quoted, unprintable
from zonkcam.game.rules import PRESETS, RuleSet, load_rules
from zonkcam.photos import DEFAULT_BUDGET_MB
from zonkcam.scorekeeper import Scorekeeper
from zonkcam.store import EventLog
from zonkcam.textplay import TextScorekeeper, player_names

DEMO_PLAYERS = ("Ann", "Bob", "Cy")


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "play", help="keep score at the table (camera + screen; the demo game without a "
        "camera; --text for the terminal)", description=__doc__)
    p.add_argument("--text", action="store_true", help="the terminal scorekeeper instead")
    p.add_argument("--rules", help="preset name or TOML file")
    p.add_argument("--players", nargs="+", metavar="NAME", help="players in turn order")
    p.add_argument("--resume", nargs="?", const="latest", metavar="GAME",
                   help="resume a saved game (default: the latest unfinished one)")
    p.add_argument("--new", action="store_true",
                   help="start a new game even if one is unfinished (the app resumes the "
                   "latest unfinished game by default)")
    p.add_argument("--db", help="game log file (default: $XDG_DATA_HOME/zonkcam/games.sqlite3)")
    p.add_argument("--source", default="auto",
                   help="auto (the Pi camera, else the demo table), pi, demo, usb[:N], ...")
    p.add_argument("--calibration", help="calibration file (default: "
                   "$XDG_CONFIG_HOME/zonkcam/calibration.json)")
    p.add_argument("--games", type=whole_number(0), default=0,
                   help="demo: stop after this many games (default: 1 without a display, "
                   "else keep playing)")
    p.add_argument("--fast", action="store_true", help="demo: do not wait for real time")
    p.add_argument("--screenshots", default="zonkcam-screenshots", metavar="DIR",
                   help="without a display: where to save a screenshot per turn")
    p.add_argument("--size", help="window size WxH (default: full screen on a Pi, else 800x480)")
    p.add_argument("--mute", action="store_true", help="no sound effects")
    p.add_argument("--pins", default="17,27,22", metavar="BANK,ROLL,SELECT",
                   help="GPIO (BCM) pins of the buttons (default 17,27,22)")
    p.add_argument("--model", help="folder with the ONNX models (default: the shipped ones)")
    p.add_argument("--threads", type=whole_number(1), help="reader threads (default 1)")
    p.add_argument("--confirm-below", type=float, metavar="BAR",
                   help="show the dice read with a confidence under BAR (0-1) with a '?' "
                   "for the players to confirm (default 0.6; `zonkcam eval` counts them)")
    p.add_argument("--photo-budget", type=float, default=DEFAULT_BUDGET_MB, metavar="MB",
                   help="disk kept for the photo of each roll beside the game log, oldest "
                   "games' photos dropped first (default %(default)g MB; 0: no photos)")
    p.add_argument("--seed", type=int, default=0, help="demo table seed")
    p.set_defaults(func=run)


def whole_number(least: int) -> Callable[[str], int]:
    """An argparse type: a whole number from ``least`` up."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = least - 1
        if value < least:
            raise argparse.ArgumentTypeError(f"give a whole number from {least} up, not "
                                             f"{quoted(text)}")
        return value

    parse.__name__ = "whole number"
    return parse


def run(args) -> int:
    if args.text:
        return run_text(args)
    from zonkcam.app_main import run_app  # noqa: PLC0415 - pygame, OpenCV, onnxruntime

    return run_app(args)


HISTORY_LINES = 1000
"""Typed lines kept for the arrow keys between sessions."""


def history_path() -> Path:
    """``$XDG_STATE_HOME/zonkcam/text-history`` (normally ~/.local/state)."""
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"),
                                                            ".local", "state")
    return Path(base) / "zonkcam" / "text-history"


def line_editing(path: Path) -> None:
    """Arrow keys, Ctrl-A/E and the lines of earlier sessions at the prompt (the standard
    library's readline, where Python has it); the history is saved at exit."""
    try:
        import readline  # noqa: PLC0415 - only for a person at a terminal
    except ImportError:
        return
    readline.set_history_length(HISTORY_LINES)
    try:
        readline.read_history_file(path)
    except OSError:
        pass  # the first session, or an unreadable file: start without

    def save() -> None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            readline.write_history_file(path)
        except OSError:
            pass  # history is a convenience: never a reason to fail

    atexit.register(save)


def run_text(args) -> int:
    if hasattr(sys.stdin, "reconfigure"):
        # bytes that are not UTF-8 reach the scorekeeper as a line it refuses, not a crash
        sys.stdin.reconfigure(errors="surrogateescape")
    if sys.stdin.isatty():
        line_editing(history_path())
    with EventLog(args.db) as log:
        keeper = resume(log, args.resume) if args.resume else _new_text_game(log, args)
        print(f"Game {keeper.game_id}: {escaped(keeper.state.rules.name)} "
              "(type help for commands)")
        TextScorekeeper(keeper, resume_command=resume_command(args, keeper.game_id)).run()
    return 0


def resume_command(args, game_id: int | None, *, text: bool | None = None) -> str:
    """The command that comes back to this game, with the options that found it
    (``text``: in the terminal, whatever ``args`` say)."""
    words = ["zonkcam", "play"] + (["--text"] if (args.text if text is None else text) else [])
    if args.db:
        words += ["--db", args.db]
    return shlex.join([*words, "--resume", str(game_id)])


def resume_id(log: EventLog, which: str) -> int:
    """The game ``--resume`` names: a number, or "latest" (the latest unfinished game)."""
    if which == "latest":
        game_id = log.latest_unfinished()
        if game_id is None:
            raise UserError(f"no unfinished game in {escaped(str(log.path))} to resume; start "
                            "one with --players NAME ... instead of --resume")
        return game_id
    game_id = int(which) if which.isascii() and which.isdigit() and len(which) < 20 else -1
    if game_id < 1:
        raise UserError(f"--resume takes a game number, not {quoted(which)}")
    return game_id


def resume(log: EventLog, which: str) -> Scorekeeper:
    return Scorekeeper.resume(log, resume_id(log, which))


def new_game(log: EventLog, rules: RuleSet, names: list[str], *,
             demo: bool = False) -> Scorekeeper:
    """A new game stored with its players (one transaction); ``demo``: the demo game's."""
    try:
        return Scorekeeper.new(log, rules, [A.Players(tuple(names))], demo=demo)
    except TableError as exc:
        raise UserError(str(exc)) from None


def _ask(prompt: str) -> str:
    while True:
        try:
            answer = input(prompt).strip()
        except EOFError:
            raise UserError("no answer (end of input); nothing was saved") from None
        except KeyboardInterrupt:
            print()
            raise UserError("stopped before the game began; nothing was saved") from None
        if answer.lower() in ("quit", "q", "exit"):
            raise UserError("stopped before the game began; nothing was saved")
        if not unprintable(answer):
            return answer
        print("! that answer has characters that are not printable text; type it again")


def _new_text_game(log: EventLog, args) -> Scorekeeper:
    interactive = sys.stdin.isatty()
    rules = load_rules(args.rules) if args.rules else None  # a wrong name: before the names
    if rules is None and interactive:
        print("Tables: " + ", ".join(PRESETS) + " (or a .toml file)")
        while rules is None:
            try:
                rules = load_rules(_ask("Rules [classic-10000]: ") or "classic-10000")
            except RulesError as exc:
                print(f"! {exc}")
    rules = rules or PRESETS["classic-10000"]
    if args.players or not interactive:
        names = list(args.players or player_names(_ask("")))
        return _seated(log, rules, names, interactive)
    while True:
        names = player_names(_ask("Players, in turn order (Ann Bob Cy; commas between "
                                  "names with spaces): "))
        if not names:
            continue
        try:
            Game(rules, [A.Players(tuple(names))])
        except TableError as exc:
            print(f"! {exc}")
            continue
        return _seated(log, rules, names, interactive)


def _seated(log: EventLog, rules: RuleSet, names: list[str], interactive: bool) -> Scorekeeper:
    keeper = new_game(log, rules, names)
    if rules.drinking.zonk_names and interactive:
        _zonk_names(keeper, names)
    return keeper


def _zonk_names(keeper: Scorekeeper, names: list[str]) -> None:
    """Each player names the player to their left, so nobody names themself."""
    if len(names) < 2:
        return
    print("Zonk names: only these are shown, and nobody names themself.")
    for i, namer in enumerate(names):
        player = names[(i + 1) % len(names)]
        while True:
            name = _ask(f"{namer}, choose a zonk name for {player} (Enter to skip): ")
            if not name:
                break
            try:
                keeper.play(A.ZonkName(player, name, namer))
                break
            except TableError as exc:
                print(f"! {exc}")


def parse_size(text: str | None) -> tuple[int, int] | None:
    if not text:
        return None
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise UserError(f"--size takes WIDTHxHEIGHT, e.g. 800x480, not {text!r}") from None
    if not (320 <= w <= 7680 and 240 <= h <= 4320):
        raise UserError("--size is out of range (320x240 to 7680x4320)")
    return w, h


def confirm_bar(value: float | None) -> float:
    """--confirm-below as given, or the screen's default bar; refused outside 0-1."""
    from zonkcam.display.view import CONFIRM_BELOW

    bar = CONFIRM_BELOW if value is None else value
    if not 0 <= bar <= 1:
        raise UserError(f"--confirm-below {bar:g}: give a confidence from 0 to 1")
    return bar


def parse_pins(text: str) -> tuple[int, int, int]:
    try:
        pins = tuple(int(v) for v in text.split(","))
    except ValueError:
        pins = ()
    if len(pins) != 3 or len(set(pins)) != 3 or not all(0 <= p <= 27 for p in pins):
        raise UserError(f"--pins takes three different BCM pin numbers 0-27, e.g. 17,27,22, "
                        f"not {text!r}")
    return pins  # type: ignore[return-value]


def pace(start: float, fps: float) -> None:
    """Sleep what is left of one frame's time."""
    left = 1.0 / fps - (time.monotonic() - start)
    if left > 0:
        time.sleep(left)
