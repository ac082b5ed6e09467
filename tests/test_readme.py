"""The README's examples, run: the terminal scorekeeper's transcript and its 'The tables'
commands (with the score, replay and advise examples of docs/commands.md) print what the
pages say they print."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
README = (REPO / "README.md").read_text()
COMMANDS_PAGE = (REPO / "docs" / "commands.md").read_text()


def _blocks(page: str = README) -> list[list[str]]:
    """A page's indented code blocks, each a list of lines (indent removed)."""
    blocks, current = [], []
    for line in page.splitlines():
        if line.startswith("    "):
            current.append(line[4:])
        elif current and line.strip():
            blocks.append(current)
            current = []
    return [*blocks, current] if current else blocks


def _zonkcam(args: list[str], cwd: Path, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "zonkcam", *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_terminal_transcript_is_what_play_text_prints(tmp_path):
    block = next(b for b in _blocks() if b and b[0].startswith("Ann: roll 5 dice"))
    typed = [line[2:] for line in block if line.startswith("> ")]
    shown = [line for line in block if not line.startswith("> ")]
    out = _zonkcam(
        ["play", "--text", "--rules", "chicago", "--players", "Ann", "Bob"]
        + ["--db", str(tmp_path / "games.sqlite3")],
        tmp_path,
        "\n".join([*typed, "quit"]) + "\n",
    )
    assert out.returncode == 0, out.stderr
    printed = out.stdout.splitlines()
    at = 0
    for line in shown:  # each shown line, in the README's order
        at = next((i for i in range(at, len(printed)) if printed[i].endswith(line)), -1) + 1
        assert at, f"not printed (in this order): {line!r}\n{out.stdout}"


def _commands(prefixes: tuple[str, ...], page: str = README) -> list[tuple[str, str]]:
    """(command, its comment) for each code line of a page starting with one of prefixes."""
    found = []
    for block in _blocks(page):
        for line in block:
            command, _, comment = line.partition("#")
            if command.strip().startswith(prefixes):
                found.append((command.strip(), comment.strip()))
    return found


SCORING = _commands(("zonkcam rules",)) + _commands(
    (
        "zonkcam score --rules classic-10000 1 5 5 6 6",
        "zonkcam replay tests/data/narrated-classic.jsonl",
        "zonkcam advise --rules classic-10000 --turn-total 350 --dice 3 --roll 1 5 2",
    ),
    COMMANDS_PAGE,
)
"""The README's own-table commands, then the worked examples of docs/commands.md."""


def test_the_offline_examples_are_all_found():
    assert [c.split()[1] for c, _ in SCORING] == ["rules", "rules", "score", "replay", "advise"]


@pytest.mark.parametrize(("command", "comment"), SCORING, ids=[c for c, _ in SCORING])
def test_each_offline_example_runs_as_the_readme_says(command, comment, tmp_path):
    args = shlex.split(command)[1:]
    if ">" in args:  # `zonkcam rules show --toml X > ours.toml`
        args, target = args[: args.index(">")], args[args.index(">") + 1]
    else:
        target = None
    if args[:2] == ["rules", "check"]:  # the file the README's `rules show` line wrote
        (tmp_path / args[-1]).write_text(
            _zonkcam(["rules", "show", "--toml", "classic-10000"], REPO).stdout
        )
    out = _zonkcam(args, tmp_path if args[:2] == ["rules", "check"] else REPO)
    assert out.returncode == 0, out.stderr
    if target:  # "every option, with its value"
        assert len(tomllib.loads(out.stdout)) > 5
    if args[0] == "score":  # "or 15566, as text mode takes it"
        same = _zonkcam([*args[:3], re.search(r"\d{5}", comment).group()], REPO)
        assert json.loads(same.stdout) == json.loads(out.stdout)
        assert json.loads(out.stdout)["best"] == {"keep": [1, 5, 5], "points": 200}
    if args[0] == "advise":  # 350 on the table, 1 5 2 thrown with 3 dice: keep 1 5, bank
        advice = json.loads(out.stdout)
        assert advice["best"] == "bank" and advice["keeps"][0]["keep"] == [1, 5]
    if args[0] == "replay":  # "Chris 3,550, Nathan 0"
        players = {p["name"]: p["score"] for p in json.loads(out.stdout)["players"]}
        for name, score in re.findall(r"(\w+) ([\d,]+)", comment):
            assert players[name] == int(score.replace(",", ""))
