"""Reads of the JSON API and the feeds that the public pages do not already make: player search over every
player, and the rated tables newest first."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

from django.db.models import Count, QuerySet

from ratings.models import Player, Table, TableStatus
from ratings.selectors.list_values import pending_dan

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations

PLAYER_ORDER = ("search_name", "pk")  # the name with accents and case folded (Player.Meta.ordering)


def players_search() -> QuerySet[Player]:
    """Every player by name, professionals too (each has a public page), with ``list_pending_grade``.

    Narrow it with ``ratings.filters.name_search``; the date of birth and the staff's notes are never read.
    """
    return (
        Player.objects.filter(merged_into__isnull=True)
        .annotate(list_pending_grade=pending_dan())
        .defer("date_of_birth", "prior_grade_note", "prior_grade_source", "prior_grade_date")
        .order_by(*PLAYER_ORDER)
    )


class PlayerCount(TypedDict):
    """What ``rated_tables`` annotates each table with."""

    player_count: int


def rated_tables() -> QuerySet[WithAnnotations[Table, PlayerCount]]:
    """Rated tables, the latest first (by date and sequence), with their tournament and ``player_count``."""
    return (
        Table.objects.filter(status=TableStatus.RATED)
        .select_related("tournament")
        .annotate(player_count=Count("entries"))
        .order_by("-date", "-sequence")
    )
