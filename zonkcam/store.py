"""The crash-safe event log: every accepted table action, in SQLite.

Each action is written and committed (WAL, ``synchronous=FULL``) before the game
reports it as accepted, so a SIGKILL or a power cut loses nothing that was shown.
A game is stored as its rules (TOML text, so custom tables resume without their file)
and its actions in order, undos included; its state is a fold over them.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from zonkcam.errors import UserError
from zonkcam.game.actions import Action, action_from_json, action_to_json
from zonkcam.game.errors import TableError
from zonkcam.game.rules import RuleSet, rules_from_dict, rules_to_toml

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    created REAL NOT NULL,
    rules_name TEXT NOT NULL,
    rules_toml TEXT NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS events (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    at REAL NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""


def default_db_path() -> Path:
    """``$ZONKCAM_DB``, else ``$XDG_DATA_HOME/zonkcam/games.sqlite3`` (~/.local/share)."""
    if os.environ.get("ZONKCAM_DB"):
        return Path(os.environ["ZONKCAM_DB"])
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"),
                                                           ".local", "share")
    return Path(base) / "zonkcam" / "games.sqlite3"


@dataclass(frozen=True)
class GameRecord:
    id: int
    created: float
    rules_name: str
    finished: bool
    events: int
    updated: float
    players: tuple[str, ...]


class EventLog:
    """All games on this machine, one SQLite file."""

    def __init__(self, path: str | os.PathLike | None = None) -> None:
        self.path = Path(path) if path else default_db_path()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, isolation_level=None, timeout=10)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(_SCHEMA)
        except (OSError, sqlite3.Error) as exc:
            raise UserError(f"cannot open the game log {self.path}: {exc}") from None

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> EventLog:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def new_game(self, rules: RuleSet) -> int:
        with self._db:
            self._db.execute("BEGIN")
            cur = self._db.execute(
                "INSERT INTO games (created, rules_name, rules_toml) VALUES (?, ?, ?)",
                (time.time(), rules.name, rules_to_toml(rules)),
            )
        return int(cur.lastrowid)

    def append(self, game_id: int, action: Action) -> int:
        """Write one action and commit it; returns its sequence number."""
        text = json.dumps(action_to_json(action))
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            (seq,) = self._db.execute(
                "SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE game_id = ?", (game_id,)
            ).fetchone()
            self._db.execute("INSERT INTO events (game_id, seq, at, action) VALUES (?, ?, ?, ?)",
                             (game_id, seq, time.time(), text))
        return int(seq)

    def set_finished(self, game_id: int, finished: bool = True) -> None:
        with self._db:
            self._db.execute("BEGIN")
            self._db.execute("UPDATE games SET finished = ? WHERE id = ?", (int(finished), game_id))

    def games(self) -> list[GameRecord]:
        rows = self._db.execute(
            "SELECT g.id, g.created, g.rules_name, g.finished, COUNT(e.seq), "
            "COALESCE(MAX(e.at), g.created) FROM games g LEFT JOIN events e ON e.game_id = g.id "
            "GROUP BY g.id ORDER BY g.id"
        ).fetchall()
        out = []
        for gid, created, name, finished, n, updated in rows:
            first = self._db.execute(
                "SELECT action FROM events WHERE game_id = ? AND seq = 1", (gid,)
            ).fetchone()
            players = tuple(json.loads(first[0]).get("players", ())) if first else ()
            out.append(GameRecord(gid, created, name, bool(finished), n, updated, players))
        return out

    def latest_unfinished(self) -> int | None:
        row = self._db.execute(
            "SELECT id FROM games WHERE finished = 0 ORDER BY id DESC LIMIT 1").fetchone()
        return row[0] if row else None

    def rules(self, game_id: int) -> RuleSet:
        row = self._db.execute("SELECT rules_toml FROM games WHERE id = ?",
                               (game_id,)).fetchone()
        if row is None:
            raise UserError(f"no game {game_id} in {self.path} (see: zonkcam games list)")
        import tomllib

        return rules_from_dict(tomllib.loads(row[0]), where=f"game {game_id} rules")

    def actions(self, game_id: int) -> list[Action]:
        """The game's stored actions in order (undos included)."""
        return [action_from_json(obj) for obj in self.action_objects(game_id)]

    def action_objects(self, game_id: int) -> Iterator[dict]:
        self.rules(game_id)  # raises for an unknown game
        for (text,) in self._db.execute(
            "SELECT action FROM events WHERE game_id = ? ORDER BY seq", (game_id,)
        ):
            try:
                yield json.loads(text)
            except json.JSONDecodeError:
                raise TableError(f"game {game_id}: a stored action is damaged: {text!r}") from None
