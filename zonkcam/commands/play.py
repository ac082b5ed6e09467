"""`zonkcam play`: keep score at the table (today: the terminal scorekeeper)."""

from __future__ import annotations

import sys

from zonkcam.errors import UserError
from zonkcam.game import actions as A
from zonkcam.game.errors import TableError
from zonkcam.game.rules import PRESETS, load_rules
from zonkcam.scorekeeper import Scorekeeper
from zonkcam.store import EventLog
from zonkcam.textplay import TextScorekeeper


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "play", help="keep score for a game (saved as you go, resumable)",
        description="The terminal scorekeeper: type the dice thrown, the keeps, bank and "
        "undo. Every accepted action is saved before it is shown; a killed game resumes "
        "with --resume.")
    p.add_argument("--text", action="store_true", help="use the terminal scorekeeper")
    p.add_argument("--rules", help="preset name or TOML file (asked if not given)")
    p.add_argument("--players", nargs="+", metavar="NAME",
                   help="players in turn order (asked if not given)")
    p.add_argument("--resume", nargs="?", const="latest", metavar="GAME",
                   help="resume a saved game (default: the latest unfinished one)")
    p.add_argument("--db", help="game log file (default: $XDG_DATA_HOME/zonkcam/games.sqlite3)")
    p.set_defaults(func=run)


def run(args) -> int:
    with EventLog(args.db) as log:
        keeper = _resume(log, args.resume) if args.resume else _new_game(log, args)
        print(f"Game {keeper.game_id}: {keeper.state.rules.name} (type help for commands)")
        TextScorekeeper(keeper).run()
    return 0


def _resume(log: EventLog, which: str) -> Scorekeeper:
    if which == "latest":
        game_id = log.latest_unfinished()
        if game_id is None:
            raise UserError("no unfinished game to resume; start one with zonkcam play")
    else:
        try:
            game_id = int(which)
        except ValueError:
            raise UserError(f"--resume takes a game number, not {which!r}") from None
    return Scorekeeper.resume(log, game_id)


def _ask(prompt: str) -> str:
    try:
        return input(prompt).strip()
    except EOFError:
        raise UserError("no answer (end of input); nothing was saved") from None


def _new_game(log: EventLog, args) -> Scorekeeper:
    interactive = sys.stdin.isatty()
    rules_name = args.rules
    if rules_name is None and interactive:
        print("Tables: " + ", ".join(PRESETS))
        rules_name = _ask("Rules [classic-10000]: ") or "classic-10000"
    rules = load_rules(rules_name or "classic-10000")
    names = args.players
    while not names:
        if not interactive and args.players is None:
            names = _ask("").replace(",", " ").split()
            break
        names = [n.strip() for n in _ask("Players, in turn order (comma separated): ")
                 .split(",") if n.strip()]
    try:
        seating = A.Players(tuple(names))
        keeper = Scorekeeper.new(log, rules)
        keeper.play(seating)
    except TableError as exc:
        raise UserError(str(exc)) from None
    if rules.drinking.zonk_names and interactive:
        _zonk_names(keeper, list(names))
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
