"""The errors zonkcam raises on purpose, all under one root, :class:`ZonkcamError`: the
CLI prints any of them as one line (no traceback). Each family keeps the built-in base it
is caught by elsewhere (a rules engine's :class:`~zonkcam.game.errors.TableError` is a
``ValueError``, :class:`WriteFailed` an ``OSError``). This module imports nothing, so
every layer, the rules engine's included, may import it."""


class ZonkcamError(Exception):
    """Something zonkcam refuses or cannot do, its message one line a user understands."""


class UserError(ZonkcamError):
    """Bad input from the person at the keyboard: a missing file, a wrong option."""


class WriteFailed(ZonkcamError, OSError):
    """A file the user keeps could not be written (a full disk, a read-only card, a folder
    this user may not write): the file it would have replaced is as it was. Its text is one
    line ("cannot write FILE: No space left on device"); the CLI exits with status 1."""

    def __str__(self) -> str:
        where = "".join(
            c if c.isprintable() else c.encode("unicode_escape").decode("ascii")
            for c in str(self.filename)
        )
        return f"cannot write {where}: {self.strerror}"
