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


def test_the_docs_say_what_is_not_which_commit_it_came_from():
    """Figures come with the command that measures them, never a commit to check out."""
    pattern = re.compile(r"(commit|checkout of|worktree of) [0-9a-f]{7}", re.IGNORECASE)
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    assert [p.name for p in pages if pattern.search(p.read_text("utf-8"))] == []


def test_the_readme_and_the_model_card_are_short():
    assert len((ROOT / "README.md").read_bytes()) <= 27 * 1024
    assert len((ROOT / "docs" / "model-card.md").read_bytes()) <= 20 * 1024


def test_the_readme_links_only_to_files_that_exist():
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", page.read_text("utf-8")):
            if "://" in target or target.startswith("mailto:"):
                continue
            assert (page.parent / target).exists(), f"{page.name} links to {target}"
