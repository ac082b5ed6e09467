"""The learned dice reader as the table uses it: model loaded once, one call per frame.

The table reads with the same reader and settings as `zonkcam read` (DEFAULT_SETTINGS);
what it adds is what it knows: the calibration tells how big a die looks, so the
detector's input is sized to show each die at ReaderSettings.die_px (read_dice's
`die_px`), and only the parts of a frame that changed are read; a frame's detail image
(Frame.detail: the same view at a higher resolution), where it has one, is what the dice
are read from; and the table's own dice, as the scorekeeper taught them
(zonkcam.vision.examples), ask about each die their nearest face reads otherwise. Each
die read carries its :class:`~zonkcam.vision.die.Sight` (the crop the value net read and
its feature), so that a roll the scorekeeper confirms later is taught with the crops it
was read from: the table's reports hand them on with the dice.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from zonkcam.errors import UserError
from zonkcam.mat.calibrate import Calibration
from zonkcam.vision.die import Reading, Sight
from zonkcam.vision.examples import TaughtDice

NO_FEATURES = (
    "this value net has no 'features' output, so the table cannot learn its dice "
    "(add it with: zonkcam train faces --model-dir DIR)"
)


class OnnxReader:
    """Reads dice with the shipped ONNX models (zonkcam.vision); a table Reader.

    Given a region of the frame it reads only that. ``die_px``: how many px a die spans
    in the frame (from the calibration), which sizes the detector's input.

    Given the frame's ``detail`` (the same view at a higher resolution), it reads that
    instead: the detector's input is the same size as from the frame (a die spans
    ``die_px`` times the scale between them there), and the value net's crops are cut
    from the detail at its own resolution. Boxes are in frame px either way."""

    reads_detail = True
    """It takes a frame's detail image (observe.ReadsDetail)."""

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
        """The table's taught dice, which ask about every die their nearest face reads
        otherwise (None: the net alone)."""
        self.asking = True
        """Whether the taught dice ask (off while the table meets its dice: what is
        taught then is judged by the net alone)."""

    @property
    def can_learn(self) -> bool:
        """Whether the value net gives features (zonkcam.train.faces)."""
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
        self,
        image: np.ndarray,
        region: tuple[int, int, int, int] | None = None,
        detail: np.ndarray | None = None,
    ) -> Sequence:
        from zonkcam.vision.reader import read_dice

        x0, y0, x1, y1 = region if region is not None else (0, 0, image.shape[1], image.shape[0])
        source, sx, sy = _source(image, detail)
        dx0, dy0 = round(x0 * sx), round(y0 * sy)
        crop = source[dy0 : round(y1 * sy), dx0 : round(x1 * sx)]
        if crop.size == 0:
            return []
        die_px = None if self.die_px is None else self.die_px * math.sqrt(sx * sy)
        feats: list[np.ndarray] = []
        dice = [
            dataclasses.replace(d, bbox=_to_frame(d.bbox, dx0, dy0, sx, sy))
            for d in read_dice(crop, self.model, self.settings, die_px, self._asking(), feats)
        ]
        if not feats:  # a value net without features: nothing to teach the table with
            return dice
        return [_with_sight(source, sx, sy, d, f) for d, f in zip(dice, feats, strict=True)]

    def read_at(
        self,
        image: np.ndarray,
        boxes: Sequence[tuple[float, float, float, float]],
        detail: np.ndarray | None = None,
    ) -> list:
        """The die in each box (frame px) where one is known to lie, read by the value net
        alone (zonkcam.vision.reader.read_at) from the frame, or its ``detail`` where given;
        None for a crop it takes for no die."""
        from zonkcam.vision.reader import read_at

        source, sx, sy = _source(image, detail)
        at = np.asarray(boxes, np.float64).reshape(-1, 4) * [sx, sy, sx, sy]
        feats: list[np.ndarray | None] = []
        got = [
            None if d is None else dataclasses.replace(d, bbox=_to_frame(d.bbox, 0, 0, sx, sy))
            for d in read_at(source, at, self.model, self.settings, self._asking(), feats)
        ]
        return [
            d if d is None or f is None else _with_sight(source, sx, sy, d, f)
            for d, f in zip(got, feats, strict=True)
        ]

    def _asking(self) -> TaughtDice | None:
        return self.taught if self.asking else None

    def teach(
        self,
        seen: Sequence[Sight],
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


def _with_sight(
    source: np.ndarray, sx: float, sy: float, die: Reading, feature: np.ndarray
) -> Reading:
    """The die read (box in frame px) with its sight: its feature, and its crop cut from
    ``source`` (the frame, or its detail at `sx` x `sy` times its size)."""
    from zonkcam.vision.preprocess import crop_die

    x0, y0, x1, y1 = die.bbox
    crop = crop_die(source, (x0 * sx, y0 * sy, x1 * sx, y1 * sy))
    return dataclasses.replace(die, sight=Sight(feature, crop))


def _source(image: np.ndarray, detail: np.ndarray | None) -> tuple[np.ndarray, float, float]:
    """What the dice are read from: the frame, or its detail where given; and how many
    times the frame's width and height that is."""
    if detail is None:
        return image, 1.0, 1.0
    return detail, detail.shape[1] / image.shape[1], detail.shape[0] / image.shape[0]


def _to_frame(
    bbox: tuple[float, ...], x0: float, y0: float, sx: float, sy: float
) -> tuple[float, float, float, float]:
    """A box read in a cut at (x0, y0) of the picture `sx` x `sy` times the frame's size,
    in frame px (to 0.1 px, as the reader gives them)."""
    return (
        round((bbox[0] + x0) / sx, 1),
        round((bbox[1] + y0) / sy, 1),
        round((bbox[2] + x0) / sx, 1),
        round((bbox[3] + y0) / sy, 1),
    )
