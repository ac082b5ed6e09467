"""A photo of every roll the camera read, kept beside the game log for disputes.

When the table plays a roll, the settled frame is saved as a small JPEG with the read
boxes and values drawn on it, named by the game and the roll's place in the game's log
(``games.photos/game-0003/roll-00042.jpg`` beside ``games.sqlite3``). The folder is kept
under a size budget (``DEFAULT_BUDGET_MB``): when it grows past it the oldest games'
photos go first, never the game in play. Saving happens on a worker thread, off the
frame loop; a photo that cannot be written is a line in the log, never a lost action.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import cv2
import numpy as np

from zonkcam.fileio import write_whole
from zonkcam.record.outfolder import OutFolder
from zonkcam.table.zones import TableDie, Zone
from zonkcam.vision.confidence import CONFIRM_BELOW

log = logging.getLogger(__name__)

DEFAULT_BUDGET_MB = 300
"""About 6,000 rolls (50 KB each): fifteen long nights."""
WIDTH = 640
"""Photos are scaled down to this width."""


def photo_folder(db_path: Path) -> Path:
    """Where the photos of a game log live: beside it, ``NAME.photos``."""
    return db_path.with_suffix(".photos")


def annotate(image: np.ndarray, dice: Sequence[TableDie], width: int = WIDTH) -> np.ndarray:
    """The frame scaled to ``width`` px with each die's box and value drawn on it."""
    scale = min(1.0, width / image.shape[1])
    out = (
        cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        if scale < 1
        else image.copy()
    )
    return draw_dice(out, dice, scale)


COLOURS = {Zone.ROLLING: (60, 220, 60), Zone.KEEP: (255, 200, 0), Zone.OFF: (0, 0, 255)}
"""A die's box by the zone it lies in (BGR); a cocked die's is red, as off the mat."""


def value_label(die: TableDie) -> str:
    """A die as a roll photo names it: its value, with a '?' where the reader was unsure;
    or "cocked"."""
    if die.cocked:
        return "cocked"
    return f"{die.value}" + ("?" if die.confidence < CONFIRM_BELOW else "")


def draw_dice(
    out: np.ndarray,
    dice: Sequence[TableDie],
    scale: float = 1.0,
    label: Callable[[TableDie], str] = value_label,
) -> np.ndarray:
    """Each die's box (its zone's colour, COLOURS) and `label` drawn on `out` (a frame
    ``scale`` times the size the boxes are in), in place: the one way dice are drawn on a
    frame (roll photos, `zonkcam watch --annotate`)."""
    for d in dice:
        x0, y0, x1, y1 = (int(round(v * scale)) for v in d.bbox)
        colour = (0, 0, 255) if d.cocked else COLOURS.get(d.zone, (255, 255, 255))
        cv2.rectangle(out, (x0, y0), (x1, y1), colour, 2)
        text = label(d)
        for ink, thickness in (((0, 0, 0), 3), (colour, 1)):  # dark edge, then the colour
            cv2.putText(
                out,
                text,
                (x0, max(14, y0 - 4)),
                cv2.FONT_HERSHEY_SIMPLEX,
                0.55,
                ink,
                thickness,
                cv2.LINE_AA,
            )
    return out


class RollPhotos:
    """The roll photos of one game log."""

    def __init__(self, folder: str | Path, budget_mb: float = DEFAULT_BUDGET_MB) -> None:
        self.folder = Path(folder)
        self.budget = int(budget_mb * 1e6)
        self._worker: ThreadPoolExecutor | None = None
        self._total: int | None = None
        """Bytes in the folder (counted once, then kept up to date)."""

    def path(self, game_id: int, seq: int) -> Path:
        return self.folder / f"game-{game_id:04d}" / f"roll-{seq:05d}.jpg"

    def save(self, game_id: int, seq: int, image: np.ndarray, dice: Sequence[TableDie]) -> None:
        """Keep the photo of roll ``seq`` of game ``game_id`` (on the worker thread)."""
        if self.budget <= 0:
            return
        if self._worker is None:
            self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="photos")
        self._worker.submit(self._write, game_id, seq, image.copy(), tuple(dice))

    def wait(self) -> None:
        """Let every photo asked for be written (at the end, and in tests)."""
        if self._worker is not None:
            self._worker.shutdown(wait=True)
            self._worker = None

    def of_game(self, game_id: int) -> list[tuple[int, Path]]:
        """The game's photos as (roll's place in the log, file), in order."""
        folder = self.folder / f"game-{game_id:04d}"
        if not folder.is_dir():
            return []
        out = []
        for p in folder.glob("roll-*.jpg"):
            try:
                out.append((int(p.stem.partition("-")[2]), p))
            except ValueError:
                continue
        return sorted(out)

    def export(self, game_id: int, to: str | Path | OutFolder) -> int:
        """Copy the game's photos into ``to`` (made when missing), never through a link
        found there; how many."""
        photos = self.of_game(game_id)
        target = to if isinstance(to, OutFolder) else OutFolder(to)
        try:
            for _, p in photos:
                target.copy_in(p, f"game-{game_id:04d}-{p.name}")
        finally:
            if target is not to:
                target.close()
        return len(photos)

    def _write(self, game_id: int, seq: int, image: np.ndarray, dice: tuple) -> None:
        path = self.path(game_id, seq)
        try:
            ok, jpg = cv2.imencode(".jpg", annotate(image, dice), [cv2.IMWRITE_JPEG_QUALITY, 80])
            if not ok:
                raise OSError("the photo could not be encoded")
            path.parent.mkdir(parents=True, exist_ok=True)
            write_whole(path, jpg.tobytes())
            if self._total is not None:
                self._total += len(jpg)
            self._prune(keep=path.parent)
        except OSError as exc:
            log.warning("roll photo %s not saved: %s", path, exc)

    def _prune(self, keep: Path) -> None:
        """Over the budget: the oldest games' photos go, whole games first, never ``keep``
        (the game in play)."""
        if self._total is None:
            self._total = sum(p.stat().st_size for p in self.folder.glob("game-*/roll-*.jpg"))
        if self._total <= self.budget:
            return
        for p in sorted(self.folder.glob("game-*/roll-*.jpg")):
            if self._total <= self.budget:
                return
            if p.parent == keep:
                continue
            self._total -= p.stat().st_size
            p.unlink(missing_ok=True)
            if not any(p.parent.iterdir()):
                p.parent.rmdir()
