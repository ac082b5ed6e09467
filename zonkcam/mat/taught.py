"""The table's taught dice on disk: ``taught-dice.npz`` beside the calibration.

What the scorekeeper taught the table (zonkcam.vision.examples.TaughtDice) belongs to
that table - its dice, its lamp, its camera - as the calibration does, so it is stored
beside it and forgotten with ``--forget-dice``. Under 700 KB (float16 features). The file
names the value net it was taught with (a hash of dice_values.onnx): features of another
net mean nothing, so those examples are set aside, not compared.
"""

from __future__ import annotations

import hashlib
import io
import lzma
import zipfile
import zlib
from pathlib import Path

import numpy as np

from zonkcam.errors import UserError
from zonkcam.fileio import open_to_read, write_whole
from zonkcam.vision.examples import MAX_PER_VALUE, VALUES, TaughtDice

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
    write_whole(path, buf.getvalue())


MAX_EXAMPLES = VALUES * MAX_PER_VALUE
"""The most examples a taught-dice file holds (TaughtDice keeps no more)."""
MAX_FEATURES = 4096
"""The longest feature a taught-dice file may hold (the value net's are a few hundred)."""
MAX_MEMBER_BYTES = MAX_EXAMPLES * MAX_FEATURES * 2 + 4096
"""The most one array of a taught-dice file may take once unpacked (float16 features)."""
MEMBERS = {
    # name: (dtype kinds allowed, dimensions, the most items along each)
    "format": ("U", 0, ()),
    "model": ("U", 0, ()),
    "features": ("f", 2, (MAX_EXAMPLES, MAX_FEATURES)),
    "values": ("iu", 1, (MAX_EXAMPLES,)),
    "colours": ("U", 1, (MAX_EXAMPLES,)),
}
"""The arrays of a taught-dice file and the shapes they may have."""
MAX_TEXT = 64
"""The most characters in one of its texts (its format, its net's hash, a colour)."""


def _read_member(archive: zipfile.ZipFile, name: str) -> np.ndarray:
    """One array of the file, its header read (numpy's own reader) and checked against
    MEMBERS before anything the size of its data is allocated: ValueError when it is
    missing, another kind, another shape or larger than the file's limits."""
    kinds, ndim, most = MEMBERS[name]
    try:
        info = archive.getinfo(name + ".npy")
    except KeyError:
        raise ValueError(f"it has no {name}") from None
    if info.file_size > MAX_MEMBER_BYTES:
        raise ValueError(
            f"its {name} unpack to {info.file_size:,} bytes, over {MAX_MEMBER_BYTES:,}"
        )
    with archive.open(info) as f:
        version = np.lib.format.read_magic(f)
        if version == (1, 0):
            shape, fortran, dtype = np.lib.format.read_array_header_1_0(f)
        elif version == (2, 0):
            shape, fortran, dtype = np.lib.format.read_array_header_2_0(f)
        else:
            raise ValueError(f"its {name} is in numpy format {version[0]}.{version[1]}")
        if dtype.kind not in kinds or dtype.hasobject or dtype.names is not None:
            raise ValueError(f"its {name} are of the wrong type ({dtype.str})")
        if dtype.kind == "U" and dtype.itemsize > 4 * MAX_TEXT:
            raise ValueError(f"its {name} hold texts longer than {MAX_TEXT} characters")
        if len(shape) != ndim or any(n > limit for n, limit in zip(shape, most, strict=True)):
            raise ValueError(
                f"its {name} have shape {shape}, not {ndim} dimensions of at most "
                + " x ".join(f"{n:,}" for n in most)
                if ndim
                else f"its {name} is not one value"
            )
        count = int(np.prod(shape, dtype=np.int64))
        data = f.read(count * dtype.itemsize)
    if len(data) != count * dtype.itemsize:
        raise ValueError(f"its {name} are cut short")
    return np.frombuffer(data, dtype).reshape(shape, order="F" if fortran else "C")


def load_taught(path: str | Path, fingerprint: str | None = None) -> tuple[TaughtDice, str]:
    """The taught dice at `path` and a note for the log ("" when there is nothing to say).
    No file: nothing taught. A file of another value net (`fingerprint` differs): nothing
    taught, and the note says so. A damaged file, one over its limits (MAX_BYTES on disk,
    MEMBERS' shapes, MAX_MEMBER_BYTES unpacked) or not a regular file (a pipe, a device):
    TaughtDiceError, one line. Never unpickles."""
    path = Path(path)
    try:
        with open_to_read(path) as f:
            raw = f.read(MAX_BYTES + 1)
    except FileNotFoundError:
        return TaughtDice(), ""
    except OSError as exc:
        raise TaughtDiceError(
            f"cannot read the taught dice {path} ({exc.strerror or exc}); {FORGET_HINT}"
        ) from None
    try:
        if len(raw) > MAX_BYTES:
            raise ValueError(f"over {MAX_BYTES // 2**20} MB")
        with zipfile.ZipFile(io.BytesIO(raw)) as archive:
            arrays = {name: _read_member(archive, name) for name in MEMBERS}
        if str(arrays["format"]) != FORMAT:
            raise ValueError("not a zonkcam taught-dice file")
        model = str(arrays["model"])
        features = np.asarray(arrays["features"], np.float32)
        values = np.asarray(arrays["values"])
        colours = [str(c) or None for c in arrays["colours"]]
        if len(features) != len(values) or len(colours) != len(values):
            raise ValueError("its features, values and colours do not match")
        if not np.all(np.isfinite(features)):
            raise ValueError("its features are not numbers")
        if len(values) and (values.min() < 1 or values.max() > VALUES):
            raise ValueError("a value is not 1-6")
    except (
        ValueError,
        TypeError,
        OSError,
        EOFError,
        RuntimeError,  # an encrypted member, a compression zipfile does not know
        zlib.error,
        lzma.LZMAError,
        zipfile.BadZipFile,
        zipfile.LargeZipFile,
    ) as exc:
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
    """One line: the dice taught and their faces (``6 dice, every face (288 taught
    examples)``, ``6 dice; faces 1, 2, 3 (144 taught examples)``). A die met face by face is
    taught in its eight turns, so a face's dice are its examples / 8 (at least 1); the line
    gives the most dice any face was taught."""
    if not len(taught):
        return "no taught dice"
    counts = taught.counts()
    faces = [v for v in range(1, VALUES + 1) if counts[v]]
    dice = max(-(-counts[v] // 8) for v in faces)
    return (
        f"{dice} {'die' if dice == 1 else 'dice'}"
        + (", every face" if len(faces) == VALUES else "; faces " + ", ".join(map(str, faces)))
        + f" ({len(taught)} taught examples)"
    )
