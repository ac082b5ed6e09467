"""Every error zonkcam raises on purpose is a ZonkcamError (zonkcam/errors.py), the one
root the CLI catches; each family keeps the built-in base it is caught by elsewhere."""

from __future__ import annotations

import ast
import builtins
import importlib
import inspect
from pathlib import Path

import pytest

import zonkcam
from zonkcam.errors import UserError, WriteFailed, ZonkcamError
from zonkcam.game import RulesError, TableError
from zonkcam.game.sizes import TableTooLarge
from zonkcam.record.errors import StoreError
from zonkcam.streams import StreamError
from zonkcam.vision import ImageFileError

ROOT = Path(zonkcam.__file__).parent
BUILTIN_ERRORS = {
    name
    for name, obj in vars(builtins).items()
    if isinstance(obj, type) and issubclass(obj, BaseException)
}


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _defined_errors(path: Path) -> list[str]:
    """Each exception class the module at `path` defines, or where it needs an extra that
    is not installed (torch: the lab), each class it defines on a built-in exception alone."""
    module = _module(path)
    try:
        loaded = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if (exc.name or "").startswith("zonkcam"):
            raise
        return [
            f"{module}.{node.name}"
            for node in ast.walk(ast.parse(path.read_text()))
            if isinstance(node, ast.ClassDef)
            and {b.id for b in node.bases if isinstance(b, ast.Name)} <= BUILTIN_ERRORS
            and any(isinstance(b, ast.Name) for b in node.bases)
        ]
    return [
        f"{module}.{name}"
        for name, obj in vars(loaded).items()
        if inspect.isclass(obj)
        and issubclass(obj, BaseException)
        and obj.__module__ == module
        and not issubclass(obj, ZonkcamError)
    ]


def test_every_error_class_in_zonkcam_is_a_zonkcam_error():
    wrong = [
        name
        for path in sorted(ROOT.rglob("*.py"))
        if path.name != "__main__.py"  # running it runs the CLI
        for name in _defined_errors(path)
    ]
    assert not wrong, "not under ZonkcamError: " + ", ".join(wrong)


@pytest.mark.parametrize(
    ("family", "base"),
    [
        (UserError, Exception),
        (StoreError, UserError),
        (TableError, ValueError),
        (RulesError, ValueError),
        (TableTooLarge, ValueError),
        (WriteFailed, OSError),
        (StreamError, Exception),
        (ImageFileError, Exception),
    ],
)
def test_each_family_keeps_its_own_base(family, base):
    assert issubclass(family, ZonkcamError) and issubclass(family, base)


def test_a_write_failed_is_still_an_os_error_with_its_file():
    exc = WriteFailed(28, "No space left on device", "/card/game.sqlite3")
    assert (exc.errno, exc.filename) == (28, "/card/game.sqlite3")
    assert str(exc) == "cannot write /card/game.sqlite3: No space left on device"
