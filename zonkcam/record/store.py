"""The crash-safe event log: every accepted table action, in SQLite.

Each action is written and committed (WAL, ``synchronous=FULL``) and copied from the
``-wal`` file into the log file itself before the game reports it as accepted, so a
SIGKILL, a power cut or a ``-wal`` file deleted by another program loses nothing that
was shown. Each step a player sees is one transaction: a new game with its players, an
action with the finished flag it sets or clears. Before each write the log checks that
its file is still the one it opened: not deleted, not replaced, not overwritten in place
by another log or an older copy, its ``-wal`` file still there; otherwise nothing more
is written (:class:`LogGoneError`).
A game is stored as its rules (TOML text, so custom tables resume without their file)
and its actions in order, undos included; its state is a fold over them.

One game has one writer: a process claims the game before it writes (a ``writers``
row naming the process), and every append checks the claim and the expected sequence
number inside its transaction. A claim by a process that is gone (killed, or before a
reboot, or a claim naming a process that started at another time) is taken over, and
:attr:`EventLog.took_over` says so. Every SQLite failure becomes a :class:`StoreError`,
one line that says what is wrong with the file; a failed write leaves the log as it was.

Beside it: the tables and their versions in ``schema.py``, which process and which file
is which in ``claims.py``, the errors in ``errors.py``.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import secrets
import shutil
import sqlite3
import tempfile
import time
import tomllib
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from zonkcam.game.actions import Action, action_from_json, action_to_json
from zonkcam.game.errors import RulesError, TableError
from zonkcam.game.names import counted, escaped
from zonkcam.game.rules import RuleSet, rules_from_dict, rules_to_toml, toml_string
from zonkcam.places import xdg_folder
from zonkcam.record.claims import alive, file_identity, this_process
from zonkcam.record.clock import in_order, timeline
from zonkcam.record.errors import GameBusyError, LogGoneError, NoLogError, StoreError
from zonkcam.record.schema import SCHEMA_VERSION, check_layout, migrate, version_of

MAX_GAME_ID = 2**63 - 1
"""SQLite's largest integer."""
COPY_TRIES = 5
"""How often a log read from a private copy is copied again when a game was saved while it
was being copied."""


def local_time(at: object, fmt: str) -> str:
    """A stored or current timestamp as local time in `fmt`; "unknown" for one the platform
    cannot show (not a number, infinite, or beyond the years it can count)."""
    try:
        return time.strftime(fmt, time.localtime(float(at)))
    except (TypeError, ValueError, OverflowError, OSError):
        return "unknown"


def default_db_path() -> Path:
    """``$ZONKCAM_DB``, else ``$XDG_DATA_HOME/zonkcam/games.sqlite3`` (~/.local/share)."""
    if os.environ.get("ZONKCAM_DB"):
        return Path(os.environ["ZONKCAM_DB"])
    base = xdg_folder("XDG_DATA_HOME", ".local/share", "the game log", "--db FILE")
    return base / "zonkcam" / "games.sqlite3"


@dataclass(frozen=True)
class GameRecord:
    id: int
    created: float | None
    """When the game began (seconds since the epoch); None where the log's time is unreadable."""
    rules_name: str
    finished: bool
    events: int
    updated: float | None
    """When its last action was played (the last action's time that is readable, by the
    clock after any jump); None where no time of it is readable."""
    players: tuple[str, ...]
    demo: bool = False
    """Played by the demo game's automatic players (never by people)."""


class EventLog:
    """All games on this machine, one SQLite file."""

    def __init__(
        self,
        path: str | os.PathLike | None = None,
        *,
        timeout: float = 10.0,
        read_only: bool = False,
    ) -> None:
        """Open (and create) the log at `path`. `read_only`: only to read it (`games list`,
        `show`, `export`): nothing is created or changed, and a log on read-only media or
        in a folder this user cannot write is read from a private copy."""
        self.path = Path(path) if path else default_db_path()
        self._db: sqlite3.Connection | None = None
        self._claimed = False
        self._token = secrets.token_hex(8)
        self._process = f"{this_process()}/{self._token}"
        self._copy: tempfile.TemporaryDirectory | None = None
        self._identity: tuple[int, int] | None = None
        """The opened file's (device, inode): each write first checks it is still there."""
        self._wal_identity: tuple[int, int] | None = None
        """The (device, inode) of the opened file's -wal file, once there is one."""
        self._log_id: str | None = None
        """The log's own random id (its ``log`` table), as the opened file had it."""
        self._gone: str | None = None
        """Why the file stopped being this log's, once a write found it so."""
        self.took_over: str | None = None
        """A line when a claim left by a process that is gone was taken over."""
        if read_only:
            self._open_to_read(timeout)
            return
        try:
            if self.path.is_dir():
                raise StoreError(f"the game log {self.path} is a directory; give a file")
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(
                f"cannot open the game log {self.path}: {exc.strerror or exc}"
            ) from None
        with self._closed_on_failure():
            self._db = sqlite3.connect(self.path, isolation_level=None, timeout=timeout)
            version = version_of(self._db, self.path)  # reads only: a foreign file is left as it is
            if self._db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            migrate(self._db, self.path, version)
            self._fold_wal(self._db)
            self._identity = file_identity(self.path)
            self._log_id = self._read("SELECT id FROM log")[0][0]

    @contextmanager
    def _closed_on_failure(self) -> Iterator[None]:
        """Opening: any failure closes what was opened; an SQLite one becomes one line."""
        try:
            yield
        except sqlite3.Error as exc:
            self.close()
            raise self._error(exc, "open") from None
        except StoreError:
            self.close()
            raise

    @property
    def gone(self) -> str | None:
        """What the last write found of the log's file, as :meth:`missing` says it, without
        looking again (cheap, for every frame); None while writes find it in place."""
        return self._gone

    def missing(self) -> str | None:
        """Why the file this log opened is no longer the file at its path, or no longer
        holds this log (it "was deleted", "was replaced by another file", "was
        overwritten by another log", "lost its -wal file"), or None while it is."""
        if self._gone or self._identity is None:
            return self._gone
        try:
            now = file_identity(self.path)
        except OSError:
            return "was deleted"
        if now != self._identity:
            return "was replaced by another file"
        if self._wal_identity is not None:
            try:
                wal = file_identity(self._wal_path)
            except OSError:
                return "lost its -wal file (deleted by another program)"
            if wal != self._wal_identity:
                return "lost its -wal file (replaced by another program)"
        on_disk = self._on_disk("SELECT id FROM log")
        if on_disk is not None and on_disk != (self._log_id,):
            return "was overwritten by another file (copied over it)"
        return None

    @property
    def _wal_path(self) -> Path:
        return self.path.with_name(self.path.name + "-wal")

    def _note_wal(self) -> None:
        """Remember the -wal file this connection writes, once SQLite has made it."""
        if self._wal_identity is None:
            try:
                self._wal_identity = file_identity(self._wal_path)
            except OSError:
                pass

    def _on_disk(self, sql: str, args: tuple = ()) -> tuple | None:
        """The first row of ``sql`` in the file at the path as it is on disk now, read by a
        connection of its own (this log's connection keeps what it read in memory): () for
        a file that holds no such row or no zonkcam log, None where it cannot be told
        (another program holds the file)."""
        uri = f"{self.path.resolve().as_uri()}?mode=ro"
        try:
            with contextlib.closing(sqlite3.connect(uri, uri=True, timeout=1.0)) as db:
                row = db.execute(sql, args).fetchone()
        except sqlite3.Error as exc:
            name = getattr(exc, "sqlite_errorname", "") or ""
            return None if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) else ()
        return tuple(row) if row else ()

    def _fold_wal(self, db: sqlite3.Connection) -> None:
        """Copy what was committed from the -wal file into the log file itself (what a
        reader is reading at that moment stays for the next write)."""
        try:
            db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        except sqlite3.Error:
            pass  # committed all the same: the -wal file holds it
        self._note_wal()

    def _open_to_read(self, timeout: float) -> None:
        """Open the log as it is, only to read, leaving no file beside it that was not
        there (see :meth:`_read_mode`); where SQLite cannot (read-only media, a folder this
        user cannot write) or the layout is older, read a private copy instead."""
        if self.path.is_dir():
            raise StoreError(f"the game log {self.path} is a directory; give a file")
        if not self.path.is_file():
            raise NoLogError(f"there is no game log at {self.path}")
        mode = self._read_mode()
        uri = f"{self.path.resolve().as_uri()}?mode={mode}"
        try:
            if mode == "copy":
                raise sqlite3.OperationalError("read a copy")
            self._db = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=timeout)
            self._db.execute("PRAGMA query_only = ON")  # nothing is written through it
            if version_of(self._db, self.path) == SCHEMA_VERSION:
                check_layout(self._db, self.path)
                return
        except sqlite3.Error:
            pass  # read-only media, or a folder this user cannot write: read a copy
        except StoreError:
            self.close()
            raise
        self.close()
        self._copy = tempfile.TemporaryDirectory(prefix="zonkcam-log-")
        copy = Path(self._copy.name) / "games.sqlite3"
        try:
            for _ in range(COPY_TRIES):  # again where a game was saved while it was copied
                before = self._files_now()
                shutil.copyfile(self.path, copy)
                wal = self.path.with_name(self.path.name + "-wal")
                if wal.is_file():  # actions not yet folded into the file itself
                    shutil.copyfile(wal, copy.with_name(copy.name + "-wal"))
                if self._files_now() == before:
                    break
        except OSError as exc:
            self.close()
            raise StoreError(
                f"cannot read the game log {self.path}: {exc.strerror or exc}"
            ) from None
        with self._closed_on_failure():
            self._db = sqlite3.connect(copy, isolation_level=None, timeout=timeout)
            migrate(self._db, self.path, version_of(self._db, self.path))
            self._db.execute("PRAGMA query_only = ON")  # as read-only as the file itself

    def _files_now(self) -> list[tuple[int, int, int, int] | None]:
        """The log's file and its -wal file as they are now (device, inode, size, time
        changed; None for one not there): a copy taken between two equal looks is whole."""
        now = []
        for path in (self.path, self.path.with_name(self.path.name + "-wal")):
            try:
                st = os.stat(path)
            except OSError:
                now.append(None)
                continue
            now.append((st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns))
        return now

    def _read_mode(self) -> str:
        """How the log is opened to read so that no file is left beside it that was not
        there before, and a game played meanwhile is read as SQLite reads beside a writer.

        "ro" (SQLite's read-only mode) where that creates no file: a log not in WAL mode
        (its header says so), or one whose -wal and -shm files are there already (a game
        is being played, or one was killed). A WAL log without them would get them from a
        read-only connection and keep them: such a connection cannot remove them as it
        closes. So where this user may write the log and its folder it is opened "rw",
        kept read-only by ``PRAGMA query_only``: SQLite makes the two files for the read
        and removes them as the last connection closes, as it does for every connection
        (a game that starts meanwhile keeps them, and removes them as it ends). Elsewhere
        "copy": a private copy is read (taken again where a game was saved meanwhile)."""
        try:
            with open(self.path, "rb") as f:
                header = f.read(20)
        except OSError:
            return "ro"  # SQLite says what is wrong
        wal_mode = len(header) == 20 and header[:16] == b"SQLite format 3\x00" and header[18] == 2
        wal, shm = (self.path.with_name(self.path.name + end) for end in ("-wal", "-shm"))
        if not wal_mode or (wal.exists() and shm.exists()):
            return "ro"
        if os.access(self.path, os.W_OK) and os.access(self.path.parent, os.W_OK | os.X_OK):
            return "rw"
        return "copy"

    # -- errors --------------------------------------------------------------------------------

    def _error(self, exc: sqlite3.Error, doing: str) -> StoreError:
        """One line for an SQLite failure while ``doing`` (open, read, save to)."""
        name = getattr(exc, "sqlite_errorname", "") or ""
        where = f"the game log {self.path}"
        lost = "; nothing was saved" if doing == "save to" else ""
        if (
            name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB"))
            or "malformed" in str(exc)
            or "not a database" in str(exc)
        ):
            return StoreError(
                f"{where} is damaged ({exc}): move it away to start a new log, "
                f"and keep it to recover games from (sqlite3 FILE .recover)"
            )
        if name.startswith("SQLITE_READONLY"):
            return StoreError(
                f"cannot {doing} {where}: it is read-only (check the "
                f"permissions of the file and its folder){lost}"
            )
        if name == "SQLITE_FULL" or "database or disk is full" in str(exc):
            return StoreError(
                f"cannot {doing} {where}: the disk is full; free some space and try again{lost}"
            )
        if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
            return StoreError(f"{where} is locked by another program; try again{lost}")
        if name.startswith(("SQLITE_CANTOPEN", "SQLITE_PERM", "SQLITE_AUTH")):
            return StoreError(
                f"cannot open {where} ({exc}): check that its folder exists and can be written"
            )
        if name.startswith("SQLITE_IOERR"):
            return StoreError(
                f"cannot {doing} {where}: the disk refused ({exc}; is it full or failing?){lost}"
            )
        return StoreError(f"cannot {doing} {where}: {exc}{lost}")

    def _read(self, sql: str, args: tuple = ()) -> list[tuple]:
        assert self._db is not None
        try:
            return self._db.execute(sql, args).fetchall()
        except sqlite3.Error as exc:
            raise self._error(exc, "read") from None

    def _write(self, steps) -> object:  # noqa: ANN001 - a function of the connection
        """Run ``steps(connection)`` in one write transaction; roll back if anything fails."""
        db = self._db
        assert db is not None
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                gone = self._gone = self.missing()
                if gone:
                    raise LogGoneError(f"the game log {self.path} {gone} while it was open")
                result = steps(db)
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise
            self._fold_wal(db)
        except sqlite3.Error as exc:
            raise self._error(exc, "save to") from None
        except OSError as exc:  # beside SQLite (the file's checks): as SQLite says it
            full = exc.errno in (errno.ENOSPC, errno.EDQUOT)
            raise self._error(
                sqlite3.OperationalError("database or disk is full" if full else str(exc)),
                "save to",
            ) from None
        return result

    # -- lifetime -----------------------------------------------------------------------------

    @property
    def connection(self) -> sqlite3.Connection:
        """The SQLite connection, for checks and maintenance (the log's writes go through
        its methods)."""
        return self._db

    def close(self) -> None:
        if self._db is not None:
            try:
                if self._claimed and not self._db.in_transaction and not self.missing():
                    self._db.execute("DELETE FROM writers WHERE process = ?", (self._process,))
            except sqlite3.Error:
                pass  # a claim left behind is taken over once this process is gone
            self._db.close()
            self._db = None
        if self._copy is not None:
            self._copy.cleanup()
            self._copy = None

    def __enter__(self) -> EventLog:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- writing --------------------------------------------------------------------------------

    def new_game(
        self,
        rules: RuleSet,
        actions: Sequence[Action] = (),
        finished: bool = False,
        *,
        demo: bool = False,
    ) -> int:
        """Store a new game with its first actions (the seating) in one transaction and
        claim it for this log; returns its id. ``demo``: the demo game's."""
        texts = [json.dumps(action_to_json(a)) for a in actions]
        toml = rules_to_toml(rules)

        def steps(db: sqlite3.Connection) -> int:
            now = time.time()
            cur = db.execute(
                "INSERT INTO games (created, rules_name, rules_toml, finished, "
                "demo) VALUES (?, ?, ?, ?, ?)",
                (now, rules.name, toml, int(finished), int(demo)),
            )
            game_id = int(cur.lastrowid)
            db.executemany(
                "INSERT INTO events (game_id, seq, at, action) VALUES (?, ?, ?, ?)",
                [(game_id, i, now, t) for i, t in enumerate(texts, start=1)],
            )
            self._take(db, game_id)
            return game_id

        return self._write(steps)  # type: ignore[return-value]

    def append(self, game_id: int, action: Action, seq: int, finished: bool | None = None) -> int:
        """Write action number ``seq`` of a game this log claimed, and the game's finished
        flag when ``finished`` is given, in one transaction; returns ``seq``. Refused when
        the game has been claimed by another process or its last stored action is not
        ``seq - 1``."""
        text = json.dumps(action_to_json(action))

        def steps(db: sqlite3.Connection) -> None:
            self._check_claim(db, game_id)
            query = "SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = ?"
            (last,) = db.execute(query, (game_id,)).fetchone()
            if self._on_disk(query, (game_id,)) not in ((last,), None):
                self._gone = "was overwritten by another copy of itself"
                raise LogGoneError(f"the game log {self.path} {self._gone} while it was open")
            if last != seq - 1:
                raise StoreError(
                    f"game {game_id} was changed by another zonkcam ({counted(last, 'action')} "
                    f"stored, this one expected {seq - 1}): nothing "
                    "was saved; resume the game again to go on from there"
                )
            db.execute(
                "INSERT INTO events (game_id, seq, at, action) VALUES (?, ?, ?, ?)",
                (game_id, seq, time.time(), text),
            )
            if finished is not None:
                db.execute("UPDATE games SET finished = ? WHERE id = ?", (int(finished), game_id))

        self._write(steps)
        return seq

    # -- one writer per game --------------------------------------------------------------------

    def claim(self, game_id: int) -> None:
        """Make this log the game's only writer (refused while another live process is)."""
        self._known(game_id)
        self._write(lambda db: self._take(db, game_id))

    def _take(self, db: sqlite3.Connection, game_id: int) -> None:
        row = db.execute(
            "SELECT process, pid, since FROM writers WHERE game_id = ?", (game_id,)
        ).fetchone()
        if row is not None and row[0] != self._process:
            since = local_time(row[2], "%H:%M")
            if alive(row[0], self._process):
                raise GameBusyError(
                    f"game {game_id} is being played by another zonkcam (process "
                    f"{row[1]}, since {since}); close that one first"
                )
            self.took_over = (
                f"game {game_id} was left claimed by a zonkcam that is no longer running "
                f"(process {row[1]}, since {since}): this one takes it over"
            )
        # a log writes one game at a time: its earlier claim ends here
        db.execute("DELETE FROM writers WHERE process = ? OR game_id = ?", (self._process, game_id))
        db.execute(
            "INSERT INTO writers (game_id, process, pid, since) VALUES (?, ?, ?, ?)",
            (game_id, self._process, os.getpid(), time.time()),
        )
        self._claimed = True

    def _check_claim(self, db: sqlite3.Connection, game_id: int) -> None:
        row = db.execute("SELECT process FROM writers WHERE game_id = ?", (game_id,)).fetchone()
        if row is None or row[0] != self._process:
            self._take(db, game_id)

    # -- reading --------------------------------------------------------------------------------

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """Every read inside the block sees the log as the first one found it: one read
        transaction (a WAL log gives each reader a snapshot of its own), so a page or a
        figure made from several queries (a game's actions and their times, its rules, the
        list of games) is one moment of the log while another zonkcam plays on. Inside a
        snapshot already: the same one."""
        db = self._db
        if db is None or db.in_transaction:
            yield
            return
        try:
            db.execute("BEGIN")
        except sqlite3.Error as exc:
            raise self._error(exc, "read") from None
        try:
            yield
        finally:
            if self._db is db and db.in_transaction:
                with contextlib.suppress(sqlite3.Error):  # nothing was written to keep
                    db.execute("ROLLBACK")

    def games(self) -> list[GameRecord]:
        rows = self._read(
            "SELECT g.id, g.created, g.rules_name, g.finished, COUNT(e.seq), "
            # the last action's time (a clock that was ahead earlier is no later), but not
            # a time that is not one (a damaged or crafted log: _time)
            "COALESCE((SELECT l.at FROM events l WHERE l.game_id = g.id "
            f"AND typeof(l.at) IN ('integer', 'real') AND l.at BETWEEN 0 AND {LAST_TIME} "
            "ORDER BY l.seq DESC LIMIT 1), g.created), g.demo "
            "FROM games g "
            "LEFT JOIN events e ON e.game_id = g.id GROUP BY g.id ORDER BY g.id"
        )
        out = []
        for gid, created, name, finished, n, updated, demo in rows:
            first = self._read("SELECT action FROM events WHERE game_id = ? AND seq = 1", (gid,))
            out.append(
                GameRecord(
                    gid,
                    _time(created),
                    str(name),
                    bool(finished),
                    n,
                    _time(updated),
                    _players(first[0][0] if first else None),
                    bool(demo),
                )
            )
        return out

    def games_of(self, night: str | None, demo: bool = False) -> list[int]:
        """The games of the night ``night`` (YYYY-MM-DD, local time; None: every day): those
        that began on that day as their players saw it (:meth:`began`), the demo's own
        games only with ``demo``."""
        began = self.began() if night is not None else {}
        return [
            g.id
            for g in self.games()
            if (demo or not g.demo)
            and (night is None or local_time(began.get(g.id), "%Y-%m-%d") == night)
        ]

    def began(self) -> dict[int, float | None]:
        """When each game began as its players saw it: its first action's time read
        through the clock's jumps in the game and between games
        (:mod:`zonkcam.record.clock`); None where none of its times is readable."""
        times: dict[int, list[float]] = {}
        with self.snapshot():
            for game_id, at in self._read("SELECT game_id, at FROM events ORDER BY game_id, seq"):
                if (t := _time(at)) is not None:
                    times.setdefault(game_id, []).append(t)
            games = self._read("SELECT id, created FROM games ORDER BY id")
        starts = in_order(
            [timeline(times[n]).began if n in times else _time(created) for n, created in games]
        )
        return {n: at for (n, _), at in zip(games, starts, strict=True)}

    def is_demo(self, game_id: int) -> bool:
        """Whether the demo game's automatic players play this game."""
        self._known(game_id)
        rows = self._read("SELECT demo FROM games WHERE id = ?", (game_id,))
        return bool(rows[0][0])

    def latest_unfinished(self) -> int | None:
        rows = self._read("SELECT id FROM games WHERE finished = 0 ORDER BY id DESC LIMIT 1")
        return rows[0][0] if rows else None

    def _known(self, game_id: int) -> tuple[str, str]:
        """The game's table name and stored rules (TOML); a StoreError for a game that is
        not here."""
        rows = []
        if isinstance(game_id, int) and 1 <= game_id <= MAX_GAME_ID:
            rows = self._read("SELECT rules_name, rules_toml FROM games WHERE id = ?", (game_id,))
        if not rows:
            raise StoreError(f"no game {game_id} in {self.path} (see: zonkcam games list)")
        return str(rows[0][0]), str(rows[0][1])

    def rules(self, game_id: int) -> RuleSet:
        name, text = self._known(game_id)
        try:
            return rules_from_dict(tomllib.loads(text), where=f"game {game_id} rules")
        except (tomllib.TOMLDecodeError, RulesError, RecursionError, ValueError) as exc:
            rescued = _rescued_rules(name, text)
            if rescued is not None:
                return rescued
            raise StoreError(
                f"game {game_id}: its stored rules are damaged ({escaped(str(exc))})"
            ) from None

    def actions(self, game_id: int) -> list[Action]:
        """The game's stored actions in order (undos included)."""
        out = []
        for seq, obj in enumerate(self.action_objects(game_id), start=1):
            try:
                out.append(action_from_json(_legible(obj)))
            except TableError as exc:
                raise StoreError(f"game {game_id}: stored action {seq} is damaged: {exc}") from None
        return out

    def action_times(self, game_id: int) -> list[float | None]:
        """When each of the game's stored actions was written (seconds since the epoch),
        in the order of :meth:`actions`; None for a time that is unreadable (not a number,
        or not a time of the years 1970 to 9999: a damaged or crafted log)."""
        self._known(game_id)
        rows = self._read("SELECT at FROM events WHERE game_id = ? ORDER BY seq", (game_id,))
        return [_time(at) for (at,) in rows]

    def action_objects(self, game_id: int) -> Iterator[dict]:
        self._known(game_id)
        for seq, text in self._read(
            "SELECT seq, action FROM events WHERE game_id = ? ORDER BY seq", (game_id,)
        ):
            try:
                yield json.loads(text)
            except (ValueError, TypeError, RecursionError):
                raise StoreError(
                    f"game {game_id}: stored action {seq} is damaged (not JSON)"
                ) from None


_NAME_KEYS = ("players", "join", "leave", "player", "by", "zonk_name")


def _legible(obj: object) -> object:
    """A stored action with every name made printable. Names were not checked when the
    first release stored them; escaping them the same way in every action of a game
    keeps such a game playable."""
    if not isinstance(obj, dict) or obj.keys().isdisjoint(_NAME_KEYS):
        return obj

    def fix(value: object) -> object:
        if isinstance(value, str):
            return escaped(value)
        if isinstance(value, list):
            return [escaped(v) if isinstance(v, str) else v for v in value]
        return value

    return {k: fix(v) if k in _NAME_KEYS else v for k, v in obj.items()}


def _rescued_rules(name: str, text: str) -> RuleSet | None:
    """The rules of a game whose table name the first release stored unescaped (a newline,
    NUL or ESC in it broke the TOML): the name is replaced by its printable form."""
    written = 'name = "' + name.replace("\\", "\\\\").replace('"', '\\"') + '"\n'
    if not text.startswith(written) or escaped(name) == name:
        return None
    try:
        data = tomllib.loads(f"name = {toml_string(escaped(name))}\n" + text[len(written) :])
        return rules_from_dict(data, where="rules")
    except (tomllib.TOMLDecodeError, RulesError, RecursionError, ValueError):
        return None


LAST_TIME = 253_402_300_799
"""The last second of the year 9999 (seconds since the epoch): the last a date can show."""


def _time(value: object) -> float | None:
    """A stored time as seconds since the epoch, or None where it is none."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        return None
    at = float(value)
    return at if 0 <= at <= LAST_TIME else None  # NaN and infinities are neither


def _players(text: object) -> tuple[str, ...]:
    """The names in a game's first action as far as it is readable, printable as they are
    when the game is played back."""
    try:
        obj = json.loads(text) if isinstance(text, str | bytes) else None
    except (ValueError, RecursionError):
        return ()
    names = obj.get("players") if isinstance(obj, dict) else None
    return tuple(escaped(n) for n in names if isinstance(n, str)) if isinstance(names, list) else ()
