"""Where images are written (`calibrate --preview`, `watch --annotate`, `read --annotate`):
a name OpenCV cannot write is refused before anything is written, and a folder that
cannot be written is a failure said in one line (exit 1), never "wrote" or "check it in"."""

from __future__ import annotations

import errno
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

from tests.mounts import read_only_mount
from zonkcam.cli import main


def _one_line(capsys, code: int, *argv: str) -> tuple[str, str]:
    assert main(list(argv)) == code
    out, err = capsys.readouterr()
    assert len(err.strip().splitlines()) == 1, err
    return out, err


@pytest.mark.parametrize(
    ("preview", "why"),
    [
        ("p.xyz", "a .xyz image cannot be written"),
        ("p", "has no extension"),
        ("adir/", "is a folder"),
        ("existing", "is a folder"),
    ],
)
def test_calibrate_refuses_a_preview_it_cannot_write_before_writing_anything(
    tmp_path, capsys, monkeypatch, preview, why
):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "existing").mkdir()
    out = tmp_path / "cal" / "calibration.json"
    argv = ["calibrate", "--source", "demo", "--warmup", "1", "--out", str(out)]
    _, err = _one_line(capsys, 2, *argv, "--preview", preview)
    assert f"--preview {preview}: {why}" in err and ".png or .jpg" in err, err
    assert not (tmp_path / "cal").exists()  # no calibration written either
    assert sorted(p.name for p in tmp_path.iterdir()) == ["existing"]
    assert list((tmp_path / "existing").iterdir()) == []


@pytest.mark.parametrize("name", ["p.png", "p.JPG", "p.jpeg"])
def test_calibrate_writes_a_png_or_jpeg_preview(tmp_path, capsys, name):
    import cv2

    out = tmp_path / "calibration.json"
    preview = tmp_path / "shots" / name
    argv = ["calibrate", "--source", "demo", "--warmup", "1", "--out", str(out)]
    assert main([*argv, "--preview", str(preview)]) == 0
    assert f"check the zones in {preview}" in capsys.readouterr().out
    assert cv2.imread(str(preview)) is not None and out.exists()
    assert sorted(p.name for p in preview.parent.iterdir()) == [name]


def _folder_refuses_new_files(monkeypatch, folder: Path) -> None:
    """`folder` as a folder this user may not write (root ignores permissions, so the
    refusal is faked where files are made)."""
    real = os.open

    def fake_open(path, flags, mode=0o777, *, dir_fd=None):
        where = Path(os.readlink(f"/proc/self/fd/{dir_fd}")) if dir_fd is not None else None
        target = (where / path) if where is not None else Path(os.path.abspath(path))
        if flags & os.O_CREAT and target.parent == folder:
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))
        return real(path, flags, mode, dir_fd=dir_fd)

    monkeypatch.setattr(os, "open", fake_open)


def test_calibrate_with_a_preview_folder_it_cannot_write_says_so(tmp_path, capsys, monkeypatch):
    shut = tmp_path / "shut"
    shut.mkdir()
    _folder_refuses_new_files(monkeypatch, shut)
    out = tmp_path / "calibration.json"
    argv = ["calibrate", "--source", "demo", "--warmup", "1", "--out", str(out)]
    stdout, err = _one_line(capsys, 1, *argv, "--preview", str(shut / "p.png"))
    assert f"cannot write {shut / 'p.png'}: Permission denied" in err, err
    assert f"the calibration is saved in {out}" in err
    assert "check the zones" not in stdout and "saved" not in stdout
    assert out.exists() and list(shut.iterdir()) == []


def test_watch_annotate_into_a_folder_it_cannot_write_stops_and_says_so(
    tmp_path, capsys, monkeypatch
):
    shut = tmp_path / "shut"
    shut.mkdir()
    _folder_refuses_new_files(monkeypatch, shut)
    argv = ["watch", "--source", "demo", "--frames", "60", "--annotate", str(shut)]
    assert main(argv) == 1
    out, err = capsys.readouterr()
    assert "Permission denied" in err and f"cannot write {shut}/frame-" in err, err
    assert err.strip().splitlines()[-1].startswith("zonkcam watch: --annotate: cannot write")
    assert '"event": "stopped"' in out.strip().splitlines()[-1]
    assert list(shut.iterdir()) == []


def test_read_annotate_into_a_folder_it_cannot_write_says_so(tmp_path, capsys, monkeypatch):
    import cv2
    import numpy as np

    photo = tmp_path / "roll.png"
    cv2.imwrite(str(photo), np.full((480, 640, 3), 120, np.uint8))  # a bare table
    shut = tmp_path / "shut"
    shut.mkdir()
    _folder_refuses_new_files(monkeypatch, shut)
    assert main(["read", str(photo), "--annotate", str(shut), "--json"]) == 1
    out, _ = capsys.readouterr()
    assert "Permission denied" in out and "cannot write" in out
    assert list(shut.iterdir()) == []


def test_a_preview_and_annotations_on_a_read_only_card_are_failures_said_in_one_line(tmp_path):
    folder = Path(tempfile.mkdtemp(prefix="zonkcam-ro-"))
    try:
        run = read_only_mount(folder)
        if run is None:
            pytest.skip("no read-only bind mount here (needs unshare and mount)")
        zonkcam = [sys.executable, "-m", "zonkcam"]
        out = tmp_path / "calibration.json"
        proc = run(
            [
                *zonkcam,
                *["calibrate", "--source", "demo", "--warmup", "1", "--out", str(out)],
                *["--preview", str(folder / "p.png")],
            ]
        )
        assert proc.returncode == 1, proc.stderr
        assert "Read-only file system" in proc.stderr and "Traceback" not in proc.stderr
        assert len(proc.stderr.strip().splitlines()) == 1 and "check the zones" not in proc.stdout
        proc = run(
            [*zonkcam, "watch", "--source", "demo", "--frames", "60", "--annotate", str(folder)]
        )
        assert proc.returncode == 1, proc.stderr
        assert "zonkcam watch: --annotate: cannot write" in proc.stderr
        assert "Read-only file system" in proc.stderr and "Traceback" not in proc.stderr
        assert list(folder.iterdir()) == []
    finally:
        shutil.rmtree(folder, ignore_errors=True)
