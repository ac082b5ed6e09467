"""Scoring one roll: every legal keep with its points and combinations, the best keep, zonk.

A keep is a multiset of values from one roll. Its points are the best way to partition
all of it into combinations; a keep that cannot be partitioned entirely (it holds a
non-scoring die) is not legal. The table state that changes what a roll is worth
(all-johnnys: faces carried over from a set-aside three of a kind, dice set aside
earlier in the cycle for the straight completion) comes in a :class:`RollContext`.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from zonkcam.game.dice import COLOURS, DETROIT_DICE, FACES, Die, counts_of, values_of
from zonkcam.game.errors import BadDiceError, IllegalKeepError
from zonkcam.game.rules import RuleSet

Counts = tuple[int, int, int, int, int, int]
_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
_NO = -1  # a count vector that cannot be partitioned into combinations


@dataclass(frozen=True)
class RollContext:
    """What the turn so far changes about the worth of a roll."""

    full_roll: bool = True
    """All of the table's dice were rolled (straights, full house, megas, colour pairs)."""
    carried: frozenset[int] = frozenset()
    """Faces of three of a kinds set aside earlier in this cycle (carry-over extras)."""
    set_aside: tuple[int, ...] = ()
    """Values set aside earlier in this cycle (for the straight completed across rolls)."""
    set_aside_points: int = 0
    """What those set-aside dice scored (the completed straight scores in their place)."""


@dataclass(frozen=True)
class Combo:
    name: str
    counts: Counts
    points: int
    of_a_kind: int = 0
    """The face, for three or more of a kind (not megas); else 0."""


@dataclass(frozen=True)
class LegalKeep:
    """A legal keep: the dice set aside from one roll, their points and how they score."""

    dice: tuple[int, ...]
    """Kept values, sorted."""
    points: int
    """What the keep adds to the turn total."""
    combos: tuple[str, ...]
    """The combinations of the best partition, e.g. ("three 2s", "single 1")."""
    triples: frozenset[int] = frozenset()
    """Faces counted as three or more of a kind (their later dice may carry over)."""

    def to_json(self) -> dict:
        return {"keep": list(self.dice), "points": self.points, "combos": list(self.combos)}


@dataclass(frozen=True)
class RollScore:
    """The worth of one roll: every legal keep (best first) and whether it is a zonk."""

    dice: tuple[Die, ...]
    keeps: tuple[LegalKeep, ...]

    @property
    def zonk(self) -> bool:
        return not self.keeps

    @property
    def best(self) -> LegalKeep | None:
        return self.keeps[0] if self.keeps else None

    def keep_for(self, values: Sequence[int]) -> LegalKeep:
        """The keep of exactly these values; raises IllegalKeepError with the reason."""
        wanted = tuple(sorted(values))
        for keep in self.keeps:
            if keep.dice == wanted:
                return keep
        rolled = counts_of(d.value for d in self.dice)
        if not wanted:
            raise IllegalKeepError("a keep needs at least one scoring die")
        if any(v not in FACES for v in wanted):
            raise IllegalKeepError(f"a die shows 1 to 6: {_show(wanted)} is not a keep")
        have = counts_of(wanted)
        if any(h > r for h, r in zip(have, rolled, strict=True)):
            raise IllegalKeepError(
                f"cannot keep {_show(wanted)}: the roll was {_show(d.value for d in self.dice)}"
            )
        if self.zonk:
            raise IllegalKeepError("nothing in this roll scores")
        raise IllegalKeepError(
            f"cannot keep {_show(wanted)}: every kept die must be part of a scoring "
            f"combination from this roll (legal keeps include {_show(self.keeps[0].dice)})"
        )


SHOWN_DICE = 12
"""Dice a message lists before it counts the rest (a table has at most 6; a typed keep
can be 100,000 long)."""


def _show(values: Iterable[int]) -> str:
    shown = list(values)
    if len(shown) <= SHOWN_DICE:
        return " ".join(str(v) for v in shown)
    return " ".join(str(v) for v in shown[:SHOWN_DICE]) + f" ... ({len(shown):,} dice)"


def score_roll(
    rules: RuleSet, dice: Sequence[Die], context: RollContext | None = None
) -> RollScore:
    """Every legal keep of a roll, highest points first (ties: more dice first)."""
    dice = tuple(dice)
    if not dice:
        raise BadDiceError("a roll needs at least one die")
    if len(dice) > rules.dice:
        raise BadDiceError(f"{rules.name} is played with {rules.dice} dice, not {len(dice)}")
    ctx = context or RollContext(full_roll=len(dice) == rules.dice)
    counts = counts_of(d.value for d in dice)
    pairs = ctx.full_roll and rules.points.colour_pairs > 0 and _colour_pairs(dice)
    completion = _completes_straight(rules, counts, ctx)
    # only what can change this roll's keeps goes into the cache key
    carried = frozenset(f for f in ctx.carried if counts[f - 1])
    keeps = _keeps(
        rules,
        counts,
        ctx.full_roll,
        carried,
        pairs,
        completion,
        ctx.set_aside_points if completion else 0,
    )
    return RollScore(dice, keeps)


def clear_keep_cache() -> None:
    """Forget the legal keeps of every roll scored so far: :func:`score_roll` works each
    roll out afresh the next time, as on a cold start (for timing it)."""
    _keeps.cache_clear()


def colours_needed(rules: RuleSet, dice: Sequence[Die]) -> str | None:
    """Why ``dice``, a roll of all the table's dice given without colours, cannot be scored
    without them: on a table with colour pairs, matching pairs would score more than the
    values alone (2 2 3 3 4 4 on detroit: nothing, or 1,000). None when the colours are
    given or would change nothing."""
    if (
        not rules.points.colour_pairs
        or len(dice) != rules.dice
        or any(d.color is not None for d in dice)
    ):
        return None
    values = sorted(d.value for d in dice)
    paired = tuple(Die(v, c) for v, c in zip(values, DETROIT_DICE, strict=True))
    plain, pairs = score_roll(rules, dice).best, score_roll(rules, paired).best
    as_pairs = pairs.points if pairs else 0
    if as_pairs <= (plain.points if plain else 0):
        return None
    letters = {name: letter for letter, name in COLOURS.items()}
    example = " ".join(f"{d.value}{letters[d.color]}" for d in paired)
    key = ", ".join(f"{letters[c]} {c}" for c in dict.fromkeys(DETROIT_DICE))
    alone = f"scores {plain.points:,}" if plain else "scores nothing"
    return (
        f"{_show(values)} without colours {alone}; as colour pairs it scores {as_pairs:,}: "
        f"type the dice with their colours ({key}), e.g. {example}"
    )


def _colour_pairs(dice: Sequence[Die]) -> bool:
    """Detroit: each colour's two dice show one number (needs all three pairs). Six equal
    dice always do, whatever their colours (or without them)."""
    if len(dice) == 6 and len({d.value for d in dice}) == 1:
        return True
    by_colour: dict[str, list[int]] = {}
    for d in dice:
        if d.color is None:
            return False
        by_colour.setdefault(d.color, []).append(d.value)
    return len(dice) == 6 and all(len(v) == 2 and v[0] == v[1] for v in by_colour.values())


def _completes_straight(rules: RuleSet, counts: Counts, ctx: RollContext) -> bool:
    if not rules.straight_completion or not ctx.set_aside:
        return False
    together = list(values_of(counts)) + list(ctx.set_aside)
    return sorted(together) == [1, 2, 3, 4, 5, 6]


@lru_cache(maxsize=65_536)
def _keeps(
    rules: RuleSet,
    counts: Counts,
    full_roll: bool,
    carried: frozenset[int],
    colour_pairs: bool,
    completion: bool,
    set_aside_points: int,
) -> tuple[LegalKeep, ...]:
    combos = _combos(rules, counts, full_roll, carried, colour_pairs, completion, set_aside_points)
    best = _partitioner(combos)
    keeps = []
    for sub in itertools.product(*(range(n + 1) for n in counts)):
        if not any(sub):
            continue
        points, parts = best(sub)
        if points != _NO:
            names = tuple(c.name for c in parts)
            triples = frozenset(c.of_a_kind for c in parts if c.of_a_kind)
            keeps.append(LegalKeep(values_of(sub), points, names, triples))
    if not keeps and full_roll and rules.points.nothing:
        keeps.append(LegalKeep(values_of(counts), rules.points.nothing, ("nothing scores",)))
    keeps.sort(key=lambda k: (-k.points, -len(k.dice), k.dice))
    return tuple(keeps)


def _combos(
    rules: RuleSet,
    counts: Counts,
    full_roll: bool,
    carried: frozenset[int],
    colour_pairs: bool,
    completion: bool,
    set_aside_points: int,
) -> tuple[Combo, ...]:
    """The combinations this roll could contain, richest first."""
    p = rules.points
    out: list[Combo] = []

    def unit(face: int, n: int) -> Counts:
        return tuple(n if f == face else 0 for f in FACES)  # type: ignore[return-value]

    n_rolled = sum(counts)
    if full_roll:
        for straight in p.straights:
            out.append(
                Combo(
                    f"straight {straight.label}" if len(straight.faces) < 6 else straight.label,
                    counts_of(straight.faces),
                    straight.points,
                )
            )
        if colour_pairs:
            out.append(Combo("colour pairs", counts, p.colour_pairs))
        if p.full_house and n_rolled == rules.dice:
            for three, two in itertools.permutations(FACES, 2):
                if counts[three - 1] < 3 or counts[two - 1] < 2:
                    continue
                c = [0] * 6
                c[three - 1], c[two - 1] = 3, 2
                out.append(Combo(f"full house {three}s over {two}s", tuple(c), p.full_house))
        if p.three_pairs and n_rolled == 6 and all(n % 2 == 0 for n in counts):
            out.append(Combo("three pairs", counts, p.three_pairs))
        for face in FACES:
            megas = p.six_ones if face == 1 else p.six_of_a_kind * face
            if megas and counts[face - 1] == 6:
                out.append(Combo(f"six {face}s (mega)", unit(face, 6), megas))
    if completion:
        out.append(
            Combo(
                f"1-2-3-4-5-6 across rolls ({rules.straight_completion} in place of "
                f"{set_aside_points})",
                counts,
                rules.straight_completion - set_aside_points,
            )
        )
    for face in FACES:
        triple = p.three_ones if face == 1 else p.three_of_a_kind * face
        if not triple or counts[face - 1] < 3:
            continue
        if p.extra_die or p.extra_die_doubles:
            for n in (6, 5, 4):
                extra = (
                    triple * (2 ** (n - 3) - 1) if p.extra_die_doubles else (n - 3) * p.extra_die
                )
                out.append(Combo(f"{_WORDS[n]} {face}s", unit(face, n), triple + extra, face))
        out.append(Combo(f"three {face}s", unit(face, 3), triple, face))
    for face in sorted(carried):
        out.append(Combo(f"extra {face} (carried)", unit(face, 1), p.extra_die))
    if p.single_one:
        out.append(Combo("single 1", unit(1, 1), p.single_one))
    if p.single_five:
        out.append(Combo("single 5", unit(5, 1), p.single_five))
    return tuple(
        c
        for c in out
        if c.points > 0 and all(need <= have for need, have in zip(c.counts, counts, strict=True))
    )


def _partitioner(combos: tuple[Combo, ...]):
    """best(counts) -> (points, combos) of the best exact partition, or (_NO, ())."""
    memo: dict[tuple[int, ...], tuple[int, tuple[Combo, ...]]] = {(0, 0, 0, 0, 0, 0): (0, ())}

    def best(counts: tuple[int, ...]) -> tuple[int, tuple[Combo, ...]]:
        hit = memo.get(counts)
        if hit is not None:
            return hit
        result: tuple[int, tuple[Combo, ...]] = (_NO, ())
        # The lowest face still to cover must belong to some combination: try only those.
        first = next(i for i, n in enumerate(counts) if n)
        for combo in combos:
            if not combo.counts[first]:
                continue
            rest = tuple(h - n for h, n in zip(counts, combo.counts, strict=True))
            if min(rest) < 0:
                continue
            pts, names = best(rest)
            if pts != _NO and pts + combo.points > result[0]:
                result = (pts + combo.points, (combo, *names))
        memo[counts] = result
        return result

    return best
