"""An error zonkcam raises on purpose reaches the user as one line, whatever its family."""

from __future__ import annotations

import json

from zonkcam.cli import main
from zonkcam.train.dataset import is_validation


def test_a_damaged_photo_in_a_labelled_set_is_one_line_not_a_traceback(
    capsys, tmp_path, monkeypatch
):
    """`zonkcam bench` reads every validation photo of the labelled sets; one that is not
    an image (zonkcam.vision.imageio.ImageFileError) stops it with one line, status 2."""
    group = next(g for g in (f"set:{k}" for k in range(1000)) if is_validation(g))
    (tmp_path / "broken.jpg").write_bytes(b"\xff\xd8\xff\xe0 not a photo at all")
    record = {"image": "broken.jpg", "group": group, "dice": [{"value": 3, "bbox": [1, 1, 9, 9]}]}
    (tmp_path / "labels.jsonl").write_text(json.dumps(record) + "\n")
    monkeypatch.setattr("zonkcam.commands.train.default_data", lambda: [tmp_path])
    assert main(["bench", "--photos", "1", "--frames", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("zonkcam bench: truncated image file")
