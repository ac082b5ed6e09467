"""`zonkcam games list|show|export`: the saved games in the event log."""

from __future__ import annotations

import json
import time

from zonkcam.errors import UserError
from zonkcam.game.names import escaped
from zonkcam.photos import RollPhotos, photo_folder
from zonkcam.scorekeeper import saved_game
from zonkcam.store import MAX_GAME_ID, EventLog, StoreError
from zonkcam.textplay import board_text


def game_number(text: str) -> int:
    """A game id as typed: a whole number from 1 up."""
    number = int(text) if text.isascii() and text.isdigit() and len(text) < 20 else 0
    if not 1 <= number <= MAX_GAME_ID:
        raise ValueError(text)
    return number


def register(subparsers) -> None:
    p = subparsers.add_parser("games", help="list, show or export saved games")
    p.add_argument("--db", help="game log file (default: $XDG_DATA_HOME/zonkcam/games.sqlite3)")
    sub = p.add_subparsers(dest="games_command", metavar="ACTION", required=True)
    sub.add_parser("list", help="every saved game").set_defaults(func=_list)
    show = sub.add_parser("show", help="a game's scoreboard and log")
    show.add_argument("game", type=game_number)
    show.add_argument("--photos", metavar="DIR",
                      help="also copy the photo the camera took of each roll into DIR")
    show.set_defaults(func=_show)
    export = sub.add_parser("export", help="a game's actions as JSON Lines (replayable)")
    export.add_argument("game", type=game_number)
    export.add_argument("--out", help="write to this file instead of standard output")
    export.set_defaults(func=_export)


def _list(args) -> int:
    with EventLog(args.db) as log:
        games = log.games()
        if not games:
            print(f"no saved games in {log.path}")
        for g in games:
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(g.updated))
            status = "finished" if g.finished else "in play"
            print(f"{g.id:>4}  {when}  {escaped(g.rules_name):<15} {status:<9} {g.events:>4} "
                  f"actions  {escaped(', '.join(g.players))}")
    return 0


def _show(args) -> int:
    with EventLog(args.db) as log:
        game, _ = saved_game(log, args.game)
        folder = photo_folder(log.path)
    for line in [*board_text(game.state).split("\n"), *game.state.log]:
        print(escaped(line))
    if args.photos:
        try:
            n = RollPhotos(folder).export(args.game, args.photos)
        except OSError as exc:
            raise UserError(f"cannot copy the photos to {args.photos}: {exc}") from None
        print(f"{n} roll photo{'s' * (n != 1)} of game {args.game} copied to {args.photos}"
              + ("" if n else f" (none kept in {folder})"))
    return 0


def _export(args) -> int:
    with EventLog(args.db) as log:
        lines = [json.dumps(obj) for obj in log.action_objects(args.game)]
        try:
            table = escaped(log.rules(args.game).name)
        except StoreError:
            table = "its stored rules are damaged"  # the actions are still worth having
    text = "".join(line + "\n" for line in lines)
    if args.out:
        try:
            with open(args.out, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as exc:
            raise UserError(f"cannot write {args.out}: {exc}") from None
        print(f"wrote {len(lines)} actions of game {args.game} ({table}) to "
              f"{escaped(args.out)}")
    else:
        print(text, end="")
    return 0
