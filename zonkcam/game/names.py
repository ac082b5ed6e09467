"""Names and other text that reach the screen, the terminal, TOML and the unit file.

Names are checked where they enter the game (seating, joining, zonk names, a table's
name): printable characters only, and short enough for a scoreboard row. Text read back
from elsewhere (an old saved game, a file) goes through :func:`escaped` before it is
printed, so it can never move the cursor, change colours or end a line.
"""

from __future__ import annotations

import unicodedata

MAX_NAME = 40
"""Characters in a player's name or zonk name (the screen shrinks long names to fit)."""

MAX_TABLE_NAME = 60
"""Characters in a table's name."""

_UNPRINTABLE = ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")
"""Control, format (bidi overrides, zero widths), surrogate, private, unassigned, line and
paragraph separators."""


def unprintable(text: str) -> str | None:
    """The first character of ``text`` that is not printable, or None."""
    return next((c for c in text if unicodedata.category(c) in _UNPRINTABLE), None)


def escaped(text: str) -> str:
    """``text`` safe for one line of a terminal: unprintable characters as escapes (\\x1b)."""
    if unprintable(text) is None:
        return text
    return "".join(
        c.encode("unicode_escape").decode("ascii") if unicodedata.category(c) in _UNPRINTABLE else c
        for c in text
    )


def cut(text: str, limit: int = 40) -> str:
    """``text`` whole where it has at most ``limit`` characters, else its first ``limit``
    and "..." (typed input echoed in a message)."""
    return text if len(text) <= limit else text[:limit] + "..."


def quoted(value: object, limit: int = 40) -> str:
    """``repr(value)`` cut to fit in a one-line message."""
    try:
        text = repr(value)
    except (ValueError, RecursionError):  # an int too long to print, a list too deep
        return "a value that long"
    return text if len(text) <= limit else text[:limit] + "..."


def counted(n: int, one: str, many: str | None = None) -> str:
    """``n`` things in words: ``counted(1, "die", "dice") == "1 die"``, ``counted(3, "throw")
    == "3 throws"`` (``many`` defaults to ``one + "s"``)."""
    return f"{n} {one if n == 1 else (many or one + 's')}"


def name_problem(name: str, what: str, limit: int = MAX_NAME) -> str | None:
    """Why ``name`` cannot be a name (a sentence), or None when it can."""
    if not name.strip():
        return f"{what} cannot be empty"
    bad = unprintable(name)
    if bad is not None:
        return f"{what} '{escaped(name)}' has an unprintable character ({ascii(bad)})"
    if len(name) > limit:
        return f"{what} '{escaped(name[:limit])}...' is longer than {limit} characters"
    return None
