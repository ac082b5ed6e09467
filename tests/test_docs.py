"""The documents a newcomer reads: short, current, and without a history of the work."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def tracked_text_files() -> list[Path]:
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    names = out.stdout.split() if out.returncode == 0 else []
    if not names:  # not a git checkout (an unpacked sdist): every file under the root
        names = [str(p.relative_to(ROOT)) for p in ROOT.rglob("*") if p.is_file()]
    keep = (".py", ".md", ".toml", ".txt", ".service", ".sh", "Makefile", ".cfg")
    return [ROOT / n for n in names if n.endswith(keep) and (ROOT / n).is_file()]


def test_no_history_of_the_work_in_the_product():
    pattern = re.compile(r"session [0-9]", re.IGNORECASE)
    found = [
        str(p.relative_to(ROOT))
        for p in tracked_text_files()
        if p.name != "test_docs.py" and pattern.search(p.read_text("utf-8", "replace"))
    ]
    assert found == []


def _pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def test_the_docs_say_what_is_not_which_commit_it_came_from():
    """Figures come with the command that measures them, never a commit to check out."""
    pattern = re.compile(r"(commit|checkout of|worktree of) [0-9a-f]{7}", re.IGNORECASE)
    assert [p.name for p in _pages() if pattern.search(p.read_text("utf-8"))] == []


WHEN_AND_WHERE_IT_WAS = re.compile(
    r"\b(that|this) (hour|day|morning|afternoon|evening|week)\b"
    r"|\bthis machine\b|\bthe same machine that\b"
    r"|\b(seconds|minutes|hours?|s|min) (each )?here\b",
    re.IGNORECASE,
)
"""A figure's conditions named as a reader can repeat them ('on the 2-core build machine'),
never as the moment it was taken ('that hour', 'this machine', '12 minutes here')."""


def test_the_docs_name_no_moment_of_the_work():
    found = [
        f"{p.name}: {m.group()}"
        for p in _pages()
        for m in WHEN_AND_WHERE_IT_WAS.finditer(p.read_text("utf-8"))
    ]
    assert found == []


def test_the_readme_and_the_model_card_are_short():
    assert len((ROOT / "README.md").read_bytes()) <= 7 * 1024
    assert len((ROOT / "docs" / "model-card.md").read_bytes()) <= 20 * 1024


def test_the_readme_links_only_to_files_that_exist():
    for page in _pages():
        for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", page.read_text("utf-8")):
            if "://" in target or target.startswith("mailto:"):
                continue
            assert (page.parent / target).exists(), f"{page.name} links to {target}"


def test_the_readme_keeps_no_measurements():
    """Figures live in docs/measured.md, each with its command; the README points there."""
    readme = (ROOT / "README.md").read_text("utf-8")
    figures = re.findall(r"\d[\d.,]*\s?(?:ms|µs|MB|KB|GB|%)(?!\w)|\d+\.\d+\s?s\b", readme)
    assert figures == []


def test_every_docs_page_is_reachable_from_the_readme():
    readme = (ROOT / "README.md").read_text("utf-8")
    linked = set(re.findall(r"\]\(docs/([\w-]+\.md)", readme))
    assert {p.name for p in (ROOT / "docs").glob("*.md")} - linked == set()


def _anchor(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as -."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_every_link_to_a_heading_finds_it():
    anchors = {
        p.resolve(): {_anchor(h) for h in re.findall(r"^#+ (.+)$", p.read_text("utf-8"), re.M)}
        for p in _pages()
    }
    broken = [
        f"{page.name} -> {target}#{anchor}"
        for page in _pages()
        for target, anchor in re.findall(r"\]\(([^)#:]*)#([^)]+)\)", page.read_text("utf-8"))
        if anchor
        not in anchors.get((page.parent / target).resolve() if target else page.resolve(), set())
    ]
    assert broken == []


def _first_line(script: Path) -> str:
    """A script's own one-line summary: its docstring's first line, or a shell script's
    first comment line after the #! line."""
    lines = script.read_text("utf-8").splitlines()
    if script.suffix == ".py":
        return lines[0].removeprefix('"""').strip()
    return next(line[1:].strip() for line in lines[1:] if line.startswith("#"))


def test_every_script_is_the_labs_and_development_md_lists_it_with_its_first_line():
    scripts = sorted(p for p in (ROOT / "scripts").iterdir() if p.is_file())
    page = (ROOT / "docs" / "development.md").read_text("utf-8")
    listed = dict(re.findall(r"^\| `([\w.]+)` \| (.+) \|$", page, re.MULTILINE))
    assert listed == {p.name: _first_line(p) for p in scripts}
    assert all(line.startswith("Lab ") for line in listed.values()), listed


def _computed_heights() -> dict[str, str]:
    """Each mat's camera height, from its geometry (calibration/*.toml) and the A3 mat's in
    table.md: a mat fills the picture as the A3 mat does from 45-55 cm, so each height
    scales by the larger of the mat's width and height over A3's (the mat fits whether the
    camera's picture is 4:3 or 16:9)."""
    import tomllib

    table = (ROOT / "docs" / "table.md").read_text("utf-8")
    low, high = map(int, re.search(r"^\| `a3` .*\| (\d+)-(\d+) cm \|$", table, re.M).groups())
    sizes = {
        p.stem: tomllib.loads(p.read_text()) for p in sorted((ROOT / "calibration").glob("*.toml"))
    }
    a3 = sizes["a3"]
    heights = {}
    for name, mat in sizes.items():
        scale = max(mat["width_mm"] / a3["width_mm"], mat["height_mm"] / a3["height_mm"])
        heights[name] = f"{round(low * scale)}-{round(high * scale)}"
    return heights


def test_every_page_hangs_the_camera_at_the_height_its_mat_needs():
    """table.md's table, pi.md's mounting step and the README give each mat the same
    camera height, the one its geometry gives."""
    heights = _computed_heights()
    assert set(heights) == {"a3", "a2", "a4", "letter"}
    table = (ROOT / "docs" / "table.md").read_text("utf-8")
    in_table = dict(re.findall(r"^\| `(\w+)`.*\| (\d+-\d+) cm \|$", table, re.M))
    assert in_table == heights
    names = {"A3": "a3", "A2": "a2", "A4": "a4", "US Letter": "letter"}
    said = r"(\d+-\d+) cm (?:above an|for) (A3|A2|A4|US Letter)\b"
    pi = (ROOT / "docs" / "pi.md").read_text("utf-8").replace("\n   ", " ")
    assert {names[m]: h for h, m in re.findall(said, pi)} == heights
    readme = (ROOT / "README.md").read_text("utf-8").replace("\n   ", " ")
    in_readme = {names[m]: h for h, m in re.findall(said, readme)}
    assert in_readme and all(heights[m] == h for m, h in in_readme.items())


def _steps(page: str) -> list[str]:
    """A page's numbered steps, each its text (up to the next step)."""
    return [m.group(1) for m in re.finditer(r"^\d+\. (.*?)(?=^\d+\. |^#|\Z)", page, re.M | re.S)]


def test_the_pi_steps_go_as_a_new_owner_does():
    """pi.md, as the README: the mat made before the camera is mounted over it, then the
    check of camera, buttons and screen before calibrating, then the service for either
    image; the developer's check of the Pi's versions lives in development.md."""
    page = (ROOT / "docs" / "pi.md").read_text("utf-8")
    steps = _steps(page)

    def first(words: str) -> int:
        return next(i for i, step in enumerate(steps) if step.startswith(words))

    order = ["System packages", "zonkcam in a venv", "Wire the buttons", "Make the mat"]
    order += ["Mount the camera", "Try the camera", "Calibrate", "Run it as a service"]
    assert [first(w) for w in order] == list(range(len(order)))
    assert "zonkcam check" in " ".join(steps[first("Try the camera")].split())
    service = steps[first("Run it as a service")]
    assert "Raspberry Pi OS Lite" in service and "Raspberry Pi OS with desktop" in service
    readme_steps = _steps((ROOT / "README.md").read_text("utf-8"))
    made = next(s for s in readme_steps if s.startswith("Make the mat"))
    assert made.index("zonkcam mat") < made.index("mount the camera")
    assert "debootstrap" not in page and "qemu" not in page
    assert "debootstrap" in (ROOT / "docs" / "development.md").read_text("utf-8")
