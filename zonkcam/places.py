"""Where zonkcam keeps a person's files: the XDG folders (``$XDG_DATA_HOME``,
``$XDG_CONFIG_HOME``, ``$XDG_CACHE_HOME``, ``$XDG_STATE_HOME``), else their usual place in
the home folder. The home folder is ``$HOME``, else the one the user's account names; a
process with neither (a user id with no account and no ``HOME``, as some containers and
service managers start one) has no such folder, and is told so in one line instead of
keeping files in a folder named ``~`` wherever it runs."""

from __future__ import annotations

import os
import pwd
from pathlib import Path

from zonkcam.errors import UserError


def home() -> Path | None:
    """The home folder: ``$HOME`` where it is set to a full path, else the account's;
    None where there is neither."""
    env = os.environ.get("HOME", "")
    if os.path.isabs(env):
        return Path(env)
    try:
        folder = pwd.getpwuid(os.getuid()).pw_dir
    except KeyError:  # a user id with no account
        return None
    return Path(folder) if os.path.isabs(folder) else None


def xdg_folder(variable: str, default: str, what: str, option: str | None = None) -> Path:
    """``$VARIABLE`` where it is set, else ``default`` (``.local/share``) in the home
    folder. UserError where there is no home folder: `what` is kept there (the game
    log), `option` is what gives another place (``--db FILE``)."""
    if os.environ.get(variable):
        return Path(os.environ[variable])
    folder = home()
    if folder is None:
        instead = f", or give {option}" if option else ""
        raise UserError(
            f"no home folder for {what}: HOME is not set and user id {os.getuid()} has no "
            f"account; set HOME or {variable}{instead}"
        )
    return folder / default
