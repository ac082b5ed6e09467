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
