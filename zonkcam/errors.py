"""The user-facing error the CLI prints as one line (no traceback)."""


class UserError(Exception):
    """Bad input from the person at the keyboard: a missing file, a wrong option."""


class WriteFailed(OSError):
    """A file the user keeps could not be written (a full disk, a read-only card, a folder
    this user may not write): the file it would have replaced is as it was. Its text is one
    line ("cannot write FILE: No space left on device"); the CLI exits with status 1."""

    def __str__(self) -> str:
        where = "".join(
            c if c.isprintable() else c.encode("unicode_escape").decode("ascii")
            for c in str(self.filename)
        )
        return f"cannot write {where}: {self.strerror}"
