"""Rating one table (docs/rules.md §6, with §3-§5 for the values and §7 for the grades).

The work is in three steps, each in its own module: ``participants`` checks the input and decides who is rated
by performance; ``solver`` finds the simultaneous solution by sweeps in table order (each value stored at once,
so later players in the same sweep see it; stop after a sweep with no change; TableDidNotSettle after
``max_sweeps``); ``outcomes`` builds the new states, the game details and the promotions.

The result list of a performance-rated player is written in the order of the program's files: the stored
list reversed, then a newcomer's prior-grade pairs ``(p, 0), (p, 1)``, then this table's games in round order
(checked against the reference data; the order never changes a number, only the files).

Speed: the sweeps work on plain lists (per-game constants computed once, the floored opponent values kept
beside the raw ones); the outcome values are built once, after the table has settled.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from .constants import SCALE_END
from .errors import BeyondRankScale, RatingOffScale, TableBeyondNumbers, TableDidNotSettle
from .outcomes import table_outcomes
from .participants import read_participants
from .rules import FESA_RULES, RuleConstants
from .settle import solver_settle
from .solver import Solver
from .types import TableInput, TableResult


def rate_table(
    table: TableInput, *, max_sweeps: int = 1000, by_rule: bool = False, rules: RuleConstants = FESA_RULES
) -> TableResult:
    """Rate ``table``: the outcome of every player with a rated game, in table order.

    Raises InvalidTable for input that cannot be rated and TableDidNotSettle (naming the table, and holding
    the cycle's states) when the values still change after ``max_sweeps`` sweeps, or TableBeyondNumbers
    (naming it too) when a value goes beyond what floats can hold, or RatingOffScale (naming it and the player)
    when a handicap game would convert a rating at or above the rank scale's end. Players without a rated game
    take no part and are left out of the outcomes (their states do not change).

    ``by_rule``: a table whose sweeps fall into a cycle is rated by the project's rule (``settle``) instead of
    refused; its ``sweeps`` are those done until the cycle was found. A table that settles is rated as ever.

    ``rules``: the rules' constants (rules.py); FESA's unless a what-if replays the history with others.
    """
    try:
        participants = read_participants(table, rules.handicap_values)
        solver = Solver(participants, rules)
        sweeps = solver.solve(max_sweeps)
        if sweeps is not None:
            return TableResult(outcomes=table_outcomes(participants, solver, table.date), sweeps=sweeps)
        if by_rule and solver.cycle:
            ruled = solver_settle(solver)
            outcomes = table_outcomes(participants, solver, table.date, ratings=ruled)
            return TableResult(outcomes=outcomes, sweeps=solver.sweeps)
    except BeyondRankScale as exc:
        raise _off_scale(table, participants.keys, solver, exc) from exc
    except (ArithmeticError, ValueError) as exc:  # an answer of the rules' formulas that floats cannot reach
        raise TableBeyondNumbers(f"table {table.name!r} cannot be rated: {exc}") from exc
    raise TableDidNotSettle(
        f"table {table.name!r} did not settle in {max_sweeps} sweeps", players=participants.keys, cycle=solver.cycle
    )


def _off_scale(table: TableInput, keys: Sequence[Hashable], solver: Solver, exc: BeyondRankScale) -> RatingOffScale:
    """The error naming the player whose value left the scale: only a handicap giver's value is converted
    (his own as a giver, or as his receiver sees him), so he is the one at or above its end, the highest if two."""
    values = [max(value, state.rating) for value, state in zip(solver.post, solver.table.states, strict=True)]
    i = max(range(len(keys)), key=values.__getitem__)
    player, rating = keys[i], values[i] if values[i] >= SCALE_END else exc.rating
    return RatingOffScale(
        f"table {table.name!r} cannot be rated: player {player}'s rating would reach {rating:g}, at or above the "
        f"end of the handicap scale ({SCALE_END}), where the rules give no grade to convert the handicap from",
        player=player,
        rating=rating,
    )
