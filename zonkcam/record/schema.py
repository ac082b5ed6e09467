"""The game log's layout: its tables, one step per version, and the checks that a file is
a zonkcam game log before anything is written to it."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from zonkcam.record.errors import StoreError

MIGRATIONS: tuple[str, ...] = (
    # 1: games and their events (the first released layout, which had no version number)
    """
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
    """,
    # 2: the process writing each game
    """
    CREATE TABLE writers (
        game_id INTEGER PRIMARY KEY REFERENCES games(id),
        process TEXT NOT NULL,
        pid INTEGER NOT NULL,
        since REAL NOT NULL
    );
    """,
    # 3: the demo game's games, which only the demo plays on
    """
    ALTER TABLE games ADD COLUMN demo INTEGER NOT NULL DEFAULT 0;
    """,
    # 4: the log's own random id, which tells this file from a copy of another log
    """
    CREATE TABLE log (id TEXT NOT NULL);
    INSERT INTO log (id) VALUES (lower(hex(randomblob(8))));
    """,
)
"""The schema, one step per version: a file at version N has had the first N applied
(``PRAGMA user_version``). A new layout is a new step at the end."""

SCHEMA_VERSION = len(MIGRATIONS)

FIRSTCOLUMNS = {
    "games": {"id", "created", "rules_name", "rules_toml", "finished"},
    "events": {"game_id", "seq", "at", "action"},
}
"""Columns of the first released layout (no version number)."""
COLUMNS = {
    **FIRSTCOLUMNS,
    "games": FIRSTCOLUMNS["games"] | {"demo"},
    "writers": {"game_id", "process", "pid", "since"},
    "log": {"id"},
}
"""Columns each table must have (a later version may add more)."""


def version_of(db: sqlite3.Connection, path: Path) -> int:
    """The file's layout version, once it is known to be a game log zonkcam reads."""
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise StoreError(
            f"the game log {path} was written by a newer zonkcam (layout "
            f"version {version}; this one reads up to {SCHEMA_VERSION}): "
            "upgrade zonkcam"
        )
    if version == 0:
        _check_first_layout(db, path)
    return version


def migrate(db: sqlite3.Connection, path: Path, version: int) -> None:
    """Apply the layout steps the file lacks, each in its own transaction."""
    while version < SCHEMA_VERSION:
        step = MIGRATIONS[version]
        try:
            db.executescript(
                f"BEGIN IMMEDIATE;\n{step}\nPRAGMA user_version = {version + 1};\nCOMMIT;"
            )
        except sqlite3.OperationalError:
            if db.in_transaction:
                db.execute("ROLLBACK")
            if db.execute("PRAGMA user_version").fetchone()[0] <= version:
                raise
            # another process applied the step at the same moment
        version = db.execute("PRAGMA user_version").fetchone()[0]
    check_layout(db, path)


def _tables(db: sqlite3.Connection) -> dict[str, set[str]]:
    names = [
        r[0]
        for r in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )
    ]
    return {name: {r[1] for r in db.execute(f'PRAGMA table_info("{name}")')} for name in names}


def _check_first_layout(db: sqlite3.Connection, path: Path) -> None:
    """A file without a version is empty or has the first released layout."""
    tables = _tables(db)
    foreign = sorted(set(tables) - {"games", "events"})
    if foreign:
        raise StoreError(
            f"{path} is not a zonkcam game log (it has the tables "
            f"{', '.join(foreign)}); give another file with --db"
        )
    _check_columns(path, tables, FIRSTCOLUMNS)


def check_layout(db: sqlite3.Connection, path: Path) -> None:
    tables = _tables(db)
    missing = sorted(set(COLUMNS) - set(tables))
    if missing:
        raise StoreError(f"{path} is not a zonkcam game log (no {missing[0]} table)")
    _check_columns(path, tables, COLUMNS)


def _check_columns(path: Path, tables: dict[str, set[str]], wanted: dict[str, set[str]]) -> None:
    for name, columns in tables.items():
        lacking = sorted(wanted.get(name, set()) - columns)
        if lacking:
            raise StoreError(
                f"{path} is not a zonkcam game log (its {name} table "
                f"has no {', '.join(lacking)} column)"
            )
