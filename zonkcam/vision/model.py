"""Load the shipped ONNX dice models into onnxruntime sessions (CPU only)."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import onnxruntime as ort

from zonkcam.data import MODELS
from zonkcam.vision.confidence import IDENTITY, Calibration

MODEL_DIR = MODELS
"""The shipped models: models/ at the top of a checkout, zonkcam/models/ in a wheel."""
DETECTOR_FILE = "dice_detector.onnx"
VALUES_FILE = "dice_values.onnx"
CONFIDENCE_FILE = "dice_confidence.json"
"""The value net's calibration (zonkcam.vision.confidence); without it, the net's own
figure is the confidence."""
DEFAULT_THREADS = 1
"""One core for the reader; the camera and the screen keep the others."""


@dataclass(frozen=True)
class DiceModel:
    """The two inference sessions the reader runs."""

    detector: ort.InferenceSession
    """input 'image' (1, 3, H, W) float32 BGR 0-255, H and W multiples of 32 ->
    'peaks' (1, 1, H/4, W/4): die-centre heat kept at 3x3 maxima only,
    'geometry' (1, 4, H/4, W/4): dx, dy (centre offset in cells), w, h (box, input px)."""
    values: ort.InferenceSession
    """input 'crops' (N, 3, 64, 64) float32 BGR 0-255 -> 'probs' (N, 7):
    0 = not a die, 1-6 = face value."""
    threads: int
    calibration: Calibration = IDENTITY
    """How a kept die's clues become its confidence."""


def default_threads() -> int:
    env = os.environ.get("ZONKCAM_THREADS", "")
    return int(env) if env.isdigit() and int(env) > 0 else DEFAULT_THREADS


def open_session(path: Path, threads: int) -> ort.InferenceSession:
    """An onnxruntime CPU session of the model at `path` on `threads` threads."""
    ort.disable_telemetry_events()  # the releases that ignore ORT_DISABLE_TELEMETRY
    so = ort.SessionOptions()
    so.intra_op_num_threads = threads
    so.inter_op_num_threads = 1
    so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    so.log_severity_level = 3
    return ort.InferenceSession(str(path), so, providers=["CPUExecutionProvider"])


def load_calibration(path: Path) -> Calibration:
    """The calibration in `path` (IDENTITY when there is no such file); ValueError when
    it cannot be read or is not one."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return IDENTITY
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"{path}: cannot read it ({exc})") from None
    try:
        return Calibration.from_json(json.loads(text))
    except ValueError as exc:
        raise ValueError(f"{path}: not a dice confidence calibration ({exc})") from None


def load_model(model_dir: str | Path | None = None, threads: int | None = None) -> DiceModel:
    """Load both models and the value net's calibration from `model_dir` (default: the
    package's models); raises FileNotFoundError when either model file is missing and
    ValueError when the calibration file is damaged."""
    root = Path(model_dir) if model_dir is not None else MODEL_DIR
    n = threads if threads is not None else default_threads()
    paths = [root / DETECTOR_FILE, root / VALUES_FILE]
    for p in paths:
        if not p.is_file():
            raise FileNotFoundError(f"model file missing: {p}")
    calibration = load_calibration(root / CONFIDENCE_FILE)
    model = DiceModel(open_session(paths[0], n), open_session(paths[1], n), n, calibration)
    # the first run of a session is slow (allocations): pay it here, not on a frame
    model.detector.run(None, {"image": np.full((1, 3, 320, 320), 114, np.float32)})
    model.values.run(None, {"crops": np.full((2, 3, 64, 64), 114, np.float32)})
    return model
