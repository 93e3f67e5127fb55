"""The rating list as rows: the entries of a stored list (ratings/models/official.py, written by
ratings/services/lists.py), read as a plain QuerySet that the pages' filters narrow, their tables sort and page,
and the files and the API read row by row.

Every entry carries its ranks on the whole list (``rank`` and ``country_rank``, the public ranks; ``position`` and
``country_position``, the lines as FESA's all.txt numbers them), so a filtered or re-sorted list shows the ranks of
the whole list.
"""

from __future__ import annotations

import datetime as dt

from django.db.models import QuerySet
from django_countries import countries

from ratings.models import Club, ListEntry, Player, PromotionStatus, StoredList, Table, TableStatus
from ratings.selectors.search import name_condition
from ratings.selectors.versions import DataVersion, version_cached

PUBLIC_TABLE_STATUSES = [TableStatus.SUBMITTED, TableStatus.RATED]
SHOWN_PROMOTION_STATUSES = [PromotionStatus.EFFECTIVE, PromotionStatus.APPROVED]
LIST_ORDER = ("position",)
"""The list's order, as its lines are numbered: highest rating first, then the FESA program's state order."""


def list_entries(stored: StoredList) -> QuerySet[ListEntry]:
    """The entries of ``stored`` in list order, read where the list was found or made (``stored._state.db``).
    An indexed list's are read through its sort and filter indexes, whose condition they name."""
    entries = ListEntry.objects.using(stored._state.db).filter(stored_list=stored).order_by(*LIST_ORDER)
    return entries.filter(indexed=True) if stored.indexed else entries


def entries_named(entries: QuerySet[ListEntry], text: str) -> QuerySet[ListEntry]:
    """The entries whose name holds every word of ``text`` or whose federation id it is (the search's rule, on
    the names as the list holds them)."""
    condition = name_condition(text)
    return entries if condition is None else entries.filter(condition)


def player_entry(stored: StoredList, player: Player) -> ListEntry | None:
    """``player``'s line on ``stored``, or None when he is not on it. Unordered: he has one line at most, read
    by the (list, player) index, which an order by line would pass over on a list the planner does not know yet."""
    lines = ListEntry.objects.using(stored._state.db).filter(stored_list=stored, player=player).order_by()
    return next(iter(lines[:1]), None)


def list_dates(limit: int = 6, version: DataVersion | None = None) -> list[dt.date]:
    """The dates of the most recent official lists: FESA publishes a list after each rated table. Read once per
    data ``version`` for every process (``version_cached``), as the list pages show them on every view.

    Read backwards along the tables' (date, sequence) index and sorted out here, so that the query stops early
    (a status condition would make SQLite sort every rated table's date instead).
    """

    def read() -> list[dt.date]:
        dates: list[dt.date] = []
        tables = Table.objects.order_by("-date", "-sequence").values_list("date", "status")[: limit * 20]
        for date, status in tables:
            if status == TableStatus.RATED and date not in dates:
                dates.append(date)
                if len(dates) == limit:
                    break
        return dates

    return version_cached(f"list-dates:{limit}", version, read)


def list_countries(version: DataVersion | None = None) -> list[tuple[str, str]]:
    """(code, name) of the countries the federation's players come from, by name: the choices worth offering
    in the country filter (any country code stays a valid filter value). The codes are read once per data
    ``version`` for every process (20,000 players: a few milliseconds of the database on every list page);
    the names are those of the request's language."""

    def read() -> list[str]:
        # All players, professionals too: read from the country index alone, without touching the rows.
        return sorted(set(Player.objects.values_list("nationality", flat=True).distinct().order_by()) - {""})

    codes = version_cached("countries", version, read)
    return sorted(((code, str(countries.name(code))) for code in codes), key=lambda c: c[1])


def list_clubs(version: DataVersion | None = None) -> list[tuple[int, str]]:
    """(id, name) of every club, by name: the club filter's choices and the names of the list's club column,
    read once per data ``version`` for every process (a club's edit changes the version)."""

    def read() -> list[tuple[int, str]]:
        return list(Club.objects.order_by("name", "pk").values_list("pk", "name"))

    return version_cached("clubs", version, read)


def is_list_date(date: dt.date) -> bool:
    return Table.objects.filter(status=TableStatus.RATED, date=date).exists()
