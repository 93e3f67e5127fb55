"""Rating a sequence of tables, each player's state carried from one table to the next (docs/rules.md §1, §6).

For replays and benchmarks; the site's re-rating service does the same walk against its database.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import NamedTuple

from .errors import TableDidNotSettle
from .rules import FESA_RULES, RuleConstants
from .table import rate_table
from .types import PlayerKey, PlayerState, TableInput, TableResult


class HistoryResult(NamedTuple):
    """Every player's state after the last table, each table's result in order (unless not kept), and the
    tables skipped because they did not settle."""

    states: Mapping[PlayerKey, PlayerState]
    results: tuple[TableResult, ...]
    unsettled: tuple[str, ...] = ()


def rate_history(
    tables: Iterable[TableInput],
    states: Mapping[PlayerKey, PlayerState] | None = None,
    *,
    max_sweeps: int = 1000,
    keep_results: bool = True,
    skip_unsettled: bool = False,
    on_result: Callable[[TableResult], object] | None = None,
    rules: RuleConstants = FESA_RULES,
) -> HistoryResult:
    """Rate ``tables`` in the order given (the caller sorts them by date and sequence).

    A player's state comes from ``states`` or an earlier table of the history; a table's own ``states`` are
    used only for players seen there for the first time (a newcomer and his prior grade). An engine error
    stops the history (it names the table), except that with ``skip_unsettled`` a table that does not settle
    is left unrated, its players passing through unchanged, as the site does with such a table.
    ``on_result`` sees each table's result as it comes, for a caller that streams a long history without
    keeping every result (``keep_results=False``). ``rules``: the rules' constants (FESA's by default).
    """
    current: dict[PlayerKey, PlayerState] = dict(states or {})
    results: list[TableResult] = []
    unsettled: list[str] = []
    for table in tables:
        merged = {key: current[key] if key in current else table.states[key] for key in _known(table, current)}
        current.update(merged)  # a player first seen here is known from now on, whatever becomes of the table
        try:
            result = rate_table(
                TableInput(name=table.name, date=table.date, players=table.players, states=merged, games=table.games),
                max_sweeps=max_sweeps,
                rules=rules,
            )
        except TableDidNotSettle:
            if not skip_unsettled:
                raise
            unsettled.append(table.name)
            continue
        for outcome in result.outcomes:
            current[outcome.key] = outcome.after
        if on_result is not None:
            on_result(result)
        if keep_results:
            results.append(result)
    return HistoryResult(states=current, results=tuple(results), unsettled=tuple(unsettled))


def _known(table: TableInput, current: Mapping[PlayerKey, PlayerState]) -> list[PlayerKey]:
    """The table's players that have a state, carried or given (the rest fail validation if they play)."""
    return [key for key in table.players if key in current or key in table.states]
