"""Decode image files for the CLI (the reader itself never touches files).

Two guards stand between a file and the memory it could take. OpenCV's own limit
(``zonkcam.MAX_DECODE_PIXELS``, set before cv2 is imported) refuses any decode that
would put out more pixels, on the header the decoder itself reads. Before that, every
file is sized from its header here (every frame header a JPEG holds, every size tag a
TIFF holds, the worst of them counted) and what its decode would take estimated, with
the memory the process already holds: a file that would take the process over
``MAX_PROCESS_BYTES`` is refused without being decoded, and a large JPEG is decoded at
1/2, 1/4 or 1/8 size (a progressive JPEG holds all its coefficients at full size,
whatever the scale). Formats whose size is not read here are refused.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import struct
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import cv2
import numpy as np

from zonkcam import MAX_DECODE_PIXELS
from zonkcam.errors import ZonkcamError
from zonkcam.fileio import open_to_read
from zonkcam.vision import opencv


class ImageFileError(ZonkcamError):
    """A file that cannot be read as a whole image; the message says why."""


def _truncated(data: bytes) -> bool:
    if data[:3] == b"\xff\xd8\xff":  # JPEG: must end with EOI (allow trailing padding)
        return b"\xff\xd9" not in data[-4096:]
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return b"IEND" not in data[-64:]
    return False


MAX_PIXELS = 24_000_000
"""JPEGs larger than this are decoded at 1/2, 1/4 or 1/8 size (libjpeg's own scaling),
so that a 48 MP photo does not cost 150 MB+ of memory; dice stay far above pip size."""

MAX_PROCESS_BYTES = 250 * 2**20
"""The most memory the whole process may hold while it decodes a file: what it holds
when the decode starts (the file's bytes included) and the decode's estimate
(decode_cost) together."""

MIN_DECODE_BYTES = 64 * 2**20
"""What a decode may always take, however much the process already holds (a 10 MP
photo): a process over MAX_PROCESS_BYTES - MIN_DECODE_BYTES still reads frames."""

PROCESS_BYTES_UNKNOWN = 100 * 2**20
"""What the process is taken to hold where the system does not say (no /proc)."""

BYTES_PER_PIXEL = 6.25
"""What a decode takes per pixel it puts out (the BGR image and OpenCV's own copy of it;
WebP one more), measured with `python tests/tools/decode_memory.py`."""

MAX_FILE_BYTES = 128 * 2**20
"""The largest image file read (its bytes count towards MAX_PROCESS_BYTES too)."""

FORMATS = "JPEG, PNG, BMP, WebP, GIF, TIFF or PNM (PPM/PGM/PBM)"

_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}
_PROGRESSIVE = {0xC2, 0xC6, 0xCA, 0xCE}


_SOF_CANDIDATE = re.compile(rb"\xff[\xc0-\xcf]")


def jpeg_frame(data: bytes) -> tuple[int, int, float] | None:
    """(width, height, coefficients) from a JPEG's frame headers, or None: coefficients
    is how many DCT coefficients per pixel a progressive JPEG's decoder holds for the
    whole image at once, whatever the scale it is decoded at (1 per component sample:
    3 for 4:4:4 colour, 1.5 for 4:2:0, 1 for grey; 0 for a baseline JPEG, decoded a few
    rows at a time).

    Every well-formed frame header anywhere in the file counts, not only the one a walk
    of the segments finds first (a small one hidden in an APP segment, or behind bytes
    that the decoder skips and a walk does not, must not stand for the real one): the
    largest size and the most coefficients of them all are the file's."""
    found: list[tuple[int, int, float]] = []
    for match in _SOF_CANDIDATE.finditer(data):
        frame = _sof_at(data, match.start())
        if frame is not None:
            found.append(frame)
    if not found:
        return None
    w, h, _ = max(found, key=lambda f: f[0] * f[1])
    return w, h, max(f[2] for f in found)


def _sof_at(data: bytes, i: int) -> tuple[int, int, float] | None:
    """The frame header at data[i] (FF Cn) as (width, height, coefficients), or None if
    the bytes there are not one a decoder would take."""
    marker = data[i + 1]
    if marker not in _SOF or i + 10 > len(data):
        return None
    length = int.from_bytes(data[i + 2 : i + 4], "big")
    precision, n = data[i + 4], data[i + 9]
    h = int.from_bytes(data[i + 5 : i + 7], "big")
    w = int.from_bytes(data[i + 7 : i + 9], "big")
    if precision not in (8, 12, 16) or not 1 <= n <= 10 or length != 8 + 3 * n or not w or not h:
        return None
    factors = [(b >> 4, b & 15) for b in data[i + 11 : i + 11 + 3 * n : 3]]
    if len(factors) != n or not all(1 <= fh <= 4 and 1 <= fv <= 4 for fh, fv in factors):
        return None
    if marker not in _PROGRESSIVE:
        return w, h, 0.0
    hmax = max(f[0] for f in factors)
    vmax = max(f[1] for f in factors)
    samples = sum(fh * fv for fh, fv in factors) / (hmax * vmax)
    return w, h, max(samples, 1.0)


def jpeg_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from a JPEG's frame header, or None."""
    frame = jpeg_frame(data)
    return frame[:2] if frame else None


def decode_cost(kind: str, w: int, h: int, factor: int = 1, coefficients: float = 0.0) -> float:
    """Bytes a decode of a `kind` image of w x h at 1/`factor` takes (estimated): the
    image put out, and a progressive JPEG's coefficients (2 bytes each) at full size."""
    per_pixel = BYTES_PER_PIXEL + (kind == "WebP")
    return per_pixel * w * h / factor**2 + 2 * coefficients * w * h


def image_size(data: bytes) -> tuple[str, int, int] | None:
    """(format, width, height) from the header of a file in one of ``FORMATS``; None for
    any other file, or a header too short to say."""
    try:
        if data[:3] == b"\xff\xd8\xff":
            size = jpeg_size(data)
            return ("JPEG", *size) if size else None
        if data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR":
            return ("PNG", *struct.unpack(">II", data[16:24]))
        if data[:2] == b"BM":
            header = struct.unpack("<I", data[14:18])[0]
            if header == 12:  # OS/2 bitmap
                return ("BMP", *struct.unpack("<HH", data[18:22]))
            w, h = struct.unpack("<ii", data[18:26])
            return ("BMP", abs(w), abs(h))
        if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
            return _webp_size(data)
        if data[:6] in (b"GIF87a", b"GIF89a"):
            return ("GIF", *struct.unpack("<HH", data[6:10]))
        if data[:4] in (b"II*\x00", b"MM\x00*"):
            return _tiff_size(data)
        if data[:1] == b"P" and data[1:2] in b"123456" and data[1:2]:
            return _pnm_size(data)
    except struct.error:
        return None
    return None


def _webp_size(data: bytes) -> tuple[str, int, int] | None:
    chunk = data[12:16]
    if chunk == b"VP8 " and data[23:26] == b"\x9d\x01\x2a":
        w, h = struct.unpack("<HH", data[26:30])
        return "WebP", w & 0x3FFF, h & 0x3FFF
    if chunk == b"VP8L" and data[20:21] == b"\x2f":
        bits = int.from_bytes(data[21:25], "little")
        return "WebP", (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8X":
        w = int.from_bytes(data[24:27], "little") + 1
        h = int.from_bytes(data[27:30], "little") + 1
        return "WebP", w, h
    return None


def _tiff_size(data: bytes) -> tuple[str, int, int] | None:
    order = "<" if data[:2] == b"II" else ">"
    (ifd,) = struct.unpack(order + "I", data[4:8])
    (count,) = struct.unpack(order + "H", data[ifd : ifd + 2])
    size: dict[int, int] = {}
    for k in range(min(count, 1000)):
        entry = data[ifd + 2 + 12 * k : ifd + 14 + 12 * k]
        tag, kind = struct.unpack(order + "HH", entry[:4])
        if tag in (256, 257):  # a tag given twice: the larger counts (libtiff keeps one)
            fmt = order + ("H" if kind == 3 else "I")
            value = struct.unpack(fmt, entry[8 : 8 + struct.calcsize(fmt)])[0]
            size[tag] = max(size.get(tag, 0), value)
    if 256 in size and 257 in size:
        return "TIFF", size[256], size[257]
    return None


def _pnm_size(data: bytes) -> tuple[str, int, int] | None:
    numbers: list[int] = []
    for line in re.split(rb"[\r\n]", data[2:1024]):  # a comment ends at CR or LF
        for word in line.split(b"#", 1)[0].split():
            if not word.isdigit() or len(word) > 9:
                return None
            numbers.append(int(word))
            if len(numbers) == 2:
                return "PNM", numbers[0], numbers[1]
    return None


def process_bytes() -> int:
    """The memory this process holds now (its resident set, from /proc/self/statm), or
    PROCESS_BYTES_UNKNOWN where the system does not say."""
    try:
        with open("/proc/self/statm", "rb") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return PROCESS_BYTES_UNKNOWN


def decode_budget(data: bytes) -> int:
    """What a decode of `data` may take: MAX_PROCESS_BYTES less what the process holds
    now (the file's bytes in it), MIN_DECODE_BYTES at the least."""
    held = process_bytes()
    if held == PROCESS_BYTES_UNKNOWN:
        held += len(data)
    return max(MAX_PROCESS_BYTES - held, MIN_DECODE_BYTES)


def _decode_factor(data: bytes, max_pixels: int) -> int:
    """The reduction (1, 2, 4 or 8) this file is decoded at; ImageFileError for a file
    that is not one of ``FORMATS`` or is too large to decode within decode_budget."""
    found = image_size(data)
    if found is None:
        raise ImageFileError(f"not an image zonkcam reads (a {FORMATS} file)")
    kind, w, h = found
    frame = jpeg_frame(data) if kind == "JPEG" else None
    coefficients = frame[2] if frame else 0.0
    budget = decode_budget(data)

    def cost(factor: int) -> float:
        return decode_cost(kind, w, h, factor, coefficients)

    factor = 1
    if kind == "JPEG":
        while factor < 8 and (w * h / factor**2 > max_pixels or cost(factor) > budget):
            factor *= 2
    if w * h / factor**2 > MAX_DECODE_PIXELS or cost(factor) > budget:
        what = f"a {'progressive ' if coefficients else ''}{kind} of {w}x{h} ({w * h / 1e6:.0f} MP)"
        if w * h / factor**2 > MAX_DECODE_PIXELS and cost(factor) <= budget:
            over = f"over the {MAX_DECODE_PIXELS / 1e6:.0f} MP zonkcam decodes"
        else:
            over = (
                f"would take about {cost(factor) / 2**20:,.0f} MB to read, over the "
                f"{budget // 2**20} MB left of the {MAX_PROCESS_BYTES // 2**20} MB zonkcam "
                "allows itself"
            )
        raise ImageFileError(
            f"{what} {over}: save it smaller" + (" or as a baseline JPEG" if coefficients else "")
        )
    return factor


_OVER_THE_LIMIT = "CV_IO_MAX_IMAGE_PIXELS"
"""In OpenCV's error for a decode its own pixel limit refused."""


def decode_image(data: bytes, max_pixels: int = MAX_DECODE_PIXELS) -> tuple[np.ndarray, int]:
    """Image bytes -> (BGR uint8 image, f): a JPEG over ``max_pixels`` comes back at 1/f of
    its size; ImageFileError for anything that cannot be read."""
    if not data:
        raise ImageFileError("empty file")
    if _truncated(data):
        raise ImageFileError("truncated image file")
    factor = _decode_factor(data, max_pixels)
    flags = {
        1: cv2.IMREAD_COLOR,
        2: cv2.IMREAD_REDUCED_COLOR_2,
        4: cv2.IMREAD_REDUCED_COLOR_4,
        8: cv2.IMREAD_REDUCED_COLOR_8,
    }[factor]
    over_the_limit = False
    with opencv.log_level(opencv.SILENT), _libjpeg_warnings() as warned:  # the reason is ours
        try:
            img = cv2.imdecode(np.frombuffer(data, np.uint8), flags)
        except cv2.error as exc:
            img, over_the_limit = None, _OVER_THE_LIMIT in str(exc)
    if over_the_limit:  # its header lied to image_size, not to the decoder
        raise ImageFileError(
            f"its decoder finds it larger than its header said, over the "
            f"{MAX_DECODE_PIXELS / 1e6:.0f} MP zonkcam decodes: save it smaller"
        )
    if img is None or img.size == 0:
        raise ImageFileError("not an image OpenCV can decode")
    if any(w.startswith(_JPEG_CUT_SHORT) for w in warned):
        # a JPEG cut short, with an end marker after the cut: libjpeg fills the rest grey
        raise ImageFileError("truncated image file (its JPEG data ends early)")
    return img, factor


_JPEG_CUT_SHORT = ("Corrupt JPEG data: premature end of data segment", "Premature end of JPEG file")
"""libjpeg's own warnings for scan data that stops before the image is whole."""


@contextmanager
def _libjpeg_warnings() -> Iterator[list[str]]:
    """The lines libjpeg writes to stderr inside the block (it says there, and only there,
    that a JPEG's data ended early); any other line written meanwhile goes on to stderr.
    Caught in a pipe that never blocks a writer (no file is written)."""
    lines: list[str] = []
    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, ValueError):  # no stderr to borrow
        yield lines
        return
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)  # a full pipe loses words, never hangs a decode
    os.dup2(write_end, 2)
    try:
        yield lines
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(write_end)
        chunks = []
        while chunk := os.read(read_end, 1 << 16):
            chunks.append(chunk)
        os.close(read_end)
        for line in b"".join(chunks).decode("utf-8", "replace").splitlines():
            if line.startswith(("Corrupt JPEG data", "Premature end of JPEG", "Warning")):
                lines.append(line)
            elif line:
                print(line, file=sys.stderr)


def load_image_scaled(path: str | Path, max_pixels: int = MAX_PIXELS) -> tuple[np.ndarray, int]:
    """Like `load_image`, but a JPEG over `max_pixels` comes back at 1/f of its size;
    returns (image, f): multiply boxes by f to get the file's pixels."""
    return decode_image(_read(path), max_pixels)


def load_image(path: str | Path) -> np.ndarray:
    """A file -> BGR uint8 image (EXIF orientation applied; 16-bit and grey converted)."""
    return decode_image(_read(path))[0]


def _read(path: str | Path) -> bytes:
    try:
        mode = os.stat(path).st_mode  # a pipe or a device is refused before it is opened
        if not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
            raise OSError(errno.EINVAL, "not a regular file (a pipe or a device)", str(path))
        with open_to_read(path) as f:
            data = f.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        why = {
            errno.ENOENT: "no such file",
            errno.EISDIR: "is a directory",
            errno.ELOOP: "a loop of symbolic links",
            errno.EACCES: "permission denied",
            errno.ENOTDIR: "no such file (a part of its path is not a folder)",
        }
        raise ImageFileError(why.get(exc.errno, f"cannot read: {exc.strerror or exc}")) from exc
    if len(data) > MAX_FILE_BYTES:
        raise ImageFileError(f"over {MAX_FILE_BYTES // 2**20} MB, too large for a photo")
    return data
