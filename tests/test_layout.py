"""The package's architecture holds: no import cycles, and nothing imports from a layer
above its own (the rules engine and the reader never from the app, the screen never from
the GPIO layer); the product stays apart from its simulator (sim), its lab (train) and
its test fakes (testing)."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import zonkcam

ROOT = Path(zonkcam.__file__).parent

LAYERS = [
    {"errors", "data", "fileio", "places", "streams"},
    {"game"},
    {"advisor", "controls", "vision"},
    {"mat"},
    {"sources"},
    {"table", "record"},
    {"review"},
    {"hardware", "display"},
    {"sim"},
    {"train"},
    {"app"},
    {"testing"},
    {"commands", "cli", "__main__"},
]
"""Bottom up: a module may import from its own package and from layers below."""
APART = ("zonkcam.sim", "zonkcam.train", "zonkcam.testing")
"""The simulator, the lab and the test fakes: not the product."""
DOORS = {
    "zonkcam.sources": {"zonkcam.sim.demo_table"},
    "zonkcam.app.camera": {"zonkcam.sim.demo_table"},
    "zonkcam.app.main": {"zonkcam.sim.demo_table"},
    "zonkcam.app.demo": {"zonkcam.sim.demo_table"},
}
"""Where the product may reach the simulator: the sources' registry opens the demo table
(zonkcam.sources' ``demo`` opener, importing the simulator only then), and the app plays
the demo game on it (type hints, and the tests' demo_table()). Nothing else reaches
it, so the simulator sits above the layers it fakes (it makes sources' Frames, table's
Zones, display's CameraViews) and no other arrow runs back up."""
LAB = {"zonkcam.commands.train", "zonkcam.commands.eval", "zonkcam.commands.bench"}
"""The lab's own commands (`zonkcam train`, `eval`, `bench` and its modes), which may use
all of it: the simulator, the lab and the test fakes (a benchmark's truth reader)."""
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
        if d != "zonkcam" and _layer(d) > _layer(m) and d not in DOORS.get(m, ())
    ]
    assert not wrong, "\n".join(wrong)


SCREEN_NEVER = ("zonkcam.hardware", "zonkcam.record")
"""What the screen (display) never imports, though it sits at or above their layer: it
names buttons through zonkcam.controls, and the app hands it the advisor."""


def test_the_screen_imports_neither_the_gpio_nor_the_log():
    wrong = [
        f"{m} imports {d}"
        for m, deps in _modules().items()
        if m.startswith("zonkcam.display")
        for d in deps
        if d.startswith(SCREEN_NEVER)
    ]
    assert not wrong, "\n".join(wrong)


def _apart(module: str) -> bool:
    return module.startswith(APART)


def _lab(module: str) -> bool:
    return any(module == m or module.startswith(m + ".") for m in LAB)


def test_the_product_never_imports_the_simulator_the_lab_or_the_fakes():
    """Only through DOORS (and in the lab's own commands); and nothing else in the package
    imports the test fakes."""
    wrong = [
        f"{m} imports {d}"
        for m, deps in _modules().items()
        if not _apart(m) and not _lab(m)
        for d in deps
        if _apart(d) and d not in DOORS.get(m, ())
    ]
    wrong += [
        f"{m} imports {d}"
        for m, deps in _modules().items()
        if not m.startswith("zonkcam.testing") and not _lab(m)
        for d in deps
        if d.startswith("zonkcam.testing")
    ]
    assert not wrong, "\n".join(wrong)


def test_the_product_below_the_app_loads_none_of_them():
    """Importing every product module below the app (the engine, advisor, reader, mat,
    sources, table, log, screen, buttons) loads no module of sim, train or testing."""
    below = sorted(
        m
        for m in _modules()
        if m != "zonkcam" and not _apart(m) and _layer(m) < _layer("zonkcam.sim")
    )
    code = (
        "import sys\n"
        + "".join(f"import {m}\n" for m in below)
        + f"print(sorted(m for m in sys.modules if m.startswith({APART!r})))"
    )
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert len(below) > 40 and out.stdout.strip() == "[]", out.stdout


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


ROOT_ENTRIES = {
    ".ci",
    ".gitignore",
    "Makefile",
    "README.md",
    "calibration",
    "constraints",
    "docs",
    "examples",
    "models",
    "pyproject.toml",
    "scripts",
    "systemd",
    "tests",
    "zonkcam",
}
"""What the repository holds at its root: the design card's folders and the build files."""


def test_the_repository_root_holds_only_what_belongs_there():
    checkout = ROOT.parent
    if not (checkout / ".git").exists():
        pytest.skip("not a git checkout (an installed wheel)")
    tracked = subprocess.run(
        ["git", "ls-files", "-z"], cwd=checkout, capture_output=True, text=True, check=True
    ).stdout.split("\0")
    stray = sorted({f.split("/")[0] for f in tracked if f} - ROOT_ENTRIES)
    assert not stray, f"files at the repository root that belong elsewhere: {stray}"


def architecture_page_layers(text: str) -> list[set[str]]:
    """The layers docs/architecture.md lists under 'The layers', bottom up: each numbered
    line's `names` before its colon."""
    section = text.split("## The layers", 1)[1].split("\n## ", 1)[0]
    return [
        set(re.findall(r"`([\w.]+)`", head))
        for head in re.findall(r"^\d+\. ([^:]+):", section, re.MULTILINE)
    ]


def test_the_architecture_page_lists_the_layers_as_they_are():
    docs = ROOT.parent / "docs"
    if not docs.is_dir():
        pytest.skip("no docs beside the package (an installed wheel)")
    page = docs / "architecture.md"
    assert architecture_page_layers(page.read_text("utf-8")) == LAYERS


@pytest.mark.parametrize("package", ["zonkcam.game", "zonkcam.vision"])
def test_the_engine_and_the_reader_have_a_front_door(package):
    """Each public name of the package is importable from the package itself, and is the
    object its own module defines (one name, one thing)."""
    import importlib

    door = importlib.import_module(package)
    assert door.__all__, f"{package} exports nothing"
    for name in door.__all__:
        thing = getattr(door, name)
        home = importlib.import_module(getattr(thing, "__module__", package) or package)
        assert getattr(home, name, thing) is thing, name


def test_importing_the_image_decoder_does_not_start_onnxruntime():
    code = "import sys, zonkcam.vision.imageio; print('onnxruntime' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "False", out.stderr


def test_the_game_front_door_plays_the_example_it_gives():
    from zonkcam.game import PRESETS, Bank, Game, Keep, Players, Roll, parse_dice

    game = Game(PRESETS["chicago"], [Players(("Ann", "Bob"))])
    game.play(Roll(parse_dice([1, 5, 2, 3, 4])))
    game.play(Keep((1, 5)))
    game.play(Bank())
    assert game.state.players[0].score == 150


ENUM_FIELDS = {"event": "TableEvent", "change": "Change", "zone": "Zone", "image": "Landing"}
"""Fields whose values are an enum (table.observe, table.tracking, table.zones,
game.actions): code compares them with the enum's members, never with its strings."""


def test_enum_fields_are_compared_with_the_enum_not_with_strings():
    wrong = []
    for path in [*ROOT.rglob("*.py"), *(ROOT.parent / "scripts").glob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Compare):
                continue
            sides = [node.left, *node.comparators]
            field = next(
                (s.attr for s in sides if isinstance(s, ast.Attribute) and s.attr in ENUM_FIELDS),
                None,
            )
            literal = [s.value for s in sides if isinstance(s, ast.Constant)]
            if field and any(isinstance(v, str) for v in literal):
                wrong.append(
                    f"{path.name}:{node.lineno}: .{field} against a string, "
                    f"not {ENUM_FIELDS[field]}"
                )
    assert not wrong, "\n".join(wrong)


def test_the_tests_mirror_the_packages():
    """tests/PACKAGE/ holds the tests of zonkcam/PACKAGE/; what tests the whole project
    (docs, layout, dependencies, hostile input, fuzzing, examples) lies in tests/ itself."""
    tests = Path(__file__).parent
    packages = {p.parent.name for p in ROOT.glob("*/__init__.py")}
    folders = {
        p.name
        for p in tests.iterdir()
        if p.is_dir() and p.name not in ("data", "tools", "__pycache__")
    }
    assert folders <= packages, sorted(folders - packages)
    for folder in folders:
        assert (tests / folder / "__init__.py").exists(), folder


def test_a_camera_game_loads_the_simulator_only_when_the_demo_table_is_opened(tmp_path):
    """`zonkcam play` at a real table (an image folder standing for the camera: source,
    calibration, reader, teacher, screen, game) imports nothing of zonkcam.sim; opening
    the demo table afterwards does."""
    import cv2

    from zonkcam.mat.calibrate import calibrate
    from zonkcam.sim.demo_table import DemoTable

    table = DemoTable(seed=1, autoplay=False, size=(640, 480))
    first = table.read()
    calibrate(first.image, table.geometry).save(tmp_path / "cal.json")
    (tmp_path / "frames").mkdir()
    cv2.imwrite(str(tmp_path / "frames" / "0.png"), first.image)
    play = [
        *("play", "--source", str(tmp_path / "frames"), "--calibration"),
        *(str(tmp_path / "cal.json"), "--players", "Ann", "Bob", "--db"),
        *(str(tmp_path / "g.sqlite3"), "--screenshots", str(tmp_path / "shots")),
    ]
    code = (
        "import sys\n"
        "from zonkcam import cli, sources\n"
        "def sim(): return sorted(m for m in sys.modules if m.startswith('zonkcam.sim'))\n"
        f"print(cli.main({play!r}), sim())\n"
        "sources.open_source('demo', demo={'autoplay': False, 'size': (320, 240)})\n"
        "print('zonkcam.sim.demo_table' in sim())\n"
    )
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    env["XDG_CONFIG_HOME"] = str(tmp_path / "config")
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT.parent), env.get("PYTHONPATH", "")])
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path
    )
    assert out.stdout.splitlines()[-2:] == ["0 []", "True"], out.stdout + out.stderr


APP_CLASS_LINES = 250
FUNCTION_LINES = 60


def test_the_app_and_the_table_are_in_pieces_a_newcomer_can_read():
    """No function over FUNCTION_LINES lines in app/ and table/ (docstring included), and
    TableApp, the wiring, under APP_CLASS_LINES."""
    long = []
    for package in ("app", "table"):
        for path in sorted((ROOT / package).glob("*.py")):
            tree = ast.parse(path.read_text())
            for node in ast.walk(tree):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    lines = node.end_lineno - node.lineno + 1
                    if lines > FUNCTION_LINES:
                        long.append(f"{package}/{path.name}: {node.name} ({lines} lines)")
                if isinstance(node, ast.ClassDef) and node.name == "TableApp":
                    assert node.end_lineno - node.lineno + 1 < APP_CLASS_LINES
    assert long == []


def test_one_roll_from_frame_to_screen_calls_nothing_back_up(monkeypatch):
    """scripts/roll_path.py traces the frame in which a throw is scored: no call goes into
    a file already waiting further down the stack (a lower piece calling back up)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "roll_path", ROOT.parent / "scripts" / "roll_path.py"
    )
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "roll_path", module)  # for its dataclass
    spec.loader.exec_module(module)
    steps, callbacks = module.one_roll(depth=99)
    assert len(steps) > 100  # the whole path was traced: frame, reader, engine, log, screen
    assert {s.package for s in steps} >= {"table", "vision", "app", "game", "record", "display"}
    assert callbacks == []
