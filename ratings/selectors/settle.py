"""Reads for the rating officer's queue of tables that did not settle (docs/rules.md §10)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Exists, OuterRef, QuerySet

from ratings import engine
from ratings.models import Player, Table, TableResolution


@dataclass(frozen=True)
class CycleRow:
    """One player of a table that did not settle: his rating in each state of the cycle, and the rule's."""

    player: str
    ratings: tuple[int, ...]
    ruled: int


def cycle_rows(cycles: dict[int, dict[str, Any]]) -> dict[int, list[CycleRow]]:
    """For each table id and its ``cycle_states`` (JSON: "players", the ids, and "states", each a list of their
    ratings), its players' rows, in table order (one query for the names)."""
    ids = {pid for cycle in cycles.values() for pid in cycle.get("players", [])}
    names = {p.pk: str(p) for p in Player.objects.filter(pk__in=ids)}
    out: dict[int, list[CycleRow]] = {}
    for table_id, cycle in cycles.items():
        states = cycle.get("states") or []
        ruled = engine.settle_by_rule(states) if states else ()
        out[table_id] = [
            CycleRow(names.get(pid, str(pid)), tuple(state[i] for state in states), ruled[i] if ruled else 0)
            for i, pid in enumerate(cycle.get("players", []))
        ]
    return out


def live_resolution_ids(table_ids: Iterable[int]) -> dict[int, TableResolution]:
    """The live resolution of each of these tables that has one."""
    live = TableResolution.objects.filter(table_id__in=list(table_ids), cleared_at__isnull=True)
    return {r.table_id: r for r in live.select_related("resolved_by")}


def unresolved_tables() -> QuerySet[Table]:
    """The tables that did not settle and wait for a rating officer: a cycle, and no live resolution of it (a
    run clears a resolution whose cycle the table no longer has)."""
    live = TableResolution.objects.filter(table_id=OuterRef("pk"), cleared_at__isnull=True)
    return Table.objects.filter(cycle_states__isnull=False).exclude(Exists(live))
