"""Tournaments with their tables, and promotions: the recent ones table by table, and those waiting for approval."""

from __future__ import annotations

from django.db.models import (
    Count,
    Exists,
    Max,
    Min,
    OuterRef,
    Prefetch,
    QuerySet,
    Subquery,
)
from django_countries import countries

from ratings.engine.grades import FIRST_DAN
from ratings.models import Promotion, PromotionStatus, Table, TableStatus, Tournament
from ratings.selectors.lists import PUBLIC_TABLE_STATUSES, SHOWN_PROMOTION_STATUSES


def public_tables() -> QuerySet[Table]:
    return Table.objects.filter(status__in=PUBLIC_TABLE_STATUSES)


def tournaments_list() -> QuerySet[Tournament]:
    """Tournaments with at least one public table, newest first, each with ``public_tables`` (in date and
    sequence order, with ``player_count``) prefetched in one more query."""
    tables = public_tables().annotate(player_count=Count("entries")).order_by("date", "sequence")
    return (
        Tournament.objects.filter(Exists(public_tables().filter(tournament=OuterRef("pk"))))
        .prefetch_related(Prefetch("tables", queryset=tables, to_attr="public_tables"))
        .order_by("-end_date", "name", "pk")
    )


def tournament_years() -> list[int]:
    """The years from the latest tournament back to the first, newest first (read from the end-date index;
    a year without tournaments in between simply lists none)."""
    span = Tournament.objects.aggregate(first=Min("end_date"), last=Max("end_date"))
    if span["first"] is None:
        return []
    return list(range(span["last"].year, span["first"].year - 1, -1))


def tournament_countries() -> list[tuple[str, str]]:
    """(code, name) of the countries tournaments were held in, by name."""
    codes = set(Tournament.objects.values_list("country", flat=True).distinct().order_by()) - {""}
    return sorted(((code, str(countries.name(code))) for code in codes), key=lambda c: c[1])


def promotion_tables() -> QuerySet[Table]:
    """Rated tables that promoted someone (to a grade in effect or approved), newest first; read their lines
    with :func:`table_promotions` for one page of tables at a time."""
    granted = Promotion.objects.filter(table=OuterRef("pk"), status__in=SHOWN_PROMOTION_STATUSES)
    return (
        Table.objects.filter(status=TableStatus.RATED)
        .filter(Exists(granted))
        .select_related("tournament")
        .order_by("-date", "-sequence")
    )


def pending_promotions() -> QuerySet[Promotion]:
    """Dan promotions waiting for a grade officer's approval, one line per player: his lowest pending grade
    (the one to decide first), with ``highest_pending``; the longest waiting (first found) first."""
    pending = Promotion.objects.filter(status=PromotionStatus.PENDING, grade__gte=FIRST_DAN)
    lower = pending.filter(player=OuterRef("player"), grade__lt=OuterRef("grade"))
    highest = pending.filter(player=OuterRef("player")).order_by("-grade").values("grade")[:1]
    return (
        pending.exclude(Exists(lower))
        .annotate(highest_pending=Subquery(highest))
        .select_related("player", "table__tournament")
        .order_by("created_at", "pk")
    )
