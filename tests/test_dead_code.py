"""Nothing in the package is dead: every module-level function and class of zonkcam is
used somewhere (the package, its tests, scripts or examples, or named in pyproject.toml
or the Makefile)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import zonkcam

ROOT = Path(zonkcam.__file__).parents[1]
WHERE = ("zonkcam", "tests", "scripts", "examples")
NAMED_IN = ("pyproject.toml", "Makefile")


def _used() -> tuple[dict[Path, set[str]], set[str]]:
    """The names each file reads, and the names used from anywhere: imported, read as an
    attribute of something other than self or cls, or written in a string."""
    local: dict[Path, set[str]] = {}
    anywhere: set[str] = set()
    for folder in WHERE:
        for path in (ROOT / folder).rglob("*.py"):
            names: set[str] = set()
            for n in ast.walk(ast.parse(path.read_text())):
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
                    names.add(n.id)
                elif isinstance(n, ast.Attribute):
                    if not (isinstance(n.value, ast.Name) and n.value.id in ("self", "cls")):
                        anywhere.add(n.attr)
                elif isinstance(n, ast.alias):
                    anywhere.add(n.name.split(".")[-1])
                elif isinstance(n, ast.Constant) and isinstance(n.value, str):
                    anywhere.update(re.findall(r"[A-Za-z_]\w*", n.value))
            local[path] = names
    for name in NAMED_IN:
        anywhere.update(re.findall(r"[A-Za-z_]\w*", (ROOT / name).read_text()))
    return local, anywhere


def test_every_function_and_class_of_the_package_is_used():
    local, anywhere = _used()
    unused = [
        f"{path.relative_to(ROOT)}:{node.lineno} {node.name}"
        for path in sorted((ROOT / "zonkcam").rglob("*.py"))
        for node in ast.parse(path.read_text()).body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        and not (node.name.startswith("__") and node.name.endswith("__"))
        and node.name not in local[path]
        and node.name not in anywhere
    ]
    assert not unused, "never used: " + ", ".join(unused)
