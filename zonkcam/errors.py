"""The user-facing error the CLI prints as one line (no traceback)."""


class UserError(Exception):
    """Bad input from the person at the keyboard: a missing file, a wrong option."""
