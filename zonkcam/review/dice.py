"""The night's dice, from the game log: every die of every throw as the game kept it (a
misread roll that was corrected counts as corrected: an undo folds the misread away),
grouped by what tells the dice apart, and each group's fairness verdict.

What tells dice apart in the log is their colour, kept on tables that play with colours
(detroit); dice of one colour, or of a table that keeps no colours, cannot be told apart
and are pooled: a pool's verdict is on all its dice at once (a loaded die among fair ones
shows less strongly, so it takes more throws to catch)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from zonkcam.game import actions as A
from zonkcam.review.fairness import FACES, Verdict, verdict


@dataclass(frozen=True)
class Pool:
    name: str
    """The dice's colour, or "every die" where the log keeps no colour."""
    dice: int
    """How many dice of the pool a throw holds at most (the pool's size, at least)."""
    verdict: Verdict

    @property
    def text(self) -> str:
        if self.dice == 1:
            return f"{self.name} die: {self.verdict.text}"
        apart = f"{self.dice} dice pooled, the log cannot tell them apart"
        return f"{self.name} ({apart}): {self.verdict.text}"


def pools(actions: Iterable[A.Action]) -> list[Pool]:
    """The groups of dice thrown in these actions (of one or many games), biggest first."""
    counts: dict[str, list[int]] = {}
    sizes: dict[str, int] = {}
    for action in actions:
        if not isinstance(action, A.Roll):
            continue
        seen: dict[str, int] = {}
        for die in action.dice:
            name = die.color or "every die"
            counts.setdefault(name, [0] * FACES)[die.value - 1] += 1
            seen[name] = seen.get(name, 0) + 1
        for name, n in seen.items():
            sizes[name] = max(sizes.get(name, 0), n)
    out = [Pool(name, sizes[name], verdict(c)) for name, c in counts.items()]
    return sorted(out, key=lambda p: (-p.verdict.throws, p.name))
