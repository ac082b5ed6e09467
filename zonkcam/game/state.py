"""The state of a game at the table: players, the turn in progress, and the log.

States are produced only by :mod:`zonkcam.game.engine` folding actions; everything here
is plain data plus read-only helpers for showing it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from zonkcam.game.dice import Die
from zonkcam.game.lines import Lines
from zonkcam.game.rules import RuleSet
from zonkcam.game.scoring import LegalKeep, RollScore


def seat_name(seat: int) -> str:
    """How a table with zonk names shows a player who has none yet: ``Player 3``."""
    return f"Player {seat}"


def seat_number(name: str) -> int | None:
    """3 for ``Player 3`` (any case, any spacing), else None."""
    word, _, number = name.strip().partition(" ")
    number = number.strip()
    if word.casefold() == "player" and number.isascii() and number.isdigit() and len(number) < 4:
        return int(number)
    return None


class Phase(StrEnum):
    SETUP = "setup"
    """No players seated yet."""
    ROLL = "roll"
    """The current player must (or, with ``bank_ok``, may) roll ``dice_to_roll`` dice."""
    DECIDE = "decide"
    """A scoring roll is on the table: keep, bank its best keep, or go for 1000."""
    PAIR = "pair"
    """Two-dice pair with nothing scoring: re-roll the pair or pass (zonk)."""
    GO_FOR_1000 = "go-for-1000"
    """The player rolls one die hoping for the missing face."""
    OVER = "over"


def _copied(obj):  # noqa: ANN001 - any of the dataclasses here
    """A shallow copy (what ``copy.copy`` makes, without its generic machinery)."""
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    return new


@dataclass
class PlayerState:
    name: str
    score: int = 0
    bees: int = 0
    zonks: int = 0
    drinks: int = 0
    """Drinks the table has told this player to take."""
    drunk: int = 0
    """Of those, the drinks marked drunk."""
    handouts: int = 0
    """Drinks this player may hand out (all the game's, those given included)."""
    handed: int = 0
    """Of those, the hand-outs marked given."""
    rules: int = 0
    """Drinking rules this player may make (all the game's, those made included)."""
    made: int = 0
    """Of those, the rules marked made."""
    on_board: bool = False
    turns: int = 0
    spaced: int = 0
    """Turns this player will lose (drinking: spaced)."""
    left: bool = False
    """Crossed off the score card."""
    zonk_name: str | None = None
    frame_zonks: int = 0
    frame_earned: bool = False
    zonks_in_a_row: int = 0
    """Zonks since this player's last bank (the three-zonk penalty counts them)."""
    sheet: Lines = field(default_factory=Lines)
    """Per turn: the game total and B's (``1200 (+1)``) or a zonk (``Z (+1)``)."""

    @property
    def drinks_due(self) -> int:
        """Drinks this player still owes."""
        return self.drinks - self.drunk

    @property
    def handouts_due(self) -> int:
        """Drinks this player has still to hand out."""
        return self.handouts - self.handed

    @property
    def rules_due(self) -> int:
        """Drinking rules this player has still to make."""
        return self.rules - self.made

    def fork(self) -> PlayerState:
        """A copy to change; the score sheet is shared, not copied."""
        p = _copied(self)
        p.sheet = self.sheet.copy()
        return p


@dataclass
class TurnState:
    phase: Phase = Phase.SETUP
    total: int = 0
    dice_to_roll: int = 0
    roll: tuple[Die, ...] | None = None
    """The last roll of this turn, while it is on the table."""
    score: RollScore | None = None
    kept: LegalKeep | None = None
    rolls: int = 0
    set_aside: tuple[int, ...] = ()
    """Values set aside in this cycle (until all dice are picked up again)."""
    set_aside_points: int = 0
    aside_colours: frozenset[tuple[str, ...]] = frozenset({()})
    """The colours the dice set aside in this cycle may have (each way the keeps could have
    taken them from coloured rolls, the colours sorted; dice without a colour left out)."""
    carried: frozenset[int] = frozenset()
    bank_ok: bool = False
    """In the ROLL phase: whether the player may bank instead of rolling."""
    piggybacked: bool = False
    missing_face: int = 0
    """Going for 1000: the face that completes 1-2-3-4-5-6."""


@dataclass(frozen=True)
class Options:
    """What the rules accept from the current player next, worked out by the engine once
    with each accepted action: the screen, the buttons and the automatic players read it
    instead of trying actions. (Seating, zonk names, penalties, board images and drinks
    are for anyone at any time, and are not in it.)"""

    roll: int = 0
    """The dice a ``Roll`` throws now; 0 where no roll is accepted."""
    keeps: tuple[LegalKeep, ...] = ()
    """The keeps ``Keep`` accepts from the roll on the table, best first."""
    dice_after: tuple[int, ...] = ()
    """For each of ``keeps``, the dice the roll after it throws (all the table's dice
    again where the keep sets every die aside: hot dice)."""
    bank: bool = False
    """``Bank``: the phase, the entry and bank minimums allow it."""
    go_for_1000: bool = False
    piggyback: bool = False
    pair: bool = False
    """A two-dice pair with nothing scoring is on the table: ``Reroll`` or ``Pass``."""

    def keep(self, values: Iterable[int]) -> LegalKeep | None:
        """The legal keep of exactly these values (any order), or None."""
        wanted = tuple(sorted(values))
        return next((k for k in self.keeps if k.dice == wanted), None)

    def roll_after(self, keep: LegalKeep) -> int:
        """The dice the roll after ``keep`` (one of ``keeps``) throws."""
        return self.dice_after[self.keeps.index(keep)]


@dataclass(frozen=True)
class PiggybackOffer:
    total: int
    dice: int
    by: str


@dataclass
class GameState:
    rules: RuleSet
    players: list[PlayerState] = field(default_factory=list)
    current: int = -1
    turn: TurnState = field(default_factory=TurnState)
    finished: bool = False
    winners: list[str] = field(default_factory=list)
    final_round_by: int | None = None
    firsts_reached: frozenset[int] = frozenset()
    offer: PiggybackOffer | None = None
    options: Options = field(default_factory=Options)
    """What the rules accept next (set by the engine with each accepted action)."""
    banners: list[str] = field(default_factory=list)
    """Banners raised by the last action (ZONK, HOT DICE, ...), for the screen."""
    log: Lines = field(default_factory=Lines)

    def fork(self) -> GameState:
        """A copy for the engine to change: its cost does not grow with the game's length
        (the log and score sheets are shared; everything else here is small or immutable)."""
        s = _copied(self)
        s.players = [p.fork() for p in self.players]
        s.turn = _copied(self.turn)
        s.winners = list(self.winners)
        s.banners = list(self.banners)
        s.log = self.log.copy()
        return s

    # -- reading the state ---------------------------------------------------------------

    @property
    def player(self) -> PlayerState | None:
        return self.players[self.current] if 0 <= self.current < len(self.players) else None

    @property
    def phase(self) -> Phase:
        return self.turn.phase

    @property
    def winner(self) -> str | None:
        return self.winners[0] if len(self.winners) == 1 else None

    @property
    def active(self) -> list[PlayerState]:
        return [p for p in self.players if not p.left]

    def shown_name(self, player: PlayerState) -> str:
        """Where the table uses zonk names, the zonk name, or until one is given the seat
        (``Player 3``): never the real name. Elsewhere the real name."""
        if not self.rules.drinking.zonk_names:
            return player.name
        if player.zonk_name:
            return player.zonk_name
        seat = next(i for i, p in enumerate(self.players, start=1) if p is player)
        return seat_name(seat)

    def shown_names(self) -> dict[str, str]:
        """Each player's real name and the name the table shows for them (the zonk name on
        the drinking table): what a record of real names is read through before it is shown."""
        return {p.name: self.shown_name(p) for p in self.players}

    def find(self, name: str) -> PlayerState | None:
        """The player with this real name or zonk name (any case); where the table uses
        zonk names, a player still without one also by seat (``Player 3``)."""
        key = name.casefold()
        for p in self.players:
            if p.name.casefold() == key or (p.zonk_name or "").casefold() == key:
                return p
        seat = seat_number(name)
        if self.rules.drinking.zonk_names and seat and seat <= len(self.players):
            p = self.players[seat - 1]
            return p if not p.zonk_name else None
        return None

    def to_json(self) -> dict[str, Any]:
        """The summary printed by ``zonkcam replay``."""
        t = self.turn
        return {
            "rules": self.rules.name,
            "players": [
                {
                    "name": p.name,
                    "score": p.score,
                    "bees": p.bees,
                    "zonks": p.zonks,
                    "drinks": p.drinks,
                    "drinks_due": p.drinks_due,
                    "handouts": p.handouts,
                    "handouts_due": p.handouts_due,
                    "rules": p.rules,
                    "rules_due": p.rules_due,
                    "on_board": p.on_board,
                    "turns": p.turns,
                    "spaced": p.spaced,
                    "left": p.left,
                    "zonk_name": p.zonk_name,
                    "sheet": list(p.sheet),
                }
                for p in self.players
            ],
            "current": self.player.name if self.player and not self.finished else None,
            "phase": str(t.phase),
            "turn_total": t.total,
            "dice_to_roll": t.dice_to_roll,
            "final_round": self.final_round_by is not None,
            "finished": self.finished,
            "winner": self.winner,
            "winners": list(self.winners),
            "log": list(self.log),
        }
