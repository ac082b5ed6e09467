"""The night's awards, the first thing on the report: the biggest turn, the most zonks, the
comeback (the deepest hole a winner climbed out of), first on the board, and the luckiest
and unluckiest die.

Luck is how often a die showed a 1 or a 5, the faces that score on their own: a fair die
shows one 1 time in 3. Only a die the camera followed by its colour (a colour that is one
die: :mod:`zonkcam.review.dice`) through LUCK_THROWS throws takes part, and only where two
such dice do; dice told apart from no other have no luck of their own. Luck is not
loading: whether a die is loaded is the fairness verdict's to say.

Pure: the night's reviews and dice in, :class:`Award` s out."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from zonkcam.game.names import counted
from zonkcam.review.dice import Pool, TableDice
from zonkcam.review.night import GameReview, Turn, bees_text, summary

LUCK_THROWS = 60
"""Throws a die needs to take part in the luck awards: at 60 a fair die's share of 1s and
5s strays from 1 in 3 by less than 12 points 19 times in 20 (two standard deviations)."""
SCORING_FACES = (1, 5)
"""The faces that score on their own on every table."""
FAIR_SCORING = len(SCORING_FACES) / 6


@dataclass(frozen=True)
class Award:
    title: str
    who: str
    """Who won it ("Ann", "Ann & Bob", "the red die"); "" where nobody did."""
    text: str
    """What they did, in words (or why nobody won it)."""
    turn: tuple[GameReview, Turn] | None = None
    """The turn it was won with (the biggest turn), for its photo."""


@dataclass(frozen=True)
class Comeback:
    game: GameReview
    player: str
    behind: int
    """Points (B's on a table won by B's) behind the leader, at the worst."""
    leader: str
    """Who led them then."""
    after: int
    """Turns played (of the game) when they were furthest behind."""


def comeback(g: GameReview) -> Comeback | None:
    """The winner's deepest deficit in a finished game they won (points, or B's on a
    table won by B's); None where no winner was ever behind."""
    if not g.finished or len(g.winners) != 1:
        return None
    winner = g.winners[0]
    race = g.bees_race if g.by_bees else g.race
    worst: Comeback | None = None
    for played, totals in race:
        others = [n for n in g.players if n != winner]
        if not others:
            continue
        leader = max(others, key=lambda n: totals.get(n, 0))
        behind = totals.get(leader, 0) - totals.get(winner, 0)
        if behind > 0 and (worst is None or behind > worst.behind):
            worst = Comeback(g, winner, behind, leader, played)
    return worst


def first_on_the_board(g: GameReview) -> Turn | None:
    """The game's first turn that banked points."""
    return next((t for t in g.turns if t.points > 0), None)


def luck(pool: Pool) -> float:
    """The share of a die's throws that showed a 1 or a 5."""
    counts = pool.verdict.counts
    return sum(counts[f - 1] for f in SCORING_FACES) / max(1, pool.verdict.throws)


def awards(games: Sequence[GameReview], tables: Sequence[TableDice] = ()) -> list[Award]:
    """The night's awards, in the order the page shows them; an award nobody won says why
    (or is left out where there is nothing to say: no comeback, no points banked)."""
    s = summary(games)
    out = []
    if s.biggest:
        g, t = s.biggest
        out.append(
            Award(
                "The biggest turn",
                t.player,
                f"{t.points:,} points in one turn: their turn {t.number} in game {g.game_id} "
                f"({g.rules_name})",
                s.biggest,
            )
        )
    names, top = s.most_zonks
    if names:
        each = " each" if len(names) > 1 else ""
        out.append(Award("The most zonks", _listed(names), f"{top} zonk{'s' * (top != 1)}{each}"))
    backs = [c for g in games if (c := comeback(g))]
    if backs:
        c = max(backs, key=lambda c: (not c.game.by_bees, c.behind))
        behind = bees_text(c.behind) if c.game.by_bees else f"{c.behind:,} points"
        out.append(
            Award(
                "The comeback",
                c.player,
                f"{behind} behind {c.leader} after {counted(c.after, 'turn')} of game "
                f"{c.game.game_id} "
                f"({c.game.rules_name}), and won",
            )
        )
    out += _first(games)
    out += _luck(tables)
    return out


def _first(games: Sequence[GameReview]) -> list[Award]:
    firsts = [(g, t) for g in games if (t := first_on_the_board(g))]
    if not firsts:
        return []
    if len(firsts) == 1:
        g, t = firsts[0]
        turn = g.turns.index(t) + 1
        return [
            Award(
                "First on the board",
                t.player,
                f"{t.points:,} points on the game's turn {turn} (their turn {t.number})",
            )
        ]
    won: dict[str, list[int]] = {}
    for g, t in firsts:
        won.setdefault(t.player, []).append(g.game_id)
    most = max(map(len, won.values()))
    names = [n for n, ids in won.items() if len(ids) == most]
    each = " each" if len(names) > 1 else ""
    which = f" (game{'s' * (most > 1)} {_listed([str(i) for i in won[names[0]]], ' and ')})"
    return [
        Award(
            "First on the board",
            _listed(names),
            f"first to bank points in {most} of the {len(firsts)} games{each}"
            + (which if len(names) == 1 else ""),
        )
    ]


def _luck(tables: Sequence[TableDice]) -> list[Award]:
    dice = [
        (table, pool)
        for table in tables
        for pool in table.pools
        if pool.coloured and pool.dice == 1 and pool.verdict.throws >= LUCK_THROWS
    ]
    if len(dice) < 2:
        return [
            Award(
                "The luckiest die",
                "",
                f"nobody's: it takes two dice told apart by their colour, each thrown "
                f"{LUCK_THROWS} times or more"
                + (f" (one was: {_die(*dice[0], len(tables))})" if dice else ""),
            )
        ]
    shares = [luck(p) for _, p in dice]
    hi, lo = max(shares), min(shares)
    if hi == lo:
        return [Award("The luckiest die", "", "a tie: every die showed 1s and 5s as often")]
    out = []
    for title, share in (("The luckiest die", hi), ("The unluckiest die", lo)):
        won = [(t, p) for (t, p), x in zip(dice, shares, strict=True) if x == share]
        where = {t.name for t, _ in won}
        out.append(
            Award(
                title,
                _listed([f"the {p.name} die" for _, p in won]),
                (f"on {_listed(sorted(where))}: " if len(tables) > 1 else "")
                + f"a 1 or a 5 in {share:.0%} of "
                + _listed([f"{p.verdict.throws} throws" for _, p in won], " and ")
                + f" (a fair die: {FAIR_SCORING:.0%}, give or take "
                f"{_spread(min(p.verdict.throws for _, p in won)):.0%})",
            )
        )
    return out


def _die(table: TableDice, pool: Pool, sets: int) -> str:
    return f"the {pool.name} die" + (f" of {table.name}" if sets > 1 else "")


def _spread(throws: int) -> float:
    """How far a fair die's share of 1s and 5s strays in `throws` throws, 19 times in 20."""
    return 2 * math.sqrt(FAIR_SCORING * (1 - FAIR_SCORING) / throws)


def _listed(items: Sequence[str], last: str = " & ") -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + last + items[-1]
