"""A stand-in dice reader for tests: it reports what the demo table drew."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from zonkcam.game.dice import COLOUR_NAMES, Die
from zonkcam.sim.demo_table import DemoTable
from zonkcam.vision.die import Reading, Sight


class TruthReader:
    """A stand-in dice reader that reports exactly what the demo table drew in the frame it
    gave last: for testing and timing the table logic apart from the learned reader. A die
    the table's script coloured with a name of its own (a body the mat's colour, say) is
    reported with no colour, as the reader names only the colours of the one list.

    ``sights``: each reading carries a sight, as the table's reader's do (to teach the
    table with): a feature drawn from the die's box (the same box, the same feature) and a
    blank crop."""

    def __init__(self, table: DemoTable, sights: bool = False) -> None:
        self.table = table
        self.sights = sights

    def __call__(
        self, image: np.ndarray, region: tuple[int, int, int, int] | None = None
    ) -> list[Reading]:
        frame = self.table.last
        assert frame is not None and frame.image is image, "read the table's latest frame"
        t = frame.truth
        return [
            Reading(
                Die(d.value, d.color if d.color in COLOUR_NAMES else None),
                1.0,
                b,
                box_sight(b) if self.sights else None,
            )
            for d, b in zip(t.dice, t.boxes, strict=True)
            if region is None or _inside(b, region)
        ]


SIGHT_FEATURES = 16
"""The length of a stand-in sight's feature."""


def box_sight(box: Sequence[float]) -> Sight:
    """A stand-in sight of the die in ``box``: a feature drawn from where the box lies (the
    same box, the same feature) and a blank crop."""
    seed = int(box[0]) * 1000 + int(box[1])
    feature = np.random.default_rng(seed).uniform(0, 1, SIGHT_FEATURES).astype(np.float32)
    return Sight(feature, np.zeros((64, 64, 3), np.uint8))


def _inside(box: Sequence[float], region: tuple[int, int, int, int]) -> bool:
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return region[0] <= cx < region[2] and region[1] <= cy < region[3]
