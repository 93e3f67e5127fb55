"""The rating list of a date: one list for the page, its CSV/JSON exports and the FESA files (all.txt).

The rating list (docs/rules.md §8, docs/fesa-files.md all.txt): the players who played a rated table on or after
the same day two years before the list's date ("active", as ratings/fesa_files/alltxt.py ``is_active`` decides it),
professionals left out, highest rating first; among equal ratings in the order of the FESA program's state list
(``Player.list_order``, then id). Every row carries its rank on the list and its rank within its country, so a
filtered list shows the ranks of the whole list.

A list is read from the database once per date and version of the data (ratings/selectors/versions.py) and
kept, in each process, as plain rows: filtering, sorting and paging a list of 20,000 players in memory costs
less than one query over it, and a past date's list, computed from the history, is computed once.
"""

from __future__ import annotations

import datetime as dt
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from django.utils import timezone
from django_countries import countries
from django_countries.fields import Country

from ratings.engine.grades import FIRST_DAN
from ratings.engine.prior_grades import prior_grade_label
from ratings.models import Player, Promotion, PromotionStatus, Table, TableStatus, name_search_key
from ratings.selectors.list_values import active_cutoff, list_values
from ratings.selectors.versions import DataVersion, data_version

PUBLIC_TABLE_STATUSES = [TableStatus.SUBMITTED, TableStatus.RATED]
SHOWN_PROMOTION_STATUSES = [PromotionStatus.EFFECTIVE, PromotionStatus.APPROVED]
LIST_ORDER = ("-list_rating", "list_order", "pk")
MEMO_SIZE = 8  # lists kept per process: today's, active and all, and a few past dates

_VALUES = (
    "pk", "federation_id", "family_name", "given_name", "nationality", "search_name", "list_order",
    "prior_grade_kind", "prior_grade_level", "list_rating", "list_games", "list_grade", "list_fesa_grade",
    "list_category", "list_last_played",
)  # fmt: skip


@dataclass(slots=True)
class ListRow:
    """One player on the list of a date, with the values of that date and his ranks."""

    pk: int
    federation_id: str
    family_name: str
    given_name: str
    nationality_code: str
    search_name: str
    list_order: int
    prior_grade_kind: str
    prior_grade_level: int | None
    list_rating: int
    list_games: int
    list_grade: int  # the public grade: a Dan grade once approved
    list_fesa_grade: int  # the grade the rules computed, as the FESA program prints it
    list_category: str
    list_last_played: dt.date | None
    list_pending_grade: int | None = None
    rank: int = 0
    country_rank: int = 0

    @property
    def nationality(self) -> Country:
        return Country(self.nationality_code)

    @property
    def prior_grade_label(self) -> str:
        """As ``Player.prior_grade_label`` (a Player made for it would draw a random federation id, per row)."""
        if not self.prior_grade_kind or self.prior_grade_level is None:
            return ""
        return prior_grade_label(self.prior_grade_kind, self.prior_grade_level)


@dataclass
class _Snapshot:
    date: dt.date
    rows: list[ListRow]
    orders: dict[tuple[str, ...], list[ListRow]] = field(default_factory=dict)

    def ordered(self, fields: tuple[str, ...]) -> list[ListRow]:
        """The rows sorted by ``fields`` (names of ListRow attributes, ``-`` for descending), kept for reuse."""
        if fields in ((), LIST_ORDER):
            return self.rows
        if fields not in self.orders:
            rows = list(self.rows)
            for name in reversed(fields):  # a stable sort per key, least significant first
                attr = "pk" if name.lstrip("-") == "pk" else name.lstrip("-")
                rows.sort(key=_sort_key(attr), reverse=name.startswith("-"))
            self.orders[fields] = rows
        return self.orders[fields]


def _sort_key(attr: str) -> Callable[[ListRow], Any]:
    def key(row: ListRow) -> Any:
        value = getattr(row, attr)
        return (value is not None, value if value is not None else 0)

    return key


class RatingList:
    """The rows of a list, filtered and sorted, with the parts of a QuerySet the tables and the paginator use
    (``count``, ``order_by``, slicing), so the page's django-tables2 table sorts and pages it as it would one."""

    model = Player

    def __init__(
        self, snapshot: _Snapshot, keep: Callable[[ListRow], bool] | None = None, fields: tuple[str, ...] = ()
    ):
        self.snapshot = snapshot
        self.date = snapshot.date
        self._keep = keep
        self._fields = fields
        rows = snapshot.ordered(fields)
        self.rows: list[ListRow] = rows if keep is None else [r for r in rows if keep(r)]

    def filter(self, keep: Callable[[ListRow], bool]) -> RatingList:
        previous = self._keep
        both = keep if previous is None else (lambda r: previous(r) and keep(r))
        return RatingList(self.snapshot, both, self._fields)

    def order_by(self, *fields: str) -> RatingList:
        return RatingList(self.snapshot, self._keep, tuple(fields))

    def count(self) -> int:
        return len(self.rows)

    @property
    def query(self) -> SimpleNamespace:
        """What django-tables2 reads of a QuerySet's query: the fields it is ordered by."""
        return SimpleNamespace(order_by=self._fields)

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Iterator[ListRow]:
        return iter(self.rows)

    def __getitem__(self, index: Any) -> Any:
        return self.rows[index]


_memo: OrderedDict[tuple[Any, ...], _Snapshot] = OrderedDict()
_memo_lock = threading.Lock()


def rating_list_forget() -> None:
    """Drop the lists this process keeps (tests: a rolled-back transaction may give a version again)."""
    with _memo_lock:
        _memo.clear()


def rating_list(*, date: dt.date | None = None, active: bool = True, version: DataVersion | None = None) -> RatingList:
    """The rating list of ``date`` (None or today or later: today's), ranked, in list order.

    ``active`` keeps the FESA list's players only; otherwise every player with a rating on that date.
    ``version``: the data version the caller has read already (one query fewer).
    """
    today = timezone.localdate()
    list_date = today if date is None or date >= today else date
    key = (list_date, active, (version or data_version()).key)
    with _memo_lock:
        snapshot = _memo.get(key)
        if snapshot is not None:
            _memo.move_to_end(key)
    if snapshot is None:
        snapshot = _Snapshot(list_date, _read(list_date, active))
        with _memo_lock:
            _memo[key] = snapshot
            while len(_memo) > MEMO_SIZE:
                _memo.popitem(last=False)
    return RatingList(snapshot)


def rating_list_of_rows(date: dt.date, rows: Sequence[ListRow]) -> RatingList:
    """A list of rows read elsewhere, ranked already (a published official list), with the parts a
    RatingList has: filtering, sorting and paging in memory as for the computed list."""
    return RatingList(_Snapshot(date, list(rows)))


def _read(date: dt.date, active: bool) -> list[ListRow]:
    """The list's rows from the database, ranked, with their pending Dan grades: two queries."""
    qs = list_values(date)
    qs = qs.filter(list_last_played__gte=active_cutoff(date)) if active else qs.filter(list_games__gt=0)
    rows = [ListRow(*values) for values in qs.order_by(*LIST_ORDER).values_list(*_VALUES)]
    by_country: dict[str, int] = {}
    for rank, row in enumerate(rows, 1):
        row.rank = rank
        by_country[row.nationality_code] = row.country_rank = by_country.get(row.nationality_code, 0) + 1
        if not row.search_name:  # written without save(): the key is made here
            row.search_name = name_search_key(f"{row.family_name} {row.given_name}")
    _attach_pending(rows, date)
    return rows


def _attach_pending(rows: Sequence[ListRow], date: dt.date) -> None:
    """Each row's lowest Dan grade above its grade that waits for approval, or waited on ``date`` (found by
    then, approved only later). One query over the Dan promotions, sorted out here."""
    today = date >= timezone.localdate()
    end_of_day = timezone.make_aware(dt.datetime.combine(date + dt.timedelta(days=1), dt.time.min))
    grades: dict[int, list[int]] = {}
    for player_id, grade, status, decided_at, table_date in Promotion.objects.filter(grade__gte=FIRST_DAN).values_list(
        "player_id", "grade", "status", "decided_at", "table__date"
    ):
        if today:
            waiting = status == PromotionStatus.PENDING
        else:
            found_by_then = table_date is not None and table_date <= date
            approved_later = status == PromotionStatus.APPROVED and decided_at is not None and decided_at >= end_of_day
            waiting = found_by_then and (status == PromotionStatus.PENDING or approved_later)
        if waiting:
            grades.setdefault(player_id, []).append(grade)
    for row in rows:
        row.list_pending_grade = min((g for g in grades.get(row.pk, ()) if g > row.list_grade), default=None)


def list_filter(
    rows: RatingList,
    *,
    q: str = "",
    country: str = "",
    grade_min: int | None = None,
    grade_max: int | None = None,
    category: str = "",
) -> RatingList:
    """The rows matching the filters of the page (ratings/web/filters.py): every word of ``q`` in the name, accents
    and case ignored, or ``q`` the federation id; the country; the grade range; the category."""
    if q.strip():
        words = name_search_key(q).split()
        wanted_id = q.strip().upper()
        rows = rows.filter(lambda r: r.federation_id == wanted_id or all(w in r.search_name for w in words))
    if country:
        rows = rows.filter(lambda r: r.nationality_code == country)
    if grade_min is not None:
        rows = rows.filter(lambda r: r.list_grade >= grade_min)
    if grade_max is not None:
        rows = rows.filter(lambda r: r.list_grade <= grade_max)
    if category:
        rows = rows.filter(lambda r: r.list_category == category)
    return rows


def list_dates(limit: int = 6) -> list[dt.date]:
    """The dates of the most recent official lists: FESA publishes a list after each rated table.

    Read backwards along the tables' (date, sequence) index and sorted out here, so that the query stops early
    (a status condition would make SQLite sort every rated table's date instead).
    """
    dates: list[dt.date] = []
    for date, status in Table.objects.order_by("-date", "-sequence").values_list("date", "status")[: limit * 20]:
        if status == TableStatus.RATED and date not in dates:
            dates.append(date)
            if len(dates) == limit:
                break
    return dates


def list_countries() -> list[tuple[str, str]]:
    """(code, name) of the countries the federation's players come from, by name: the choices worth offering
    in the country filter (any country code stays a valid filter value)."""
    # All players, professionals too: read from the country index alone, without touching the rows.
    codes = set(Player.objects.values_list("nationality", flat=True).distinct().order_by()) - {""}
    return sorted(((code, str(countries.name(code))) for code in codes), key=lambda c: c[1])


def is_list_date(date: dt.date) -> bool:
    return Table.objects.filter(status=TableStatus.RATED, date=date).exists()
