"""What reading an image or video file costs in memory, at the limits and past them.

Writes, in a temporary folder, files of each format zonkcam reads at about the largest
size it decodes (zonkcam.MAX_DECODE_PIXELS), and hostile ones past it (a header that
promises 40000x40000, a progressive JPEG that would hold 1.6 billion coefficients, a
video of 12000x12000 frames, headers that lie to zonkcam's own reading of them: a
12000x12000 JPEG with a 16x16 frame header in an APP1 segment, a TIFF giving its size
twice, a PGM whose comment ends in CR); reads each in a fresh process that has loaded
the dice models first, as `zonkcam read` and `watch` have, and prints that whole
process's peak memory (VmHWM) and what it answered. With --json, one JSON object per
file.

Run: python tests/tools/decode_memory.py [--json]  (with --json, the slow memory test of
tests/vision/test_vision_imageio.py)
"""

from __future__ import annotations

import argparse
import json
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np

CHILD = """
import sys
from zonkcam.errors import UserError
from zonkcam.sources import open_source
from zonkcam.vision.imageio import ImageFileError, load_image
from zonkcam.commands.read import load_model_or_fail
model = load_model_or_fail(None, None)
def peak():  # kB; the process's own high-water mark (ru_maxrss counts the parent's too)
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
try:
    if sys.argv[1] == "video":
        source = open_source(sys.argv[2])
        shape = [source.read().image.shape for _ in range(2)][-1]
    else:
        shape = load_image(sys.argv[2]).shape
    answer = "read %dx%d" % (shape[1], shape[0])
except (ImageFileError, UserError) as exc:
    answer = "refused: %s" % exc
print("%d\\t%s" % (peak(), answer))
"""


def _picture(w: int, h: int, seed: int = 0) -> np.ndarray:
    """A photo-like image (smooth, with some detail) of w x h."""
    rng = np.random.default_rng(seed)
    small = rng.integers(0, 255, (h // 16 + 1, w // 16 + 1, 3), dtype=np.uint8)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def _encode(ext: str, image: np.ndarray, params: tuple = ()) -> bytes:
    ok, buf = cv2.imencode(ext, image, list(params))
    if not ok:
        raise SystemExit(f"this OpenCV cannot write {ext}")
    return buf.tobytes()


def _with_jpeg_size(data: bytes, w: int, h: int) -> bytes:
    """The JPEG with its frame header saying w x h (the scan left as it is)."""
    out = bytearray(data)
    i = 2
    while i + 9 < len(out):
        marker = out[i + 1]
        if out[i] == 0xFF and 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            out[i + 5 : i + 9] = struct.pack(">HH", h, w)
            return bytes(out)
        i += 2 + int.from_bytes(out[i + 2 : i + 4], "big")
    raise ValueError("no frame header")


def _with_png_size(data: bytes, w: int, h: int) -> bytes:
    return data[:16] + struct.pack(">II", w, h) + data[24:]  # (its CRC no longer fits)


def _tiff_twice(image: np.ndarray) -> bytes:
    """A TIFF whose directory says 30000x30000 first (libtiff keeps it), 16x16 after."""
    data = bytearray(_encode(".tif", image))
    (ifd,) = struct.unpack("<I", data[4:8])
    (count,) = struct.unpack("<H", data[ifd : ifd + 2])
    entries = [bytes(data[ifd + 2 + 12 * k : ifd + 14 + 12 * k]) for k in range(count)]
    kept = [e for e in entries if struct.unpack("<H", e[:2])[0] not in (256, 257)]
    sizes = [struct.pack("<HHII", tag, 4, 1, v) for v in (30000, 16) for tag in (256, 257)]
    new = sorted(kept + sizes, key=lambda e: struct.unpack("<H", e[:2])[0])
    at = len(data)
    data += struct.pack("<H", len(new)) + b"".join(new) + b"\x00\x00\x00\x00"
    data[4:8] = struct.pack("<I", at)
    return bytes(data)


def files(folder: Path) -> list[tuple[str, str, Path]]:
    """(what, kind: image or video, path) of each file written."""
    progressive = (cv2.IMWRITE_JPEG_PROGRESSIVE, 1)
    full = (cv2.IMWRITE_JPEG_SAMPLING_FACTOR, cv2.IMWRITE_JPEG_SAMPLING_FACTOR_444)
    made: list[tuple[str, str, bytes]] = [
        ("PNG 3900x3900", "image", _encode(".png", _picture(3900, 3900))),
        ("PNG 5500x5500, past the limit", "image", _encode(".png", _picture(5500, 5500))),
        (
            "16-bit PNG 3200x3200",
            "image",
            _encode(".png", _picture(3200, 3200).astype(np.uint16) * 257),
        ),
        ("TIFF 3900x3900", "image", _encode(".tiff", _picture(3900, 3900))),
        ("WebP 3600x3600", "image", _encode(".webp", _picture(3600, 3600))),
        ("BMP 3900x3900", "image", _encode(".bmp", _picture(3900, 3900))),
        ("JPEG 10000x8000", "image", _encode(".jpg", _picture(10000, 8000))),
        (
            "progressive 4:4:4 JPEG 5000x4000",
            "image",
            _encode(".jpg", _picture(5000, 4000), progressive + full),
        ),
        (
            "progressive grey JPEG 9000x9000",
            "image",
            _encode(".jpg", _picture(9000, 9000)[..., 0], progressive),
        ),
    ]
    small = _picture(640, 480)
    made += [
        (
            "progressive grey JPEG said to be 40000x40000",
            "image",
            _with_jpeg_size(_encode(".jpg", small[..., 0], progressive), 40000, 40000),
        ),
        (
            "progressive 4:4:4 JPEG said to be 10000x10000",
            "image",
            _with_jpeg_size(_encode(".jpg", small, progressive + full), 10000, 10000),
        ),
        (
            "JPEG said to be 65000x65000",
            "image",
            _with_jpeg_size(_encode(".jpg", small), 65000, 65000),
        ),
        (
            "PNG said to be 100000x100000",
            "image",
            _with_png_size(_encode(".png", small), 100000, 100000),
        ),
    ]
    big = _encode(".jpg", np.full((12000, 12000), 90, np.uint8))
    fake_sof = b"\xff\xc0\x00\x11\x08" + struct.pack(">HH", 16, 16) + b"\x03" + b"\x01\x11\x00" * 3
    app1 = b"\xff\xe1" + struct.pack(">H", 2 + len(fake_sof)) + fake_sof
    made += [
        (
            "JPEG 12000x12000 said to be 16x16 in an APP1",
            "image",
            big[:2] + b"\xff\x00\x00\x06" + app1 + big[2:],
        ),
        ("TIFF 30000x30000 said to be 16x16 by a second tag", "image", _tiff_twice(small)),
        (
            "PGM 30000x30000 said behind a comment ending in CR",
            "image",
            b"P5\n# c\r30000 30000\n255\n" + bytes(64 * 1024),
        ),
    ]
    out = []
    for k, (what, kind, data) in enumerate(made):
        ext = "jpg" if "JPEG" in what else what.split()[-1 if "16-bit" in what else 0].lower()
        path = folder / f"{k:02d}.{'png' if '16-bit' in what else ext}"
        path.write_bytes(data)
        out.append((what, kind, path))
    for w, h, name in (
        (4096, 3072, "MJPEG video of 4096x3072 frames"),
        (12000, 12000, "MJPEG video of 12000x12000 frames"),
    ):
        path = folder / f"{w}x{h}.avi"
        writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 5, (w, h))
        frame = _picture(w, h) if w * h <= 4096 * 3072 else np.full((h, w, 3), 90, np.uint8)
        for _ in range(3):
            writer.write(frame)
        writer.release()
        out.append((name, "video", path))
    return out


def measure(kind: str, path: Path) -> tuple[float, str]:
    """(the process's peak memory in MB, what the reader answered) in a fresh process."""
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, kind, str(path)], capture_output=True, text=True, timeout=300
    )
    if proc.returncode != 0:
        return float("nan"), f"crashed: {proc.stderr.strip().splitlines()[-1:]}"
    grown, answer = proc.stdout.strip().split("\t", 1)
    return int(grown) / 1024, answer


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="one JSON object per file")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="zonkcam-decode-") as tmp:
        for what, kind, path in files(Path(tmp)):
            mb, answer = measure(kind, path)
            size = path.stat().st_size / 2**20
            if args.json:
                print(
                    json.dumps(
                        {
                            "file": what,
                            "mb_file": round(size, 1),
                            "mb_peak": round(mb),
                            "answer": answer,
                        }
                    )
                )
            else:
                print(f"{what:<52} {size:6.1f} MB file  {mb:4.0f} MB peak  {answer}")


if __name__ == "__main__":
    main()
