"""Advice for the state of a game: zonk chance, bank against rolling on, the best keep.

:class:`Advisor` picks what to maximise for the player whose turn it is:

* ``win``: two players and a solved two-player table for the rules (:mod:`.race`): the
  chance to win;
* ``last turn``: the final round, the player's last turn: the chance to end it ahead of
  the leader (a tie counts half);
* ``points``: otherwise, the expected points of the turn (with the three-zonk penalty,
  over all turns, :func:`.points.long_run`); on a table that ends when a player reaches
  the target, a bank that reaches it wins, so it is always the advice.

Every value comes from a table solved once per rule set (or per score, for ``win`` and
``last turn``) and kept, so advice after the first is a few table look-ups.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from zonkcam.advisor.model import Choice, Option, TurnModel
from zonkcam.advisor.points import LongRun, long_run, solve_points
from zonkcam.advisor.race import WinTable, last_turn, last_turn_fits
from zonkcam.advisor.solver import Solver, Values
from zonkcam.game.names import counted
from zonkcam.game.rules import End, HotDice, RuleSet
from zonkcam.game.sizes import TABLE_CAP
from zonkcam.game.state import GameState, Phase, PlayerState

TIE = 1e-9
"""Values this close count as equal (banking is advised on a tie)."""
KEEP = 64
"""Per-score turn tables kept (the last turns of final rounds, two-player turns)."""
KEEP_BYTES = TABLE_CAP
"""Bytes of the per-score turn tables of each kind kept (at least the latest is)."""


class Objective(StrEnum):
    POINTS = "points"
    WIN = "win"
    LAST_TURN = "last turn"


class Best(StrEnum):
    BANK = "bank"
    ROLL = "roll"
    KEEP = "keep"
    GO_FOR_1000 = "go-for-1000"
    REROLL = "reroll"
    PASS = "pass"
    PIGGYBACK = "piggyback"


@dataclass(frozen=True)
class KeepValue:
    """One legal keep of the roll on the table (or going for 1000) and its worth."""

    dice: tuple[int, ...]
    """Kept values; () for go for 1000."""
    points: int
    value: float
    """Playing on as well as possible after it."""
    roll: float
    """Rolling on after it (going for 1000: the one die)."""
    bank: float | None
    """Banking straight after it; None where the rules refuse."""
    dice_left: int
    """Dice to roll next after it (all of them on hot dice)."""
    zonk_chance: float
    """Chance that the next roll after it scores nothing."""

    @property
    def go_for_1000(self) -> bool:
        return not self.dice

    @property
    def label(self) -> str:
        return "go for 1000" if self.go_for_1000 else "keep " + " ".join(map(str, self.dice))

    def to_json(self) -> dict[str, Any]:
        return {
            "keep": list(self.dice),
            "go_for_1000": self.go_for_1000,
            "points": self.points,
            "value": _round(self.value),
            "roll": _round(self.roll),
            "bank": _round(self.bank),
            "dice_left": self.dice_left,
            "zonk_chance": _round(self.zonk_chance),
        }


@dataclass(frozen=True)
class Advice:
    """What the player whose turn it is should do, and what each choice is worth."""

    objective: Objective
    best: Best
    bank: float | None
    """Banking now (after a roll: with its best keep); None where the rules refuse."""
    roll: float | None
    """Rolling on now (after a roll: with the best keep for it)."""
    zonk_chance: float | None
    """Chance that the next roll scores nothing (after a roll: the one after the best keep)."""
    keeps: tuple[KeepValue, ...] = ()
    """After a roll: every legal keep, in the engine's order (best points first)."""
    best_keep: tuple[int, ...] | None = None
    win_chance: float | None = None
    """The chance to win with the best play (``win`` and ``last turn``)."""
    note: str = ""

    @property
    def value(self) -> float:
        return max(v for v in (self.bank, self.roll) if v is not None)

    def to_json(self) -> dict[str, Any]:
        return {
            "objective": str(self.objective),
            "best": str(self.best),
            "best_keep": list(self.best_keep) if self.best_keep is not None else None,
            "zonk_chance": _round(self.zonk_chance),
            "bank": _round(self.bank),
            "roll": _round(self.roll),
            "win_chance": _round(self.win_chance),
            "keeps": [k.to_json() for k in self.keeps],
            "note": self.note,
        }


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 6)


@dataclass
class _Turn:
    """The solved values a piece of advice reads, and which problem in them."""

    values: Values
    problem: int
    objective: Objective


class Advisor:
    """Advice for game states; keeps every table it solves. Safe to share between threads.

    ``win_tables``: solved two-player tables (:func:`zonkcam.advisor.race.build`) by rule
    set, and ``load`` finds one for rules not among them (None: there is none); without
    one, two players get ``points`` advice like any other number.
    """

    def __init__(
        self,
        win_tables: Mapping[RuleSet, WinTable] | None = None,
        load: Callable[[RuleSet], WinTable | None] | None = None,
    ) -> None:
        self.win_tables: dict[RuleSet, WinTable | None] = dict(win_tables or {})
        self._load = load
        self._lock = threading.RLock()
        self._solvers: dict[RuleSet, Solver] = {}
        self._points: dict[RuleSet, tuple[Values, dict[tuple[bool, int], int]]] = {}
        self._long_run: dict[RuleSet, LongRun] = {}
        self._last: OrderedDict[tuple, Values] = OrderedDict()
        self._win: OrderedDict[tuple, Values] = OrderedDict()

    # -- the tables ----------------------------------------------------------------------

    def solver(self, rules: RuleSet) -> Solver:
        with self._lock:
            if rules not in self._solvers:
                self._solvers[rules] = Solver(TurnModel(rules))
            return self._solvers[rules]

    def model(self, rules: RuleSet) -> TurnModel:
        return self.solver(rules).model

    def long_run(self, rules: RuleSet) -> LongRun:
        """Optimal play over many turns with the three-zonk penalty."""
        with self._lock:
            if rules not in self._long_run:
                self._long_run[rules] = long_run(self.solver(rules))
            return self._long_run[rules]

    def points(self, rules: RuleSet) -> tuple[Values, dict[tuple[bool, int], int]]:
        """Expected points of every state, per (on the board, zonks in a row)."""
        with self._lock:
            if rules not in self._points:
                boards = [True, False] if rules.entry_minimum else [True]
                streaks = [0, 1, 2] if rules.three_zonk_penalty else [0]
                keys = [(b, z) for b in boards for z in streaks]
                zonk = [0.0] * len(keys)
                if rules.three_zonk_penalty:
                    h = self.long_run(rules).relative
                    worth = (h[1], h[2], -float(rules.three_zonk_penalty))
                    zonk = [worth[z] for _, z in keys]
                values = solve_points(self.solver(rules), [b for b, _ in keys], zonk)
                self._points[rules] = (values, {k: i for i, k in enumerate(keys)})
            return self._points[rules]

    def final_turn(self, rules: RuleSet, lead: int, on_board: bool) -> Values:
        """The values of a final round's last turn, ``lead`` points behind the leader (on
        the board or not): solved the first time, then kept."""
        return self._kept(
            self._last,
            (rules, lead, on_board),
            lambda: last_turn(self.solver(rules), [lead], [on_board]),
        )

    def _kept(self, cache: OrderedDict, key: tuple, make: Callable[[], Values]) -> Values:
        """``cache[key]``, made if missing; the least recently used go beyond :data:`KEEP`
        tables or :data:`KEEP_BYTES`."""
        with self._lock:
            if key in cache:
                cache.move_to_end(key)
            else:
                cache[key] = make()
                while len(cache) > 1 and (
                    len(cache) > KEEP or sum(v.X.nbytes for v in cache.values()) > KEEP_BYTES
                ):
                    cache.popitem(last=False)
            return cache[key]

    def win_table(self, rules: RuleSet) -> WinTable | None:
        with self._lock:
            if rules not in self.win_tables and self._load is not None:
                self.win_tables[rules] = self._load(rules)
            return self.win_tables.get(rules)

    def _win_values(self, rules: RuleSet, me: int, them: int) -> Values:
        table = self.win_table(rules)
        assert table is not None
        return self._kept(self._win, (rules, me, them), lambda: table.turn_values(me, them))

    # -- advice --------------------------------------------------------------------------

    def objective(self, state: GameState) -> Objective:
        """What the player whose turn it is should maximise (see the module docstring)."""
        rules, me = state.rules, state.player
        others = [p for p in state.active if p is not me]
        if (
            rules.end is End.FINAL_ROUND
            and state.final_round_by is not None
            and state.players[state.final_round_by] is not me
            and others
        ):
            if me is None:
                return Objective.LAST_TURN
            lead = max(p.score for p in others) - me.score
            on_board = me.on_board or not rules.entry_minimum
            if last_turn_fits(self.solver(rules), lead, on_board):
                return Objective.LAST_TURN
            return Objective.POINTS  # a lead past any table the cap allows: no turn makes it up
        table = self.win_table(rules)
        if table is not None and me is not None and len(others) == 1:
            try:
                table.index(me.score), table.index(others[0].score)
            except ValueError:
                return Objective.POINTS
            return Objective.WIN
        return Objective.POINTS

    def advise(self, state: GameState) -> Advice | None:
        """Advice for the player whose turn it is; None when nobody is to play."""
        me = state.player
        if state.finished or me is None or state.phase in (Phase.SETUP, Phase.OVER):
            return None
        turn = self._turn(state, me)
        rules, t = state.rules, state.turn
        model = turn.values.model
        position = model.position_of(t)
        if state.phase is Phase.ROLL:
            return self._rolling(state, turn, position)
        if state.phase is Phase.DECIDE:
            return self._asking(state, turn, position)
        v, p = turn.values, turn.problem
        zonk = float(v.zonk[p])
        if state.phase is Phase.PAIR:
            again = v.roll(position, t.total, p)
            best = Best.REROLL if again >= zonk - TIE else Best.PASS
            return self._advice(turn, best, None, again, float(model.zonk_chance(position)))
        # going for 1000: one die, one face in six
        hot = (
            v.free(model.hot, t.total + rules.go_for_1000, p)
            if model.hot_free
            else v.roll(model.hot, t.total + rules.go_for_1000, p)
        )
        return self._advice(turn, Best.ROLL, None, hot / 6 + zonk * 5 / 6, 5 / 6)

    def _turn(self, state: GameState, me: PlayerState) -> _Turn:
        rules = state.rules
        objective = self.objective(state)
        others = [p for p in state.active if p is not me]
        if objective is Objective.LAST_TURN:
            lead = max(p.score for p in others) - me.score
            return _Turn(
                self.final_turn(rules, lead, me.on_board or not rules.entry_minimum), 0, objective
            )
        if objective is Objective.WIN:
            return _Turn(self._win_values(rules, me.score, others[0].score), 0, objective)
        values, keys = self.points(rules)
        streak = me.zonks_in_a_row if rules.three_zonk_penalty else 0
        on_board = me.on_board or not rules.entry_minimum
        return _Turn(values, keys[(on_board, streak)], objective)

    def _rolling(self, state: GameState, turn: _Turn, position: int) -> Advice:
        t, v, p = state.turn, turn.values, turn.problem
        model = v.model
        roll = v.roll(position, t.total, p)
        zonk = float(model.zonk_chance(position))
        bank = None
        if t.bank_ok:
            left = 0 if t.dice_to_roll == state.rules.dice else t.dice_to_roll
            bank = v.bank(t.total, left, p)
        offer = state.offer
        if offer is not None and state.rules.piggyback and not t.rolls and not t.piggybacked:
            pig_position = model.find(model.canonical(offer.dice))
            pig = v.roll(pig_position, offer.total, p)
            if pig > roll + TIE:
                return self._advice(
                    turn,
                    Best.PIGGYBACK,
                    None,
                    pig,
                    float(model.zonk_chance(pig_position)),
                    note=f"piggyback: {offer.total} with {counted(offer.dice, 'die', 'dice')}",
                )
        best = Best.BANK if bank is not None and bank >= roll - TIE else Best.ROLL
        advice = self._advice(turn, best, bank, roll, zonk)
        return self._reaching(state, advice, t.total)

    def _asking(self, state: GameState, turn: _Turn, position: int) -> Advice:
        rules, t, v, p = state.rules, state.turn, turn.values, turn.problem
        model = v.model
        assert t.score is not None and t.roll is not None
        keeps = t.score.keeps
        options = model.options(model.positions[position], keeps, [d.value for d in t.roll])
        rows: list[KeepValue] = []
        for option in options:
            if option.kind is Choice.BANK:
                continue
            rows.append(self._keep_value(turn, option, t.total))
        bank = None
        best_keep = keeps[0]
        if not (len(best_keep.dice) == t.dice_to_roll and rules.hot_dice is HotDice.MUST):
            left = t.dice_to_roll - len(best_keep.dice)
            bank = v.bank(t.total + best_keep.points, left, p)
        top = max(rows, key=lambda k: k.value)
        roll_row = max(rows, key=lambda k: k.roll)
        if bank is not None and bank >= top.value - TIE:
            best, chosen = Best.BANK, None
        elif top.go_for_1000:
            best, chosen = Best.GO_FOR_1000, None
        else:
            best, chosen = Best.KEEP, top.dice
        shown = roll_row if best is Best.BANK else top
        advice = self._advice(
            turn, best, bank, roll_row.roll, shown.zonk_chance, keeps=tuple(rows), best_keep=chosen
        )
        return self._reaching(state, advice, t.total + best_keep.points)

    def _keep_value(self, turn: _Turn, option: Option, total: int) -> KeepValue:
        v, p = turn.values, turn.problem
        model = v.model
        target = model.positions[option.target]
        after = total + option.points
        if option.kind is Choice.GO:
            zonk = float(v.zonk[p])
            hot = v.free(model.hot, after, p) if option.free else v.roll(model.hot, after, p)
            value = hot / 6 + zonk * 5 / 6
            return KeepValue((), option.points, value, value, None, 1, 5 / 6)
        roll = v.roll(option.target, after, p)
        bank = None
        if option.free:
            left = 0 if option.target == model.hot else target.dice
            bank = v.bank(after, left, p)
        value = max(roll, bank) if bank is not None else roll
        return KeepValue(
            option.keep,
            option.points,
            value,
            roll,
            bank,
            target.dice,
            float(model.zonk_chance(option.target)),
        )

    def _advice(
        self,
        turn: _Turn,
        best: Best,
        bank: float | None,
        roll: float | None,
        zonk: float | None,
        **extra: Any,
    ) -> Advice:
        advice = Advice(turn.objective, best, bank, roll, zonk, **extra)
        if turn.objective is not Objective.POINTS:
            return Advice(**{**advice.__dict__, "win_chance": advice.value})
        return advice

    def _reaching(self, state: GameState, advice: Advice, total: int) -> Advice:
        """Points advice on a table that ends at the target: a bank that reaches it wins."""
        rules, me = state.rules, state.player
        if (
            advice.objective is not Objective.POINTS
            or rules.end is not End.INSTANT
            or advice.bank is None
            or me is None
            or me.score + total < rules.target
        ):
            return advice
        return Advice(
            **{
                **advice.__dict__,
                "best": Best.BANK,
                "best_keep": None,
                "note": f"banking reaches {rules.target}: it wins",
            }
        )


def advice_key(state: GameState) -> tuple:
    """Everything advice for ``state`` depends on, as a hashable value (to keep advice per
    state without holding on to states)."""
    t = state.turn
    players = tuple((p.score, p.on_board, p.zonks_in_a_row, p.left) for p in state.players)
    roll = tuple((d.value, d.color) for d in t.roll) if t.roll else None
    offer = (state.offer.total, state.offer.dice) if state.offer else None
    return (
        state.rules,
        state.current,
        state.finished,
        state.final_round_by,
        players,
        t.phase,
        t.total,
        t.dice_to_roll,
        roll,
        t.rolls,
        tuple(sorted(t.set_aside)),
        t.set_aside_points,
        t.carried,
        t.bank_ok,
        t.piggybacked,
        offer,
    )


def best_words(advice: Advice, state: GameState) -> str:
    """The advice in a few words, as the screen and the terminal say it."""
    t = state.turn
    match advice.best:
        case Best.BANK:
            return "bank (wins)" if "wins" in advice.note else "bank"
        case Best.KEEP:
            keep = " ".join(map(str, advice.best_keep or ()))
            row = next((k for k in advice.keeps if k.dice == advice.best_keep), None)
            then = "" if row is None or row.bank is None or row.roll > row.bank else ", then bank"
            return f"keep {keep}{then}"
        case Best.ROLL:
            n = 1 if state.phase is Phase.GO_FOR_1000 else t.dice_to_roll
            return f"roll {n} {'die' if n == 1 else 'dice'}"
        case Best.GO_FOR_1000:
            return "go for 1000"
        case Best.REROLL:
            return "throw the pair again"
        case Best.PASS:
            return "pass"
        case Best.PIGGYBACK:
            offer = state.offer
            return f"piggyback {offer.total}" if offer else "piggyback"
    return str(advice.best)  # pragma: no cover


def worth(advice: Advice, value: float | None) -> str:
    """A value as the advice's objective counts it: points, or a chance to win."""
    if value is None:
        return "-"
    if advice.objective is Objective.POINTS:
        return f"{value:,.0f}"
    return f"{value:.1%}"
