"""Labelled dice photos in the project's labels.jsonl format (used by eval and training)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from zonkcam.errors import UserError

VALIDATION_SHARE = 0.2
SPLIT_SEED = "zonkcam-v1"


@dataclass(frozen=True)
class TruthDie:
    value: int
    bbox: tuple[float, float, float, float]


@dataclass(frozen=True)
class LabelRecord:
    image: Path
    """Absolute path of the photo."""
    name: str
    """The path as written in labels.jsonl."""
    dice: tuple[TruthDie, ...]
    bbox_kind: str
    """"die" or "pip_cluster"."""
    group: str
    source: str
    """Short source name: the part of `group` before the colon."""
    width: int
    height: int


def load_labels(dataset_dir: str | Path) -> list[LabelRecord]:
    """Read DATASET_DIR/labels.jsonl; raises UserError when it is missing or malformed."""
    root = Path(dataset_dir)
    path = root / "labels.jsonl"
    if not path.is_file():
        raise UserError(f"{path}: no labels.jsonl in {root}")
    out = []
    with path.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                r = json.loads(line)
                dice = tuple(
                    TruthDie(int(d["value"]), tuple(float(v) for v in d["bbox"]))  # type: ignore[arg-type]
                    for d in r["dice"]
                )
                group = str(r.get("group", r["image"]))
                out.append(
                    LabelRecord(
                        image=root / r["image"],
                        name=str(r["image"]),
                        dice=dice,
                        bbox_kind=str(r.get("bbox_kind", "die")),
                        group=group,
                        source=group.split(":", 1)[0],
                        width=int(r.get("width", 0)),
                        height=int(r.get("height", 0)),
                    )
                )
            except (KeyError, TypeError, ValueError) as exc:
                raise UserError(f"{path}:{n}: bad record ({exc})") from exc
    return out


def is_validation(group: str, share: float = VALIDATION_SHARE) -> bool:
    """Whether a near-duplicate group belongs to the validation split (stable hash)."""
    h = hashlib.sha256(f"{SPLIT_SEED}:{group}".encode()).digest()
    return int.from_bytes(h[:4], "big") / 2**32 < share


def select(records: list[LabelRecord], split: str) -> list[LabelRecord]:
    """split: 'all', 'train', 'val', or 'source:<name>' / 'not-source:<name>'."""
    if split == "all":
        return list(records)
    if split == "val":
        return [r for r in records if is_validation(r.group)]
    if split == "train":
        return [r for r in records if not is_validation(r.group)]
    if split.startswith("source:"):
        return [r for r in records if r.source == split.split(":", 1)[1]]
    if split.startswith("not-source:"):
        return [r for r in records if r.source != split.split(":", 1)[1]]
    raise UserError(f"unknown split {split!r} (all, train, val, source:NAME, not-source:NAME)")


PIP_CLUSTER_TO_DIE = 0.65
"""A 2-6 pip cluster spans about this share of the die face."""


def die_boxes(record: LabelRecord) -> np.ndarray:
    """Boxes around whole dice (N, 4). Pip-cluster boxes are widened to an estimated die."""
    boxes = np.array([d.bbox for d in record.dice], np.float32).reshape(-1, 4)
    if record.bbox_kind != "pip_cluster" or len(boxes) == 0:
        return boxes
    sides = [
        max(d.bbox[2] - d.bbox[0], d.bbox[3] - d.bbox[1]) / PIP_CLUSTER_TO_DIE
        for d in record.dice
        if d.value >= 2
    ]
    side = float(np.median(sides)) if sides else 0.1 * max(record.width, record.height, 1)
    cx = (boxes[:, 0] + boxes[:, 2]) / 2
    cy = (boxes[:, 1] + boxes[:, 3]) / 2
    half = side * 0.55
    return np.stack([cx - half, cy - half, cx + half, cy + half], axis=1)
