"""What the official FESA program does where this project does otherwise (docs/rules.md §5, §9): the two
documented divergences, as the program behaves, so that a comparison with its files can tell them and every
consequence they have from a real difference.

* **A player without a rated game** in a table (only byes, absences, no-shows): the program rates him with
  none, where the rules leave him out (§6). He goes through §6 and §7 with ``g = 0``: by performance on his
  stored pairs and prior-grade pairs when §6 says so (a newcomer without a prior grade has no pairs and gets 1,
  one with a prior grade gets his grade's value, a provisional player is re-rated from his stored list), else
  normally with no change (a result list then turns into a count); then the grade walk over the games that
  counts, "bound to get it" included, and the table's date.
* **An exact half performance root**: the program's solver stops within ``HALF_ROOT_REACH`` of the root, so it
  may round a root that close to a half to the other side than the engine does. ``other_side`` names the
  players of a table for whom it did.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable, Collection

from .errors import TableDidNotSettle
from .outcomes import table_outcomes
from .participants import Participants, fixed_pairs, read_participants
from .performance import performance_rating
from .promotions import GradeState, walk_table
from .solver import ALL_LOST_RATING, Solver
from .types import PlayerKey, PlayerState, TableInput, TableResult

HALF_ROOT_REACH = 0.0015
"""How far from the root the program's own solver stops (docs/rules.md §5)."""


def near_half(root: float | None) -> bool:
    """The root lies within the program's reach of a half: the program may round it to either side."""
    return root is not None and math.isfinite(root) and abs(root - math.floor(root) - 0.5) <= HALF_ROOT_REACH


def other_side(value: int, root: float) -> int:
    """The rounding of ``root`` on the other side of its half than ``value`` (at least 1)."""
    below = math.floor(root)
    return max(1, below if value > below else below + 1)


def rated_without_games(state: PlayerState, date: dt.date) -> PlayerState:
    """The program's state of a player it rates in a table where he had no rated game."""
    pairs = fixed_pairs(state, 0)
    grades = GradeState(state.grade, state.lb_run, state.lb_mp_seen, state.mp_run)
    if pairs is None:
        walk_table(grades, state.rating, state.rating, (), state.games)
        return state._replace(
            result_list=None,
            game_count=state.games,
            grade=grades.grade,
            lb_run=grades.lb_run,
            lb_mp_seen=grades.lb_mp_seen,
            mp_run=grades.mp_run,
            last_played=date,
        )
    rating = performance_rating(pairs) if pairs else ALL_LOST_RATING
    walk_table(grades, rating, rating, [None] * len(pairs), len(pairs))
    return state._replace(
        rating=rating,
        result_list=tuple(pairs),
        game_count=0,
        bonus_count=0,
        grade=grades.grade,
        lb_run=grades.lb_run,
        lb_mp_seen=grades.lb_mp_seen,
        mp_run=grades.mp_run,
        last_played=date,
    )


class _ProgramSolver(Solver):
    """The engine's sweeps, with the listed performance-rated players' half roots rounded to the other side."""

    def __init__(self, table: Participants, flipped: Collection[int]) -> None:
        super().__init__(table)
        self.flipped = flipped

    def _performance_evaluator(self, index: int) -> Callable[[], int]:
        evaluate = super()._performance_evaluator(index)
        if index not in self.flipped:
            return evaluate
        roots = self.roots

        def flipped() -> int:
            value = evaluate()
            root = roots[index]
            return other_side(value, root) if value != ALL_LOST_RATING and near_half(root) else value

        return flipped


def rate_table_as_program(
    table: TableInput, *, flipped: Collection[PlayerKey] = (), max_sweeps: int = 1000
) -> TableResult:
    """``rate_table`` with the half roots of the ``flipped`` players rounded to the other side.

    The players without a rated game are left out, as by ``rate_table``: ``rated_without_games`` gives their
    states. TableDidNotSettle when the sweeps do not settle; the other errors are ``rate_table``'s.
    """
    participants = read_participants(table)
    solver = _ProgramSolver(participants, {i for i, key in enumerate(participants.keys) if key in flipped})
    sweeps = solver.solve(max_sweeps)
    if sweeps is None:
        raise TableDidNotSettle(
            f"table {table.name!r} did not settle in {max_sweeps} sweeps", players=participants.keys, cycle=solver.cycle
        )
    return TableResult(outcomes=table_outcomes(participants, solver, table.date), sweeps=sweeps)
