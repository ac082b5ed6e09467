"""The table's own dice: the faces the scorekeeper taught, deciding a die or asking.

Every table has its own few dice (a colour, a pip shape, a face the nets never saw). A die
taught with its value - each face shown in "meet the dice", or a die the scorekeeper
confirmed or corrected - is an example: the value net's `features` of its crop (the
'features' output of dice_values.onnx: zonkcam.train.faces, a feature in which one value on
different dice lies closer than two values on one die, joined with the die's look) and
its value.

A crop read later is compared, by cosine similarity, with every example (`decide`):

- nearer than NEAR to none: a die like no taught die (a new die at the table) is read by
  the net alone (Verdict.NET);
- the nearest example's value is the net's and leads the nearest example of another value
  by CONFIRM: the taught face confirms the net, and the die is sure (Verdict.TAUGHT);
- the two differ, the nearest leading by MARGIN: the die is asked (Verdict.ASK), never
  guessed; it shows the net's value where the net is sure of it (NET_SURE), else the
  taught face's, so that the likelier answer is the one to confirm;
- anything else (two taught values about as near): the net's reading stands.

A taught face never changes a value without a question: where the two disagree, one of
them is wrong, and only a person can tell which.

Only the values 1-6 move: the net's 'not a die' probability is kept as it is, so teaching
never makes the reader see dice that are not there (nor miss ones that are).

A die's face is the same value turned a quarter (and mirrored: every die face is
symmetric so), so each taught crop can be taught in its eight turns (`turns`): one scene
then covers the ways the die may land.

Pure numpy, no I/O: one matrix product - well under a millisecond for a throw of six dice
against a full store (6 x MAX_PER_VALUE examples). Storage is zonkcam.mat.taught.
"""

from __future__ import annotations

from enum import IntEnum

import numpy as np

VALUES = 6
NEAR = 0.75
"""Least cosine similarity to an example for a crop to count as a taught die's face."""
MARGIN = 0.03
"""How much nearer the nearest example must be than the nearest of another value for a
disagreeing taught face to ask."""
CONFIRM = 0.1
"""How much nearer the nearest example must be than the nearest of another value for an
agreeing taught face to make the die sure."""
NET_SURE = 0.8
"""The net's P(value | a die) at or over which an asked die shows the net's value (under
it, the taught face's)."""
TAUGHT_SURE = 0.9
"""The confidence of a die its taught face confirms (the reader's confidence stays where
it is higher)."""
ASKED = 0.3
"""The confidence of a die that is asked: under any bar the table asks at."""
MAX_PER_VALUE = 192
"""Examples kept per value (the newest): a few KB each at float16, a night's rolls fit."""


class Verdict(IntEnum):
    """What the taught faces made of one die."""

    NET = 0
    """Like no taught die: the net's reading stands."""
    TAUGHT = 1
    """Its taught face confirms the net: the value is sure."""
    ASK = 2
    """The taught face and the net disagree: the die is asked."""


def taught_confidence(confidence: np.ndarray, verdicts: np.ndarray) -> np.ndarray:
    """The reader's confidences (N,) after the taught faces' verdicts (N,): at least
    TAUGHT_SURE where a taught face decides or confirms, at most ASKED where it asks."""
    out = np.asarray(confidence, np.float64).copy()
    v = np.asarray(verdicts)
    out[v == Verdict.TAUGHT] = np.maximum(out[v == Verdict.TAUGHT], TAUGHT_SURE)
    out[v == Verdict.ASK] = np.minimum(out[v == Verdict.ASK], ASKED)
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
    body colours (as read; kept for the record, not used in deciding)."""

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

    def decide(
        self, probs: np.ndarray, features: np.ndarray | None
    ) -> tuple[np.ndarray, np.ndarray]:
        """The value net's (N, 7) probabilities (0 = not a die, 1-6) of N crops and their
        features -> (probabilities, verdicts (N,) of Verdict). An asked die the net is
        unsure of shows its taught face's value: its probabilities put the net's die
        probability on it; elsewhere the probabilities are the net's. All NET with no
        examples, no features, or features of another size."""
        n = len(probs)
        verdicts = np.full(n, Verdict.NET, np.int8)
        if not len(self) or features is None or n == 0 or features.shape[1] != self.dim:
            return probs, verdicts
        sim = _normalised(features) @ self._features_t  # (N, M)
        nearest = np.argmax(sim, axis=1)
        rows = np.arange(n)
        best = sim[rows, nearest]
        taught = self.values[nearest].astype(np.int64)
        other = np.where(self.values[None, :] == taught[:, None], -2.0, sim)
        lead = best - other.max(axis=1)
        die = 1.0 - probs[:, 0]
        net = probs[:, 1:] / np.maximum(die, 1e-9)[:, None]
        read = np.argmax(net, axis=1) + 1
        sure = net[rows, read - 1] >= NET_SURE
        near = best >= NEAR
        agree = taught == read
        verdicts[near & agree & (lead >= CONFIRM)] = Verdict.TAUGHT
        asked = near & ~agree & (lead >= MARGIN)
        verdicts[asked] = Verdict.ASK
        out = probs.copy()
        shown = np.flatnonzero(asked & ~sure)
        if len(shown):
            out[shown, 1:] = 0.0
            out[shown, taught[shown]] = die[shown]
        return out, verdicts

    def nearest(self, features: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(N, D) features -> the nearest example's value (N,) and cosine similarity (N,);
        values 0 with nothing taught."""
        if not len(self) or len(features) == 0:
            return np.zeros(len(features), np.int64), np.zeros(len(features), np.float32)
        sim = _normalised(features) @ self._features_t
        k = np.argmax(sim, axis=1)
        return self.values[k].astype(np.int64), sim[np.arange(len(k)), k]
