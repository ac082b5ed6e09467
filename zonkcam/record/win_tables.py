"""The two-player win tables on disk: ``$XDG_CACHE_HOME/zonkcam/win-NAME-DIGEST.npz``,
named after the rules' content, built by ``zonkcam solve`` and read by the advisor of the
screen, the text mode and the demo players (:func:`cached_advisor`)."""

from __future__ import annotations

import hashlib
import io
import tomllib
from pathlib import Path

import numpy as np

from zonkcam.advisor.advice import Advisor
from zonkcam.advisor.race import PIG_STEPS, WinTable
from zonkcam.errors import UserError, WriteFailed
from zonkcam.fileio import write_whole
from zonkcam.game.errors import RulesError
from zonkcam.game.rules import RuleSet, rules_from_dict, rules_to_toml
from zonkcam.places import xdg_folder

FORMAT = 1
"""The table file's format; a file of another format is rebuilt, never misread."""


def cache_dir() -> Path:
    return xdg_folder("XDG_CACHE_HOME", ".cache", "the odds tables", "--out FILE") / "zonkcam"


def table_path(rules: RuleSet) -> Path:
    """Where the two-player table of ``rules`` is stored (named after the rules' content)."""
    digest = hashlib.sha256(rules_to_toml(rules).encode()).hexdigest()[:12]
    slug = "".join(c if c.isalnum() else "-" for c in rules.name.lower()).strip("-")
    return cache_dir() / f"win-{slug or 'table'}-{digest}.npz"


def save_table(table: WinTable, path: Path) -> None:
    """``table`` as the file ``path``, whole or not at all (WriteFailed says why not)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise WriteFailed(exc.errno, exc.strerror or str(exc), str(path)) from None
    arrays = {
        "format": np.array(FORMAT),
        "step": np.array(table.step),
        "rules": np.array(rules_to_toml(table.rules)),
        "win": table.win,
        "last": table.last,
    }
    if table.pig is not None:
        pig = table.pig
        if pig.dtype != np.uint16:  # one score at a time: no float copy of the whole table
            pig = np.empty(table.pig.shape, dtype=np.uint16)
            for i, part in enumerate(table.pig):
                pig[i] = np.round(np.clip(part, 0.0, 1.0) * PIG_STEPS)
        arrays["pig"] = pig
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **arrays)
    write_whole(path, buffer.getvalue())  # its own temporary file: nothing else is touched


def read_table(path: Path) -> WinTable:
    """A stored table; UserError if the file is not one."""
    try:
        with np.load(path, allow_pickle=False) as data:
            if int(data["format"]) != FORMAT:
                raise UserError(f"{path} is a table of another format: build it again")
            rules = rules_from_dict(tomllib.loads(str(data["rules"])))
            pig = data["pig"] if "pig" in data.files else None
            return WinTable(rules, int(data["step"]), data["win"], data["last"], pig)
    except FileNotFoundError:
        raise UserError(f"no table file {path}") from None
    except (OSError, ValueError, KeyError, RulesError, tomllib.TOMLDecodeError) as exc:
        raise UserError(f"{path} is not a zonkcam table ({exc})") from None


def load_table(rules: RuleSet) -> WinTable | None:
    """The stored two-player table of exactly these rules, or None (also where there is
    no folder to keep tables in)."""
    try:
        path = table_path(rules)
    except UserError:
        return None
    if not path.exists():
        return None
    try:
        table = read_table(path)
    except UserError:
        return None
    return table if table.rules == rules else None


def cached_advisor() -> Advisor:
    """An advisor that uses the stored two-player table of any rules it is asked about."""
    return Advisor(load=load_table)
