"""Opening a file to read without ever waiting forever: a FIFO (named pipe) or a device
where a file was expected (or a symbolic link to one) is refused before it is opened, and
a pipe that is welcome (`zonkcam replay <(...)`) is waited on for a bounded time."""

from __future__ import annotations

import errno
import os
import select
import stat
from typing import BinaryIO

PIPE_WAIT_S = 30.0
"""How long a pipe given as a file is waited on for its first bytes."""


def open_to_read(path: str | os.PathLike, *, pipes: bool = False) -> BinaryIO:
    """`path` opened to read, binary. OSError as open() raises it, and OSError(EINVAL,
    "not a regular file (a pipe or a device)") for anything but a regular file; with
    `pipes`, a pipe is read once it has something to say, OSError(ETIMEDOUT) when nothing
    came in PIPE_WAIT_S. Anything but a regular file (or a welcome pipe) is refused from
    its stat, before it is opened (opening a device can itself do something); what is
    opened is checked again, in case the path changed in between."""
    mode = os.stat(path).st_mode
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(errno.EISDIR, "is a directory", str(path))
    if not stat.S_ISREG(mode) and not (pipes and stat.S_ISFIFO(mode)):
        raise OSError(errno.EINVAL, "not a regular file (a pipe or a device)", str(path))
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # never blocks, even on a FIFO
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, "is a directory", str(path))
        if not stat.S_ISREG(mode):
            if not (pipes and stat.S_ISFIFO(mode)):
                raise OSError(errno.EINVAL, "not a regular file (a pipe or a device)", str(path))
            ready, _, _ = select.select([fd], [], [], PIPE_WAIT_S)
            if not ready:
                raise OSError(
                    errno.ETIMEDOUT, f"nothing came through the pipe in {PIPE_WAIT_S:g} s"
                )
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
