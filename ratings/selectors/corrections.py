"""Reads of corrections: the public log of a table or a player."""

from __future__ import annotations

from django.db.models import QuerySet

from ratings.models import Correction, Player, Table


def corrections_of(*, table: Table | None = None, player: Player | None = None) -> QuerySet[Correction]:
    """The corrections of a table, or of a player (his identity, his prior grade, any table he is entered in, a
    record merged into his), newest first, with the officer loaded."""
    rows = Correction.objects.select_related("made_by").order_by("-made_at", "-pk")
    if table is not None:
        return rows.filter(table=table)
    assert player is not None
    merged = rows.filter(kind=Correction.Kind.MERGE, before__kept=player.pk)
    return rows.filter(player=player) | rows.filter(table__entries__player=player) | merged
