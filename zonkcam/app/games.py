"""Starting and resuming games in the event log: what ``--resume``, ``--players`` and
``--new`` mean, for the table app and the text mode alike."""

from __future__ import annotations

import argparse
import shlex

from zonkcam.errors import UserError
from zonkcam.game import actions as A
from zonkcam.game.errors import TableError
from zonkcam.game.names import escaped, quoted
from zonkcam.game.rules import RuleSet
from zonkcam.game.state import GameState
from zonkcam.record.logged_game import LoggedGame, saved_game
from zonkcam.record.store import EventLog, GameRecord, StoreError, local_time
from zonkcam.review.dice import Pool, pools
from zonkcam.review.night import GameReview, review_game

DEMO_PLAYERS = ("Ann", "Bob", "Cy")


def resume_command(
    args: argparse.Namespace, game_id: int | None, *, text: bool | None = None
) -> str:
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
            raise UserError(
                f"no unfinished game in {escaped(str(log.path))} to resume; start "
                "one with --players NAME ... instead of --resume"
            )
        return game_id
    game_id = int(which) if which.isascii() and which.isdigit() and len(which) < 20 else -1
    if game_id < 1:
        raise UserError(f"--resume takes a game number, not {quoted(which)}")
    return game_id


def resume(log: EventLog, which: str) -> LoggedGame:
    """The saved game ``which`` names, claimed for this process (a claim left by a zonkcam
    that is no longer running is taken over, with a line saying so)."""
    logged = LoggedGame.resume(log, resume_id(log, which))
    if log.took_over:
        print(log.took_over)
    return logged


def new_game(log: EventLog, rules: RuleSet, names: list[str], *, demo: bool = False) -> LoggedGame:
    """A new game stored with its players (one transaction); ``demo``: the demo game's."""
    try:
        return LoggedGame.new(log, rules, [A.Players(tuple(names))], demo=demo)
    except TableError as exc:
        raise UserError(str(exc)) from None


def unfinished_games(log: EventLog) -> list[GameRecord]:
    """The games people left unfinished, oldest first (never a demo game: the demo plays
    only its own)."""
    return [g for g in log.games() if not g.finished and not g.demo]


def shown_players(log: EventLog, g: GameRecord) -> str:
    """The game's players as its table shows them: on a table with zonk names, their zonk
    names (a player still without one by seat), never the real ones."""
    try:
        if not log.rules(g.id).drinking.zonk_names:
            return ", ".join(g.players)
        state = saved_game(log, g.id)[0].state
    except StoreError:
        if g.rules_name != "drinking":
            return ", ".join(g.players)
        return "(names not shown: the game cannot be played back)"
    return ", ".join(state.shown_name(p) for p in state.players)


def past_players(log: EventLog, *, demo: bool = False) -> list[str]:
    """The names seated in the log's games, the latest game's first (in its seating
    order), each once whatever its case: the names the set-up screen offers. The demo's
    games only with ``demo``, people's games only without."""
    names: dict[str, str] = {}
    for game in reversed(log.games()):
        if game.demo == demo:
            for name in game.players:
                names.setdefault(name.casefold(), name)
    return list(names.values())


PAST_ZONK_GAMES = 20
"""How many of the latest games :func:`past_zonk_names` reads."""


def past_zonk_names(log: EventLog, *, demo: bool = False) -> list[tuple[str, str]]:
    """(player, zonk name) as given in the latest games (:data:`PAST_ZONK_GAMES`), the
    latest first; a game whose actions cannot be read is passed over."""
    out: list[tuple[str, str]] = []
    games = [g for g in reversed(log.games()) if g.demo == demo][:PAST_ZONK_GAMES]
    for game in games:
        try:
            actions = log.actions(game.id)
        except StoreError:
            continue
        out += reversed([(a.player, a.name) for a in actions if isinstance(a, A.ZonkName)])
    return out


def finished_charts(logged: LoggedGame, state: GameState) -> tuple[GameReview, list[Pool]] | None:
    """The finished game's charts (SELECT on the game-over screen): the game played back
    from the log, and the dice of the night's games (those that began on the day this one
    began, the demo's with the demo's) on tables that throw as many dice; None before the
    game is over. Raises StoreError or TableError when the log cannot be read."""
    if logged.game_id is None or not state.finished:
        return None
    log, game_id = logged.log, logged.game_id
    with log.snapshot():  # one moment of the log (another zonkcam may play on)
        review = review_game(game_id, state.rules, log.actions(game_id), log.action_times(game_id))
        night = local_time(log.began().get(game_id), "%Y-%m-%d")  # this game's
        tonight = log.games_of(night, logged.demo)
        # only tables that throw as many dice: five are never pooled with six
        others = [n for n in tonight if n != game_id and log.rules(n).dice == state.rules.dice]
        actions = [a for n in others for a in saved_game(log, n)[0].events]
    return review, pools(actions + review.actions)
