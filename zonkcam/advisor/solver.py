"""The value of every turn state by dynamic programming over the turn total (numpy).

Every keep adds points, so a state's value depends only on states with a larger turn total:
the solver fills a table from the largest total down, all positions and all problems at
once (a problem is one bank payoff and zonk value: expected points on or off the board, a
win chance against one opponent's score, ...). Rows of the table:

* ``ROLL(p)``: the player at position ``p`` must roll;
* ``FREE(p)``: the player may bank (``max`` of banking and rolling);
* ``BANK(k)``: the payoff of banking with ``k`` dice left (``-inf`` where the rules refuse);
* ``GO``: going for 1000 from this total; ``ZERO``: a constant 0.

Above the grid the table is filled with what rolling on is worth there: where a bank pays
a fixed amount (a win), ``a * payoff + (1 - a) * zonk``, ``a`` being the best chance from
each position of reaching a state where banking is allowed; where a bank pays the turn
total (expected points), the exact asymptote ``a * t + b`` (:meth:`Solver.asymptote`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from zonkcam.advisor.model import Choice, Option, TurnModel
from zonkcam.game.sizes import TABLE_CAP, TableTooLarge, mb, table_bytes

BLOCK = 4096
"""Columns above the grid filled at a time (their temporaries stay small)."""


@dataclass(frozen=True)
class Edge:
    row: int
    shift: int


class Solver:
    """A :class:`TurnModel` compiled into index arrays for the numpy recursion.

    ``monotone``: values never fall as the turn total rises, so of two keeps that lead to
    the same position only the one with more points matters (true for expected points and
    for win chances without piggyback, where more points left to the next player could
    help them).
    """

    def __init__(self, model: TurnModel, *, monotone: bool = True, cap: int = TABLE_CAP) -> None:
        self.model = model
        self.cap = cap
        """Bytes a solve may take (:meth:`fit` refuses more before anything is allocated)."""
        self.step = model.step
        S = len(model.positions)
        self.n_positions = S
        dice = model.rules.dice
        self.BANK0 = 2 * S
        self.GO = 2 * S + dice + 1
        self.ZERO = self.GO + 1
        self.n_rows = self.ZERO + 1
        self.go_shift = model.rules.go_for_1000 // self.step
        self.hot_row = self.free(model.hot) if model.hot_free else model.hot
        self.bank_row = np.array(
            [self.BANK0 + (0 if p.dice == dice else p.dice) for p in model.positions]
        )
        rows: list[int] = []
        shifts: list[int] = []
        group_start: list[int] = []
        group_chance: list[float] = []
        pos_start: list[int] = []
        zonk = np.zeros(S)
        pair = np.zeros(S)
        for i, rolls in enumerate(model.rolls):
            pos_start.append(len(group_chance))
            zonk[i], pair[i] = float(rolls.zonk), float(rolls.pair)
            merged: dict[tuple[tuple[int, int], ...], float] = {}
            for outcome in rolls.scoring:
                key = self._edges(outcome.options, monotone)
                merged[key] = merged.get(key, 0.0) + float(outcome.chance)
            if not merged:  # nothing ever scores from here
                merged[((self.ZERO, 0),)] = 0.0
            for key, chance in merged.items():
                group_start.append(len(rows))
                group_chance.append(chance)
                for row, shift in key:
                    rows.append(row)
                    shifts.append(shift)
        # edges as a [slot, group] grid (short groups repeat their first edge), so that the
        # best option of every roll is one max over the slots
        group_start.append(len(rows))
        sizes = np.diff(group_start)
        slots = np.arange(sizes.max())[:, None]
        first = np.array(group_start[:-1])
        pick = first + np.where(slots < sizes, slots, 0)
        self.edge_row = np.array(rows)[pick]
        self.edge_shift = np.array(shifts)[pick]
        self.chances = np.zeros((S, len(group_chance)))
        """``chances[position, group]``: the chance of each roll from each position."""
        owner = np.searchsorted(pos_start, np.arange(len(group_chance)), side="right") - 1
        self.chances[owner, np.arange(len(group_chance))] = group_chance
        self.zonk = zonk
        self.pair = pair
        self.paired = np.flatnonzero(pair)
        self.max_shift = int(max(self.edge_shift.max(), self.go_shift))
        self.n_groups = len(group_chance)
        self._survival: np.ndarray | None = None

    def table_bytes(self, n_grid: int, problems: int) -> int:
        """Bytes a solve over turn totals ``0 .. n_grid`` steps for ``problems`` takes."""
        columns = n_grid + 1 + self.max_shift
        return table_bytes(columns, self.n_rows, problems, self.model.rules.dice)

    def fits(self, n_grid: int, problems: int) -> bool:
        return self.table_bytes(n_grid, problems) <= self.cap

    def fit(self, n_grid: int, problems: int) -> None:
        """Raise :class:`TableTooLarge` where the solve would pass :attr:`cap`: the advisor
        and the solver allocate no table that rules validation has not bounded."""
        need = self.table_bytes(n_grid, problems)
        if need > self.cap:
            raise TableTooLarge(
                f"{self.model.rules.name}: a table of {n_grid + 1 + self.max_shift:,} turn "
                f"totals in steps of {self.step} for {problems:,} problems would take "
                f"{mb(need, self.cap)} MB, over the cap of {mb(self.cap)} MB"
            )

    def free(self, position: int) -> int:
        return self.n_positions + position

    def edge(self, option: Option) -> Edge:
        """Where the value of ``option`` is read in the table, and how far up the total."""
        shift = option.points // self.step
        if option.kind is Choice.KEEP:
            return Edge(self.free(option.target) if option.free else option.target, shift)
        if option.kind is Choice.BANK:
            return Edge(self.BANK0 + option.left, shift)
        return Edge(self.GO, 0)

    def _edges(self, options: tuple[Option, ...], monotone: bool) -> tuple[tuple[int, int], ...]:
        """The options' (row, shift) pairs, without repeats (and, where values never fall
        as the total rises, only the largest shift into each row)."""
        edges = {(e.row, e.shift) for e in map(self.edge, options)}
        if monotone:
            top: dict[int, int] = {}
            for row, shift in edges:
                top[row] = max(top.get(row, -1), shift)
            edges = set(top.items())
        return tuple(sorted(edges))

    # -- the recursion --------------------------------------------------------------------

    def survival(self) -> np.ndarray:
        """Per position, the best chance of reaching a state where the player may bank."""
        if self._survival is None:
            S = self.n_positions
            a = np.ones(self.n_rows)
            a[:S] = 0.0
            a[self.ZERO] = 0.0
            for _ in range(10_000):
                a[self.GO] = a[self.hot_row] / 6
                s = self.chances @ a[self.edge_row].max(axis=0) / (1 - self.pair)
                change = np.abs(s - a[:S]).max()
                a[:S] = s
                if change < 1e-15:
                    break
            self._survival = a[:S].copy()
        return self._survival

    def asymptote(self, zonk: float) -> tuple[np.ndarray, np.ndarray]:
        """Where banking is worth the turn total ``t``: rolling on from each position with
        ``t`` far above the grid is worth ``a * t + b`` (the play that keeps the most of
        ``t`` first, then adds the most points)."""
        S, dice, g = self.n_positions, self.model.rules.dice, self.step
        far = 1e9
        a, b = np.zeros(self.n_rows), np.zeros(self.n_rows)
        a[self.BANK0 : self.BANK0 + dice + 1] = 1.0
        groups = np.arange(self.n_groups)
        shift = self.edge_shift * g
        for _ in range(10_000):
            bank = far >= a[:S] * far + b[:S]
            a[S : 2 * S] = np.where(bank, 1.0, a[:S])
            b[S : 2 * S] = np.where(bank, 0.0, b[:S])
            hot_a, hot_b = a[self.hot_row], b[self.hot_row]
            a[self.GO] = hot_a / 6
            b[self.GO] = (hot_a * self.go_shift * g + hot_b) / 6 + zonk * 5 / 6
            va = a[self.edge_row]
            vb = va * shift + b[self.edge_row]
            k = (va * far + vb).argmax(axis=0)
            new_a = self.chances @ va[k, groups]
            new_b = self.chances @ vb[k, groups] + self.zonk * zonk
            new_a, new_b = new_a / (1 - self.pair), new_b / (1 - self.pair)
            change = max(np.abs(new_a - a[:S]).max(), np.abs(new_b - b[:S]).max() / far)
            a[:S], b[:S] = new_a, new_b
            if change < 1e-15:
                break
        return a[:S].copy(), b[:S].copy()

    def solve(
        self, bank: np.ndarray, zonk: np.ndarray, n_grid: int, linear: bool = False
    ) -> np.ndarray:
        """The table ``X[column, row, problem]`` for turn totals ``column * step``.

        ``bank[k, problem, column]``: the payoff of banking with ``k`` dice left (``-inf``
        where refused), for columns ``0 .. n_grid + max_shift``; ``zonk[problem]``: the
        value of a zonk. Columns above ``n_grid`` hold the bank-at-first-chance values,
        or with ``linear`` (banking is worth the turn total) :meth:`asymptote`.
        """
        S, dice = self.n_positions, self.model.rules.dice
        n_cols = n_grid + 1 + self.max_shift
        P = len(zonk)
        assert bank.shape == (dice + 1, P, n_cols), (bank.shape, (dice + 1, P, n_cols))
        self.fit(n_grid, P)
        X = np.zeros((n_cols, self.n_rows, P))
        X[:, self.BANK0 : self.BANK0 + dice + 1, :] = bank.transpose(2, 0, 1)
        # above the grid: bank at the first chance (a block of columns at a time)
        a = self.survival()
        lines = [self.asymptote(float(c)) for c in zonk] if linear else []
        for start in range(n_grid + 1, n_cols, BLOCK):
            columns = np.arange(start, min(start + BLOCK, n_cols))
            top = slice(columns[0], columns[-1] + 1)
            if linear:
                t = columns * float(self.step)
                for p, (slope, offset) in enumerate(lines):
                    X[top, :S, p] = slope[None, :] * t[:, None] + offset[None, :]
            else:
                payoff = bank[:, :, top].max(axis=0).T  # [columns, P]
                X[top, :S, :] = (
                    a[None, :, None] * payoff[:, None, :]
                    + (1 - a)[None, :, None] * zonk[None, None, :]
                )
            X[top, S : 2 * S, :] = np.maximum(X[top, self.bank_row, :], X[top, :S, :])
        # going for 1000 above the grid reads the hot dice row further up, filled above
        for start in range(n_grid + 1, n_cols, BLOCK):
            columns = np.arange(start, min(start + BLOCK, n_cols))
            X[columns, self.GO, :] = (
                X[np.minimum(columns + self.go_shift, n_cols - 1), self.hot_row, :] / 6
                + zonk * 5 / 6
            )
        flat = X.reshape(n_cols * self.n_rows, P)
        base = self.edge_shift * self.n_rows + self.edge_row
        zonk_part = self.zonk[:, None] * zonk[None, :]
        paired, pair = self.paired, self.pair[self.paired, None]
        R = self.n_rows
        for i in range(n_grid, -1, -1):
            go = i + self.go_shift
            X[i, self.GO] = X[min(go, n_cols - 1), self.hot_row] / 6 + zonk * 5 / 6
            best = np.take(flat, base + i * R, axis=0).max(axis=0)
            roll = self.chances @ best + zonk_part
            if len(paired):  # throw a nothing-scoring pair again, or take the zonk
                again = roll[paired] / (1 - pair)
                roll[paired] = np.where(again >= zonk, again, roll[paired] + pair * zonk)
            X[i, :S] = roll
            X[i, S : 2 * S] = np.maximum(X[i, self.bank_row], roll)
        return X


class Values:
    """A solved table with the questions the advisor asks of it."""

    def __init__(self, solver: Solver, X: np.ndarray, n_grid: int, zonk: np.ndarray) -> None:
        self.solver = solver
        self.model = solver.model
        self.X = X
        self.n_grid = n_grid
        self.step = solver.step
        self.zonk = zonk
        """What a zonk is worth, per problem."""

    @classmethod
    def solve(
        cls, solver: Solver, bank: np.ndarray, zonk: np.ndarray, n_grid: int, linear: bool = False
    ) -> Values:
        return cls(solver, solver.solve(bank, zonk, n_grid, linear), n_grid, zonk)

    def column(self, total: int) -> int:
        if total % self.step:
            raise ValueError(f"turn total {total} is not a multiple of {self.step}")
        return min(total // self.step, self.X.shape[0] - 1)

    def roll(self, position: int, total: int, problem: int = 0) -> float:
        """Rolling on from ``position`` with ``total`` (the player must roll)."""
        return float(self.X[self.column(total), position, problem])

    def free(self, position: int, total: int, problem: int = 0) -> float:
        """The better of banking and rolling on."""
        return float(self.X[self.column(total), self.solver.free(position), problem])

    def bank(self, total: int, left: int, problem: int = 0) -> float | None:
        """Banking ``total`` with ``left`` dice on the table; None where the rules refuse."""
        value = float(self.X[self.column(total), self.solver.BANK0 + left, problem])
        return None if value == -np.inf else value

    def option(self, option: Option, total: int, problem: int = 0) -> float:
        """The value of ``option`` taken after a roll at turn total ``total``."""
        e = self.solver.edge(option)
        return float(self.X[min(self.column(total) + e.shift, self.X.shape[0] - 1), e.row, problem])
