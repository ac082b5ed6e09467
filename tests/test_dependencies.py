"""The versions the project promises are the versions it is tested on, and what differs
between the OpenCV releases it runs on is detected."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import cv2

from zonkcam.vision import opencv

ROOT = Path(__file__).resolve().parent.parent


def _pins(name: str) -> dict[str, str]:
    lines = (ROOT / "constraints" / name).read_text().splitlines()
    pins = [line.split("==") for line in lines if line and not line.startswith("#")]
    return {package: version for package, version in pins}


def test_every_lower_bound_is_pinned_for_the_pi_check():
    """`make check-pi` installs constraints/lowest.txt: each runtime dependency's lower bound
    in pyproject.toml, exactly, so every bound is one a test ran on."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    bounds = {}
    for requirement in project["dependencies"]:
        package, version = re.fullmatch(r"([\w-]+)>=([\w.]+)", requirement).groups()
        bounds[package] = version
    assert bounds == _pins("lowest.txt")


def test_the_lowest_bounds_are_within_the_pi_caps():
    pins = _pins("lowest.txt")
    assert int(pins["numpy"].split(".")[0]) < 2
    assert tuple(int(p) for p in pins["opencv-python-headless"].split(".")[:2]) < (4, 12)


def test_opencv_log_level_is_set_inside_and_restored_after():
    get = (
        cv2.utils.logging.getLogLevel
        if hasattr(getattr(cv2, "utils", None), "logging")
        else cv2.getLogLevel
    )
    before = get()
    with opencv.log_level(opencv.SILENT):
        assert get() == opencv.SILENT
    assert get() == before


def test_encoders_are_probed_not_assumed():
    assert opencv.can_encode(".png") and opencv.can_encode(".jpg")
    assert not opencv.can_encode(".nonsense")


def _recipe(target: str) -> list[str]:
    """The Makefile's recipe lines for ``target``."""
    lines = (ROOT / "Makefile").read_text().splitlines()
    at = lines.index(f"{target}:")
    recipe = []
    for line in lines[at + 1 :]:
        if not line.startswith("\t"):
            break
        recipe.append(line.strip())
    return recipe


def test_the_pi_gets_the_app_and_no_test_tools():
    """`make pi-install` installs zonkcam with the Pi's constraints, and none of the extras
    that bring pytest, ruff or hypothesis (nor torch) onto the Pi."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    tools = {
        name
        for name, wanted in extras.items()
        if any(re.match(r"(pytest|ruff|hypothesis|torch)\b", w) for w in wanted)
    }
    assert {"dev", "train"} <= tools
    installs = [line for line in _recipe("pi-install") if "pip install" in line]
    assert installs and all("-c constraints/pi-bookworm.txt" in line for line in installs)
    asked = set()
    for line in installs:
        for spec in re.findall(r"(?:^|\s)'?\.(?:\[([\w,]*)\])?'?(?=\s|$)", line):
            asked |= {e for e in spec.split(",") if e}
    assert any(re.search(r"-e '?\.", line) for line in installs)  # the app itself
    assert asked & tools == set(), asked
