"""The package's architecture holds: no import cycles, and nothing imports from a layer
above its own (the rules engine and the reader never from the app, the screen never from
the GPIO layer)."""

from __future__ import annotations

import ast
from pathlib import Path

import zonkcam

ROOT = Path(zonkcam.__file__).parent

LAYERS = [
    {"errors", "data", "fileio"},
    {"game"},
    {"advisor", "controls", "vision"},
    {"train", "mat"},
    {"sources"},
    {"table", "record"},
    {"hardware", "display"},
    {"app"},
    {"commands", "cli", "__main__"},
]
"""Bottom up: a module may import from its own package and from layers below."""
PURE = {"game", "advisor", "vision"}
"""Packages that never touch hardware or the screen."""


def _layer(module: str) -> int:
    top = module.split(".")[1] if "." in module else module
    for k, layer in enumerate(LAYERS):
        if top in layer:
            return k
    raise AssertionError(f"zonkcam.{top} belongs to no layer of the architecture")


def _modules() -> dict[str, set[str]]:
    """Every zonkcam module and the zonkcam modules it imports (at any depth of its code)."""
    graph: dict[str, set[str]] = {}
    for path in ROOT.rglob("*.py"):
        parts = path.relative_to(ROOT.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.ImportFrom)
                and node.module
                and node.module.startswith("zonkcam")
            ):
                for alias in node.names:
                    sub = f"{node.module}.{alias.name}"
                    deps.add(
                        sub
                        if (ROOT.parent / sub.replace(".", "/")).with_suffix(".py").exists()
                        else node.module
                    )
            elif isinstance(node, ast.Import):
                deps |= {a.name for a in node.names if a.name.startswith("zonkcam")}
        graph[name] = deps - {name}
    return graph


def test_every_package_has_its_place():
    for module in _modules():
        if module != "zonkcam":
            _layer(module)


def test_nothing_imports_from_a_layer_above():
    wrong = [
        f"{m} imports {d}"
        for m, deps in _modules().items()
        if m != "zonkcam"
        for d in deps
        if d != "zonkcam" and _layer(d) > _layer(m)
    ]
    assert not wrong, "\n".join(wrong)


def test_the_pure_packages_touch_no_hardware():
    banned = ("pygame", "gpiozero", "picamera2", "sqlite3")
    for path in ROOT.rglob("*.py"):
        top = path.relative_to(ROOT).parts[0]
        if top not in PURE:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            assert not any(n.split(".")[0] in banned for n in names), f"{path} imports {names}"


def test_no_import_cycles():
    graph = _modules()
    seen: dict[str, int] = {}  # 1: on the path, 2: done
    cycles: list[list[str]] = []

    def visit(m: str, path: list[str]) -> None:
        seen[m] = 1
        for d in sorted(graph.get(m, ())):
            if d not in graph:
                continue
            if seen.get(d) == 1:
                cycles.append(path[path.index(d) :] + [d] if d in path else [m, d])
            elif d not in seen:
                visit(d, [*path, d])
        seen[m] = 2

    for m in sorted(graph):
        if m not in seen:
            visit(m, [m])
    assert not cycles, "\n".join(" -> ".join(c) for c in cycles)
