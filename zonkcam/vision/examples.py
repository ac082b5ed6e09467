"""The table's own dice: examples the scorekeeper confirmed, blended with the value net.

Every table has its own dice (a colour, a pip shape, a face the nets never saw). A die the
scorekeeper confirmed or corrected is an example: the value net's pooled feature of its
crop (the 'features' output of dice_values.onnx, zonkcam.train.features) and its value.
A crop read later is compared, by cosine similarity, with each value's taught examples;
each example near enough adds evidence for its value (a kernel: about 1 for a
near-identical crop, nothing for one that merely looks like a die, CLOSENESS), and the
value distribution becomes the net's own plus WEIGHT x the evidence, renormalised. With no
example near a crop the net's answer stands; the same die showing the same face under the
same lamp - what a table sees all night - is read as it was taught. Only the
values 1-6 move: the net's 'not a die' probability is kept as it is, so teaching never
makes the reader see dice that are not there (nor miss ones that are).

A die's face is the same value turned a quarter (and mirrored: every die face is
symmetric so), so each taught crop can be taught in its eight turns (`turns`): one throw
then covers the ways the die may land.

Pure numpy, no I/O: the blend is two small matrix products - about 0.1 ms for a throw of
six dice against a full store (6 x MAX_PER_VALUE examples), against the reader's ~15 ms. Storage is
zonkcam.mat.taught.
"""

from __future__ import annotations

import numpy as np

VALUES = 6
CLOSENESS = 0.02
"""How near (1 - cosine similarity) a crop must be to an example for it to count: an
example at distance d adds exp(-d / CLOSENESS) to its value's evidence. The features are
non-negative (cosines 0-1); the same value of one dice set lies about 0.03-0.1 apart,
different values about 0.2-0.5 (real photos, docs/reader.md)."""
WEIGHT = 1.0
"""One near-identical example weighs as much as the net's whole value distribution."""
MAX_PER_VALUE = 96
"""Examples kept per value (the newest): a few KB each at float16, a night's rolls fit."""


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
    body colours (as read; kept for the record, not used in the blend)."""

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
        # what every blend uses, laid out once: (D, M) and the values one-hot (M, 6)
        self._features_t = np.ascontiguousarray(self.features.T)
        self._one_hot = np.eye(VALUES, dtype=np.float32)[self.values.astype(np.int64) - 1]
        return len(vals)

    def evidence(self, features: np.ndarray, closeness: float = CLOSENESS) -> np.ndarray:
        """(N, D) features -> (N, 6): for each value, the sum over its examples of
        exp((cosine similarity - 1) / closeness) - about 1 per near-identical example,
        nothing from examples that merely look like a die."""
        if not len(self):
            return np.zeros((len(features), VALUES), np.float32)
        kernel = np.exp((_normalised(features) @ self._features_t - 1.0) / closeness)
        return kernel @ self._one_hot

    def blend(
        self,
        probs: np.ndarray,
        features: np.ndarray | None,
        closeness: float = CLOSENESS,
        weight: float = WEIGHT,
    ) -> np.ndarray:
        """The value net's (N, 7) probabilities (0 = not a die, 1-6) with the taught dice
        mixed into the values 1-6: P(value) in proportion to the net's P(value) + weight x
        evidence. Unchanged with no examples, no features, or features of another size."""
        if not len(self) or features is None or len(probs) == 0 or features.shape[1] != self.dim:
            return probs
        die = 1.0 - probs[:, 0:1]
        net = probs[:, 1:] / np.maximum(die, 1e-9)  # the net's value distribution
        values = net + weight * self.evidence(features, closeness)
        values /= values.sum(axis=1, keepdims=True)
        out = probs.copy()
        out[:, 1:] = (values * die).astype(probs.dtype)
        return out
