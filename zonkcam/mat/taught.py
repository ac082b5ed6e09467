"""The table's taught dice on disk: ``taught-dice.npz`` beside the calibration.

What the scorekeeper taught the table (zonkcam.vision.examples.TaughtDice) belongs to
that table - its dice, its lamp, its camera - as the calibration does, so it is stored
beside it and forgotten with ``--forget-dice``. A few hundred KB at most (float16
features). The file names the value net it was taught with (a hash of dice_values.onnx):
features of another net mean nothing, so those examples are set aside, not blended.
"""

from __future__ import annotations

import hashlib
import io
import zipfile
from pathlib import Path

import numpy as np

from zonkcam.errors import UserError
from zonkcam.vision.examples import VALUES, TaughtDice

FILE_NAME = "taught-dice.npz"
FORMAT = "zonkcam-taught-dice-1"
MAX_BYTES = 16 * 2**20
FORGET_HINT = "forget it with --forget-dice"


class TaughtDiceError(UserError):
    """A taught-dice file that cannot be used."""


def taught_dice_path(calibration_path: str | Path) -> Path:
    """Where the table's taught dice live: beside its calibration file."""
    return Path(calibration_path).with_name(FILE_NAME)


def model_fingerprint(values_model: str | Path) -> str:
    """A short hash of the value net's file: the examples' features are that net's."""
    return hashlib.sha256(Path(values_model).read_bytes()).hexdigest()[:16]


def save_taught(path: str | Path, taught: TaughtDice, fingerprint: str) -> None:
    """Write `taught` to `path` (atomically: never a half-written file)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    buf = io.BytesIO()
    np.savez_compressed(
        buf,
        format=np.array(FORMAT),
        model=np.array(fingerprint),
        features=taught.features.astype(np.float16),
        values=taught.values.astype(np.int8),
        colours=np.array(["" if c is None else c for c in taught.colours], dtype=np.str_),
    )
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(buf.getvalue())
    tmp.replace(path)


def load_taught(path: str | Path, fingerprint: str | None = None) -> tuple[TaughtDice, str]:
    """The taught dice at `path` and a note for the log ("" when there is nothing to say).
    No file: nothing taught. A file of another value net (`fingerprint` differs): nothing
    taught, and the note says so. A damaged file: TaughtDiceError, one line."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return TaughtDice(), ""
    except OSError as exc:
        raise TaughtDiceError(
            f"cannot read the taught dice {path} ({exc.strerror or exc}); {FORGET_HINT}"
        ) from None
    try:
        if len(raw) > MAX_BYTES:
            raise ValueError(f"over {MAX_BYTES // 2**20} MB")
        with np.load(io.BytesIO(raw), allow_pickle=False) as data:
            if str(data["format"]) != FORMAT:
                raise ValueError("not a zonkcam taught-dice file")
            model = str(data["model"])
            features = np.asarray(data["features"], np.float32)
            values = np.asarray(data["values"])
            colours = [str(c) or None for c in data["colours"]]
        if features.ndim != 2 or len(features) != len(values) or len(colours) != len(values):
            raise ValueError("its features, values and colours do not match")
        if not np.all(np.isfinite(features)):
            raise ValueError("its features are not numbers")
        if len(values) and (values.min() < 1 or values.max() > VALUES):
            raise ValueError("a value is not 1-6")
    except (KeyError, ValueError, TypeError, OSError, EOFError, zipfile.BadZipFile) as exc:
        raise TaughtDiceError(
            f"taught dice file {path} is damaged ({exc}); {FORGET_HINT}"
        ) from None
    if fingerprint is not None and model != fingerprint:
        return TaughtDice(), (
            f"the taught dice in {path} were taught with another value net: "
            "not used (teach them again: --meet-dice)"
        )
    return TaughtDice(features, values, colours), ""


def forget_taught(path: str | Path) -> bool:
    """Forget the table's taught dice; returns whether there were any."""
    path = Path(path)
    try:
        path.unlink()
    except FileNotFoundError:
        return False
    except OSError as exc:
        raise TaughtDiceError(f"cannot forget the taught dice {path} ({exc})") from None
    return True


def describe(taught: TaughtDice) -> str:
    """One line: how many examples of each value."""
    if not len(taught):
        return "no taught dice"
    counts = taught.counts()
    return (
        f"{len(taught)} taught examples ("
        + ", ".join(f"{v}: {counts[v]}" for v in range(1, VALUES + 1))
        + ")"
    )
