#!/usr/bin/env bash
# Lab check: the wheel, installed in a fresh venv, reads a photo and plays the demo game.
# Build the wheel, install it into a fresh venv and run it from outside the checkout:
# `zonkcam read` on a rendered photo and `zonkcam play --source demo` headless. Proves the
# wheel carries what the app needs (models, calibration, the systemd unit).
#   scripts/wheel_check.sh [PYTHON]      (make wheel-check; CI runs it)
set -euo pipefail
PY=${1:-python3}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
"$PY" -m pip wheel --quiet --no-deps -w "$TMP/dist" "$ROOT"
python3 -m venv "$TMP/venv"
"$TMP/venv/bin/python" -m pip install --quiet "$TMP"/dist/zonkcam-*.whl
cd "$TMP"
V="$TMP/venv/bin"
"$V/python" - <<'PY'
import zonkcam, sys
from pathlib import Path
assert "site-packages" in zonkcam.__file__, zonkcam.__file__
from zonkcam.data import MODELS, LAYOUTS, SYSTEMD
for folder in (MODELS, LAYOUTS, SYSTEMD):
    assert folder.is_dir() and "site-packages" in str(folder), folder
import cv2, numpy as np
from zonkcam.sim import renderer
scene = renderer.Scene(dice=tuple(renderer.DieSpec(value=v, color="white", x_mm=x, y_mm=0)
                                  for v, x in ((3, -30), (4, 10), (6, 50))),
                       mat=renderer.Mat("felt", (60, 110, 40)))
cv2.imwrite("photo.png", renderer.render(scene, np.random.default_rng(0)).image)
PY
"$V/zonkcam" read --json photo.png | tee read.json
"$V/python" -c 'import json; d = json.load(open("read.json"))["dice"]
assert sorted(x["value"] for x in d) == [3, 4, 6], d'
export SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy
"$V/zonkcam" play --source demo --fast --db "$TMP/games.sqlite3" --screenshots "$TMP/shots" > play.txt
tail -3 play.txt
ls "$TMP/shots" | grep -q png
echo "wheel check: ok"
