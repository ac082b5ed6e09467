"""A read-only file system for tests that need one, where this machine allows it."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

MOUNT = 'mount --bind "$0" "$0" && mount -o remount,ro,bind "$0" "$0" && exec "$@"'


def read_only_mount(folder: Path) -> Callable[[list[str]], subprocess.CompletedProcess] | None:
    """A way to run a command (argv) that sees `folder` on a read-only file system: a
    read-only bind mount in a private mount namespace; None where that is not possible
    here."""
    probe = folder / "probe"
    for prefix in (["unshare", "-m"], ["unshare", "-Urm"]):
        try:
            proc = subprocess.run(
                [*prefix, "sh", "-c", MOUNT, str(folder), "sh", "-c", f": > {probe}"],
                capture_output=True,
                timeout=30,
            )
        except (OSError, subprocess.TimeoutExpired):
            continue
        if proc.returncode != 0 and b"Read-only file system" in proc.stderr:
            return lambda argv, prefix=prefix: subprocess.run(
                [*prefix, "sh", "-c", MOUNT, str(folder), *argv],
                capture_output=True,
                text=True,
                timeout=120,
            )
    return None
