"""Standard input, output and error as every command uses them, guarded.

A command's output that cannot be written (a full disk, ``>/dev/full``, a closed
``>&-``, a device error) or input that cannot be read (a closed ``<&-``) is a
:class:`StreamError`: the CLI says so in one line on stderr and exits with status 1,
never a traceback (a reader that went away, ``| head``, ends it quietly). What cannot be
said on stderr is dropped: nothing is left to tell it to. A terminal that cannot encode
a character (``PYTHONIOENCODING=ascii``, a latin-1 terminal) shows it as an escape
(``\\xeb``). A standard stream closed when zonkcam starts keeps its descriptor taken by
``/dev/null``, so no file zonkcam opens (the game log) is ever written or read as one.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import sys
from collections.abc import Iterator
from typing import Any

from zonkcam.errors import ZonkcamError

OUTPUT = "standard output"
INPUT = "standard input"


class StreamError(ZonkcamError):
    """Standard output could not be written, or standard input read."""

    def __init__(self, stream: str, reason: str, *, quiet: bool = False) -> None:
        verb = "read" if stream == INPUT else "write"
        super().__init__(f"cannot {verb} {stream}: {reason}")
        self.stream = stream
        self.quiet = quiet
        """The reader went away (a closed pipe): nothing to say, nobody to say it to."""


def _failed(stream: str, exc: OSError) -> StreamError:
    if exc.errno == errno.EBADF:
        return StreamError(stream, "it is closed")
    return StreamError(stream, exc.strerror or str(exc), quiet=exc.errno == errno.EPIPE)


class _Guarded:
    """A standard stream whose failures are :class:`StreamError` (``say``) or dropped
    (stderr); everything else is the stream's own."""

    def __init__(self, stream: Any, name: str, *, say: bool = True) -> None:
        self._stream = stream
        self._name = name
        self._say = say

    def _do(self, method: str, *args: Any) -> Any:
        try:
            return getattr(self._stream, method)(*args)
        except OSError as exc:
            if self._say:
                raise _failed(self._name, exc) from None
            return None

    def write(self, text: str) -> int:
        written = self._do("write", text)
        return len(text) if written is None else written

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        self._do("flush")

    def read(self, *args: Any) -> Any:
        return self._do("read", *args)

    def readline(self, *args: Any) -> Any:
        return self._do("readline", *args)

    def readlines(self, *args: Any) -> Any:
        return self._do("readlines", *args)

    def __iter__(self) -> Iterator[Any]:
        return iter(self.readline, "")

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


class _Closed:
    """A standard stream that was closed when zonkcam started: using it is a
    :class:`StreamError` (stderr: nothing happens). Nothing is ever waiting in it, so
    flushing it does nothing, and it is no terminal."""

    encoding = "utf-8"
    errors = "strict"
    newlines = None
    line_buffering = False

    def __init__(self, name: str, *, say: bool = True) -> None:
        self._name = name
        self._say = say

    def _closed(self) -> StreamError:
        return StreamError(self._name, "it is closed")

    def write(self, text: str) -> int:
        if self._say:
            raise self._closed()
        return len(text)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        raise io.UnsupportedOperation(f"{self._name} is closed")

    def __iter__(self) -> Iterator[Any]:
        raise self._closed()

    def __getattr__(self, name: str) -> Any:  # read, readline, buffer, reconfigure, ...
        raise self._closed()


def keep_descriptors_taken() -> None:
    """Open ``/dev/null`` on each of descriptors 0, 1 and 2 that is closed, so that no
    file opened later gets one of them (and a stray write to 1 cannot land in it)."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            null = os.open(os.devnull, os.O_RDWR)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)


def escape_what_cannot_be_encoded() -> None:
    """A character the terminal's encoding lacks is written as an escape (``\\xeb``)."""
    for stream in (sys.__stdout__, sys.__stderr__):
        if isinstance(stream, io.TextIOWrapper) and stream.errors == "strict":
            with contextlib.suppress(OSError, ValueError):
                stream.reconfigure(errors="backslashreplace")


@contextlib.contextmanager
def guarded() -> Iterator[None]:
    """``sys.stdin``, ``sys.stdout`` and ``sys.stderr`` guarded while the block runs."""
    saved = sys.stdin, sys.stdout, sys.stderr
    sys.stdout = _Guarded(sys.stdout, OUTPUT) if sys.stdout is not None else _Closed(OUTPUT)
    sys.stdin = _Guarded(sys.stdin, INPUT) if sys.stdin is not None else _Closed(INPUT)
    sys.stderr = (
        _Guarded(sys.stderr, "standard error", say=False)
        if sys.stderr is not None
        else _Closed("standard error", say=False)
    )
    try:
        yield
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved


def silence_output() -> None:
    """After output failed: what is still waiting in stdout's buffer goes to /dev/null,
    so Python's own flush at exit does not fail again (the Python docs' note on
    SIGPIPE)."""
    stream = sys.__stdout__
    if stream is None:
        return
    with contextlib.suppress(OSError, ValueError):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, stream.fileno())
        os.close(null)
