"""What can go wrong with the game log, each a one-line message for the user."""

from __future__ import annotations

from zonkcam.errors import UserError


class StoreError(UserError):
    """The game log cannot be read or written; the message says which file and why."""


class GameBusyError(StoreError):
    """Another process is writing the game."""


class LogGoneError(StoreError):
    """The log's file was deleted or replaced while it was open: nothing more is written."""


class NoLogError(StoreError):
    """There is no game log at the path (opened only to read)."""
