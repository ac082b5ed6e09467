"""Where zonkcam's shipped data lies: the ONNX models, the mat layouts and the systemd unit.

In an installed wheel they are inside the package (``zonkcam/models``,
``zonkcam/calibration``, ``zonkcam/systemd``: ``pyproject.toml`` maps them in); in a
checkout, and so in an editable install, they are the folders at the top of the
repository.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    """The shipped folder ``name`` (``models``, ``calibration`` or ``systemd``)."""
    inside = _PACKAGE / name
    return inside if inside.is_dir() else _PACKAGE.parent / name


MODELS = data_dir("models")
LAYOUTS = data_dir("calibration")
"""The built-in mat layouts (``a3.toml``, ``a2.toml``, ``a4.toml``, ``letter.toml``)."""
SYSTEMD = data_dir("systemd")
