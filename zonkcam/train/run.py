"""One training run: data, the detector and the value net side by side, mining, the
value net tuned on the detector's own candidates, export to ONNX (value net in int8).

Seeded: every batch is drawn from its own stream (seed, net, step), so a run gives the
same nets however often it was interrupted. Each stage writes a checkpoint every
CHECKPOINT_EVERY steps and its weights when done; run again with the same settings and
output folder, it resumes where it stopped.
"""

from __future__ import annotations

import hashlib
import json
import math
import multiprocessing as mp
import os
import shutil
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from zonkcam.errors import ZonkcamError
from zonkcam.train import data as D
from zonkcam.train.nets import Detector, ValueNet, export_detector, export_values
from zonkcam.vision.preprocess import DET_STRIDE


@dataclass(frozen=True)
class Schedule:
    """How long each stage trains (steps) and on how much."""

    det_steps: int
    det_batch: int
    value_steps: int
    value_batch: int
    tune_steps: int
    """Value-net steps on the detector's own candidates (mined) after the first stage."""
    tables: int
    """Rendered training tables."""
    face_steps: int = 600
    """Steps of the face head on the finished value net (zonkcam.train.faces)."""


SCHEDULES = {
    "full": Schedule(
        det_steps=9000,
        det_batch=16,
        value_steps=5000,
        value_batch=128,
        tune_steps=1500,
        tables=1500,
    ),
    "short": Schedule(
        det_steps=3000, det_batch=16, value_steps=1800, value_batch=128, tune_steps=500, tables=800
    ),
    "values": Schedule(
        det_steps=0, det_batch=0, value_steps=1000, value_batch=128, tune_steps=250, tables=400
    ),
    "tiny": Schedule(
        det_steps=3,
        det_batch=2,
        value_steps=3,
        value_batch=8,
        tune_steps=2,
        tables=3,
        face_steps=3,
    ),
}
"""full: the shipped model; short: leave-one-source-out twins of both nets; values:
cheap twins of the value net alone, beside a given detector (TrainConfig.detector);
tiny: a smoke test (seconds)."""
CHECKPOINT_EVERY = 200
DET_LR = 2e-3
VALUE_LR = 1e-3
TUNE_LR = 3e-4
WARMUP = 100


@dataclass
class TrainConfig:
    out_dir: Path
    data_dirs: tuple[Path, ...] = ()
    """Labelled photo sets (labels.jsonl); their training split (by group) is used."""
    leave_out: str | None = None
    """A source left out altogether (leave-one-source-out twin)."""
    schedule: str = "full"
    seed: int = 0
    threads: int = 2
    detector: Path | None = None
    """A folder whose dice_detector.onnx the run keeps instead of training a detector
    (the 'values' schedule, which trains none, keeps the shipped one by default)."""
    photoreal: Path | None = None
    """A set of path-traced dice (`zonkcam train render`) mixed into every batch."""
    photoreal_share: float = D.PHOTOREAL_SHARE
    """The share of each batch it takes."""
    log: Callable[[str], None] = field(default=print, repr=False)

    def kept_detector(self) -> Path | None:
        """The detector file the run keeps, or None when it trains its own."""
        from zonkcam.vision.model import DETECTOR_FILE, MODEL_DIR

        if self.detector is not None:
            return self.detector / DETECTOR_FILE
        return MODEL_DIR / DETECTOR_FILE if SCHEDULES[self.schedule].det_steps == 0 else None

    def fingerprint(self) -> dict:
        """What must match for a run to resume another's checkpoints."""
        out = {
            "data_dirs": [str(Path(d).resolve()) for d in self.data_dirs],
            "leave_out": self.leave_out,
            # the face head is fitted on the finished value net: its steps change no weight
            # a checkpoint holds, so a run resumes across them
            "schedule": {
                k: v for k, v in asdict(SCHEDULES[self.schedule]).items() if k != "face_steps"
            },
            "seed": self.seed,
            "augment": {
                "recolour": D.RECOLOUR_SHARE,
                "marble": D.MARBLE_SHARE,
                "turn": D.TURN_SHARE,
            },
        }
        if self.photoreal is not None:
            labels = (self.photoreal / "labels.jsonl").read_bytes()
            out["photoreal"] = {
                "folder": str(self.photoreal.resolve()),
                "labels_sha256": hashlib.sha256(labels).hexdigest(),
                "share": self.photoreal_share,
            }
        kept = self.kept_detector()
        if kept is not None:
            digest = hashlib.sha256(kept.read_bytes()).hexdigest()
            out["detector"] = {"file": str(kept.resolve()), "sha256": digest}
        return out


class ResumeMismatch(ZonkcamError, ValueError):
    """The output folder holds a run with other settings."""


def _lr(step: int, total: int, base: float) -> float:
    """Linear warm-up, then a cosine down to 2% of `base`."""
    warm = min(WARMUP, max(1, total // 10))
    if step < warm:
        return base * (step + 1) / warm
    t = (step - warm) / max(1, total - warm)
    return base * (0.02 + 0.98 * 0.5 * (1 + math.cos(math.pi * min(1.0, t))))


def _save(obj: object, path: Path) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    torch.save(obj, tmp)
    os.replace(tmp, path)


def train_stage(
    net: torch.nn.Module,
    steps: int,
    base_lr: float,
    make_batch: Callable[[int], tuple],
    loss_of: Callable[[torch.nn.Module, tuple], torch.Tensor],
    ckpt: Path,
    done: Path,
    what: str,
    log: Callable[[str], None],
) -> torch.nn.Module:
    """Train `net` for `steps` steps (AdamW, warm-up and cosine), batch `step` made by
    make_batch(step); resumes from `ckpt`; writes the weights to `done` at the end (and
    returns at once, weights loaded, when `done` exists)."""
    if done.is_file():
        net.load_state_dict(torch.load(done))
        log(f"{what}: done before ({done})")
        return net.eval()
    net = net.to(memory_format=torch.channels_last)
    opt = torch.optim.AdamW(net.parameters(), lr=base_lr, weight_decay=1e-4)
    start = 0
    if ckpt.is_file():
        state = torch.load(ckpt, weights_only=False)
        net.load_state_dict(state["net"])
        opt.load_state_dict(state["opt"])
        torch.set_rng_state(state["torch_rng"])
        start = state["step"]
        log(f"{what}: resumed at step {start}/{steps}")
    t0, losses = time.time(), []
    for step in range(start, steps):
        for g in opt.param_groups:
            g["lr"] = _lr(step, steps, base_lr)
        net.train()
        loss = loss_of(net, make_batch(step))
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
        if (step + 1) % CHECKPOINT_EVERY == 0 or step + 1 == steps:
            _save(
                {
                    "net": net.state_dict(),
                    "opt": opt.state_dict(),
                    "step": step + 1,
                    "torch_rng": torch.get_rng_state(),
                },
                ckpt,
            )
        if (step + 1) % 50 == 0 or step + 1 == steps:
            el = time.time() - t0
            left = el / (step + 1 - start) * (steps - step - 1)
            log(
                f"{what} step {step + 1}/{steps} loss {np.mean(losses[-50:]):.3f} "
                f"({el / 60:.1f} min, ~{left / 60:.0f} min left)"
            )
    net = net.to(memory_format=torch.contiguous_format).eval()
    _save(net.state_dict(), done)
    return net


# ------------------------------------------------------------------ the two nets


def det_loss(out: torch.Tensor, heat, reg, m_off, m_size) -> torch.Tensor:  # noqa: ANN001
    """CenterNet: focal loss on the heat, L1 on centre offsets and log sizes."""
    p = torch.sigmoid(out[:, 0]).clamp(1e-4, 1 - 1e-4)
    pos = (heat >= 1.0).float()
    npos = pos.sum().clamp(min=1.0)
    pos_l = -(torch.log(p) * (1 - p) ** 2 * pos).sum()
    neg_l = -(torch.log(1 - p) * p**2 * (1 - heat) ** 4 * (1 - pos)).sum()
    l_off = (torch.abs(out[:, 3:5] - reg[:, 0:2]) * m_off[:, None]).sum() / npos
    l_size = (torch.abs(out[:, 1:3] - reg[:, 2:4]) * m_size[:, None]).sum()
    return (pos_l + neg_l) / npos + l_off + l_size / m_size.sum().clamp(min=1.0)


def det_batch(
    photos: list[D.Photo], weights: dict[str, float], seed: int, batch: int, step: int
) -> tuple:
    """Detector batch `step`: canvases (N, 3, 320, 320) and their targets."""
    rng = np.random.default_rng([seed, 2, step])
    grid = D.DET_CANVAS // DET_STRIDE
    by_source: dict[str, list[int]] = {}
    for i, p in enumerate(photos):
        by_source.setdefault(p.source, []).append(i)
    names = sorted(by_source)
    w = np.array([weights[s] for s in names])
    imgs, targets = [], []
    for k in rng.choice(len(names), size=batch, p=w / w.sum()):
        pool = by_source[names[k]]
        img, boxes, ok = D.det_sample(photos[pool[rng.integers(0, len(pool))]], rng)
        imgs.append(img.transpose(2, 0, 1))
        targets.append(D.det_targets(boxes, ok, DET_STRIDE, grid))
    return (np.stack(imgs), *(np.stack(t) for t in zip(*targets, strict=True)))


def _det_loss_of(net: torch.nn.Module, batch: tuple) -> torch.Tensor:
    x = torch.from_numpy(batch[0]).contiguous(memory_format=torch.channels_last)
    return det_loss(net(x), *(torch.from_numpy(a) for a in batch[1:]))


def value_batch(
    crops: D.Crops, weights: dict[str, float], seed: int, key: int, batch: int, step: int
) -> tuple:
    rng = np.random.default_rng([seed, key, step])
    idx = D.weighted_index(crops, weights, batch, rng)
    return D.value_augment(crops.x[idx], rng), crops.y[idx]


def _value_loss_of(net: torch.nn.Module, batch: tuple) -> torch.Tensor:
    x = torch.from_numpy(batch[0]).contiguous(memory_format=torch.channels_last)
    return F.cross_entropy(net(x), torch.from_numpy(batch[1]), label_smoothing=0.05)


# ------------------------------------------------------------------ the run


def _value_stage_a(cfg: TrainConfig, crops: D.Crops, weights: dict, threads: int) -> None:
    torch.set_num_threads(threads)
    torch.manual_seed(cfg.seed + 1)
    s = SCHEDULES[cfg.schedule]
    train_stage(
        ValueNet(pretrained=True),
        s.value_steps,
        VALUE_LR,
        lambda step: value_batch(crops, weights, cfg.seed, 1, s.value_batch, step),
        _value_loss_of,
        cfg.out_dir / "values_a.ckpt",
        cfg.out_dir / "values_a.pt",
        "value net",
        cfg.log,
    )


def _check_resume(cfg: TrainConfig) -> None:
    path = cfg.out_dir / "run.json"
    mine = cfg.fingerprint()
    info = {"settings": mine}
    if path.is_file():
        info = json.loads(path.read_text())
        theirs = info.get("settings")
        if theirs != mine:
            raise ResumeMismatch(
                f"{cfg.out_dir} holds a run with other settings ({theirs}); use another "
                "--out or delete it"
            )
        cfg.log(f"resuming the run in {cfg.out_dir}")
    cfg.out_dir.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(info, indent=1))


def train(cfg: TrainConfig) -> list[Path]:
    """The whole run; returns the two .onnx files written to cfg.out_dir."""
    import cv2

    from zonkcam.train.faces import add_face_output, face_data, train_head
    from zonkcam.train.quantize import quantize_values
    from zonkcam.vision.model import DETECTOR_FILE, VALUES_FILE

    _check_resume(cfg)
    cv2.setNumThreads(1)
    torch.set_flush_denormal(True)
    s = SCHEDULES[cfg.schedule]
    t0 = time.time()
    photos = D.load_photos(cfg.data_dirs, cfg.leave_out, cfg.log)
    if cfg.photoreal is not None:
        photos += D.load_photoreal(cfg.photoreal, cfg.log)
    tables = D.render_tables(s.tables, cfg.seed, cfg.log)
    everything = photos + [p for p, _ in tables]
    decoys = [np.zeros((0, 4), np.float32)] * len(photos) + [d for _, d in tables]
    dice: dict[str, int] = {}
    for p in everything:
        dice[p.source] = dice.get(p.source, 0) + len(p.boxes)
    weights = D.source_weights(sorted(dice), dice, cfg.photoreal_share)
    cfg.log(
        "sources (dice, share of each batch): "
        + ", ".join(f"{k} ({dice[k]}, {weights[k]:.2f})" for k in sorted(dice))
    )
    crops = D.label_crops(everything, decoys, cfg.seed, cfg.log)
    cfg.log(
        f"{len(crops)} value-net crops ({int((crops.y == 0).sum())} not a die), "
        f"{time.time() - t0:.0f} s"
    )

    det_path, values_path = cfg.out_dir / DETECTOR_FILE, cfg.out_dir / VALUES_FILE
    kept = cfg.kept_detector()
    if kept is not None:  # the value net alone, beside the given detector
        _value_stage_a(cfg, crops, weights, cfg.threads)
        shutil.copyfile(kept, det_path)
    else:
        _train_detector(cfg, crops, weights, everything, det_path)
    torch.set_num_threads(max(1, cfg.threads))

    # stage 2: the detector's own candidates, then the value net tuned on all crops
    mined = D.mined_crops(everything, _detector_of(det_path), cfg.log)
    cfg.log(
        f"mined {len(mined)} crops of the detector's candidates "
        f"({int((mined.y == 0).sum())} not a die)"
    )
    both = D.Crops.join([crops, mined])
    net = ValueNet(pretrained=False)
    net.load_state_dict(torch.load(cfg.out_dir / "values_a.pt"))
    torch.manual_seed(cfg.seed + 3)
    net = train_stage(
        net,
        s.tune_steps,
        TUNE_LR,
        lambda step: value_batch(both, weights, cfg.seed, 3, s.value_batch, step),
        _value_loss_of,
        cfg.out_dir / "values.ckpt",
        cfg.out_dir / "values.pt",
        "value net (tuning)",
        cfg.log,
    )
    fp32 = export_values(net, cfg.out_dir / "dice_values_fp32.onnx")
    rng = np.random.default_rng([cfg.seed, 5])
    calib = mined.x[rng.permutation(len(mined))[:512]] if len(mined) else crops.x[:64]
    quantize_values(fp32, values_path, calib.transpose(0, 3, 1, 2).astype(np.float32))
    # the feature the table's taught dice are compared in (zonkcam.train.faces)
    faces = face_data(values_path, everything, cfg.seed, cfg.threads, cfg.log)
    add_face_output(values_path, train_head(faces, cfg.seed, cfg.log, s.face_steps))
    minutes = (time.time() - t0) / 60
    cfg.log(
        f"wrote {det_path} and {values_path} (int8; float32 kept as {fp32.name}); {minutes:.0f} min"
    )
    info = json.loads((cfg.out_dir / "run.json").read_text())
    info["minutes"] = round(minutes, 1)
    (cfg.out_dir / "run.json").write_text(json.dumps(info, indent=1))
    return [det_path, values_path]


def _train_detector(
    cfg: TrainConfig, crops: D.Crops, weights: dict, photos: list[D.Photo], det_path: Path
) -> None:
    """Stage 1: the detector here, the value net beside it (one thread each on 2+ cores);
    the detector exported to `det_path`."""
    s = SCHEDULES[cfg.schedule]
    worker = None
    started = (cfg.out_dir / "values_a.pt").is_file() or (cfg.out_dir / "detector.pt").is_file()
    if cfg.threads >= 2 and not started:
        worker = mp.get_context("fork").Process(
            target=_value_stage_a, args=(cfg, crops, weights, 1)
        )
        worker.start()
        torch.set_num_threads(max(1, cfg.threads - 1))
    else:
        _value_stage_a(cfg, crops, weights, max(1, cfg.threads))
    torch.manual_seed(cfg.seed + 2)

    def det_step(step: int) -> tuple:
        # the value net done beside it: the detector takes its thread too
        if worker is not None and step % 50 == 0 and not worker.is_alive():
            torch.set_num_threads(max(1, cfg.threads))
        return det_batch(photos, weights, cfg.seed, s.det_batch, step)

    det = train_stage(
        Detector(),
        s.det_steps,
        DET_LR,
        det_step,
        _det_loss_of,
        cfg.out_dir / "detector.ckpt",
        cfg.out_dir / "detector.pt",
        "detector",
        cfg.log,
    )
    export_detector(det, det_path)
    if worker is not None:
        worker.join()
        if worker.exitcode != 0:
            raise RuntimeError(f"value-net training failed (exit code {worker.exitcode})")


MINING = {"det_size": 416, "det_threshold": 0.1, "max_candidates": 64, "nms_iou": 0.5}
"""The detector as training mines it: the reader's pass up to the crops, with these
settings (fixed here, so that tuning the reader's vote does not change a rebuild)."""


def _detector_of(path: Path) -> Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """The exported detector as the reader runs it (its candidates the value net would
    read): image -> (boxes, heat)."""
    from zonkcam.vision.model import open_session
    from zonkcam.vision.reader import ReaderSettings, detect, detector_scale

    class _Det:
        detector = open_session(path, torch.get_num_threads())

    settings = ReaderSettings(**MINING)

    def candidates(img: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        scale = detector_scale(img.shape, settings, None)
        boxes, heat, _ = detect(img, _Det, settings, scale)  # type: ignore[arg-type]
        return boxes, heat

    return candidates
