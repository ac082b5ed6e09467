"""A turn as a finite model: where a turn stands, what each roll can show, what it allows.

A :class:`Position` is everything about a turn except its total that the rules make matter
for what comes next: the dice to roll, the turn's first roll (go for 1000), and what this
cycle has set aside where the table scores it later (all-johnnys: the straight completed
across rolls, carried-over extras). :class:`TurnModel` lists every position a turn can
reach, every roll from each with its chance, and every choice after it (each legal keep,
taking the points, going for 1000), scored by :func:`~zonkcam.game.scoring.score_roll`,
the engine's own scoring. The solver (:mod:`zonkcam.advisor.solver`) works on this model.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import reduce

from zonkcam.game.dice import DETROIT_DICE, Die
from zonkcam.game.rules import HotDice, RuleSet
from zonkcam.game.scoring import LegalKeep, RollContext, score_roll
from zonkcam.game.state import Phase, TurnState


@dataclass(frozen=True, order=True)
class Position:
    """Where a turn stands, apart from its total."""

    dice: int
    """Dice to roll next."""
    first: bool = False
    """The turn's first roll (only kept where the table has go for 1000)."""
    set_aside: tuple[int, ...] = ()
    """Dice set aside this cycle (only kept while they can still complete 1-2-3-4-5-6)."""
    set_aside_points: int = 0
    carried: frozenset[int] = frozenset()
    """Faces of set-aside triples whose later dice score extra (carry-over extras)."""
    closed: bool = False
    """This cycle's set-aside dice can no longer complete 1-2-3-4-5-6 (a face twice)."""

    def context(self, rules: RuleSet) -> RollContext:
        return RollContext(
            full_roll=self.dice == rules.dice,
            carried=self.carried,
            set_aside=self.set_aside,
            set_aside_points=self.set_aside_points,
        )


class Choice(StrEnum):
    """What a player can do after a scoring roll."""

    KEEP = "keep"
    BANK = "bank"
    """Take the points: bank with the roll's best keep (tables with no bank after a keep)."""
    GO = "go-for-1000"


@dataclass(frozen=True)
class Option:
    """One choice after a roll and where it leads."""

    kind: Choice
    points: int
    """Points added to the turn total (go for 1000: what success adds)."""
    target: int = -1
    """Keep: the position index after it."""
    free: bool = False
    """Keep: the player may bank before the next roll."""
    left: int = 0
    """Bank: dice left on the table (what a piggyback would take over)."""
    keep: tuple[int, ...] = ()


@dataclass(frozen=True)
class Outcome:
    """A roll (as a multiset of faces, with detroit's colour pairs or not) and its chance."""

    values: tuple[int, ...]
    chance: Fraction
    options: tuple[Option, ...]
    colour_pairs: bool = False


@dataclass(frozen=True)
class Rolls:
    """What rolling from one position can give."""

    scoring: tuple[Outcome, ...]
    zonk: Fraction
    """Chance that nothing scores and the turn ends."""
    pair: Fraction = Fraction(0)
    """Chance of a two-dice pair with nothing scoring that may be thrown again."""


def multiset_chance(counts: Sequence[int]) -> Fraction:
    """Chance that ``sum(counts)`` dice show exactly these face counts."""
    n = sum(counts)
    ways = math.factorial(n)
    for c in counts:
        ways //= math.factorial(c)
    return Fraction(ways, 6**n)


def colour_pairs_chance(counts: Sequence[int]) -> Fraction:
    """Given six dice with these face counts, the chance that each colour pair matches."""
    if any(c % 2 for c in counts):
        return Fraction(0)
    pairs = math.factorial(3)
    for c in counts:
        pairs //= math.factorial(c // 2)
    ways = math.factorial(6)
    for c in counts:
        ways //= math.factorial(c)
    return Fraction(pairs, ways)


def coloured(values: Sequence[int], pairs: bool) -> tuple[Die, ...]:
    """Six detroit dice showing ``values``, with every colour pair matching or not."""
    v = sorted(values)
    if not pairs:  # swap across two pairs that differ, so that some pair shows two faces
        for a, b in itertools.combinations(range(3), 2):
            if v[2 * a] != v[2 * b]:
                v[2 * a + 1], v[2 * b] = v[2 * b], v[2 * a + 1]
                break
    return tuple(Die(value, colour) for value, colour in zip(v, DETROIT_DICE, strict=True))


class TurnModel:
    """Every position of a turn under ``rules``, the rolls from each, and the choices."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.positions: list[Position] = []
        self.index: dict[Position, int] = {}
        self.rolls: list[Rolls] = []
        """Per position index: what rolling from there can give."""
        self._after: dict[tuple[Position, LegalKeep], tuple[int, bool]] = {}
        """Where each keep from each position leads, and whether banking is allowed then."""
        self.start = self._add(self.canonical(rules.dice, first=True))
        self.hot = self._add(self.canonical(rules.dice))
        self.hot_free = rules.hot_dice is HotDice.MAY and rules.bank_after_keep
        """After hot dice (and a go for 1000 that makes it), the player may bank."""
        for n in range(1, rules.dice):  # where a piggyback starts
            self._add(self.canonical(n))
        self._complete()
        shifts = [o.points for r in self.rolls for out in r.scoring for o in out.options]
        self.step = reduce(math.gcd, shifts + [rules.go_for_1000], 0) or 50
        """Every turn total is a multiple of this."""

    # -- positions ------------------------------------------------------------------------

    def canonical(
        self,
        dice: int,
        *,
        first: bool = False,
        set_aside: Sequence[int] = (),
        set_aside_points: int = 0,
        carried: frozenset[int] = frozenset(),
        closed: bool = False,
    ) -> Position:
        """The position, leaving out what cannot matter under these rules."""
        rules = self.rules
        aside = tuple(sorted(set_aside))
        closed = bool(rules.straight_completion) and (
            closed or len(set(aside)) != len(aside) or set_aside_points >= rules.straight_completion
        )
        if closed or not rules.straight_completion:
            aside, set_aside_points = (), 0
        return Position(
            dice,
            first and bool(rules.go_for_1000) and dice == rules.dice,
            aside,
            set_aside_points,
            carried if rules.carry_over_extras else frozenset(),
            closed,
        )

    def position_of(self, turn: TurnState) -> int:
        """The index of the position a turn in the engine stands at: rolling next, or,
        with a roll on the table, the position it was thrown from."""
        thrown = turn.rolls - (0 if turn.phase is Phase.ROLL else 1)
        first = thrown == 0 and not turn.piggybacked
        return self.find(
            self.canonical(
                turn.dice_to_roll,
                first=first,
                set_aside=turn.set_aside,
                set_aside_points=turn.set_aside_points,
                carried=turn.carried,
            )
        )

    def find(self, position: Position) -> int:
        i = self.index.get(position)
        if i is None:  # a position no turn from the start reaches (a replayed oddity)
            i = self._add(position)
            self._complete()
        return i

    def _complete(self) -> None:
        """Work out the rolls of every position (which may reach new positions)."""
        while len(self.rolls) < len(self.positions):
            self.rolls.append(self._rolls(self.positions[len(self.rolls)]))

    def _add(self, position: Position) -> int:
        if position not in self.index:
            self.index[position] = len(self.positions)
            self.positions.append(position)
        return self.index[position]

    # -- rolls and choices ----------------------------------------------------------------

    def _rolls(self, position: Position) -> Rolls:
        rules, n = self.rules, position.dice
        ctx = position.context(rules)
        detroit = rules.points.colour_pairs > 0 and n == rules.dice
        scoring: list[Outcome] = []
        zonk = pair = Fraction(0)
        for values in itertools.combinations_with_replacement(range(1, 7), n):
            counts = tuple(values.count(f) for f in range(1, 7))
            chance = multiset_chance(counts)
            if detroit:
                matched = colour_pairs_chance(counts)
                cases = [(True, chance * matched), (False, chance * (1 - matched))]
                cases = [(m, c) for m, c in cases if c]
            else:
                cases = [(False, chance)]
            for matched, c in cases:
                dice = coloured(values, matched) if detroit else tuple(map(Die, values))
                score = score_roll(rules, dice, ctx)
                if score.keeps:
                    options = self.options(position, score.keeps, values)
                    scoring.append(Outcome(values, c, options, matched))
                elif rules.two_dice_pair_reroll and n == 2 and values[0] == values[1]:
                    pair += c
                else:
                    zonk += c
        return Rolls(tuple(scoring), zonk, pair)

    def options(
        self, position: Position, keeps: Sequence[LegalKeep], values: Sequence[int]
    ) -> tuple[Option, ...]:
        """Every choice after a roll of ``values`` with these legal keeps, as the engine
        plays it (the keeps are the roll's, from :func:`score_roll`)."""
        rules, n = self.rules, position.dice
        out = []
        for keep in keeps:
            key = (position, keep)
            if key not in self._after:
                left = n - len(keep.dice)
                if left == 0:
                    self._after[key] = (self.hot, self.hot_free)
                else:
                    self._after[key] = (
                        self._add(
                            self.canonical(
                                left,
                                set_aside=position.set_aside + keep.dice,
                                set_aside_points=position.set_aside_points + keep.points,
                                carried=position.carried | keep.triples,
                                closed=position.closed,
                            )
                        ),
                        rules.bank_after_keep,
                    )
            target, free = self._after[key]
            out.append(Option(Choice.KEEP, keep.points, target, free, keep=keep.dice))
        best = keeps[0]
        if not rules.bank_after_keep and not (
            len(best.dice) == n and rules.hot_dice is HotDice.MUST
        ):
            out.append(Option(Choice.BANK, best.points, left=n - len(best.dice), keep=best.dice))
        if position.first and len(set(values)) == rules.dice - 1:
            out.append(Option(Choice.GO, rules.go_for_1000, self.hot, self.hot_free))
        return tuple(out)

    # -- reading the model ----------------------------------------------------------------

    def zonk_chance(self, i: int) -> Fraction:
        """Chance that the next roll from position ``i`` scores nothing."""
        r = self.rolls[i]
        return r.zonk + r.pair

    def zonk_chances(self) -> dict[int, Fraction]:
        """Chance that a roll of N dice (nothing set aside) scores nothing, N = 1 to all."""
        return {
            n: self.zonk_chance(self.find(self.canonical(n))) for n in range(1, self.rules.dice + 1)
        }
