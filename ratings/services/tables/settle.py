"""Resolving a table that does not settle by the project's rule (docs/rules.md §10), as the rating officer does.

The decision is recorded (``TableResolution``: who, when, the rule, the cycle and its result) and the table
re-rated from its position, so that it and every later table use the ruled ratings. The rule itself is the
engine's; re-rating applies it to the table as long as its cycle is the one resolved.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from ratings import engine
from ratings.models import Table, TableResolution
from ratings.services.rerate import rerate_request


class CannotResolve(Exception):
    """The table is not one the rule can resolve: it settles, or it gave up without a repeating cycle."""


def table_resolve(*, table_id: int, user: Any) -> TableResolution:
    """Resolve the table's current cycle by the rule; the live resolution if that cycle is resolved already.

    Raises CannotResolve when the table has no cycle (it settles, or its sweeps gave up without one).
    """
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        cycle = table.cycle_states
        if not cycle or not cycle.get("states"):
            raise CannotResolve(f"table {table} has no cycle of states that the rule could resolve")
        live = TableResolution.objects.filter(table=table, cleared_at__isnull=True).first()
        if live is not None and live.states == cycle:
            return live
        now = timezone.now()
        if live is not None:  # taken on a cycle the table no longer has
            live.cleared_at = now
            live.save(update_fields=["cleared_at"])
        ruled = engine.settle_by_rule(cycle["states"])
        resolution = TableResolution.objects.create(
            table=table,
            rule=engine.SETTLE_RULE,
            states=cycle,
            result={str(pid): rating for pid, rating in zip(cycle["players"], ruled, strict=True)},
            resolved_by=user,
            resolved_at=now,
        )
        rerate_request(date=table.date, sequence=table.sequence, table_ids=[table.pk])
    return resolution
