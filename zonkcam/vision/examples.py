"""The table's own dice: a small head fitted on the examples the scorekeeper confirmed.

Every table has its own dice (a colour, a pip shape, a face the nets never saw). A die the
scorekeeper confirmed or corrected is an example: the value net's pooled feature of its
crop (the 'features' output of dice_values.onnx, zonkcam.train.features), its value, and
what the net made of it (its value distribution, the example's prior).

The examples fit the table's own head on the net's features: a logistic regression over
the values 1-6 with the net's answer as its starting point,

    logit(value | crop) = log P_net(value | crop) + w_value . feature(crop)

fitted on every example (each die taught in its eight turns) with an L2 penalty on the
w (PENALTY). Where the net read the taught dice right the head learns next to nothing;
where it misread them, the w learn the directions of the feature that tell this table's
values apart, a little from one die, more as examples come. A value with no example keeps
w = 0: the head never pulls a crop towards a value it was not shown. Only the values 1-6
move: the net's 'not a die' probability is kept as it is, so teaching never makes the
reader see dice that are not there (nor miss ones that are).

A die's face is the same value turned a quarter (and mirrored: every die face is
symmetric so), so each taught crop can be taught in its eight turns (`turns`): one throw
then covers the ways the die may land.

Pure numpy, no I/O. The head is fitted on the first read after a lesson (a few ms for a
full store, 6 x MAX_PER_VALUE examples), then each read costs one small matrix product.
Storage is zonkcam.mat.taught.
"""

from __future__ import annotations

import numpy as np

VALUES = 6
PENALTY = 1.0
"""The L2 penalty on the head's weights, against a loss summed over the examples: one die
taught in its eight turns moves a reading the net was unsure of, and a reading the net
was sure of needs several."""
FLOOR = 1e-3
"""The net's value probabilities are floored at this before the head adds to their logs
(and renormalised): a value the net all but ruled out stays within the head's reach."""
MAX_PER_VALUE = 96
"""Examples kept per value (the newest): a few KB each at float16, a night's rolls fit."""
FIT_STEPS = 300
"""At most this many steps of the fit (it stops once the weights settle)."""
SETTLED = 1e-3
"""The fit stops when no weight moved more than this in a step."""


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


def value_distribution(probs: np.ndarray) -> np.ndarray:
    """The value net's (N, 7) probabilities -> its (N, 6) distribution over the values
    1-6 given a die (column 0, 'not a die', set aside)."""
    p = np.asarray(probs, np.float64)[:, 1:]
    return p / np.maximum(p.sum(axis=1, keepdims=True), 1e-12)


def _offset(values: np.ndarray) -> np.ndarray:
    """(N, 6) value distributions -> the logs the head adds to (floored at FLOOR)."""
    p = np.maximum(np.asarray(values, np.float64), FLOOR)
    return np.log(p / p.sum(axis=1, keepdims=True))


def _softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _bound_inverse(x: np.ndarray, penalty: float) -> np.ndarray:
    """(1/2 X'X + penalty I)^-1 (D, D) for features X (M, D); through the M x M matrix
    (Woodbury) when there are fewer examples than dimensions."""
    m, d = x.shape
    if m >= d:
        return np.linalg.inv(0.5 * (x.T @ x) + penalty * np.eye(d, dtype=x.dtype))
    small = np.linalg.inv(2.0 * penalty * np.eye(m, dtype=x.dtype) + x @ x.T)
    return (np.eye(d, dtype=x.dtype) - x.T @ small @ x) / penalty


def fit_head(
    features: np.ndarray,
    values: np.ndarray,
    priors: np.ndarray,
    penalty: float = PENALTY,
) -> np.ndarray:
    """The head's weights (6, D) for examples (L2-normalised features (M, D), values (M,)
    1-6, the net's value distributions (M, 6)): the minimum of the summed cross-entropy of
    softmax(log prior + w . feature) plus penalty / 2 x |w|^2, the rows of values with
    no example held at 0.

    The loss's curvature in w is at most 1/2 X'X + penalty (X the features), the same for
    every value, so each step moves by the gradient through the inverse of that bound
    (majorise-minimise, never overshooting) with Nesterov's momentum, restarted when a
    step turns back."""
    x = np.asarray(features, np.float32)
    m, d = x.shape
    head = np.zeros((VALUES, d), np.float32)
    taught = np.unique(np.asarray(values, np.int64)) - 1
    if m == 0:
        return head
    target = np.eye(VALUES, dtype=np.float32)[np.asarray(values, np.int64) - 1][:, taught]
    offset = _offset(priors).astype(np.float32)
    step = _bound_inverse(x, penalty)
    w = np.zeros((len(taught), d), np.float32)
    ahead = w
    momentum = 1.0
    for _ in range(FIT_STEPS):
        logits = offset.copy()
        logits[:, taught] += x @ ahead.T
        grad = (_softmax(logits)[:, taught] - target).T @ x + penalty * ahead
        moved = ahead - grad @ step
        if np.sum((moved - w) * (ahead - moved)) > 0:  # turned back: momentum off
            momentum = 1.0
        nxt = (1 + np.sqrt(1 + 4 * momentum**2)) / 2
        ahead = moved + (momentum - 1) / nxt * (moved - w)
        change = np.abs(moved - w).max()
        w, momentum = moved, nxt
        if change < SETTLED:
            break
    head[taught] = w
    return head


class TaughtDice:
    """A table's taught dice: L2-normalised features (M, D), their values (M,) 1-6, the
    net's value distribution of each (priors (M, 6); uniform where it is not known) and
    body colours (as read; kept for the record, not used in the head)."""

    def __init__(
        self,
        features: np.ndarray | None = None,
        values: np.ndarray | None = None,
        colours: list[str | None] | None = None,
        priors: np.ndarray | None = None,
    ) -> None:
        self.features = np.zeros((0, 0), np.float32)
        self.values = np.zeros(0, np.int8)
        self.priors = np.zeros((0, VALUES), np.float32)
        self.colours: list[str | None] = []
        self._head: np.ndarray | None = None
        if features is not None and values is not None and len(values):
            self.teach(features, values, colours, priors)

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
        priors: np.ndarray | None = None,
    ) -> int:
        """Add examples (features (N, D), values (N,) in 1-6, the net's value distribution
        of each (N, 6), None: not known); returns how many were added. The oldest examples
        of a value beyond MAX_PER_VALUE are dropped."""
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
        if priors is None:
            prior = np.full((len(vals), VALUES), 1.0 / VALUES)
        else:
            prior = np.asarray(priors, np.float64).reshape(len(vals), VALUES)
            if not np.all(np.isfinite(prior)) or prior.min() < 0:
                raise ValueError("a prior is not a distribution over the values")
            prior = prior / np.maximum(prior.sum(axis=1, keepdims=True), 1e-12)
        feats_all = np.concatenate([self.features, feats]) if len(self) else feats
        vals_all = np.concatenate([self.values.astype(np.int64), vals])
        priors_all = np.concatenate([self.priors, prior])
        cols_all = self.colours + cols
        keep = np.ones(len(vals_all), bool)
        for v in range(1, VALUES + 1):
            idx = np.flatnonzero(vals_all == v)
            keep[idx[: max(0, len(idx) - MAX_PER_VALUE)]] = False
        self.features = np.ascontiguousarray(feats_all[keep], np.float32)
        self.values = vals_all[keep].astype(np.int8)
        self.priors = np.ascontiguousarray(priors_all[keep], np.float32)
        self.colours = [c for c, k in zip(cols_all, keep, strict=True) if k]
        self._head = None  # fitted again on the next read
        return len(vals)

    def head(self) -> np.ndarray:
        """The table's head (6, D), fitted on the examples (fit_head) once per lesson."""
        if self._head is None:
            self._head = fit_head(self.features, self.values, self.priors).astype(np.float32)
        return self._head

    def blend(self, probs: np.ndarray, features: np.ndarray | None) -> np.ndarray:
        """The value net's (N, 7) probabilities (0 = not a die, 1-6) with the table's head
        applied to the values 1-6: P(value) in proportion to the net's P(value) (floored
        at FLOOR) x exp(w_value . feature); P(not a die) as the net's. Unchanged with no
        examples, no features, or features of another size."""
        if not len(self) or features is None or len(probs) == 0 or features.shape[1] != self.dim:
            return probs
        die = 1.0 - probs[:, 0:1]
        logits = _offset(value_distribution(probs)) + _normalised(features) @ self.head().T
        out = probs.copy()
        out[:, 1:] = (_softmax(logits) * die).astype(probs.dtype)
        return out
