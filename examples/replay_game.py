"""Replay a saved game from the event log, action by action, and print the final board.

python examples/replay_game.py                 # the latest game in the default log
python examples/replay_game.py --db games.db 3
"""

from __future__ import annotations

import argparse

from zonkcam.game.engine import apply, new_game
from zonkcam.record.store import EventLog, default_db_path


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("game", nargs="?", type=int, help="game number (default: the latest)")
    p.add_argument("--db", default=None, help="the event log (default: zonkcam's own)")
    args = p.parse_args(argv)
    with EventLog(args.db or default_db_path()) as log:
        games = log.games()
        if not games:
            print("no games in the log")
            return 1
        game_id = args.game if args.game is not None else games[-1].id
        rules, actions = log.rules(game_id), log.actions(game_id)
    state = new_game(rules)
    for n, action in enumerate(actions, 1):
        state = apply(state, action)
        print(f"{n:4}  {type(action).__name__}")
    print(f"game {game_id} ({rules.name}):")
    for player in state.players:
        print(f"  {state.shown_name(player):<12} {player.score:>6,}")
    if state.winner:
        print(f"  winner: {state.winner}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
