"""Expected points: the single turn that scores most on average, and the long run.

:func:`points_values` solves one table for a rule set: per problem (on the board or not;
with the three-zonk penalty, how many zonks in a row), the expected final turn score of
every state under optimal play. Where the rules have the three-zonk penalty, the zonk of
a player with ``z`` zonks in a row is worth the relative value ``h[z + 1]`` of the long-run
optimum (:func:`long_run`), so that the advice maximises points over all turns.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from zonkcam.advisor.model import TurnModel
from zonkcam.advisor.solver import Solver, Values
from zonkcam.game.sizes import TURN_TOTALS

CAP = TURN_TOTALS
"""Turn totals are solved up to this; above it the player banks at the first chance. The
start-of-turn optimum of every preset moves by under 1e-8 from 20,000 to 40,000."""

DELTA = 1e-4
"""The step in a zonk's worth to measure how the optimum changes with it."""


@dataclass(frozen=True)
class LongRun:
    """Optimal play over many turns with the three-zonk penalty (Busche's analysis)."""

    average: float
    """Points a turn on average."""
    relative: tuple[float, float, float]
    """Worth of standing on 0, 1, 2 zonks in a row, relative to 0 (h[0] = 0)."""


def bank_payoffs(model: TurnModel, thresholds: list[int], n_grid: int, shift: int) -> np.ndarray:
    """Banking is worth the turn total where it reaches the problem's threshold."""
    n_cols = n_grid + 1 + shift
    t = np.arange(n_cols, dtype=float) * model.step
    pay = np.array([np.where(t >= thr, t, -np.inf) for thr in thresholds])
    return np.broadcast_to(pay, (model.rules.dice + 1, *pay.shape)).copy()


def thresholds(model: TurnModel, on_board: bool) -> int:
    rules = model.rules
    return max(rules.bank_minimum, 0 if on_board else rules.entry_minimum)


def solve_points(solver: Solver, on_board: list[bool], zonk: list[float], cap: int = CAP) -> Values:
    model = solver.model
    n_grid = -(-cap // model.step)
    solver.fit(n_grid, len(on_board))
    bank = bank_payoffs(model, [thresholds(model, b) for b in on_board], n_grid, solver.max_shift)
    return Values.solve(solver, bank, np.array(zonk, dtype=float), n_grid, linear=True)


def long_run(solver: Solver, cap: int = CAP) -> LongRun:
    """The best average a turn with the three-zonk penalty, for a player on the board.

    Relative values h[z] of standing on z zonks in a row solve
    ``g + h[z] = V(zonk worth h[z + 1])`` (h[0] = 0, the third zonk worth -penalty);
    Newton's method on (g, h[1], h[2]), each step one solve of three problems and the same
    three with the zonk worth ``DELTA`` more.
    """
    penalty = solver.model.rules.three_zonk_penalty
    start = solver.model.start
    g, h1, h2 = 0.0, 0.0, 0.0
    for _ in range(50):
        c = [h1, h2, -float(penalty)]
        values = solve_points(solver, [True] * 6, c + [x + DELTA for x in c], cap)
        v = [values.roll(start, 0, k) for k in range(6)]
        d = [(v[k + 3] - v[k]) / DELTA for k in range(3)]
        a = np.array([[1.0, -d[0], 0.0], [1.0, 1.0, -d[1]], [1.0, 0.0, 1.0]])
        b = np.array([v[0] - d[0] * c[0], v[1] - d[1] * c[1], v[2]])
        new = np.linalg.solve(a, b)
        done = np.abs(new - [g, h1, h2]).max() < 1e-10
        g, h1, h2 = (float(x) for x in new)
        if done:
            break
    return LongRun(g, (0.0, h1, h2))
