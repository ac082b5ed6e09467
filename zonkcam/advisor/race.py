"""Two players racing to the target: the chance to win from every score, under optimal play.

``W[i, j]`` is the chance that the player about to start a turn with ``i * step`` points
wins against an opponent with ``j * step`` (ties count half), both playing to win. A turn
of the player at ``(a, b)`` is a single-turn problem (:mod:`zonkcam.advisor.solver`): a bank
of ``t`` is worth ``1 - W[b, a + t]`` (the opponent starts next; on a piggyback table,
``1 - max(W, their piggyback)``), a zonk ``1 - W[b, a]``; reaching the target wins (instant
end) or leaves the opponent one last turn to beat the lead (final round: :func:`last_turn`).

Banks only raise the sum of the scores, so the table is filled one sum at a time from the
top; within a sum, ``W[a, b]`` and ``W[b, a]`` depend on each other through the zonk, and
Newton's method on that pair (every pair of the sum at once) settles them in a few solves.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from zonkcam.advisor.model import TurnModel
from zonkcam.advisor.solver import Solver, Values
from zonkcam.game import sizes
from zonkcam.game.rules import End, RuleSet, WinnerBy

DELTA = 1e-4
"""The step in a zonk's worth to measure how a turn's value changes with it."""
PIG_STEPS = 65_535
"""A stored table keeps what a piggyback adds to the chance to win in steps of
1/65,535 (two bytes, under 8e-6 off)."""
TOLERANCE = 1e-9
"""Newton's method stops when its last step moved no chance by more than this (the error
left is far smaller: near the answer each step squares it)."""
LAST_TURN_TAIL = 1e-12
"""Leads beyond which a last turn's chance to win is taken as this small."""
SOLVE_CAP = 1_000_000_000
"""Bytes a two-player table may take to solve (1,000 MB): it is solved once per table,
and fits beside the system of a Raspberry Pi with 2 GB; the presets take under 400 MB."""


def unsupported(rules: RuleSet) -> str | None:
    """Why no two-player table can be built for ``rules``, or None."""
    if rules.end not in (End.INSTANT, End.FINAL_ROUND) or rules.winner_by is not WinnerBy.POINTS:
        return (
            f"{rules.name} is not a race to a target won on points "
            f"(end = {rules.end!r}, winner by {rules.winner_by})"
        )
    if rules.three_zonk_penalty:
        return f"{rules.name}'s three-zonk penalty makes scores unbounded below"
    if rules.piggyback and rules.end is End.FINAL_ROUND:
        return f"{rules.name} has piggyback with a final round (not covered)"
    need = solve_bytes(rules)
    if need > SOLVE_CAP:
        step = sizes.step_of(rules)[0]
        offers = ", piggyback offers for each pair" if rules.piggyback else ""
        return (
            f"{rules.name}'s race to {rules.target:,} would take about "
            f"{sizes.mb(need, SOLVE_CAP)} MB to solve, over the cap of {sizes.mb(SOLVE_CAP)} MB "
            f"(scores in steps of {step}: {-(-rules.target // step):,} a player{offers}; "
            f"a keep of up to {sizes.top_keep(rules)[0]:,} points)"
        )
    return None


def kept_bytes(rules: RuleSet, scores: int) -> int:
    """Bytes of the tables a race with ``scores`` scores a player keeps while it is solved:
    the chances to win, and on a piggyback table what each offer adds (as float32, and
    as stored)."""
    offers = 6 * rules.dice * scores**3 if rules.piggyback else 0
    return 9 * scores**2 + offers


def solve_bytes(rules: RuleSet) -> int:
    """About the most a race for ``rules`` takes to solve (at least as much as
    :func:`build` keeps, and its solves, whose leads are taken to run 20,000 past the
    target; a solve beyond that is refused by the solver's own cap)."""
    step = sizes.step_of(rules)[0]
    scores = -(-rules.target // step)
    leads = scores + sizes.TURN_TOTALS // step
    threshold = max(rules.entry_minimum, rules.bank_minimum) // step + 1
    columns = scores + leads + threshold + 2 + sizes.top_keep(rules)[0] // step
    rows = sizes.rows_of(sizes.positions_bound(rules), rules.dice)
    per_sum = sizes.table_bytes(columns, rows + 8, 2 * scores, rules.dice)
    return kept_bytes(rules, scores) + per_sum


def threshold(rules: RuleSet, on_board: bool) -> int:
    return max(rules.bank_minimum, 0 if on_board else rules.entry_minimum)


def last_turn_grid(solver: Solver, lead: int, threshold: int) -> int:
    """Steps of turn total a last turn's table needs for this lead and bank threshold."""
    return int(max(lead, threshold) // solver.step + 1)


def last_turn_fits(solver: Solver, lead: int, on_board: bool) -> bool:
    """A last turn at this lead can be solved within the solver's cap (rules validation
    bounds leads up to the target and 20,000 more; the advisor advises any further lead
    on points)."""
    grid = last_turn_grid(solver, lead, threshold(solver.model.rules, on_board))
    return solver.fits(grid, 1)


def last_turn(solver: Solver, leads: list[int], on_board: list[bool]) -> Values:
    """The player's last turn: the chance to end it more than ``lead`` points up (a tie
    counts half), per problem ``(lead, on_board)``."""
    model = solver.model
    g = model.step
    thr = np.array([threshold(model.rules, b) for b in on_board])
    m = np.array(leads)
    n_grid = last_turn_grid(solver, max(leads), int(thr.max()))
    solver.fit(n_grid, len(leads))
    t = np.arange(n_grid + 1 + solver.max_shift) * g
    pay = np.where(t[None, :] > m[:, None], 1.0, np.where(t[None, :] == m[:, None], 0.5, 0.0))
    pay = np.where(t[None, :] >= thr[:, None], pay, -np.inf)
    bank = np.broadcast_to(pay, (model.rules.dice + 1, *pay.shape)).copy()
    return Values.solve(solver, bank, np.zeros(len(leads)), n_grid)


@dataclass
class WinTable:
    """The solved race for one rule set, and per-score turn values built from it."""

    rules: RuleSet
    step: int
    win: np.ndarray
    """``win[i, j]``: start of a turn, ``i * step`` against ``j * step``."""
    last: np.ndarray
    """``last[on_board, m]``: a last turn's chance to beat a lead of ``m * step`` points."""
    pig: np.ndarray | None = None
    """Piggyback tables: ``pig[i, j, k, u]`` is what taking over ``k`` dice and ``u * step``
    points adds to the chance to win of a player starting a turn with ``i * step`` against
    ``j * step`` (0 where starting afresh is as good; ``u <= j``, the total the opponent
    banked); float, or as stored, in steps of 1/:data:`PIG_STEPS`."""
    solver: Solver | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if self.solver is None:
            self.solver = Solver(TurnModel(self.rules), monotone=not self.rules.piggyback)

    @property
    def size(self) -> int:
        return self.win.shape[0]

    def chance(self, me: int, them: int) -> float:
        """The chance to win of a player starting a turn with ``me`` against ``them``."""
        return float(self.win[self.index(me), self.index(them)])

    def index(self, score: int) -> int:
        if score % self.step or not 0 <= score < self.size * self.step:
            raise ValueError(f"no table entry for a score of {score}")
        return score // self.step

    def turn_values(self, me: int, them: int) -> Values:
        """Win chances of every state of a turn at scores ``(me, them)``."""
        i, j = np.array([self.index(me)]), np.array([self.index(them)])
        bank, n_grid = self.problems(i, j)
        return Values.solve(self.solver, bank, 1 - self.win[j, i], n_grid)

    # -- the pieces of a turn's problem ---------------------------------------------------

    def grid(self, i: np.ndarray) -> int:
        """Steps of turn total the turns of players with scores ``i`` (in steps) need."""
        rules, g = self.rules, self.step
        lead_cap = self.last.shape[1] - 1 if rules.end is End.FINAL_ROUND else 0
        return int(
            max(
                self.size - i.min() + lead_cap,
                max(rules.entry_minimum, rules.bank_minimum) // g + 1,
            )
        )

    def problems(self, i: np.ndarray, j: np.ndarray) -> tuple[np.ndarray, int]:
        """Bank payoffs and grid of the turns at scores ``(i[p], j[p])`` (in steps).

        A bank that reaches the target wins (instant end) or leaves the opponent a last
        turn to beat the lead (final round: the grid then runs on until that chance is
        under :data:`LAST_TURN_TAIL`)."""
        rules, A, g = self.rules, self.size, self.step
        final = rules.end is End.FINAL_ROUND
        lead_cap = self.last.shape[1] - 1
        n_grid = self.grid(i)
        assert self.solver is not None
        self.solver.fit(n_grid, len(i))
        n_cols = n_grid + 1 + self.solver.max_shift
        u = np.arange(n_cols)
        new = i[:, None] + u[None, :]  # my score after banking, in steps
        reached = new >= A
        inside = np.minimum(new, A - 1)
        jj = np.broadcast_to(j[:, None], new.shape)
        if final:
            lead = np.minimum(new - j[:, None], lead_cap)
            on_board = ((j > 0) | (rules.entry_minimum == 0)).astype(int)
            done = 1 - self.last[on_board[:, None], lead]
        else:
            done = np.ones(new.shape)
        base = np.where(reached, done, 1 - self.win[jj, inside])
        thr = np.array([threshold(rules, bool(x > 0)) for x in i])
        allowed = u[None, :] * g >= thr[:, None]
        bank = np.empty((rules.dice + 1, len(i), n_cols))
        for k in range(rules.dice + 1):
            pay = base
            if self.pig is not None and 0 < k < rules.dice:
                offer = self.pig[jj, inside, k, np.minimum(u, self.pig.shape[3] - 1)]
                if offer.dtype == np.uint16:  # as stored: in steps of 1/65,535
                    offer = offer / PIG_STEPS
                pay = np.where(reached, base, base - offer)
            bank[k] = np.where(allowed, pay, -np.inf)
        return bank, n_grid


def build(rules: RuleSet, progress: Callable[[int, int], None] | None = None) -> WinTable:
    """Solve the race for ``rules`` (see :func:`unsupported` for what it covers);
    ``progress(done, total)`` is called after each score sum, in units of work."""
    reason = unsupported(rules)
    if reason:
        raise ValueError(reason)
    model = TurnModel(rules)
    g = model.step
    A = -(-rules.target // g)
    # the solves get what the kept tables leave of the cap
    solver = Solver(model, monotone=not rules.piggyback, cap=SOLVE_CAP - kept_bytes(rules, A))
    last = _last_turns(solver, A) if rules.end is End.FINAL_ROUND else np.zeros((2, 1))
    pig = np.zeros((A, A, rules.dice, A), dtype=np.float32) if rules.piggyback else None
    below = np.tril(np.ones((A, A), dtype=bool))  # [j, u]: an offer is at most the score
    table = WinTable(rules, g, np.zeros((A, A)), last, pig, solver)
    positions = {k: model.find(model.canonical(k)) for k in range(1, rules.dice)}
    sums = range(2 * (A - 1), -1, -1)
    layers = [np.arange(max(0, s - A + 1), min(s, A - 1) + 1) for s in sums]
    beyond = last.shape[1] if rules.end is End.FINAL_ROUND else 0
    work = np.cumsum([len(i) * (A - i.min() + beyond) for i in layers])
    for n, (s, i) in enumerate(zip(sums, layers, strict=True)):
        j = s - i
        order = {(int(a), int(b)): k for k, (a, b) in enumerate(zip(i, j, strict=True))}
        mate = np.array([order[(int(b), int(a))] for a, b in zip(i, j, strict=True)])
        # start from the two neighbours above, carried on in a straight line
        x = _guess(table.win, i, j)
        solver.fit(table.grid(i), 2 * len(i))  # both of each pair, and with the zonk moved
        bank, n_grid = table.problems(i, j)
        for _ in range(30):
            c = 1 - x[mate]
            X = solver.solve(
                np.concatenate([bank, bank], axis=1), np.concatenate([c, c + DELTA]), n_grid
            )
            v = X[0, model.start, : len(i)]
            d = (X[0, model.start, len(i) :] - v) / DELTA
            a = v + d * (1 - c)  # x = a - d * x[mate], solved for both of each pair at once
            new = (a - d * a[mate]) / (1 - d * d[mate])
            done = np.abs(new - x).max() < TOLERANCE
            x = new
            if done:
                break
        table.win[i, j] = x
        if pig is not None:
            top = min(A, X.shape[0])
            for k in range(1, rules.dice):
                gain = X[:top, positions[k], : len(i)].T - x[:, None]
                pig[i, j, k, :top] = np.where(below[j, :top], np.maximum(gain, 0.0), 0.0)
        if progress is not None:
            progress(int(work[n]), int(work[-1]))
    return table


def _guess(win: np.ndarray, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """``win[i, j]`` from the sums above: ``2 * win[i, j + 1] - win[i, j + 2]``, or along
    ``i`` at the table's edge."""
    A = win.shape[0]
    along_j = np.where(
        j + 2 < A,
        2 * win[i, np.minimum(j + 1, A - 1)] - win[i, np.minimum(j + 2, A - 1)],
        win[i, np.minimum(j + 1, A - 1)],
    )
    along_i = np.where(
        i + 2 < A,
        2 * win[np.minimum(i + 1, A - 1), j] - win[np.minimum(i + 2, A - 1), j],
        win[np.minimum(i + 1, A - 1), j],
    )
    guess = np.where(j + 1 < A, along_j, np.where(i + 1 < A, along_i, 0.5))
    return np.clip(guess, 0.0, 1.0)


def _last_turns(solver: Solver, A: int, block: int = 40) -> np.ndarray:
    """``[on_board, m]`` for leads from 0 up to where the chance falls under the tail."""
    g = solver.step
    out: list[np.ndarray] = []
    first = 0
    while True:
        leads = [(first + n) * g for n in range(block)]
        values = last_turn(solver, leads * 2, [False] * block + [True] * block)
        chances = values.X[0, solver.model.start].reshape(2, block)
        out.append(chances)
        small = np.flatnonzero(chances.max(axis=0) < LAST_TURN_TAIL)
        if len(small) and first + small[0] > A:
            return np.concatenate(out, axis=1)[:, : first + int(small[0]) + 1]
        first += block
