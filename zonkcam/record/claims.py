"""Which process is which: a game has one writer, named by the boot, its pid and when it
started, so that a claim left by a process that is gone (killed, rebooted, or a pid used
again) is told from a live one; and which file is which (device and inode)."""

from __future__ import annotations

import os
from pathlib import Path


def file_identity(path: Path) -> tuple[int, int]:
    """(device, inode) of the file at `path` (OSError when there is none)."""
    st = os.stat(path)
    return st.st_dev, st.st_ino


def boot_id() -> str:
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    except OSError:
        return "?"


def start_ticks(pid: int) -> str | None:
    """When a process started (clock ticks since boot), None where it cannot be read."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rsplit(")", 1)[-1].split()[19]


def this_process() -> str:
    """This process, told apart from any other one, before or after a reboot."""
    return f"{boot_id()}/{os.getpid()}/{start_ticks(os.getpid()) or '?'}"


def alive(process: str, mine: str) -> bool:
    """Whether the process a claim names is still running."""
    try:
        boot, pid_text, start, _token = process.split("/")
        pid = int(pid_text)
    except ValueError:
        return False
    if boot != boot_id():
        return False  # claimed before a reboot or power cut
    if f"{boot}/{pid}/{start}/" == mine[: mine.rfind("/") + 1]:
        return True  # another log of this very process
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # another user's process
    now = start_ticks(pid)
    return now is None or now == start  # else the pid was reused, or the claim is forged
