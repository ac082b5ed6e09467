"""Load the shipped ONNX dice models into onnxruntime sessions (CPU only)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import onnxruntime as ort

from zonkcam.data import MODELS

MODEL_DIR = MODELS
"""zonkcam/models/ inside the installed package."""
DETECTOR_FILE = "dice_detector.onnx"
VALUES_FILE = "dice_values.onnx"
SECOND_OPINION_FILES = ("dice_values_2.onnx", "dice_values_3.onnx", "dice_values_4.onnx")
"""More value nets, optional: the reader asks them about the candidates the first is
unsure of (see zonkcam.vision.reader.ask_second_opinions)."""
UPRIGHT_KEY = "zonkcam.upright"
"""A value net's ONNX metadata: "1" when it was trained on crops never turned (`zonkcam
train --upright`), so it tells which face of an oblique die is on top by which lies
uppermost in the crop; the reader then reads its values from upright views only
(reader.merge_views). A net without it was trained on turned crops."""
DEFAULT_THREADS = 1
"""One core for the reader; the camera and the screen keep the others."""


@dataclass(frozen=True)
class DiceModel:
    """The inference sessions the reader needs: the detector, the value net, and any
    second opinions."""

    detector: ort.InferenceSession
    """input 'image' (1, 3, H, W) float32 BGR 0-255, H and W multiples of 32 (trained on
    320 x 320) -> 'peaks' (1, 1, H/4, W/4): die-centre heat kept at 3x3 maxima only,
    'geometry' (1, 4, H/4, W/4): dx, dy (centre offset in cells), w, h (box, input px)."""
    values: ort.InferenceSession | None
    """None only for a detector loaded alone (`load_model(detector_only=True)`); input
    'crops' (N, 3, 64, 64) float32 BGR 0-255 -> 'probs' (N, 7):
    0 = not a die, 1-6 = face value."""
    threads: int
    second_opinions: tuple[ort.InferenceSession, ...] = ()
    """Value nets like `values` (SECOND_OPINION_FILES found beside it), asked only about
    the candidates `values` is unsure of."""


def reads_upright(net: ort.InferenceSession) -> bool:
    """Whether the value net `net` was trained upright (UPRIGHT_KEY). A stand-in
    without ONNX metadata (the tests' fakes) reads as trained on turned crops."""
    meta = getattr(net, "get_modelmeta", None)
    return meta is not None and meta().custom_metadata_map.get(UPRIGHT_KEY) == "1"


def default_threads() -> int:
    env = os.environ.get("ZONKCAM_THREADS", "")
    return int(env) if env.isdigit() and int(env) > 0 else DEFAULT_THREADS


def _session(path: Path, threads: int) -> ort.InferenceSession:
    so = ort.SessionOptions()
    so.intra_op_num_threads = threads
    so.inter_op_num_threads = 1
    so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    so.log_severity_level = 3
    return ort.InferenceSession(str(path), so, providers=["CPUExecutionProvider"])


def load_model(
    model_dir: str | Path | None = None,
    threads: int | None = None,
    detector_only: bool = False,
    second_opinions: bool = True,
) -> DiceModel:
    """Load both models from `model_dir` (default: the package's models) with the second
    opinions found there (unless `second_opinions` is False: the table never asks them),
    or only the detector (training's miner needs no more); raises FileNotFoundError when
    the detector or the value net is missing."""
    root = Path(model_dir) if model_dir is not None else MODEL_DIR
    n = threads if threads is not None else default_threads()
    paths = [root / DETECTOR_FILE] + ([] if detector_only else [root / VALUES_FILE])
    for p in paths:
        if not p.is_file():
            raise FileNotFoundError(f"model file missing: {p}")
    sessions = [_session(p, n) for p in paths]
    more = [root / f for f in SECOND_OPINION_FILES] if second_opinions and not detector_only else []
    opinions = tuple(_session(p, n) for p in more if p.is_file())
    model = DiceModel(sessions[0], sessions[1] if len(sessions) > 1 else None, n, opinions)
    # the first run of a session is slow (allocations): pay it here, not on a frame
    model.detector.run(None, {"image": np.full((1, 3, 320, 320), 114, np.float32)})
    for net in (model.values, *model.second_opinions):
        if net is not None:
            net.run(None, {"crops": np.full((2, 3, 64, 64), 114, np.float32)})
    return model
