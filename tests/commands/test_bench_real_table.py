"""scripts/bench_real_table.py: real dice cut out of the labelled photos, played on the demo
table with quick players, and its refusals of bad settings."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "datasets"


def _bench():
    spec = importlib.util.spec_from_file_location(
        "bench_real_table", ROOT / "scripts" / "bench_real_table.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, module)  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    "args, wanted",
    [
        (["--detail", "9"], "--detail takes a whole factor from 1 to 4"),
        (["--rest", "0"], "--rest takes seconds"),
        (["--slowdown", "-1"], "--slowdown takes a factor"),
    ],
)
def test_bad_settings_are_one_line(args, wanted, capsys, tmp_path):
    assert _bench().main(["--datasets", str(tmp_path), *args]) == 2
    err = capsys.readouterr().err
    assert wanted in err and "Traceback" not in err


def test_a_size_that_is_not_wxh_is_refused(capsys):
    with pytest.raises(SystemExit):
        _bench().main(["--size", "640by480"])
    assert "WIDTHxHEIGHT" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.shared
@pytest.mark.skipif(not (SHARED / "real-dice-dev").is_dir(), reason="no ../shared datasets")
def test_quick_players_on_the_pi_cameras_two_pictures(capsys):
    # the next hand 0.5 s after the dice stop; 640x480 frames, the dice read from a picture
    # twice as large: every throw is accounted for, and each report's time is given
    rc = _bench().main(
        ["--throws", "3", "--rest", "0.5", "--slowdown", "2.5"]
        + ["--size", "640x480", "--detail", "2", "--json"]
    )
    assert rc == 0
    res = json.loads(capsys.readouterr().out)
    assert res["size"] == [640, 480] and res["detail"] == 2 and res["rest"] == 0.5
    assert res["total"]["throws"] == 3
    assert len(res["report_ms"]) == res["throws_reported"] <= 3
    assert all(0 <= ms < 2000 for ms in res["report_ms"])
