"""The night's dice, from the game log: every die of every throw as the game kept it (a
misread roll that was corrected counts as corrected: an undo folds the misread away),
followed by what tells the dice apart, and each die's or pool's fairness verdict.

What tells dice apart is their body colour: the colour a die carries on a table that
scores colours (detroit), else the colour the camera read for it (Roll.seen). A colour
that a throw shows at most once (in FOLLOW_SHARE of its throws: the others are taken for
a colour misread) is one die, followed from throw to throw, and its confidence is the
share of its throws in which it was the only die of its colour. Dice of one colour, or
with no colour (typed in: text mode, a replay file), cannot be told apart and are
pooled: a pool's verdict is on all its dice at once (a loaded die among fair ones shows
less strongly, so it takes more throws to catch). The table's taught examples
(zonkcam.vision.examples) are kept per face value, not per die, so they tell no two dice
apart.

Only like is compared with like: the dice of tables that throw five dice are one set and
those of six-dice tables another (:func:`by_table_dice`), never pooled together."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from zonkcam.game import actions as A
from zonkcam.game.names import counted
from zonkcam.review.fairness import FACES, Verdict, verdict

NO_COLOUR = "no colour read"
"""The pool of dice without a colour, beside dice with one."""
EVERY_DIE = "every die"
"""The pool of all dice, where no throw has a colour."""
FOLLOW_SHARE = 0.95
"""A colour holds as many dice as it shows in this share of its throws (the rest are a
die's colour misread, or a die of another colour read as this one)."""


@dataclass(frozen=True)
class Pool:
    name: str
    """The dice's colour, NO_COLOUR or EVERY_DIE."""
    dice: int
    """How many dice the pool holds: as many as a throw shows of it, in FOLLOW_SHARE of
    its throws."""
    verdict: Verdict
    followed: float
    """The share of the pool's throws that showed no more of it than `dice`: for one die,
    how surely it was one and the same die every time."""

    @property
    def coloured(self) -> bool:
        return self.name not in (NO_COLOUR, EVERY_DIE)

    @property
    def text(self) -> str:
        if self.dice == 1 and self.coloured:
            return f"{self.name} die ({self.sureness}): {self.verdict.text}"
        why = "of one colour" if self.coloured else "with no colour to tell them apart"
        return (
            f"{self.name} ({counted(self.dice, 'die', 'dice')} {why}, pooled): {self.verdict.text}"
        )

    @property
    def sureness(self) -> str:
        """How surely the die was followed, in words."""
        return f"followed by its colour in {self.followed:.0%} of its throws"


def pools(actions: Iterable[A.Action]) -> list[Pool]:
    """The dice and pools thrown in these actions (of one or many games), most thrown
    first."""
    counts: dict[str | None, list[int]] = {}
    per_throw: dict[str | None, list[int]] = {}
    for action in actions:
        if not isinstance(action, A.Roll):
            continue
        colours = [d.color for d in action.dice]
        if not any(colours) and action.seen:
            colours = list(action.seen)
        for die, colour in zip(action.dice, colours, strict=True):
            counts.setdefault(colour, [0] * FACES)[die.value - 1] += 1
        for colour, n in Counter(colours).items():
            per_throw.setdefault(colour, []).append(n)
    out = []
    for colour, faces in counts.items():
        shown = sorted(per_throw[colour])
        size = shown[max(0, math.ceil(FOLLOW_SHARE * len(shown)) - 1)]
        followed = sum(n <= size for n in shown) / len(shown)
        name = colour or (EVERY_DIE if len(counts) == 1 else NO_COLOUR)
        out.append(Pool(name, size, verdict(faces), followed))
    return sorted(out, key=lambda p: (-p.verdict.throws, p.name))


@dataclass(frozen=True)
class TableDice:
    """The dice of the tables that throw as many dice, and their pools."""

    dice: int
    """How many dice these tables throw."""
    tables: tuple[str, ...]
    """The tables' names, as first played."""
    games: tuple[int, ...]
    pools: list[Pool]

    @property
    def name(self) -> str:
        """ "the 5-dice table (chicago)", "the 6-dice tables (detroit, all-johnnys)"."""
        many = "s" * (len(self.tables) > 1)
        return f"the {self.dice}-dice table{many} ({', '.join(self.tables)})"


def by_table_dice(games: Iterable[tuple[int, str, int, Sequence[A.Action]]]) -> list[TableDice]:
    """The pools of each set of tables that throw as many dice, from games given as (game
    number, table name, dice the table throws, actions); fewest dice first, and only sets
    with a throw."""
    sets: dict[int, list[tuple[int, str, Sequence[A.Action]]]] = {}
    for game_id, table, dice, actions in games:
        sets.setdefault(dice, []).append((game_id, table, actions))
    out = []
    for dice, played in sorted(sets.items()):
        found = pools(a for _, _, actions in played for a in actions)
        if found:
            thrown = [
                (n, t) for n, t, actions in played if any(isinstance(a, A.Roll) for a in actions)
            ]
            tables = tuple(dict.fromkeys(t for _, t in thrown))
            out.append(TableDice(dice, tables, tuple(n for n, _ in thrown), found))
    return out
