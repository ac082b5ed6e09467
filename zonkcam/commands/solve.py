"""`zonkcam solve --rules NAME|FILE`: the table's odds, and its two-player win table.

Prints the single-turn optimum (expected points of a turn, zonk chances per number of
dice; the long-run average where the table has the three-zonk penalty), then solves the
two-player race (the chance to win from every pair of scores, :mod:`zonkcam.advisor.race`)
and stores it in ``$XDG_CACHE_HOME/zonkcam/`` where ``zonkcam advise``, ``zonkcam play``
and the demo game find it. This module owns the table files: :func:`load_table`,
:func:`cached_advisor`.
"""

from __future__ import annotations

import hashlib
import io
import os
import resource
import sys
import time
import tomllib
from pathlib import Path

import numpy as np

from zonkcam.advisor.advice import Advisor
from zonkcam.advisor.points import solve_points
from zonkcam.advisor.race import PIG_STEPS, WinTable, build, unsupported
from zonkcam.errors import UserError
from zonkcam.game.errors import RulesError
from zonkcam.game.rules import RuleSet, load_rules, rules_from_dict, rules_to_toml

FORMAT = 1
"""The table file's format; a file of another format is rebuilt, never misread."""


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "solve", help="the table's odds; build its two-player win table",
        description="Print the expected points of an optimally played turn and the zonk "
        "chances for the table's rules, then build the two-player win table "
        "(the chance to win from every pair of scores) that the advisor uses.")
    p.add_argument("--rules", default="classic-10000",
                   help="preset name or TOML file (default: classic-10000)")
    p.add_argument("--out", help="table file (default: $XDG_CACHE_HOME/zonkcam/win-...npz)")
    p.add_argument("--force", action="store_true", help="build again even if stored")
    p.add_argument("--single-turn", action="store_true",
                   help="print the single-turn figures only")
    p.set_defaults(func=run)


# -- table files ------------------------------------------------------------------------------

def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "zonkcam"


def table_path(rules: RuleSet) -> Path:
    """Where the two-player table of ``rules`` is stored (named after the rules' content)."""
    digest = hashlib.sha256(rules_to_toml(rules).encode()).hexdigest()[:12]
    slug = "".join(c if c.isalnum() else "-" for c in rules.name.lower()).strip("-")
    return cache_dir() / f"win-{slug or 'table'}-{digest}.npz"


def save_table(table: WinTable, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    arrays = {"format": np.array(FORMAT), "step": np.array(table.step),
              "rules": np.array(rules_to_toml(table.rules)), "win": table.win,
              "last": table.last}
    if table.pig is not None:
        pig = table.pig
        if pig.dtype != np.uint16:  # one score at a time: no float copy of the whole table
            pig = np.empty(table.pig.shape, dtype=np.uint16)
            for i, part in enumerate(table.pig):
                pig[i] = np.round(np.clip(part, 0.0, 1.0) * PIG_STEPS)
        arrays["pig"] = pig
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **arrays)
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(buffer.getvalue())
    tmp.replace(path)


def read_table(path: Path) -> WinTable:
    """A stored table; UserError if the file is not one."""
    try:
        with np.load(path, allow_pickle=False) as data:
            if int(data["format"]) != FORMAT:
                raise UserError(f"{path} is a table of another format: build it again")
            rules = rules_from_dict(tomllib.loads(str(data["rules"])))
            pig = data["pig"] if "pig" in data.files else None
            return WinTable(rules, int(data["step"]), data["win"], data["last"], pig)
    except FileNotFoundError:
        raise UserError(f"no table file {path}") from None
    except (OSError, ValueError, KeyError, RulesError, tomllib.TOMLDecodeError) as exc:
        raise UserError(f"{path} is not a zonkcam table ({exc})") from None


def load_table(rules: RuleSet) -> WinTable | None:
    """The stored two-player table of exactly these rules, or None."""
    path = table_path(rules)
    if not path.exists():
        return None
    try:
        table = read_table(path)
    except UserError:
        return None
    return table if table.rules == rules else None


def cached_advisor() -> Advisor:
    """An advisor that uses the stored two-player table of any rules it is asked about."""
    return Advisor(load=load_table)


# -- the command ------------------------------------------------------------------------------

def run(args) -> int:
    rules = load_rules(args.rules)
    advisor = Advisor()
    start = time.perf_counter()
    solver = advisor.solver(rules)
    boards = [True, False] if rules.entry_minimum else [True]
    values = solve_points(solver, boards, [0.0] * len(boards))
    model = solver.model
    print(f"{rules.name}: an optimally played turn scores {values.roll(model.start, 0):.3f} "
          f"on average ({time.perf_counter() - start:.2f} s)")
    if rules.entry_minimum:
        print(f"  not yet on the board ({rules.entry_minimum} to get on): "
              f"{values.roll(model.start, 0, 1):.3f}")
    if rules.three_zonk_penalty:
        print(f"  over many turns, with {rules.three_zonk_penalty} off for three zonks in a "
              f"row: {advisor.long_run(rules).average:.3f} a turn")
    chances = ", ".join(f"{n} {'die' if n == 1 else 'dice'} {c} ({float(c):.2%})"
                        for n, c in model.zonk_chances().items())
    print(f"  nothing scores: {chances}")
    if rules.two_dice_pair_reroll:
        print("  (of the two dice, 1/9 is a pair thrown again)")
    if args.single_turn:
        return 0
    reason = unsupported(rules)
    if reason:
        print(f"no two-player table: {reason}")
        return 0
    path = Path(args.out) if args.out else table_path(rules)
    if path.exists() and not args.force:
        try:
            stored = read_table(path)
        except UserError:
            stored = None
        if stored is not None and stored.rules == rules:
            print(f"two-player table: {path} (stored; --force builds it again)")
            _summary(stored)
            return 0
    print(f"solving the two-player race to {rules.target} ...", file=sys.stderr)
    start = time.perf_counter()
    table = build(rules, progress=_progress(start))
    took = time.perf_counter() - start
    save_table(table, path)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"two-player table: {path} ({path.stat().st_size / 1e6:.1f} MB, built in "
          f"{took:.0f} s, peak memory {peak:.0f} MB)")
    _summary(table)
    return 0


def _summary(table: WinTable) -> None:
    print(f"  the first player wins {table.chance(0, 0):.2%} of games between two optimal "
          f"players")


def _progress(start: float):
    shown = [-1]

    def show(done: int, total: int) -> None:
        percent = 100 * done // total
        if percent // 5 != shown[0] // 5 or done == total:
            shown[0] = percent
            elapsed = time.perf_counter() - start
            print(f"  {percent:3d}%  {elapsed:.0f} s", file=sys.stderr, flush=True)

    return show
