"""How big the advisor's tables grow with a rule set's numbers, and the cap on them.

The advisor (``zonkcam/advisor/``) solves a turn as a table of values indexed by turn
total: one column per reachable total in steps of the rules' *step* (every total is a
multiple of it), one row per position of a turn and per choice, one layer per problem
(on the board or not, zonks in a row). Columns run up to 20,000 (:data:`TURN_TOTALS`)
plus the most one keep can add (a straight of 1,000,000,000 that can be kept five times
over in a roll of five 2s is 5,000,000,000 points: 100,000,000 columns in steps of 50); a
final round's last turn runs up to the lead and the bank thresholds. So points, bonuses,
targets and thresholds grow the tables, a small step multiplies them all; the positions
of a turn (rows) depend only on which rules are switched on.

:func:`advisor_tables` bounds the biggest of these tables from the rules alone (no turn
model built) and rules validation refuses any rule set whose bound passes
:data:`TABLE_CAP`; the solver checks the table it is about to allocate against the same
cap (:func:`table_bytes`) and never allocates past it. Pure: no I/O.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any

from zonkcam.errors import ZonkcamError

RuleSet = Any
"""A :class:`zonkcam.game.rules.RuleSet` (whose validation imports this module)."""

TURN_TOTALS = 20_000
"""Turn totals are solved up to this; above it rolling on is worth ``a * t + b``."""

TABLE_CAP = 64_000_000
"""Bytes one advisor table may take (64 MB). The advisor keeps at most four at once (the
expected-points table, the last turns and the two-player turns it keeps, each kind capped
at this in all, and the one being solved): 256 MB, which a Raspberry Pi with 1 GB has
beside the app's 260 MB (docs/measured.md). Every preset's tables take under 3 MB."""

MB = 1_000_000

FLOAT = 8
"""Bytes of one table cell (float64)."""


class TableTooLarge(ZonkcamError, ValueError):
    """A table the advisor or the solver was asked for would pass its memory cap."""


def table_bytes(columns: int, rows: int, problems: int, dice: int) -> int:
    """Bytes a solve with this many columns, rows and problems holds at its peak: the
    values, the bank payoffs per number of dice left, and the payoff rows they come from."""
    return FLOAT * columns * problems * (rows + dice + 4)


def rows_of(positions: int, dice: int) -> int:
    """Rows of a table for a turn of this many positions: must roll and may bank for each,
    a bank per number of dice left, going for 1000, a constant 0."""
    return 2 * positions + dice + 3


def problems_of(rules: RuleSet) -> int:
    """Problems solved together in one expected-points table: on the board or not, and
    with the three-zonk penalty 0, 1 or 2 zonks in a row (the long run solves six)."""
    if rules.three_zonk_penalty:
        return 6
    return 2 if rules.entry_minimum else 1


@dataclass(frozen=True)
class Item:
    """One scoring combination, as the bound sees it: dice it takes, points, the option."""

    dice: int
    points: int
    key: str
    value: int
    """The option's own value (what the file says)."""


def _items(rules: RuleSet) -> list[Item]:
    """Every combination a roll can hold with its most points (faces and colours aside)."""
    p, n = rules.points, rules.dice
    out = [
        Item(1, p.single_one, "points.single_one", p.single_one),
        Item(1, p.single_five, "points.single_five", p.single_five),
    ]
    if rules.carry_over_extras:
        out.append(Item(1, p.extra_die, "points.extra_die", p.extra_die))
    if n >= 3:
        triples = [Item(3, p.three_ones, "points.three_ones", p.three_ones)]
        triples += [
            Item(3, f * p.three_of_a_kind, "points.three_of_a_kind", p.three_of_a_kind)
            for f in range(2, 7)
        ]
        out += triples
        for t in triples:
            for k in range(4, n + 1):
                if p.extra_die_doubles:
                    out.append(Item(k, t.points * 2 ** (k - 3), t.key, t.value))
                elif p.extra_die:
                    extra = (k - 3) * p.extra_die
                    bigger = (
                        (t.key, t.value) if t.points >= extra else ("points.extra_die", p.extra_die)
                    )
                    out.append(Item(k, t.points + extra, *bigger))
    if n == 6:
        out.append(Item(6, p.six_ones, "points.six_ones", p.six_ones))
        out.append(Item(6, 6 * p.six_of_a_kind, "points.six_of_a_kind", p.six_of_a_kind))
        out.append(Item(6, p.colour_pairs, "points.colour_pairs", p.colour_pairs))
        out.append(Item(6, p.three_pairs, "points.three_pairs", p.three_pairs))
    if n >= 5:
        out.append(Item(5, p.full_house, "points.full_house", p.full_house))
    for s in p.straights:
        out.append(Item(len(s.faces), s.points, f"points.straights ({s.label})", s.points))
    return [i for i in out if i.points > 0 and i.dice <= n]


def scores_at_all(rules: RuleSet) -> bool:
    """Some roll of the table's dice scores (a combination it can roll has points)."""
    return bool(_items(rules)) or rules.points.nothing > 0


@dataclass(frozen=True)
class Driver:
    """What sets a size: the option and its value."""

    key: str
    value: int


def top_keep(rules: RuleSet) -> tuple[int, Driver]:
    """The most points one choice after a roll can add (at least), and the option that
    gives most of them: the best way to fill the table's dice with combinations (one
    combination may be kept several times over: five 2s are five straights "2"), a roll
    where nothing scores, the straight completed across rolls, going for 1000."""
    best: list[tuple[int, Driver | None, int]] = [(0, None, 0)] * (rules.dice + 1)
    # best[w]: the most points from combinations of w dice, the option giving most of
    # them, and how many points that option gives in it
    for w in range(1, rules.dice + 1):
        for item in _items(rules):
            if item.dice > w:
                continue
            base, driver, share = best[w - item.dice]
            total = base + item.points
            if total > best[w][0]:
                if driver is None or item.points > share:
                    driver, share = Driver(item.key, item.value), item.points
                best[w] = (total, driver, share)
    top = max(best, key=lambda b: b[0])
    candidates = [(top[0], top[1] or Driver("points", 0))]
    for key, value in (
        ("points.nothing", rules.points.nothing),
        ("straight_completion", rules.straight_completion),
        ("go_for_1000", rules.go_for_1000),
    ):
        candidates.append((value, Driver(key, value)))
    return max(candidates, key=lambda c: c[0])


def _atoms(rules: RuleSet) -> list[Driver]:
    """The options every choice's points are a sum of multiples of (those the table's
    dice can roll): three of a kind of F is F times ``three_of_a_kind``, four is that and
    ``extra_die`` (or twice it), megas F times ``six_of_a_kind``, the straight completed
    across rolls ``straight_completion`` less points of these."""
    p, n = rules.points, rules.dice
    options = [("points.single_one", p.single_one), ("points.single_five", p.single_five)]
    if n >= 3:
        options += [
            ("points.three_ones", p.three_ones),
            ("points.three_of_a_kind", p.three_of_a_kind),
        ]
    if (n >= 4 and not p.extra_die_doubles) or rules.carry_over_extras:
        options.append(("points.extra_die", p.extra_die))
    if n >= 5:
        options.append(("points.full_house", p.full_house))
    if n == 6:
        options += [
            ("points.six_ones", p.six_ones),
            ("points.six_of_a_kind", p.six_of_a_kind),
            ("points.colour_pairs", p.colour_pairs),
            ("points.three_pairs", p.three_pairs),
        ]
    options += [(f"points.straights ({s.label})", s.points) for s in p.straights]
    options += [
        ("points.nothing", p.nothing),
        ("straight_completion", rules.straight_completion),
        ("go_for_1000", rules.go_for_1000),
    ]
    return [Driver(key, value) for key, value in options if value > 0]


def step_of(rules: RuleSet) -> tuple[int, Driver | None]:
    """A step every turn total is a multiple of (the advisor's own step is a multiple of
    it), and where it is under the presets' 50, the option that makes it smallest (None
    where no one option does)."""
    atoms = _atoms(rules)
    step = math.gcd(*(a.value for a in atoms)) if atoms else 0
    if not step:
        return 50, None  # nothing scores: the advisor's step
    culprit, without = None, step
    for i, atom in enumerate(atoms if step < 50 else ()):
        rest = math.gcd(*(a.value for j, a in enumerate(atoms) if j != i))
        if rest > without:
            culprit, without = atom, rest
    return step, culprit


def positions_bound(rules: RuleSet) -> int:
    """At least as many positions as a turn under ``rules`` has (:class:`TurnModel`):

    * every number of dice to roll, nothing carried; the turn's first roll (go for 1000);
    * with carried extras, each face a set-aside three of a kind can carry, where three or
      more dice are set aside (two triples set every die aside: hot dice);
    * with the straight completed across rolls, the same again once this cycle's dice can
      no longer complete 1-2-3-4-5-6, and while they can, each set of different faces set
      aside with each worth it can have: the first keep of a cycle thrown with every die
      (straights and single 1s and 5s) and single 1s and 5s after it, or single 1s and 5s
      alone.
    """
    n = rules.dice
    carried = [1 + (6 if rules.carry_over_extras and n - left >= 3 else 0) for left in range(1, n)]
    count = n + (1 if rules.go_for_1000 else 0) + sum(c - 1 for c in carried)
    if not rules.straight_completion:
        return count
    count += sum(carried)
    p = rules.points
    singles = {f for f, pts in ((1, p.single_one), (5, p.single_five)) if pts}
    parts = [frozenset(s.faces) for s in p.straights] + [frozenset({f}) for f in singles]
    keepable = {frozenset()}  # sets of different faces one keep of a full roll can be
    for _ in range(6):
        keepable |= {k | part for k in keepable for part in parts if not k & part}
    for size in range(1, n):
        for faces in map(frozenset, itertools.combinations(range(1, 7), size)):
            worths = sum(
                1 for first in keepable if first and first <= faces and faces - first <= singles
            )
            worths += 1 if faces <= singles else 0
            count += worths * (n - size)  # with 1 to n - size dice left to roll
    return count


@dataclass(frozen=True)
class TableSize:
    """The biggest advisor table a rule set needs, with what sets its size."""

    bytes: int
    table: str
    """Which table: "expected-points" or "last-turn"."""
    driver: Driver | None
    """The option that makes it big."""
    why: str
    """Its columns, in a few words."""


def advisor_tables(rules: RuleSet) -> TableSize:
    """An upper bound on the biggest table the advisor builds for ``rules``: the
    expected-points table (turn totals up to :data:`TURN_TOTALS` and the most one choice
    adds) and, in a game with a final round, a last turn's table (leads up to the target
    and :data:`TURN_TOTALS` more, at least the first bank's threshold, and the most one
    choice adds). The advisor advises a lead beyond these on points."""
    n = rules.dice
    step, small = step_of(rules)
    top, keep_driver = top_keep(rules)
    shift = top // step
    rows = rows_of(positions_bound(rules), n)
    grid = -(-TURN_TOTALS // step)
    driver = keep_driver if shift >= grid or small is None else small
    sizes = [
        TableSize(
            table_bytes(grid + 1 + shift, rows, problems_of(rules), n),
            "expected-points",
            driver,
            f"turn totals up to {TURN_TOTALS + top:,} in steps of {step}",
        )
    ]
    if rules.end == "final-round":
        lead = rules.target + TURN_TOTALS
        threshold = max(rules.entry_minimum, rules.bank_minimum)
        span = max(lead, threshold)
        grid = span // step + 1
        if shift >= grid:
            driver = keep_driver
        elif span > 2 * TURN_TOTALS or small is None:  # a target or threshold far out
            if threshold > lead:
                key = (
                    "entry_minimum" if rules.entry_minimum >= rules.bank_minimum else "bank_minimum"
                )
                driver = Driver(key, threshold)
            else:
                driver = Driver("target", rules.target)
        else:
            driver = small
        sizes.append(
            TableSize(
                table_bytes(grid + 1 + shift, rows, 1, n),
                "last-turn",
                driver,
                f"leads up to {span:,} and a turn of up to {top:,} more, in steps of {step}",
            )
        )
    return max(sizes, key=lambda s: s.bytes)


def too_large(rules: RuleSet, cap: int = TABLE_CAP) -> str | None:
    """Why the advisor's tables for ``rules`` would pass ``cap``, in one line, or None."""
    size = advisor_tables(rules)
    if size.bytes <= cap:
        return None
    what = f"{size.driver.key} = {size.driver.value:,}" if size.driver else "its points"
    return (
        f"{what} makes the advisor's {size.table} table {mb(size.bytes, cap)} MB, over the "
        f"cap of {mb(cap)} MB ({size.why})"
    )


def mb(n: int, beside: int | None = None) -> str:
    """Bytes as MB with thousands separators, whole where that tells ``n`` from
    ``beside`` (a cap), else with as many decimals as it takes."""
    for places in range(7):
        text = f"{n / MB:,.{places}f}"
        if beside is None or text != f"{beside / MB:,.{places}f}":
            return text
    return text
