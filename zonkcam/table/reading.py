"""The learned dice reader as the table uses it: model loaded once, one call per frame.

The table reads with the same reader and settings as `zonkcam read` (DEFAULT_SETTINGS);
what it adds is what it knows: the calibration tells how big a die looks, so the
detector's input is sized to show each die at ReaderSettings.die_px (read_dice's
`die_px`), and only the parts of a frame that changed are read; and the table's own
dice, as the scorekeeper taught them (zonkcam.vision.examples), are blended into each
read. The reader keeps the features of the latest dice it read, so that a roll the
scorekeeper confirms later is taught with the crops it was read from.
"""

from __future__ import annotations

import dataclasses
from collections import deque
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from zonkcam.errors import UserError
from zonkcam.mat.calibrate import Calibration
from zonkcam.vision.examples import TaughtDice

RECENT_DICE = 96
"""The features of this many of the latest dice read are kept, to be taught when the
scorekeeper confirms their roll."""
NO_FEATURES = (
    "this value net has no 'features' output, so the table cannot learn its dice "
    "(add it with: python -m zonkcam.train.features MODEL)"
)


@dataclasses.dataclass(frozen=True)
class SeenDie:
    """A die as the reader saw it: where, and its crop's pooled feature."""

    bbox: tuple[float, float, float, float]
    feature: np.ndarray
    crop: np.ndarray
    """The 64 px crop the value net read (to teach its turns too)."""


class OnnxReader:
    """Reads dice with the shipped ONNX models (zonkcam.vision); a table Reader.

    Given a region of the frame it reads only that. ``die_px``: how many px a die spans
    in the frame (from the calibration), which sizes the detector's input."""

    def __init__(
        self,
        model_dir: str | Path | None = None,
        threads: int | None = None,
        die_px: float | None = None,
        taught: TaughtDice | None = None,
    ) -> None:
        from zonkcam.vision.model import MODEL_DIR, VALUES_FILE, load_model
        from zonkcam.vision.reader import DEFAULT_SETTINGS

        try:
            self.model = load_model(model_dir, threads)
        except (FileNotFoundError, ValueError) as exc:
            raise UserError(
                f"{exc}; reinstall zonkcam or rebuild the model with zonkcam train"
            ) from None
        self.values_path = Path(model_dir or MODEL_DIR) / VALUES_FILE
        self.settings = DEFAULT_SETTINGS
        self.die_px = die_px
        self.taught = taught
        """The table's taught dice, blended into every read (None: the net alone)."""
        self.recent: deque[SeenDie] = deque(maxlen=RECENT_DICE)

    @property
    def can_learn(self) -> bool:
        """Whether the value net gives features (zonkcam.train.features)."""
        return len(self.model.values.get_outputs()) > 1

    @classmethod
    def for_table(
        cls,
        cal: Calibration,
        model_dir: str | Path | None = None,
        threads: int | None = None,
        taught: TaughtDice | None = None,
    ) -> OnnxReader:
        return cls(model_dir, threads, cal.px_per_mm * cal.geometry.die_mm, taught)

    def __call__(
        self, image: np.ndarray, region: tuple[int, int, int, int] | None = None
    ) -> Sequence:
        from zonkcam.vision.reader import read_dice

        x0, y0, x1, y1 = region if region is not None else (0, 0, image.shape[1], image.shape[0])
        crop = image[y0:y1, x0:x1]
        if crop.size == 0:
            return []
        feats: list[np.ndarray] = []
        dice = [
            dataclasses.replace(
                d, bbox=(d.bbox[0] + x0, d.bbox[1] + y0, d.bbox[2] + x0, d.bbox[3] + y0)
            )
            for d in read_dice(crop, self.model, self.settings, self.die_px, self.taught, feats)
        ]
        if feats:
            self._remember(image, dice, feats)
        return dice

    def read_at(
        self, image: np.ndarray, boxes: Sequence[tuple[float, float, float, float]]
    ) -> list:
        """The die in each box (frame px) where one is known to lie, read by the value net
        alone (zonkcam.vision.reader.read_at); None for a crop it takes for no die."""
        from zonkcam.vision.reader import read_at

        feats: list[np.ndarray | None] = []
        got = read_at(image, np.asarray(boxes), self.model, self.settings, self.taught, feats)
        read = [(d, f) for d, f in zip(got, feats, strict=True) if d is not None and f is not None]
        if read:
            self._remember(image, [d for d, _ in read], [f for _, f in read])
        return got

    def _remember(self, image: np.ndarray, dice: list, feats: list[np.ndarray]) -> None:
        from zonkcam.vision.preprocess import crop_die

        for d, f in zip(dice, feats, strict=True):
            self.recent.append(SeenDie(d.bbox, f, crop_die(image, d.bbox)))

    def recall(self, bbox: tuple[float, float, float, float]) -> SeenDie | None:
        """The latest read die at `bbox` (centres within half a die), or None."""
        cx, cy = (bbox[0] + bbox[2]) / 2, (bbox[1] + bbox[3]) / 2
        near = max(bbox[2] - bbox[0], bbox[3] - bbox[1]) / 2
        for seen in reversed(self.recent):
            b = seen.bbox
            if abs((b[0] + b[2]) / 2 - cx) <= near and abs((b[1] + b[3]) / 2 - cy) <= near:
                return seen
        return None

    def teach(
        self,
        seen: Sequence[SeenDie],
        values: Sequence[int],
        colours: Sequence[str | None] | None = None,
        turns: bool = False,
    ) -> int:
        """Teach the table these dice with these (confirmed) values; `turns`: each crop
        in its eight turns as well (seven more crops per die through the value net: for
        the set-up, not a frame). Returns the examples added."""
        from zonkcam.vision.examples import turns as turned
        from zonkcam.vision.reader import read_crops_and_features

        if not seen:
            return 0
        if self.taught is None:
            self.taught = TaughtDice()
        cols = list(colours) if colours is not None else [None] * len(seen)
        if not turns:
            return self.taught.teach(np.stack([s.feature for s in seen]), list(values), cols)
        _, feats = read_crops_and_features(turned(np.stack([s.crop for s in seen])), self.model)
        if feats is None:
            return 0
        return self.taught.teach(
            feats, np.repeat(list(values), 8), [c for c in cols for _ in range(8)]
        )
