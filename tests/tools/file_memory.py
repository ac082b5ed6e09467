"""What reading a calibration, mat geometry, rules or taught-dice file costs in memory.

Writes, in a temporary folder, an honest file of each kind and hostile ones (lists of
junk, 500,000 marker corners, a homography of booleans, a reference image that is a
decode bomb, TOML nested 100,000 deep, a zip bomb, an npz header that claims
(10^13, 64), a FIFO, a symlink to /dev/zero); reads each in a fresh process as `watch
--calibration`, `calibrate --geometry`, `play --rules` and the taught dice beside a
calibration do, and prints that whole process's peak memory (VmHWM, the modules the
commands import included) and what it answered: read, refused (one line) or a
traceback. A process is given at most CAP_MB of address space and TIMEOUT_S seconds.
With --json, one JSON object per file.

Run: python tests/tools/file_memory.py [--json]  (with --json, the slow memory test of
tests/test_hostile_input.py)
"""

from __future__ import annotations

import argparse
import base64
import io
import json
import os
import resource
import struct
import subprocess
import sys
import tempfile
import zipfile
import zlib
from pathlib import Path

import cv2
import numpy as np

CAP_MB = 4096
TIMEOUT_S = 20

CHILD = """
import sys, traceback
import zonkcam.cli, zonkcam.app.camera, zonkcam.table.teaching, zonkcam.commands.calibrate
from zonkcam.errors import UserError
from zonkcam.game.errors import RulesError
def peak():  # kB; this process's own high-water mark
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
kind, path = sys.argv[1], sys.argv[2]
try:
    if kind == "calibration":
        from zonkcam.mat.calibrate import load_calibration
        load_calibration(path)
    elif kind == "geometry":
        from zonkcam.mat.layout import load_geometry
        load_geometry(path)
    elif kind == "rules":
        from zonkcam.game.rules import load_rules
        load_rules(path)
    else:
        from zonkcam.mat.taught import load_taught
        load_taught(path)
    answer = "read"
except (UserError, RulesError) as exc:
    text = str(exc)
    answer = ("refused: " if "\\n" not in text else "refused in lines: ") + text
except BaseException as exc:
    answer = "traceback: %s: %s" % (type(exc).__name__, str(exc)[:100])
print("%d\\t%s" % (peak(), answer))
"""


def _calibration(**change) -> dict:
    from zonkcam.mat.layout import load_geometry

    geometry = load_geometry("a3")
    mat = np.full((round(geometry.height_mm), round(geometry.width_mm), 3), (31, 102, 48), np.uint8)
    mat += np.random.default_rng(0).integers(0, 40, mat.shape, dtype=np.uint8)  # camera noise
    png = cv2.imencode(".png", mat)[1].tobytes()
    return {
        "format": "zonkcam-calibration-1",
        "created": 1.0,
        "image_size": [640, 480],
        "homography": [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
        "marker_corners": {"0": [[0, 0], [1, 0], [1, 1], [0, 1]]},
        "reprojection_px": 0.2,
        "edge_width_px": 1.5,
        "geometry": geometry.to_dict(),
        "reference_png": base64.b64encode(png).decode(),
    } | change


def _jpeg_bomb() -> bytes:
    """A 12000x12000 JPEG (smooth: a few MB) whose APP1 segment holds a fake 16x16 frame
    header, for a header parser that takes the first SOF-like bytes it meets."""
    small = np.random.default_rng(1).integers(0, 255, (750, 750, 3), dtype=np.uint8)
    image = cv2.resize(small, (12000, 12000), interpolation=cv2.INTER_LINEAR)
    data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 50])[1].tobytes()
    fake = (
        b"\xff\xc0\x00\x11\x08"
        + struct.pack(">HH", 16, 16)
        + b"\x03\x01\x11\x00\x02\x11\x01\x03\x11\x01"
    )
    app1 = b"\xff\xe1" + struct.pack(">H", len(fake) + 2) + fake
    return data[:2] + app1 + data[2:]


def _png_said(w: int, h: int) -> bytes:
    """A PNG whose IHDR says w x h (a few rows of data; libpng would allocate the rows)."""
    raw = b"".join(b"\x00" + bytes(w * 3) for _ in range(4))

    def chunk(kind: bytes, body: bytes) -> bytes:
        crc = zlib.crc32(kind + body).to_bytes(4, "big")
        return len(body).to_bytes(4, "big") + kind + body + crc

    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def _npz(members: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members.items():
            z.writestr(name + ".npy", data)
    return buf.getvalue()


def _npy(array: np.ndarray) -> bytes:
    buf = io.BytesIO()
    np.save(buf, array, allow_pickle=False)
    return buf.getvalue()


def _taught(features: bytes | None = None) -> bytes:
    rng = np.random.default_rng(2)
    values = np.repeat(np.arange(1, 7, dtype=np.int8), 96)
    return _npz(
        {
            "format": _npy(np.array("zonkcam-taught-dice-1")),
            "model": _npy(np.array("0123456789abcdef")),
            "features": features
            or _npy(rng.standard_normal((len(values), 512)).astype(np.float16)),
            "values": _npy(values),
            "colours": _npy(np.array(["red"] * len(values))),
        }
    )


def _magic_header(header: dict) -> bytes:
    buf = io.BytesIO()
    np.lib.format.write_array_header_1_0(buf, header)
    return buf.getvalue()


def _zip_bomb() -> bytes:
    """A taught-dice file whose features member inflates to 3 GB of zeros."""
    n = 3 * 2**30 // (512 * 2)
    header = _magic_header({"descr": "<f2", "fortran_order": False, "shape": (n, 512)})
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name in ("format", "model", "values", "colours"):
            value = {
                "format": np.array("zonkcam-taught-dice-1"),
                "model": np.array("0123456789abcdef"),
                "values": np.ones(n, np.int8)[:1],
                "colours": np.array([""]),
            }[name]
            z.writestr(name + ".npy", _npy(value))
        with z.open("features.npy", "w", force_zip64=True) as f:
            f.write(header)
            zeros = bytes(2**24)
            for _ in range(n * 512 * 2 // len(zeros)):
                f.write(zeros)
    return buf.getvalue()


def files(folder: Path) -> list[tuple[str, str, Path]]:
    """(what, kind, path) of each file written."""
    made: list[tuple[str, str, Path]] = []

    def put(what: str, kind: str, name: str, data: bytes | str) -> None:
        path = folder / name
        if isinstance(data, str):
            data = data.encode()
        path.write_bytes(data)
        made.append((what, kind, path))

    put(
        "calibration, honest (a3, with its reference image)",
        "calibration",
        "c.json",
        json.dumps(_calibration(), indent=1),
    )
    junk = "[" + ",".join(["[]"] * (21 * 2**20)) + "]"
    put(
        "calibration with 63 MB of junk lists",
        "calibration",
        "junk.json",
        json.dumps(_calibration())[:-1] + ', "junk": ' + junk + "}",
    )
    junk = "[" + ",".join(["[]"] * (6 * 2**20)) + "]"
    put(
        "calibration with 18 MB of junk lists",
        "calibration",
        "junk18.json",
        json.dumps(_calibration())[:-1] + ', "junk": ' + junk + "}",
    )
    corners = {str(k): [[0, 0], [1, 0], [1, 1], [0, 1]] for k in range(100_000)}
    put(
        "calibration with 100,000 marker_corners",
        "calibration",
        "corners100k.json",
        json.dumps(_calibration(marker_corners=corners)),
    )
    corners = {str(k): [[0, 0], [1, 0], [1, 1], [0, 1]] for k in range(500_000)}
    put(
        "calibration with 500,000 marker_corners",
        "calibration",
        "corners.json",
        json.dumps(_calibration(marker_corners=corners)),
    )
    put(
        "calibration with a homography of booleans",
        "calibration",
        "bools.json",
        json.dumps(
            _calibration(
                homography=[[True, False, False], [False, True, False], [False, False, True]]
            )
        ),
    )
    put(
        "calibration whose reference image is a 12000x12000 JPEG said to be 16x16",
        "calibration",
        "bomb.json",
        json.dumps(_calibration(reference_png=base64.b64encode(_jpeg_bomb()).decode())),
    )
    put(
        "calibration whose reference image is a PNG said to be 16000x9000",
        "calibration",
        "png.json",
        json.dumps(_calibration(reference_png=base64.b64encode(_png_said(16000, 9000)).decode())),
    )
    put(
        "calibration whose marker_corners is a list",
        "calibration",
        "list.json",
        json.dumps(_calibration(marker_corners=[[0, 0]])),
    )

    geometry = (Path(__file__).parents[2] / "calibration" / "a3.toml").read_text()
    put("geometry, honest (a3)", "geometry", "a3.toml", geometry)
    put(
        "geometry nested 100,000 deep",
        "geometry",
        "deep.toml",
        "x = " + "[" * 100_000 + "]" * 100_000 + "\n",
    )
    put(
        "geometry nested 30,000 deep",
        "geometry",
        "deep30k.toml",
        "x = " + "[" * 30_000 + "]" * 30_000 + "\n",
    )
    put(
        "geometry with 60 KB of junk lists",
        "geometry",
        "junk60k.toml",
        "junk = [" + ",".join(["[]"] * 20_000) + "]\n" + geometry,
    )
    put(
        "geometry with 1 MB of junk lists",
        "geometry",
        "junk.toml",
        "junk = [" + ",".join(["[]"] * 330_000) + "]\n" + geometry,
    )

    put("rules, honest", "rules", "ours.toml", 'base = "classic-10000"\ntarget = 5000\n')
    put(
        "rules nested 100,000 deep",
        "rules",
        "deep-rules.toml",
        "x = " + "[" * 100_000 + "]" * 100_000 + "\n",
    )
    put(
        "rules with 1 MB of junk lists",
        "rules",
        "junk-rules.toml",
        "junk = [" + ",".join(["[]"] * 330_000) + "]\n",
    )

    put(
        "taught dice, honest (576 examples of 512 features)", "taught", "taught-dice.npz", _taught()
    )
    put("taught dice, a 3 MB zip bomb of 3 GB", "taught", "bomb.npz", _zip_bomb())
    put(
        "taught dice whose header claims (10^13, 64)",
        "taught",
        "huge.npz",
        _taught(
            _magic_header({"descr": "<f2", "fortran_order": False, "shape": (10**13, 64)})
            + bytes(1024)
        ),
    )
    link = folder / "zero.npz"
    link.symlink_to("/dev/zero")
    made.append(("taught dice, a symlink to /dev/zero", "taught", link))
    fifo = folder / "fifo.npz"
    os.mkfifo(fifo)
    made.append(("taught dice, a FIFO", "taught", fifo))
    fifo = folder / "fifo.json"
    os.mkfifo(fifo)
    made.append(("calibration, a FIFO", "calibration", fifo))
    return made


def _cap() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (CAP_MB * 2**20, CAP_MB * 2**20))


def measure(kind: str, path: Path) -> tuple[float, str]:
    """(MB peak of the whole process, its answer) for reading `path` as `kind`."""
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    try:
        proc = subprocess.run(
            [sys.executable, "-c", CHILD, kind, str(path)],
            capture_output=True,
            text=True,
            timeout=TIMEOUT_S,
            preexec_fn=_cap,
            env=env,
        )
    except subprocess.TimeoutExpired:
        return float("nan"), f"hung (no answer in {TIMEOUT_S} s)"
    if proc.returncode != 0 or "\t" not in proc.stdout:
        return float("nan"), f"died (rc {proc.returncode}): {proc.stderr.strip()[-200:]}"
    kb, answer = proc.stdout.rstrip("\n").split("\t", 1)
    return int(kb) / 1024, answer


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="one JSON object per file")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="zonkcam-file-memory-") as tmp:
        for what, kind, path in files(Path(tmp)):
            size = path.stat().st_size if path.is_file() and not path.is_symlink() else 0
            mb, answer = measure(kind, path)
            if args.json:
                row = {"file": what, "kind": kind, "bytes": size, "mb_peak": mb, "answer": answer}
                print(json.dumps(row), flush=True)
            else:
                print(f"{mb:7.0f} MB  {what} ({size / 2**20:.1f} MB): {answer[:160]}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
