"""Files in and out.

Opening a file to read without ever waiting forever: a FIFO (named pipe) or a device
where a file was expected (or a symbolic link to one) is refused before it is opened, and
a pipe that is welcome (`zonkcam replay <(...)`) is waited on for a bounded time.

Writing a file the user keeps (an export, the service's unit, the mat, the calibration
and its preview, the solved table, the taught dice) whole or not at all: :func:`write_whole`."""

from __future__ import annotations

import errno
import os
import select
import stat
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from zonkcam.errors import WriteFailed

if TYPE_CHECKING:
    import numpy as np

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


IMAGE_TYPES = (".png", ".jpg", ".jpeg")
"""The image files zonkcam writes (previews, annotated frames): what OpenCV encodes
everywhere."""
_TEMP_NAME_BYTES = 200
"""The most bytes of the file's own name kept in its temporary file's name (a name may
have 255)."""


def write_whole(path: str | os.PathLike, data: bytes | str) -> Path:
    """`data` (text as UTF-8) as the file `path`, whole or not at all.

    It is written into a temporary file of its own (``.NAME.<random>.tmp``, made new in
    the same folder), put on the disk (fsync) and renamed over `path`, and the folder's
    new entry is put on the disk too: a kill or a power cut at any moment leaves the old
    file or the new one, never a part. On a failure only that temporary file is removed,
    whatever was at `path` stays as it was, and :class:`WriteFailed` says why in one line
    ("cannot write FILE: No space left on device"). Nothing else is ever removed, and two
    writers of one file each write a whole one (the last rename wins). A link at `path` is
    followed: the file it names is replaced, as writing to it would. The file replaced
    keeps its permissions (and, written by root, its owner)."""
    shown = os.fspath(path)
    data = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    if not shown:
        raise WriteFailed(errno.ENOENT, "no file name given", "''")
    folder, name = os.path.split(os.path.realpath(shown))
    if not name or shown.endswith(os.sep):
        raise WriteFailed(errno.EISDIR, "is a folder, not a file name", shown)
    short = os.fsdecode(os.fsencode(name)[:_TEMP_NAME_BYTES])
    # os.urandom, not secrets: that module loads OpenSSL, megabytes of the reader's budget
    tmp = f".{short}.{os.urandom(6).hex()}.tmp"
    dir_fd = fd = None
    made = False
    try:
        dir_fd = os.open(folder or ".", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
        fd = os.open(tmp, flags, 0o666, dir_fd=dir_fd)
        made = True
        _keep_owner(fd, name, dir_fd)
        view = memoryview(data)
        while view:
            wrote = os.write(fd, view)
            if wrote <= 0:
                raise OSError(errno.EIO, "the disk took nothing")
            view = view[wrote:]
        os.fsync(fd)
        fd, closing = None, fd
        os.close(closing)  # a network disk may say only now that it failed
        os.replace(tmp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
        made = False
        sync_folder(dir_fd)
    except BaseException as exc:
        if fd is not None:
            os.close(fd)
        if made:
            try:
                os.unlink(tmp, dir_fd=dir_fd)
            except OSError:
                pass
        if isinstance(exc, OSError) and not isinstance(exc, WriteFailed):
            raise WriteFailed(exc.errno, exc.strerror or str(exc), shown) from None
        raise
    finally:
        if dir_fd is not None:
            os.close(dir_fd)
    return Path(shown)


def _keep_owner(fd: int, name: str, dir_fd: int) -> None:
    """The new file takes the permissions (and, for root, the owner) of the one it replaces."""
    try:
        st = os.stat(name, dir_fd=dir_fd)
    except OSError:
        return  # a new file: the usual permissions
    if not stat.S_ISREG(st.st_mode):
        return
    os.fchmod(fd, stat.S_IMODE(st.st_mode) & 0o777)
    if os.geteuid() == 0 and (st.st_uid, st.st_gid) != (0, 0):
        os.fchown(fd, st.st_uid, st.st_gid)


def sync_folder(dir_fd: int) -> None:
    """The folder's entries on the disk (a file system that cannot sync a folder is left
    to itself)."""
    try:
        os.fsync(dir_fd)
    except OSError as exc:
        if exc.errno not in (errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP):
            raise


def image_target_problem(path: str | os.PathLike) -> str | None:
    """Why `path` cannot take an image zonkcam writes (a folder, no extension, a type
    OpenCV may not write), in words; None where it can. Checked before anything is
    written."""
    text = os.fspath(path)
    if not text:
        return "no file name given"
    if text.endswith(os.sep) or os.path.isdir(text):
        return "is a folder: give a file name ending in .png or .jpg"
    suffix = os.path.splitext(text)[1].lower()
    if suffix in IMAGE_TYPES:
        return None
    if not suffix:
        return "has no extension: give a file name ending in .png or .jpg"
    return f"a {suffix} image cannot be written: give a file name ending in .png or .jpg"


def write_image(path: str | os.PathLike, image: np.ndarray) -> Path:
    """`image` (BGR) as a PNG or JPEG file at `path`, as :func:`write_whole` writes;
    WriteFailed where it cannot be (see :func:`image_target_problem`)."""
    import cv2

    problem = image_target_problem(path)
    if problem:
        raise WriteFailed(errno.EINVAL, problem, os.fspath(path))
    ok, encoded = cv2.imencode(os.path.splitext(os.fspath(path))[1].lower(), image)
    if not ok:
        raise WriteFailed(errno.EINVAL, "the image could not be encoded", os.fspath(path))
    return write_whole(path, encoded.tobytes())
