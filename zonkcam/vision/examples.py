"""The table's own dice: the faces the scorekeeper taught, and the dice they ask about.

Every table has its own few dice (a colour, a pip shape, a face the nets never saw). A die
taught with its value - each face shown in "meet the dice", or a die the scorekeeper
confirmed or corrected - is an example: the value net's `features` of its crop (the
'features' output of dice_values.onnx: zonkcam.train.faces, a feature trained so that one
value on different dice lies closer than two values on one die, joined with the die's
look) and its value.

A crop read later is compared, by cosine similarity, with every example (`asks`): where
its nearest example is of another value than the net reads, leading the nearest example
of the net's value by MARGIN, the die is asked - its confidence drops under the table's
bar (ASKED), its value stays the net's - never guessed. Elsewhere the net's reading
stands: a die like no taught die (nearer than NEAR to none: a new die at the table), a
die whose taught face agrees with the net, or one whose taught faces are as near for two
values.

A taught face never changes a value, nor makes a die sure: on dice the nets never saw, the
nearest taught face agrees with about half of the net's mistakes (docs/reader.md), so
agreement is no proof; a disagreement says that one of them is wrong, and only a person
can tell which.

The net's probabilities are kept as they are, so teaching never makes the reader see dice
that are not there (nor miss ones that are).

A die's face is the same value turned a quarter (and mirrored: every die face is
symmetric so), so each taught crop can be taught in its eight turns (`turns`): one scene
then covers the ways the die may land.

Pure numpy, no I/O: one matrix product - well under a millisecond for a throw of six dice
against a full store (6 x MAX_PER_VALUE examples). Storage is zonkcam.mat.taught.
"""

from __future__ import annotations

import numpy as np

VALUES = 6
NEAR = 0.75
"""Least cosine similarity to an example for a crop to count as a taught die's face."""
MARGIN = 0.0
"""How much nearer the nearest example (of another value than the net reads) must be than
the nearest of the net's value for the die to be asked."""
ASKED = 0.3
"""The confidence of a die that is asked: under any bar the table asks at."""
MAX_PER_VALUE = 192
"""Examples kept per value (the newest): a few KB each at float16, a night's rolls fit."""


def asked_confidence(confidence: np.ndarray, asked: np.ndarray) -> np.ndarray:
    """The reader's confidences (N,) with the dice its taught faces ask about (N,) bool
    brought to at most ASKED."""
    out = np.asarray(confidence, np.float64).copy()
    mask = np.asarray(asked, bool)
    out[mask] = np.minimum(out[mask], ASKED)
    return out


def _normalised(features: np.ndarray) -> np.ndarray:
    f = np.asarray(features, np.float32).reshape(len(features), -1)
    return f / np.maximum(np.linalg.norm(f, axis=1, keepdims=True), 1e-6)


def turns(crops: np.ndarray) -> np.ndarray:
    """(N, H, W, 3) crops -> (8N, H, W, 3): each crop in its four quarter turns, and those
    mirrored; a die's value reads the same in all eight."""
    c = np.asarray(crops)
    out = [np.rot90(c, k, axes=(1, 2)) for k in range(4)]
    out += [o[:, :, ::-1] for o in out]
    return np.ascontiguousarray(np.stack(out, axis=1).reshape(-1, *c.shape[1:]))


class TaughtDice:
    """A table's taught dice: L2-normalised features (M, D), their values (M,) 1-6 and
    body colours (as read; kept for the record, not used in asking)."""

    def __init__(
        self,
        features: np.ndarray | None = None,
        values: np.ndarray | None = None,
        colours: list[str | None] | None = None,
    ) -> None:
        self.features = np.zeros((0, 0), np.float32)
        self.values = np.zeros(0, np.int8)
        self.colours: list[str | None] = []
        if features is not None and values is not None and len(values):
            self.teach(features, values, colours)

    def __len__(self) -> int:
        return len(self.values)

    @property
    def dim(self) -> int:
        """The feature's length (0 while nothing is taught)."""
        return self.features.shape[1] if len(self) else 0

    def counts(self) -> dict[int, int]:
        """Examples per value, values 1-6."""
        return {v: int((self.values == v).sum()) for v in range(1, VALUES + 1)}

    def teach(
        self,
        features: np.ndarray,
        values: np.ndarray | list[int],
        colours: list[str | None] | None = None,
    ) -> int:
        """Add examples (features (N, D), values (N,) in 1-6); returns how many were added.
        The oldest examples of a value beyond MAX_PER_VALUE are dropped."""
        vals = np.asarray(values, np.int64).reshape(-1)
        if len(vals) == 0:
            return 0
        if vals.min() < 1 or vals.max() > VALUES:
            raise ValueError(f"a taught die shows 1 to {VALUES}, not {sorted(set(vals))}")
        feats = _normalised(features)
        if len(feats) != len(vals):
            raise ValueError(f"{len(feats)} features for {len(vals)} values")
        if len(self) and feats.shape[1] != self.dim:
            raise ValueError(
                f"features of {feats.shape[1]} values do not match the taught {self.dim} "
                "(another value net?)"
            )
        cols = list(colours) if colours is not None else [None] * len(vals)
        if len(cols) != len(vals):
            raise ValueError(f"{len(cols)} colours for {len(vals)} values")
        feats_all = np.concatenate([self.features, feats]) if len(self) else feats
        vals_all = np.concatenate([self.values.astype(np.int64), vals])
        cols_all = self.colours + cols
        keep = np.ones(len(vals_all), bool)
        for v in range(1, VALUES + 1):
            idx = np.flatnonzero(vals_all == v)
            keep[idx[: max(0, len(idx) - MAX_PER_VALUE)]] = False
        self.features = np.ascontiguousarray(feats_all[keep], np.float32)
        self.values = vals_all[keep].astype(np.int8)
        self.colours = [c for c, k in zip(cols_all, keep, strict=True) if k]
        # what every decision uses, laid out once: (D, M)
        self._features_t = np.ascontiguousarray(self.features.T)
        return len(vals)

    def asks(self, probs: np.ndarray, features: np.ndarray | None) -> np.ndarray:
        """Which of N crops (the value net's (N, 7) probabilities, 0 = not a die, 1-6, and
        their (N, D) features) the taught faces ask about: (N,) bool. None asked with no
        examples, no features, or features of another size."""
        n = len(probs)
        if not len(self) or features is None or n == 0 or features.shape[1] != self.dim:
            return np.zeros(n, bool)
        sim = _normalised(features) @ self._features_t  # (N, M)
        read = np.argmax(probs[:, 1:], axis=1) + 1
        of_read = self.values[None, :] == read[:, None]
        for_read = np.where(of_read, sim, -2.0).max(axis=1)
        for_other = np.where(of_read, -2.0, sim).max(axis=1)
        return (np.maximum(for_read, for_other) >= NEAR) & (for_other - for_read > MARGIN)

    def nearest(self, features: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(N, D) features -> the nearest example's value (N,) and cosine similarity (N,);
        values 0 with nothing taught."""
        if not len(self) or len(features) == 0:
            return np.zeros(len(features), np.int64), np.zeros(len(features), np.float32)
        sim = _normalised(features) @ self._features_t
        k = np.argmax(sim, axis=1)
        return self.values[k].astype(np.int64), sim[np.arange(len(k)), k]
