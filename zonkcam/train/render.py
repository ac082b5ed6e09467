"""`zonkcam train render`: a set of photoreal dice (zonkcam.sim.photoreal) for training.

The set is a folder laid out as the labelled photo sets are (images/ and labels.jsonl,
one record per scene, every die boxed with its value and its look), so that training
cuts value-net crops from it as the reader cuts them, and its scenes are small tables
for the detector. Scene i of seed s is the same picture on every run; the scenes are
rendered in order until the set holds COUNT dice, each written whole (image, then its
record in scenes/) so a stopped run goes on where it stopped.
"""

from __future__ import annotations

import json
import multiprocessing as mp
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from zonkcam.errors import ZonkcamError
from zonkcam.fileio import write_whole
from zonkcam.sim import photoreal

SOURCE = "photoreal"
"""The source name of rendered dice in training (and of their records' groups)."""
MIN_VISIBLE = 0.6
"""A die is labelled when at least this share of its box is in the picture."""
JPEG_QUALITY = (80, 96)
SETTINGS = "render.json"


class RenderMismatch(ZonkcamError, ValueError):
    """The folder holds a set of other settings."""


@dataclass(frozen=True)
class RenderConfig:
    out_dir: Path
    count: int
    seed: int = 0
    workers: int = 2
    look: str | None = None
    """Only dice of this look (LOOKS); None: drawn by LOOK_WEIGHTS."""

    def settings(self) -> dict:
        return {"seed": self.seed, "look": self.look, "renderer": "mitsuba scalar_rgb"}


def scene_of(seed: int, index: int, look: str | None = None) -> photoreal.Scene:
    return photoreal.random_scene(np.random.default_rng([seed, 29, index]), look)


def render_scene(args: tuple[int, int, str | None, str]) -> dict:
    """Render scene `index` of `seed` into `folder`; returns its record."""
    seed, index, look, folder = args
    scene = scene_of(seed, index, look)
    img, dice = photoreal.render(scene, seed=seed * 1_000_003 + index)
    rng = np.random.default_rng([seed, 31, index])
    name = f"images/{index:06d}.jpg"
    q = int(rng.integers(*JPEG_QUALITY))
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, q])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    root = Path(folder)
    write_whole(root / name, buf.tobytes())
    record = {
        "image": name,
        "width": scene.width,
        "height": scene.height,
        "source": f"{SOURCE}:seed {seed} scene {index}",
        "dice": [
            {"bbox": [round(v, 1) for v in d.bbox], "value": d.value, "look": d.look}
            for d in dice
            if d.visible >= MIN_VISIBLE
        ],
        "bbox_kind": "die",
        "group": f"{SOURCE}:{index}",
        "license": "rendered by zonkcam",
        "light": scene.light,
        "elevation": round(scene.elevation, 1),
    }
    write_whole(root / "scenes" / f"{index:06d}.json", json.dumps(record).encode())
    return record


def _start_worker() -> None:
    import drjit as dr

    dr.set_thread_count(1)  # the pool's processes are the parallelism


def _check_settings(cfg: RenderConfig) -> None:
    path = cfg.out_dir / SETTINGS
    mine = cfg.settings()
    if path.is_file():
        theirs = json.loads(path.read_text()).get("settings")
        if theirs != mine:
            raise RenderMismatch(
                f"{cfg.out_dir} holds renders of other settings ({theirs}); use another "
                "--out or delete it"
            )
    (cfg.out_dir / "images").mkdir(parents=True, exist_ok=True)
    (cfg.out_dir / "scenes").mkdir(exist_ok=True)
    write_whole(path, json.dumps({"settings": mine}, indent=1).encode())


def _done(cfg: RenderConfig) -> dict[int, dict]:
    out = {}
    for p in (cfg.out_dir / "scenes").glob("*.json"):
        try:
            out[int(p.stem)] = json.loads(p.read_text())
        except (ValueError, OSError):
            continue  # a record cut short by a crash: its scene is rendered again
    return out


def render_set(cfg: RenderConfig, log: Callable[[str], None] = print) -> Path:
    """Render scenes until the folder holds cfg.count labelled dice; returns
    labels.jsonl. Resumes a stopped run of the same settings."""
    _check_settings(cfg)
    done = _done(cfg)
    have = sum(len(r["dice"]) for r in done.values())
    if done:
        log(f"resuming: {len(done)} scenes, {have} dice already in {cfg.out_dir}")
    todo = _scenes_for(cfg, done)
    if todo:
        log(f"{len(todo)} scenes to render")
    start_have = have
    t0 = time.time()
    if todo:
        ctx = mp.get_context("spawn")
        jobs = [(cfg.seed, i, cfg.look, str(cfg.out_dir)) for i in todo]
        pool = ctx.Pool(cfg.workers, initializer=_start_worker) if cfg.workers > 1 else None
        try:
            results = pool.imap(render_scene, jobs) if pool else map(render_scene, jobs)
            for n, rec in enumerate(results, 1):
                have += len(rec["dice"])
                if n % 25 == 0 or n == len(jobs):
                    rate = (have - start_have) / max(time.time() - t0, 1e-6)
                    left = max(cfg.count - have, 0) / max(rate, 1e-6) / 60
                    log(
                        f"rendered {have}/{cfg.count} dice ({n}/{len(jobs)} scenes), "
                        f"{(time.time() - t0) / 60:.1f} min, ~{left:.0f} min left"
                    )
        finally:
            if pool:
                pool.terminate()
    return write_labels(cfg.out_dir)


def _scenes_for(cfg: RenderConfig, done: dict[int, dict]) -> list[int]:
    """The scene indices still to render: scenes 0, 1, ... until their labelled dice
    reach cfg.count (counted from the scene's geometry, without rendering it)."""
    total, i, todo = 0, 0, []
    while total < cfg.count:
        if i in done:
            total += len(done[i]["dice"])
        else:
            total += labelled_dice(cfg.seed, i, cfg.look)
            todo.append(i)
        i += 1
    return todo


def labelled_dice(seed: int, index: int, look: str | None = None) -> int:
    """How many of scene `index`'s dice will be labelled."""
    seen = photoreal.seen_boxes(scene_of(seed, index, look))
    return sum(inside >= MIN_VISIBLE for _, inside in seen)


def write_labels(folder: Path) -> Path:
    """labels.jsonl of every finished scene in `folder`, in scene order."""
    scenes = sorted((folder / "scenes").glob("*.json"))
    lines = []
    for p in scenes:
        try:
            lines.append(json.dumps(json.loads(p.read_text())))
        except (ValueError, OSError):
            continue
    out = folder / "labels.jsonl"
    write_whole(out, ("\n".join(lines) + "\n").encode() if lines else b"")
    return out
