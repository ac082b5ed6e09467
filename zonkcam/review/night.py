"""A night's games as the review shows them: each game's score race, zonks and hot dice
per player, drinks handed out, owed and marked drunk, its turns (the biggest, the
slowest), played back from the game log's actions and the times they were written; and
the night's summary over its games (who won, the biggest turn, the most zonks, the
drinks, how long it ran).

Pure: actions and times in, a :class:`GameReview` out (the command reads the log).

Names are the names the game shows, as they stand at its end: on a table of zonk names
(drinking) a player's zonk name, and a player who has none is "player N" (their seat), so
that no real name appears there."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field

from zonkcam.game import actions as A
from zonkcam.game.game import Game
from zonkcam.game.rules import RuleSet, WinnerBy
from zonkcam.game.state import GameState, PlayerState
from zonkcam.record.clock import LONGEST_S, Jump, timeline

TYPED_IN_GAP = 0.2
"""Seconds: a game whose actions were written this close together (the median gap) was
typed in at once (piped into `play --text`, imported): its times say nothing about
how long its turns took."""


@dataclass(frozen=True)
class Turn:
    player: str
    """Shown name (a zonk name on the drinking table)."""
    points: int
    """Banked; 0 for a zonk or a sloppy throw."""
    seconds: float | None
    """From the end of the turn before (the seating, for the first) to its last action;
    None where that is unknown: the clock jumped in the turn, or it took longer than
    anyone takes (:data:`~zonkcam.record.clock.LONGEST_S`)."""
    zonk: bool
    number: int
    """The player's own turn count, as the score sheet numbers it (1 = their first)."""
    sloppy: bool = False
    """A die fell off the table: the turn ended with no points (the drinking table)."""
    bees: int = 0
    """B's earned in the turn (a table of B's)."""
    last_seq: int = 0
    """The place in the game's log (undos included, from 1) of the turn's last action."""

    @property
    def result(self) -> str:
        """What the turn scored, in words."""
        if self.sloppy:
            return "sloppy (a die fell off the table): no points"
        if self.zonk:
            return "zonk" + (f" (+{self.bees} B)" if self.bees else "")
        return f"{self.points:,}" + (f" (+{self.bees} B)" if self.bees else "")


@dataclass
class GameReview:
    game_id: int
    rules_name: str
    players: list[str]
    race: list[tuple[int, dict[str, int]]] = field(default_factory=list)
    """After each turn: (turns played, every player's total)."""
    zonks: dict[str, int] = field(default_factory=dict)
    hot_dice: dict[str, int] = field(default_factory=dict)
    drinks_owed: dict[str, int] = field(default_factory=dict)
    """Drinks each player was given to drink (a penalty, a board image), drunk or not."""
    drinks_drunk: dict[str, int] = field(default_factory=dict)
    """Of those, the drinks marked drunk (ROLL held, `drunk`)."""
    handouts: dict[str, int] = field(default_factory=dict)
    turns: list[Turn] = field(default_factory=list)
    drinking: bool = False
    finished: bool = False
    winners: list[str] = field(default_factory=list)
    actions: list[A.Action] = field(default_factory=list)
    """The game as it was kept (undos folded away)."""
    by_bees: bool = False
    """The table is won by B's (all-johnnys): the race and the result count B's."""
    bees_race: list[tuple[int, dict[str, int]]] = field(default_factory=list)
    """After each turn: (turns played, every player's B's); on a table of B's."""
    scores: dict[str, int] = field(default_factory=dict)
    """Every player's points at the end."""
    bees: dict[str, int] = field(default_factory=dict)
    """Every player's B's at the end (a table of B's)."""
    started: float | None = None
    """When the game's first action was written (seconds since the epoch), by the clock
    after its last jump (:mod:`zonkcam.record.clock`)."""
    ended: float | None = None
    """...and its last."""
    jumps: tuple[Jump, ...] = ()
    """Where the clock jumped during the game."""
    timed: bool = False
    """Whether its times were kept at the table (not typed in at once: TYPED_IN_GAP)."""
    times_unreadable: bool = False
    """Whether some of its times in the log are unreadable (a damaged log): none is used."""
    dice: int = 5
    """How many dice the table throws."""

    def standing(self, name: str) -> str:
        """A player's result in words: "7 B's (5,400 points)", "10,350"."""
        points = f"{self.scores.get(name, 0):,}"
        if self.by_bees:
            n = self.bees.get(name, 0)
            return f"{bees_text(n)} and {points} points"
        return points

    def leaders(self) -> list[str]:
        """The winners of a finished game, else who leads."""
        if self.finished:
            return self.winners
        if not self.players:
            return []
        key = (lambda n: (self.bees.get(n, 0), self.scores.get(n, 0))) if self.by_bees else None
        key = key or (lambda n: self.scores.get(n, 0))
        top = max(key(n) for n in self.players)
        return [n for n in self.players if key(n) == top]


def bees_text(n: int) -> str:
    return f"{n} B" + "'s" * (n != 1)


def kept(actions: Sequence[A.Action], times: Sequence[float]) -> list[tuple[int, float, A.Action]]:
    """The actions the game kept, each with its place in the log (from 1) and its time: an
    undo takes back the one before."""
    stack: list[tuple[int, float, A.Action]] = []
    for seq, (at, action) in enumerate(zip(times, actions, strict=True), start=1):
        if isinstance(action, A.Undo):
            if stack:
                stack.pop()
        else:
            stack.append((seq, at, action))
    return stack


def shown(state: GameState, player: PlayerState) -> str:
    """The name the review gives a player: the game's shown name; on a table of zonk names
    a player without one is "player N" (their seat), never their real name."""
    if state.rules.drinking.zonk_names and not player.zonk_name:
        return f"player {state.players.index(player) + 1}"
    return state.shown_name(player)


def review_game(
    game_id: int, rules: RuleSet, actions: Sequence[A.Action], times: Sequence[float | None]
) -> GameReview:
    """The game played back from its actions and the times they were written, read
    through the clock's jumps (:func:`~zonkcam.record.clock.timeline`); a time that is
    None (unreadable in the log) leaves the whole game without times."""
    game = Game(rules)
    unreadable = any(at is None for at in times)
    clock = timeline([0.0 if unreadable or at is None else at for at in times])
    timed = kept(actions, clock.times)
    review = GameReview(
        game_id,
        rules.name,
        [],
        drinking=bool(rules.drinking.penalties),
        by_bees=rules.bees and rules.winner_by is WinnerBy.BEES,
        times_unreadable=unreadable,
        dice=rules.dice,
    )
    # kept by real name while the game is played back; named as the game ends
    hot: dict[str, int] = {}
    turns: list[tuple[str, Turn]] = []
    race: list[tuple[int, dict[str, int]]] = []
    bees_race: list[tuple[int, dict[str, int]]] = []
    since: float | None = None
    since_seq = 0
    played = 0
    for seq, at, action in timed:
        before = game.state
        mover = before.player
        state = game.play(action)
        review.actions.append(action)
        if since is None:  # the seating: the first turn starts here
            since, since_seq = at, seq
        if isinstance(action, A.Players | A.Join | A.ZonkName):
            continue
        if mover is not None and "HOT DICE" in state.banners:
            hot[mover.name] = hot.get(mover.name, 0) + 1
        total = sum(p.turns for p in state.players)
        if total > played and mover is not None:  # the turn ended (a bank or a zonk)
            played = total
            after = next(p for p in state.players if p.name == mover.name)
            zonk, sloppy = "ZONK" in state.banners, "SLOPPY" in state.banners
            took = at - since
            known = not clock.jumped(since_seq - 1, seq - 1) and 0 <= took <= LONGEST_S
            turn = Turn(
                mover.name,
                0 if zonk or sloppy else after.score - mover.score,
                took if known else None,
                zonk,
                len(mover.sheet) + 1,
                sloppy,
                after.bees - mover.bees,
                seq,
            )
            turns.append((mover.name, turn))
            race.append((total, {p.name: p.score for p in state.players}))
            if rules.bees:
                bees_race.append((total, {p.name: p.bees for p in state.players}))
            since, since_seq = at, seq
    state = game.state
    name = {p.name: shown(state, p) for p in state.players}
    review.players = [name[p.name] for p in state.players]
    review.turns = [_renamed(t, name[who]) for who, t in turns]
    review.race = [(n, {name[k]: v for k, v in totals.items()}) for n, totals in race]
    review.bees_race = [(n, {name[k]: v for k, v in b.items()}) for n, b in bees_race]
    review.hot_dice = {name[k]: v for k, v in hot.items()}
    review.handouts = {name[p.name]: p.handouts for p in state.players}
    review.zonks = {name[p.name]: p.zonks for p in state.players}
    review.drinks_owed = {name[p.name]: p.drinks for p in state.players}
    review.drinks_drunk = {name[p.name]: p.drunk for p in state.players}
    review.scores = {name[p.name]: p.score for p in state.players}
    review.bees = {name[p.name]: p.bees for p in state.players} if rules.bees else {}
    review.finished = state.finished
    review.winners = [name[p.name] for p in state.players if p.name in state.winners]
    if timed and not unreadable:
        review.started, review.ended = timed[0][1], timed[-1][1]
        review.jumps = clock.jumps
        gaps = [b[1] - a[1] for a, b in zip(timed[1:], timed[2:], strict=False)]
        review.timed = bool(gaps) and statistics.median(gaps) >= TYPED_IN_GAP
    return review


def _renamed(turn: Turn, name: str) -> Turn:
    return Turn(
        name,
        turn.points,
        turn.seconds,
        turn.zonk,
        turn.number,
        turn.sloppy,
        turn.bees,
        turn.last_seq,
    )


@dataclass(frozen=True)
class Summary:
    """The night over its games (names as each game shows them)."""

    games: int
    finished: int
    wins: dict[str, int]
    """Games won, per player who won any (a shared win counts for each)."""
    biggest: tuple[GameReview, Turn] | None
    """The turn that banked the most points, and its game."""
    zonks: dict[str, int]
    """Zonks per player over the games."""
    handed_out: dict[str, int]
    """Drinks handed out per player over the drinking games."""
    drinks_owed: int
    """Drinks given to drink over the drinking games (a penalty, a board image)."""
    drinks_drunk: int
    """Of those, the drinks marked drunk."""
    drinking: bool
    """Whether any game with a turn was on a drinking table."""
    started: float | None
    ended: float | None
    """The first and last action of the games whose times were kept (None: none were)."""

    @property
    def night_winners(self) -> list[str]:
        """Who won the most games."""
        if not self.wins:
            return []
        top = max(self.wins.values())
        return [n for n, w in self.wins.items() if w == top]

    @property
    def most_zonks(self) -> tuple[list[str], int]:
        top = max(self.zonks.values(), default=0)
        return [n for n, z in self.zonks.items() if z == top and top], top


def summary(games: Sequence[GameReview]) -> Summary:
    wins: dict[str, int] = {}
    zonks: dict[str, int] = {}
    handed: dict[str, int] = {}
    biggest: tuple[GameReview, Turn] | None = None
    for g in games:
        if g.finished:
            for w in g.winners:
                wins[w] = wins.get(w, 0) + 1
        for n, z in g.zonks.items():
            zonks[n] = zonks.get(n, 0) + z
        if g.drinking and g.turns:
            for n, h in g.handouts.items():
                handed[n] = handed.get(n, 0) + h
        for t in g.turns:
            if not (t.zonk or t.sloppy) and (biggest is None or t.points > biggest[1].points):
                biggest = (g, t)
    timed = [g for g in games if g.timed]
    return Summary(
        games=len(games),
        finished=sum(g.finished for g in games),
        wins=wins,
        biggest=biggest,
        zonks=zonks,
        handed_out=handed,
        drinks_owed=sum(sum(g.drinks_owed.values()) for g in games if g.drinking),
        drinks_drunk=sum(sum(g.drinks_drunk.values()) for g in games if g.drinking),
        drinking=any(g.drinking and g.turns for g in games),
        started=min((g.started for g in timed if g.started is not None), default=None),
        ended=max((g.ended for g in timed if g.ended is not None), default=None),
    )
