"""The project's rule for a table that does not settle (docs/rules.md §10, "Tables that do not settle").

The official program sweeps such a table for ever; this engine finds the cycle its sweeps fall into (``solver``)
and, when asked to, gives each player the lowest of his ratings in the cycle's states. The rule depends only on
the set of states, never on the sweep the cycle was entered at nor on the order the players are listed in, and
every rating it gives is one the player actually holds in the cycle.
"""

from __future__ import annotations

from collections.abc import Sequence

from .participants import OPPONENT_FLOOR
from .solver import Solver

SETTLE_RULE = "lowest-in-cycle"
"""The rule's name, as recorded with every table resolved by it."""


def settle_by_rule(cycle: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """Each player's lowest rating over the cycle's states (each state: every player's rating, table order).

    The lowest, rather than a mean or the state the sweeps happened to stop in, because nobody is then credited
    with a point the table gives him only part of the time, and because it needs no rounding rule of its own.
    """
    if not cycle:
        raise ValueError("a cycle has at least one state")
    return tuple(min(values) for values in zip(*cycle, strict=True))


def solver_settle(solver: Solver) -> tuple[int, ...]:
    """Put the rule's ratings into ``solver`` as its final values (what opponents see, floored, included)."""
    ruled = settle_by_rule(solver.cycle)
    solver.post[:] = ruled
    solver.floored[:] = [max(OPPONENT_FLOOR, value) for value in ruled]
    return ruled
