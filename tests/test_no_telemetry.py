"""zonkcam phones nobody and leaves nothing behind: onnxruntime's telemetry is off before
it loads, so reading a photo under a fresh home writes no file there."""

from __future__ import annotations

import os
import subprocess
import sys

import cv2
import numpy as np
import pytest

from zonkcam.sim import renderer


def test_reading_a_photo_under_a_fresh_home_writes_nothing_there(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    photo = tmp_path / "table.jpg"
    rng = np.random.default_rng(3)
    cv2.imwrite(str(photo), renderer.render(renderer.random_scene(rng, n_dice=4), rng).image)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "ORT_"))}
    env["HOME"] = str(home)
    done = subprocess.run(
        [sys.executable, "-m", "zonkcam", "read", str(photo)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "dice" in done.stdout
    assert sorted(p.relative_to(home).as_posix() for p in home.rglob("*")) == []


WRITES = ("O_WRONLY", "O_RDWR", "O_CREAT")


def _traced(argv: list[str], home, cwd, trace) -> subprocess.CompletedProcess:
    """Run zonkcam under a fresh home, from an empty folder, under strace where it is
    installed (sockets, and every file opened to write, created or renamed)."""
    import shutil

    env = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "ORT_", "ZONKCAM_"))}
    env |= {"HOME": str(home), "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    command = [sys.executable, "-m", "zonkcam", *argv]
    if shutil.which("strace"):
        calls = "socket,connect,open,openat,creat,mkdir,mkdirat,rename,renameat,renameat2"
        command = ["strace", "-f", "-qq", "-e", f"trace={calls}", "-o", str(trace), *command]
    return subprocess.run(command, env=env, cwd=cwd, capture_output=True, text=True, timeout=600)


@pytest.mark.slow
@pytest.mark.parametrize("what", ["read", "play", "watch"])
def test_the_table_writes_only_its_own_folders_and_opens_no_network_socket(tmp_path, what):
    """`read`, the headless demo game and `watch` under a fresh home: nothing written but
    zonkcam's XDG folders (and the --db given), no socket but AF_UNIX and AF_NETLINK."""
    import re

    home, cwd = tmp_path / "home", tmp_path / "cwd"
    home.mkdir()
    cwd.mkdir()
    db = tmp_path / "given" / "g.db"
    photo = tmp_path / "table.jpg"
    rng = np.random.default_rng(3)
    cv2.imwrite(str(photo), renderer.render(renderer.random_scene(rng, n_dice=4), rng).image)
    argv = {
        "read": ["read", str(photo)],
        "play": ["play", "--source", "demo", "--fast", "--games", "1", "--db", str(db)],
        "watch": ["watch", "--source", "demo", "--frames", "90"],
    }[what]
    trace = tmp_path / "trace"
    done = _traced(argv, home, cwd, trace)
    assert done.returncode == 0, done.stderr
    ours = [home / ".local" / "share" / "zonkcam", home / ".local" / "state" / "zonkcam"]
    ours += [home / ".cache" / "zonkcam", db.parent]
    allowed = [str(p) for p in ours]
    files = [p for root in (home, cwd) for p in root.rglob("*") if p.is_file()]
    assert all(any(str(f).startswith(a + "/") for a in allowed) for f in files), files
    if not trace.exists():
        pytest.skip("no strace here: sockets and files outside home not checked")
    lines = trace.read_text().splitlines()
    families = set(re.findall(r"socket\((AF_[A-Z0-9]+)", "\n".join(lines)))
    assert families <= {"AF_UNIX", "AF_NETLINK"}, families
    written = set()
    for line in lines:
        if " = -1 " in line or not re.search(r"\b(open|openat|creat|mkdir|mkdirat|rename)", line):
            continue
        if re.search(r"\b(open|openat)\(", line) and not any(w in line for w in WRITES):
            continue
        written.update(re.findall(r'"(/[^"]*)"', line))
    parents = {str(p) for a in ours for p in a.parents}
    strays = sorted(
        p
        for p in written
        if not p.startswith(("/dev/", "/proc/self/", str(tmp_path / "given")))
        and p not in parents
        and not any(p == a or p.startswith(a + "/") for a in allowed)
    )
    assert strays == [], strays
