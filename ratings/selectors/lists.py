"""The rating list of a date: one list for the page, its CSV/JSON exports and the FESA files (all.txt).

The rating list (docs/rules.md §8, docs/fesa-files.md all.txt): the players who played a rated table on or after
the same day two years before the list's date ("active", as ratings/fesa_files/alltxt.py ``is_active`` decides it),
professionals left out, highest rating first; among equal ratings in the order of the FESA program's state list
(``Player.list_order``, then id). Every row carries its rank on the list and its rank within its country, so a
filtered list shows the ranks of the whole list. ``rank`` numbers every line as FESA's all.txt does;
``public_rank`` and ``public_country_rank`` number only the players whose rating rests on enough games
(``ratings.engine.categories.is_ranked``, docs/rules.md §8): the page shows those, and nothing for the others.

A page reads only the rows it shows: the list is a query (ratings/selectors/list_values.py), filtered, sorted
and sliced in SQL. The ranks are the one part that needs the whole list: its players in list order are read
once per date and version of the data and kept in the shared cache (``version_cached``) for every process;
the list's first pages in list order are then read by their players' ids, so a past date's page costs the
order once and then fifty rows.
"""

from __future__ import annotations

import datetime as dt
from array import array
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, TypedDict

from django.db.models import Q, QuerySet
from django.utils import timezone
from django_countries import countries
from django_countries.fields import Country

from ratings.engine.categories import RANKED_CATEGORIES, is_ranked
from ratings.engine.grades import FIRST_DAN
from ratings.engine.prior_grades import prior_grade_label
from ratings.models import (
    Club,
    Player,
    Promotion,
    PromotionStatus,
    Table,
    TableStatus,
    latin_name,
    name_fold_key,
    player_search_key,
)
from ratings.selectors.list_head import list_counts, list_head, ranked_head
from ratings.selectors.list_values import ListValues, active_cutoff, list_values
from ratings.selectors.search import name_matches
from ratings.selectors.versions import DataVersion, data_version, version_cached

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations

PUBLIC_TABLE_STATUSES = [TableStatus.SUBMITTED, TableStatus.RATED]
SHOWN_PROMOTION_STATUSES = [PromotionStatus.EFFECTIVE, PromotionStatus.APPROVED]
LIST_ORDER = ("-list_rating", "list_order", "pk")
SQL_NAMES = {"nationality_code": "nationality"}  # ListRow attributes named otherwise in the query

_VALUES = (
    "pk", "federation_id", "family_name", "given_name", "nationality", "search_name", "list_order",
    "prior_grade_kind", "prior_grade_level", "list_rating", "list_games", "list_grade", "list_fesa_grade",
    "list_category", "list_last_played", "latin_family_name", "latin_given_name",
)  # fmt: skip


def _list_row(values: tuple[Any, ...]) -> ListRow:
    """A row from the values of ``_VALUES``: ListRow's own fields in its order, then the Latin form."""
    *own, latin_family_name, latin_given_name = values
    # ``own`` fills ListRow's fields up to list_last_played, which mypy cannot count in a starred tuple.
    return ListRow(*own, latin_family_name=latin_family_name, latin_given_name=latin_given_name)  # type: ignore[misc]


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
    public_rank: int | None = None
    public_country_rank: int | None = None
    # The Latin form of a name in another script (Player.latin_family_name); an official list's rows lack it.
    latin_family_name: str = ""
    latin_given_name: str = ""

    @property
    def file_name(self) -> tuple[str, str]:
        """(family, given) as FESA's files and the exports write them (``Player.file_name``)."""
        return latin_name(self.family_name, self.given_name, self.latin_family_name, self.latin_given_name)

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
class ListOrder:
    """The players of a list in list order, each one's rank in his country, and the public ranks (0 for a player
    the public list does not rank): what every page of the list needs of the whole list. Compact (four arrays),
    as the shared cache keeps it; what is made of them is made once per copy read from the cache."""

    pks: array
    country_ranks: array
    public_ranks: array
    public_country_ranks: array

    @classmethod
    def of(cls, players: Iterator[tuple[int, str, str]]) -> ListOrder:
        pks, country_ranks, public_ranks, public_country_ranks = [], [], [], []
        by_country: dict[str, int] = {}
        public, public_by_country = 0, dict[str, int]()
        for pk, country, category in players:
            by_country[country] = by_country.get(country, 0) + 1
            pks.append(pk)
            country_ranks.append(by_country[country])
            if is_ranked(category):  # players still rated by performance are passed over (docs/rules.md §8)
                public += 1
                public_by_country[country] = public_by_country.get(country, 0) + 1
                public_ranks.append(public)
                public_country_ranks.append(public_by_country[country])
            else:
                public_ranks.append(0)
                public_country_ranks.append(0)
        ranks = (array("l", country_ranks), array("l", public_ranks), array("l", public_country_ranks))
        return cls(array("q", pks), *ranks)

    @cached_property
    def _positions(self) -> dict[int, int]:
        return {pk: i for i, pk in enumerate(self.pks)}

    def _position(self, pk: int) -> int | None:
        return self._positions.get(pk)

    @cached_property
    def ranked_pks(self) -> array:
        """The players the public list ranks, in list order."""
        return array("q", (pk for pk, rank in zip(self.pks, self.public_ranks, strict=True) if rank))

    def ranks(self, pk: int) -> tuple[int, int]:
        """(rank, rank in the country) of the player ``pk``; (0, 0) if he is not on the list."""
        i = self._position(pk)
        return (0, 0) if i is None else (i + 1, self.country_ranks[i])

    def public_ranks_of(self, pk: int) -> tuple[int | None, int | None]:
        """(public rank, public rank in the country) of the player ``pk``; None for a player not ranked."""
        i = self._position(pk)
        if i is None or not self.public_ranks[i]:
            return None, None
        return self.public_ranks[i], self.public_country_ranks[i]

    def __getstate__(self) -> tuple[array, ...]:
        # the four arrays only: the positions and the ranked players are made again where needed
        return self.pks, self.country_ranks, self.public_ranks, self.public_country_ranks

    def __setstate__(self, state: tuple[array, ...]) -> None:
        self.pks, self.country_ranks, self.public_ranks, self.public_country_ranks = state


class SharedReads(TypedDict, total=False):
    """What a list and the lists made from it read once: the whole list's order and its counts."""

    order: ListOrder
    counts: tuple[int, int]  # (players, ranked players)


class RatingList:
    """The rating list of a date as a query, with the parts of a QuerySet the tables and the paginator use
    (``count``, ``order_by``, slicing), so the page's django-tables2 table sorts and pages it in SQL; only the
    rows asked for are read, each with its ranks on the whole list."""

    model = Player

    def __init__(
        self,
        date: dt.date,
        active: bool,
        version: DataVersion | None,
        condition: Q | None = None,
        fields: tuple[str, ...] = (),
        names: tuple[str, ...] = (),
        ranked: bool = False,
        shared: SharedReads | None = None,
    ):
        self.date = date
        self.active = active
        self.version = version
        self._condition = condition
        self._fields = fields
        self._names = names  # name filters, applied by the search's rule
        self.ranked = ranked  # only the players the public list ranks (docs/rules.md §8)
        # The whole list's order, read once for this list and every list made from it (same date and data).
        self._shared: SharedReads = {} if shared is None else shared
        self._count: int | None = None
        self._rows: list[ListRow] | None = None

    def _derived(self, **changes: Any) -> RatingList:
        """This list narrowed, ranked or sorted otherwise: the same date, data and order."""
        fields = {"condition": self._condition, "fields": self._fields, "names": self._names, "ranked": self.ranked}
        return RatingList(self.date, self.active, self.version, **{**fields, **changes}, shared=self._shared)

    def _where(self, condition: Q | None = None, name: str = "") -> RatingList:
        both = self._condition
        if condition is not None:
            both = condition if both is None else both & condition
        return self._derived(condition=both, names=(*self._names, name) if name else self._names)

    def filter(self, condition: Q) -> RatingList:
        return self._where(condition)

    def named(self, text: str) -> RatingList:
        """The players whose name holds every word of ``text`` or whose federation id it is (the search's rule)."""
        return self._where(name=text)

    def ranked_only(self) -> RatingList:
        """The players of this list the public list ranks (provisional and established), with their ranks."""
        return self._derived(ranked=True)

    def order_by(self, *fields: str) -> RatingList:
        return self._derived(fields=tuple(fields))

    @property
    def query(self) -> SimpleNamespace:
        """What django-tables2 reads of a QuerySet's query: the fields it is ordered by."""
        return SimpleNamespace(order_by=self._fields)

    @property
    def _plain(self) -> bool:
        """Unfiltered and in list order: rows by position in the cached order."""
        return self._condition is None and not self._names and self._fields in ((), LIST_ORDER)

    def queryset(self) -> QuerySet[Player]:
        """The list's players with their ``list_*`` values, filtered and sorted (without ranks)."""
        qs = _members(self.date, self.active)
        if self.ranked:
            qs = qs.filter(list_category__in=RANKED_CATEGORIES)
        if self._condition is not None:
            qs = qs.filter(self._condition)
        for text in self._names:
            qs = name_matches(qs, text)
        order = [("-" if f.startswith("-") else "") + SQL_NAMES.get(f.lstrip("-"), f.lstrip("-")) for f in self._fields]
        return qs.order_by(*(order or LIST_ORDER))

    @property
    def _from_top(self) -> bool:
        """Whether the plain pages and the counts are read from the list's top (ratings/selectors/list_head.py):
        the FESA list of a past date, whose whole order is not in hand. Its order is not built in advance as
        today's is, and reading it whole for one page costs twenty times the page."""
        return self.active and self.date < timezone.localdate() and "order" not in self._shared

    def _head(self, stop: int) -> ListOrder:
        """The list's first players in list order, enough for the rows before ``stop``, with their ranks."""
        head = ranked_head(self.date, stop) if self.ranked else list_head(self.date, stop)
        return ListOrder.of(iter(head))

    def order(self) -> ListOrder:
        """The whole list's players in list order (from the shared cache, once)."""
        if "order" not in self._shared:
            self._shared["order"] = list_order(self.date, self.active, self.version)
        return self._shared["order"]

    def _plain_pks(self) -> array:
        order = self.order()
        return order.ranked_pks if self.ranked else order.pks

    def count(self) -> int:
        if self._count is None:
            unfiltered = self._condition is None and not self._names  # however sorted: the whole list's count
            if self._plain and self._from_top:  # sorted otherwise, its ranks need the whole order anyway
                if "counts" not in self._shared:
                    self._shared["counts"] = list_counts(self.date)
                players, ranked = self._shared["counts"]
                self._count = ranked if self.ranked else players
            else:
                self._count = len(self._plain_pks()) if unfiltered else self.queryset().count()
        return self._count

    def __len__(self) -> int:
        return self.count()

    def __iter__(self) -> Iterator[ListRow]:
        return iter(self.rows)

    @property
    def rows(self) -> list[ListRow]:
        """Every row (the files of the list, an official list's revision): one query, and one for the pending
        Dan grades; read once for this object."""
        if self._rows is None:
            rows = [_list_row(values) for values in self.queryset().values_list(*_VALUES)]
            self._rows = self._finish(rows, _pending_grades(self.date, None))
        return self._rows

    def __getitem__(self, index: Any) -> Any:
        if not isinstance(index, slice):
            return self[index : index + 1][0]
        order = None
        if self._plain:
            if self._from_top and index.stop is not None and index.stop >= 0 and (index.start or 0) >= 0:
                order = self._head(index.stop)
            else:
                order = self.order()
            pks = list((order.ranked_pks if self.ranked else order.pks)[index])
            by_pk = {v[0]: v for v in list_values(self.date).filter(pk__in=pks).values_list(*_VALUES)}
            rows = [_list_row(by_pk[pk]) for pk in pks if pk in by_pk]
        else:
            rows = [_list_row(values) for values in self.queryset()[index].values_list(*_VALUES)]
        return self._finish(rows, _pending_grades(self.date, [r.pk for r in rows]), order)

    def _finish(
        self, rows: list[ListRow], pending: dict[int, list[int]], order: ListOrder | None = None
    ) -> list[ListRow]:
        """The rows with their ranks (from ``order``, which holds them: the whole list's by default)."""
        if order is None:
            order = self.order()
        for row in rows:
            row.rank, row.country_rank = order.ranks(row.pk)
            row.public_rank, row.public_country_rank = order.public_ranks_of(row.pk)
            if not row.search_name:  # written without save(): the key is made here
                row.search_name = player_search_key(
                    row.family_name, row.given_name, row.latin_family_name, row.latin_given_name
                )
            row.list_pending_grade = min((g for g in pending.get(row.pk, ()) if g > row.list_grade), default=None)
        return rows


def _members(date: dt.date, active: bool) -> QuerySet[WithAnnotations[Player, ListValues]]:
    qs = list_values(date)
    return qs.filter(list_last_played__gte=active_cutoff(date)) if active else qs.filter(list_games__gt=0)


def list_order(date: dt.date, active: bool, version: DataVersion | None) -> ListOrder:
    """The players of the list of ``date`` in list order: one query over the list's order alone (no grades,
    no pending promotions), once per date and data version for every process."""

    def make() -> ListOrder:
        players = _members(date, active).order_by(*LIST_ORDER).values_list("pk", "nationality", "list_category")
        return ListOrder.of(iter(players))

    return version_cached(f"list-order:{date.isoformat()}:{int(active)}", version, make)


def list_orders_prepare() -> None:
    """Today's list orders (the FESA list and every player's), the country and club choices and the latest list dates
    every list page shows, built into the shared cache for the current data version, so that the first
    visitors after a re-rate read only the rows of their page, not the whole list: a re-rate's follow-ups call it
    once its run has committed (ratings/services/rerate/after.py)."""
    version = data_version()
    for active in (True, False):
        list_order(timezone.localdate(), active, version)
    list_countries(version)
    list_clubs(version)
    list_dates(version=version)


def rating_list(*, date: dt.date | None = None, active: bool = True, version: DataVersion | None = None) -> RatingList:
    """The rating list of ``date`` (None or today or later: today's), ranked, in list order.

    ``active`` keeps the FESA list's players only; otherwise every player with a rating on that date.
    ``version``: the data version the caller has read already (one query fewer).
    """
    today = timezone.localdate()
    list_date = today if date is None or date >= today else date
    return RatingList(list_date, active, version or data_version())


class RowList:
    """Rows read elsewhere, ranked already (a published official list), with the parts a RatingList has:
    filtering, sorting and paging in memory."""

    model = Player

    def __init__(self, date: dt.date, rows: list[ListRow], fields: tuple[str, ...] = ()):
        self.date = date
        self._all = rows
        self._fields = fields
        self.rows = _sorted(rows, fields)

    def filter(self, keep: Callable[[ListRow], bool]) -> RowList:
        return RowList(self.date, [r for r in self._all if keep(r)], self._fields)

    def order_by(self, *fields: str) -> RowList:
        return RowList(self.date, self._all, tuple(fields))

    def count(self) -> int:
        return len(self.rows)

    @property
    def query(self) -> SimpleNamespace:
        return SimpleNamespace(order_by=self._fields)

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Iterator[ListRow]:
        return iter(self.rows)

    def __getitem__(self, index: Any) -> Any:
        return self.rows[index]


def _sorted(rows: list[ListRow], fields: tuple[str, ...]) -> list[ListRow]:
    """The rows sorted by ``fields`` (names of ListRow attributes, ``-`` for descending)."""
    if fields in ((), LIST_ORDER):
        return rows
    rows = list(rows)
    for name in reversed(fields):  # a stable sort per key, least significant first
        attr = name.lstrip("-")

        def key(row: ListRow, attr: str = attr) -> Any:
            value = getattr(row, attr)
            return (value is not None, value if value is not None else 0)

        rows.sort(key=key, reverse=name.startswith("-"))
    return rows


def rating_list_of_rows(date: dt.date, rows: Sequence[ListRow]) -> RowList:
    """A list of rows read elsewhere, ranked already (a published official list)."""
    return RowList(date, list(rows))


def _pending_grades(date: dt.date, players: list[int] | None) -> dict[int, list[int]]:
    """The Dan grades of ``players`` (None: every player) that wait for approval, or waited on ``date`` (found by
    then, approved only later), by player: one query over the Dan promotions, sorted out here."""
    today = date >= timezone.localdate()
    end_of_day = timezone.make_aware(dt.datetime.combine(date + dt.timedelta(days=1), dt.time.min))
    promotions = Promotion.objects.filter(grade__gte=FIRST_DAN)
    if players is not None:
        promotions = promotions.filter(player_id__in=players)
    grades: dict[int, list[int]] = {}
    for player_id, grade, status, decided_at, table_date in promotions.values_list(
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
    return grades


def list_filter(
    rows: RatingList | RowList,
    *,
    q: str = "",
    country: str = "",
    grade_min: int | None = None,
    grade_max: int | None = None,
    category: str = "",
) -> Any:
    """The rows matching the filters of the page (ratings/web/filters.py): every word of ``q`` in the name, accents,
    case and German spellings ignored (the search's rule), or ``q`` the federation id; the country; the grade
    range; the category. In SQL for the rating list, in memory for rows read elsewhere."""
    if isinstance(rows, RatingList):
        conditions = {
            "nationality": country or None,
            "list_grade__gte": grade_min,
            "list_grade__lte": grade_max,
            "list_category": category or None,
        }
        kept = {name: value for name, value in conditions.items() if value is not None}
        filtered = rows.filter(Q(**kept)) if kept else rows
        return filtered.named(q) if q.strip() else filtered
    if q.strip():
        words = name_fold_key(q).split()
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
