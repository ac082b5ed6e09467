"""One exception family for everything a table can get wrong.

Every illegal action raises a subclass of :class:`TableError` (a ``ValueError``)
whose message a scorekeeper understands; the game state is left exactly as it was.
Both roots here are zonkcam errors (:class:`~zonkcam.errors.ZonkcamError`), which the CLI
prints as one line.
"""

from zonkcam.errors import ZonkcamError


class RulesError(ZonkcamError, ValueError):
    """A rule set (preset name or TOML file) is unknown or malformed."""


class TableError(ZonkcamError, ValueError):
    """An action the table's rules do not allow right now."""


class BadDiceError(TableError):
    """Dice that cannot be: a value outside 1-6, an unknown colour, the wrong count."""


class IllegalKeepError(TableError):
    """A keep that holds a non-scoring die, or dice that were not rolled."""


class BankError(TableError):
    """A bank the rules forbid: under the minimum, not on the board, hot dice must roll."""


class TurnError(TableError):
    """An action out of order: keeping before rolling, rolling twice, and so on."""


class PlayerError(TableError):
    """An unknown, duplicate or departed player."""


class GameOverError(TableError):
    """The game has finished; nothing more can be played."""
