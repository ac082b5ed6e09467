"""Writing into a folder the user named, and nowhere else.

The folder itself is the user's choice and is followed wherever it leads; what lies in it
is not: each file is written to a fresh temporary name in the folder and renamed onto its
own name, and a rename replaces a link planted under that name rather than writing
through it. A subfolder that is a link is refused. Every step goes through the folder's
open descriptor, so nothing written lands outside it. Each file is on the disk (fsync)
before its rename, and the folder's entries once it is closed (one sync for a report's
photos, not one each)."""

from __future__ import annotations

import errno
import os
import secrets
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

from zonkcam.fileio import sync_folder

CHUNK = 1 << 20


class OutFolder:
    """A folder open for writing files into (made, with its parents, when missing)."""

    def __init__(self, path: str | os.PathLike, *, _fd: int | None = None) -> None:
        self.path = Path(path)
        if _fd is None:
            self.path.mkdir(parents=True, exist_ok=True)
            _fd = os.open(self.path, os.O_RDONLY | os.O_DIRECTORY)
        self.fd = _fd
        self._renamed = False
        """A file was renamed into the folder since it was last put on the disk."""

    def __enter__(self) -> OutFolder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Put the folder's new entries on the disk (OSError where the disk refuses) and
        close it."""
        if self.fd >= 0:
            try:
                if self._renamed:
                    self._renamed = False
                    sync_folder(self.fd)
            finally:
                os.close(self.fd)
                self.fd = -1

    def sub(self, name: str) -> OutFolder:
        """The subfolder `name` (made when missing); OSError where it is a link or not a
        folder."""
        try:
            os.mkdir(name, dir_fd=self.fd)
        except FileExistsError:
            pass
        try:
            fd = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=self.fd)
        except OSError as exc:
            if exc.errno in (errno.ELOOP, errno.ENOTDIR) and os.path.islink(self.path / name):
                raise OSError(
                    errno.ELOOP, "a link there is not followed", str(self.path / name)
                ) from None
            raise
        return OutFolder(self.path / name, _fd=fd)

    def write(self, name: str, data: bytes) -> Path:
        """`data` as the file `name`, replacing whatever had that name (a link included,
        never what it points to)."""
        return self._written(name, lambda out: out.write(data))

    def copy_in(self, source: str | os.PathLike, name: str) -> Path:
        """A copy of the file `source` as `name`, with its times kept."""
        with open(source, "rb") as src:
            path = self._written(name, lambda out: shutil.copyfileobj(src, out, CHUNK))
            st = os.fstat(src.fileno())
        os.utime(name, ns=(st.st_atime_ns, st.st_mtime_ns), dir_fd=self.fd, follow_symlinks=False)
        return path

    def _written(self, name: str, fill: Callable[[BinaryIO], object]) -> Path:
        if not name or "/" in name or name in (".", ".."):
            raise ValueError(f"not a file name: {name!r}")
        tmp = f".{name}.{secrets.token_hex(6)}.tmp"
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
        fd = os.open(tmp, flags, 0o666, dir_fd=self.fd)
        try:
            with os.fdopen(fd, "wb") as out:
                fill(out)
                out.flush()
                os.fsync(out.fileno())
            os.replace(tmp, name, src_dir_fd=self.fd, dst_dir_fd=self.fd)
            self._renamed = True
        except BaseException:
            try:
                os.unlink(tmp, dir_fd=self.fd)
            except OSError:
                pass
            raise
        return self.path / name
