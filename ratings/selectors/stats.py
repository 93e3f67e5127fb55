"""Top lists and the federation's numbers: the strongest players (overall, by country, by grade), the most
active of the last twelve months, and tables, games, new players and promotions by year."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass

from django.db.models import Count, QuerySet, Sum
from django.utils import timezone

from ratings.engine.categories import TOP_CATEGORIES
from ratings.models import Game, Player, Promotion, RatingRow, Table, TableStatus
from ratings.selectors.list_values import active_cutoff, public_players
from ratings.selectors.lists import SHOWN_PROMOTION_STATUSES
from ratings.selectors.versions import DataVersion, version_cached

TOP_SIZE = 20
ACTIVE_DAYS = 365


def top_players(*, country: str = "", grade: int | None = None, limit: int = TOP_SIZE) -> QuerySet[Player]:
    """The highest rated established players of today's list (active, not professionals; docs/rules.md §8),
    optionally of one country (nationality) or one public grade."""
    players = public_players().filter(
        games__gt=0, category__in=TOP_CATEGORIES, last_played__gte=active_cutoff(timezone.localdate())
    )
    if country:
        players = players.filter(nationality=country)
    if grade is not None:
        players = players.filter(grade=grade)
    return players.order_by("-rating", "family_name", "given_name", "pk")[:limit]


def most_active(version: DataVersion | None = None, *, days: int = ACTIVE_DAYS, limit: int = TOP_SIZE) -> list[Player]:
    """The players with the most rated games in the last ``days`` days, with ``recent_games`` and
    ``recent_tables``. Two queries: the rating rows of the period summed per player (only those rows are
    read), then the players shown; with the ``version`` the caller read, made once per data version and day for
    every process (a year of rating rows: 0.1 s at 20,000 players)."""
    since = timezone.localdate() - dt.timedelta(days=days)

    def make() -> list[Player]:
        counts = list(
            RatingRow.objects.filter(date__gte=since)
            .values("player_id")
            .annotate(recent_games=Sum("rated_games"), recent_tables=Count("pk"))
            .filter(recent_games__gt=0)
            .order_by("-recent_games", "-player__rating", "player_id")[:limit]
        )
        players = Player.objects.in_bulk([c["player_id"] for c in counts])
        shown = []
        for c in counts:
            player = players[c["player_id"]]
            player.recent_games, player.recent_tables = c["recent_games"], c["recent_tables"]  # type: ignore[attr-defined]
            shown.append(player)
        return shown

    return version_cached(f"most-active:{since.isoformat()}:{limit}", version, make)


@dataclass(frozen=True)
class YearNumbers:
    year: int
    tables: int
    games: int
    new_players: int
    promotions: int


def _by_year(queryset: QuerySet, date_field: str) -> dict[int, int]:
    """The rows of ``queryset`` counted by the year of ``date_field``: counted by date in SQL (a plain
    GROUP BY, no date function per row: SQLite's is Python code), the dates then added up by year."""
    years: dict[int, int] = {}
    for date, n in queryset.values_list(date_field).annotate(n=Count("pk")).order_by().values_list(date_field, "n"):
        if date is not None:
            years[date.year] = years.get(date.year, 0) + n
    return years


def federation_by_year(version: DataVersion | None = None) -> list[YearNumbers]:
    """Each year with a rated table, newest first: rated tables, rated games, new players (those whose first
    rated table it was: a rating row that starts from no game) and promotions (in effect or approved), in four
    queries over the whole history; with the ``version`` the caller read, made once per data version for every
    process (every variant of the statistics page shows them)."""
    return version_cached("federation-by-year", version, _federation_by_year)


def _federation_by_year() -> list[YearNumbers]:
    counts: Mapping[str, dict[int, int]] = {
        "tables": _by_year(Table.objects.filter(status=TableStatus.RATED), "date"),
        "games": _by_year(
            Game.objects.filter(table__status=TableStatus.RATED, second__isnull=False, played=True), "table__date"
        ),
        "new_players": _by_year(RatingRow.objects.filter(games_before=0), "date"),
        "promotions": _by_year(Promotion.objects.filter(status__in=SHOWN_PROMOTION_STATUSES), "table__date"),
    }
    years = sorted({y for numbers in counts.values() for y in numbers if y is not None}, reverse=True)
    return [YearNumbers(year=y, **{name: numbers.get(y, 0) for name, numbers in counts.items()}) for y in years]
