"""Labelled dice photos in the project's labels.jsonl format (used by eval and training),
and the dice cut out of them (:func:`load_cutouts`, die art from :mod:`zonkcam.sim.cutouts`)."""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from zonkcam.errors import UserError
from zonkcam.sim.cutouts import MIN_DIE_PX, CutOut, cut_die, isolated, spread_over_kinds
from zonkcam.vision.color import white_balance_gains

VALIDATION_SHARE = 0.2
SPLIT_SEED = "zonkcam-v1"


@dataclass(frozen=True)
class TruthDie:
    value: int
    bbox: tuple[float, float, float, float]
    look: str | None = None
    """The die's material where the set knows it (rendered sets), else None."""


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
                    TruthDie(
                        int(d["value"]),
                        tuple(float(v) for v in d["bbox"]),  # type: ignore[arg-type]
                        str(d["look"]) if "look" in d else None,
                    )
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


def cutouts_of(record: LabelRecord, image: np.ndarray) -> list[CutOut]:
    """Every die of one labelled photo that can be cut out."""
    boxes = [tuple(float(v) for v in b) for b in die_boxes(record)]
    pips = record.bbox_kind == "pip_cluster"
    gains = white_balance_gains(image)
    out = []
    for i, (d, box, clear) in enumerate(zip(record.dice, boxes, isolated(boxes), strict=True)):
        if not clear or min(box[2] - box[0], box[3] - box[1]) < MIN_DIE_PX:
            continue
        cut = cut_die(image, box, loose=0.15 if pips else 0.06, gains=gains)
        if cut is None:
            continue
        pic, alpha, kind, bgr = cut
        out.append(
            CutOut(pic, alpha, d.value, record.source, record.group, record.name, i, kind, bgr)
        )
    return out


def load_cutouts(
    dataset_dirs: Sequence[str | Path],
    count: int,
    rng: np.random.Generator,
    *,
    sources: Sequence[str] | None = None,
    photos_per_source: int | None = None,
) -> list[CutOut]:
    """About ``count`` cut-outs from the photo sets, spread evenly over the sources (of
    ``sources`` only, when given) and, within a source, over the kinds of die: photos are
    drawn at random (``rng``) and cut until each source has given its share, then the
    cut-outs are drawn kind by kind in turn."""
    records: dict[str, list[LabelRecord]] = defaultdict(list)
    for d in dataset_dirs:
        for r in load_labels(d):
            if sources is None or r.source in sources:
                records[r.source].append(r)
    out: list[CutOut] = []
    if not records:
        return out
    share = max(1, count // len(records))
    for source in sorted(records):
        recs = records[source]
        order = rng.permutation(len(recs))
        if photos_per_source:
            order = order[:photos_per_source]
        # cut more than needed so the rarer kinds are there to be drawn
        wanted, got = share * 2, []
        for i in order:
            image = cv2.imread(str(recs[int(i)].image), cv2.IMREAD_COLOR)
            if image is None:
                continue
            got += cutouts_of(recs[int(i)], image)
            if len(got) >= wanted:
                break
        out += spread_over_kinds(got, share, rng)
    return out
