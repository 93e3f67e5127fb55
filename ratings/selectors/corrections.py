"""Reads of corrections: the public log of a table or a player, and whether a player's change is one."""

from __future__ import annotations

from django.db.models import QuerySet

from ratings.models import Correction, OpeningState, Player, RatingRow, Table, TableEntry, TableStatus, Tournament


def corrections_of(
    *, table: Table | None = None, player: Player | None = None, tournament: Tournament | None = None
) -> QuerySet[Correction]:
    """The corrections of a table, of a tournament's tables, or of a player (his identity, his prior grade, any
    table he is entered in, a record merged into his), newest first, with the officer loaded."""
    rows = Correction.objects.select_related("made_by").order_by("-made_at", "-pk")
    if table is not None:
        return rows.filter(table=table)
    if tournament is not None:
        return rows.filter(table__tournament=tournament)
    assert player is not None
    merged = rows.filter(kind=Correction.Kind.MERGE, before__kept=player.pk)
    return rows.filter(player=player) | rows.filter(table__entries__player=player) | merged


def player_has_played(player: Player) -> bool:
    """Whether a change to ``player`` reaches the ratings' record: he is entered in a submitted or rated table,
    has a rating row, or starts from a FESA opening state. A change to such a player is a correction."""
    return (
        TableEntry.objects.filter(player=player).exclude(table__status=TableStatus.DRAFT).exists()
        or RatingRow.objects.filter(player=player).exists()
        or OpeningState.objects.filter(player=player).exists()
    )
