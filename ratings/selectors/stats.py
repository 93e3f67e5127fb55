"""Top lists and the federation's numbers: the strongest players (overall, by country, by grade), the most
active of the last twelve months, and tables, games, new players and promotions by year."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass

from django.db.models import Count, Q, QuerySet, Sum
from django.db.models.functions import ExtractYear
from django.utils import timezone

from ratings.models import Game, Player, Promotion, RatingRow, Table, TableStatus
from ratings.selectors.list_values import active_cutoff, public_players
from ratings.selectors.lists import SHOWN_PROMOTION_STATUSES

TOP_SIZE = 20
ACTIVE_DAYS = 365


def top_players(*, country: str = "", grade: int | None = None, limit: int = TOP_SIZE) -> QuerySet[Player]:
    """The highest rated players of today's list (active, not professionals), optionally of one country
    (nationality) or one public grade."""
    players = public_players().filter(games__gt=0, last_played__gte=active_cutoff(timezone.localdate()))
    if country:
        players = players.filter(nationality=country)
    if grade is not None:
        players = players.filter(grade=grade)
    return players.order_by("-rating", "family_name", "given_name", "pk")[:limit]


def most_active(*, days: int = ACTIVE_DAYS, limit: int = TOP_SIZE) -> QuerySet[Player]:
    """The players with the most rated games in the last ``days`` days, with ``recent_games`` and
    ``recent_tables``."""
    since = timezone.localdate() - dt.timedelta(days=days)
    recent = Q(rating_rows__date__gte=since)
    return (
        Player.objects.annotate(
            recent_games=Sum("rating_rows__rated_games", filter=recent),
            recent_tables=Count("rating_rows", filter=recent),
        )
        .filter(recent_games__gt=0)
        .order_by("-recent_games", "-rating", "pk")[:limit]
    )


@dataclass(frozen=True)
class YearNumbers:
    year: int
    tables: int
    games: int
    new_players: int
    promotions: int


def _by_year(queryset: QuerySet, date_field: str) -> dict[int, int]:  # type: ignore[type-arg]
    rows = queryset.annotate(year=ExtractYear(date_field)).values("year").annotate(n=Count("pk")).order_by()
    return {row["year"]: row["n"] for row in rows}


def federation_by_year() -> list[YearNumbers]:
    """Each year with a rated table, newest first: rated tables, rated games, new players (those whose first
    rated table it was: a rating row that starts from no game) and promotions (in effect or approved), in four
    queries."""
    counts: Mapping[str, dict[int, int]] = {
        "tables": _by_year(Table.objects.filter(status=TableStatus.RATED), "date"),
        "games": _by_year(
            Game.objects.filter(table__status=TableStatus.RATED, second__isnull=False, played=True), "table__date"
        ),
        "new_players": _by_year(RatingRow.objects.filter(games_before=0), "date"),
        "promotions": _by_year(Promotion.objects.filter(status__in=SHOWN_PROMOTION_STATUSES), "table__date"),
    }
    years = sorted({y for numbers in counts.values() for y in numbers if y is not None}, reverse=True)
    return [
        YearNumbers(year=y, **{name: numbers.get(y, 0) for name, numbers in counts.items()})  # type: ignore[arg-type]
        for y in years
    ]
