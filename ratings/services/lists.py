"""The rating list written out as rows (``StoredList``, ``ListEntry``): made once per date and data version, read by
every page, file and API answer of the list as a plain QuerySet (ratings/selectors/lists.py).

The rating list of a date (docs/rules.md §8, docs/fesa-files.md all.txt): the players who played a rated table
on or after the same day two years before the list's date ("active", as ratings/fesa_files/alltxt.py
``is_active`` decides it), professionals left out, highest rating first; among equal ratings in the order of the
FESA program's state list (``Player.list_order``, then id). Each row carries its line on the whole list and in
its country, and the public ranks: those count only the players whose rating rests on enough games
(``ratings.engine.categories.is_ranked``), so that a filtered list shows the ranks of the whole list.

Today's lists are written after every re-rate and every morning, when the two-year window moves; any other list
the first time it is asked for. A list is keyed by the data version it was made of: a change of the history,
of a player or of a decision makes a new version, and the lists of older versions are deleted a while later
(a page that began with one still reads it whole).
"""

from __future__ import annotations

import datetime as dt
import logging
from bisect import bisect_left
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, router, transaction
from django.utils import timezone

from federation.replica import primary_reads
from ratings.db import date_params, rows_insert, value_statistics_refresh
from ratings.engine.age_categories import age_category
from ratings.engine.categories import is_ranked
from ratings.engine.grades import public_grade
from ratings.models import ListEntry, OfficialList, StoredList, player_search_key
from ratings.selectors.categories import age_bands
from ratings.selectors.clubs import club_ranking, country_ranking, memberships_on
from ratings.selectors.list_values import approved_dan_grades, list_members, pending_dan_grades
from ratings.selectors.lists import list_clubs, list_countries, list_dates
from ratings.selectors.stats import federation_by_year, most_active
from ratings.selectors.versions import DataVersion, data_version

log = logging.getLogger(__name__)

KEEP_OLD_VERSIONS = dt.timedelta(minutes=10)
"""How long the lists of an older data version stay: a request that began with one still reads it whole."""
KEEP_PAST_LISTS = 60
"""How many past dates' lists of the current version stay (the most recently made): past dates are asked for
one by one, by visitors and crawlers, and each is made again when it is asked for after it went."""

_READ = (
    "pk", "federation_id", "family_name", "given_name", "latin_family_name", "latin_given_name", "search_name",
    "nationality", "date_of_birth", "on_womens_list", "list_order", "prior_grade_kind", "prior_grade_level",
    "list_rating", "list_games", "list_grade", "list_fesa_grade", "list_category", "list_last_played",
)  # fmt: skip
_WRITTEN = (
    "stored_list_id", "player_id", "position", "country_position", "rank", "country_rank", "federation_id",
    "family_name", "given_name", "latin_family_name", "latin_given_name", "search_name", "nationality",
    "list_order", "prior_grade_kind", "prior_grade_level", "rating", "games", "grade", "fesa_grade",
    "category", "last_played", "pending_grade", "percentile", "country_percentile", "club_id", "age_group",
    "womens_list", "indexed",
)  # fmt: skip


@dataclass(frozen=True)
class ListKey:
    """Which list: of ``date`` (today's for today or later), active players only or every rated player."""

    date: dt.date
    active: bool

    @classmethod
    def of(cls, date: dt.date | None, active: bool = True) -> ListKey:
        today = timezone.localdate()
        return cls(today if date is None or date >= today else date, active)


def list_stored(date: dt.date | None = None, *, active: bool = True, version: DataVersion | None = None) -> StoredList:
    """The stored rating list of ``date`` (None or today or later: today's) as of the data ``version`` (the
    current one if None), made now if it is not there yet. ``stored._state.db`` is where its rows are to be read:
    a list made by this call is read from the primary, which a replica may not have reached yet."""
    key = ListKey.of(date, active)
    version = version or data_version()
    found = _stored(key, version, using=router.db_for_read(StoredList))
    if found is not None:
        return found
    return list_build(key, version)


def _stored(key: ListKey, version: DataVersion, *, using: str) -> StoredList | None:
    return (
        StoredList.objects.using(using)
        .filter(kind=StoredList.Kind.COMPUTED, date=key.date, active=key.active, version=version.key)
        .first()
    )


class _VersionChanged(Exception):
    """The data changed while a list's rows were read: they may be of neither version."""


def list_build(key: ListKey, version: DataVersion, *, again: bool = True) -> StoredList:
    """Write the list of ``key`` as of ``version`` (the one there already if another process wrote it first).

    If the data changed while the rows were read, the list is not kept under ``version``: it is made again of
    the new one (once; ``again``). So a list made while a player is erased does not name him under the older
    version, where no erasure would look (the beat deletes the older versions' lists a while later,
    ``lists_prepare``).
    """
    using = router.db_for_write(StoredList)
    rows = _rows(key)
    indexed = _linked(key, version)
    try:
        with transaction.atomic(using=using):
            stored = StoredList.objects.using(using).create(
                kind=StoredList.Kind.COMPUTED,
                date=key.date,
                active=key.active,
                version=version.key,
                player_count=len(rows),
                ranked_count=sum(1 for r in rows if r[3] is not None),
                indexed=indexed,
            )
            rows_insert(ListEntry, _WRITTEN, [(stored.pk, *row, indexed) for row in rows])
            if again and data_version(using) != version:
                raise _VersionChanged
    except _VersionChanged:
        with primary_reads():  # a replica may not have the change yet
            return list_build(key, data_version(using), again=False)
    except IntegrityError:  # made meanwhile by another request or the worker: read that one
        made = _stored(key, version, using=using)
        if made is None:
            raise
        return made
    _prune(version, using=using)
    return stored


def _linked(key: ListKey, version: DataVersion) -> bool:
    """Whether the pages link the list of ``key`` (today's two lists, the FESA lists of the latest list dates),
    whose lines go into the sort and filter indexes (``ListEntry.indexed``); not a past date's list that a
    visitor asked for, written on his first view at a third of the cost."""
    return key.date >= timezone.localdate() or (key.active and key.date in list_dates(version=version))


def _rows(key: ListKey) -> list[tuple[Any, ...]]:
    """The list's rows in list order, as ``_WRITTEN`` names their values after the stored list's id (but for
    ``indexed``, the list's own)."""
    pending = pending_dan_grades(key.date)
    # Today's grades are the players' own; a past date's list counts the opening grades, and here the Dan grades
    # approved by then (ratings/selectors/list_values.py).
    approved = approved_dan_grades(key.date) if key.date < timezone.localdate() else {}
    lines: dict[str, int] = {}
    ranked, ranked_in = 0, dict[str, int]()
    rows = []
    players = list(list_members(key.date, key.active).values_list(*_READ))
    shares = _Shares(players)
    clubs = dict(memberships_on(key.date).values_list("player_id", "club_id"))
    bands = age_bands()
    as_param = date_params()
    for position, values in enumerate(players, start=1):
        pk, fid, family, given, latin_family, latin_given, search, country, born, womens, *rest = values
        *_, grade, fesa_grade, category, last_played = rest
        if pk in approved:
            grade = rest[_GRADE] = public_grade(fesa_grade, approved[pk])
        lines[country] = lines.get(country, 0) + 1
        rank = country_rank = None
        if is_ranked(category):  # players still rated by performance are passed over (docs/rules.md §8)
            ranked += 1
            ranked_in[country] = ranked_in.get(country, 0) + 1
            rank, country_rank = ranked, ranked_in[country]
        if not search:  # a player written without save(): the key is made here
            search = player_search_key(family, given, latin_family, latin_given)
        waiting = max((g for g in pending.get(pk, ()) if g > grade), default=None)  # the top of a climb
        rest[-1] = as_param(last_played)  # None stays None
        below = shares.below(rest[_RATING], country) if rank is not None else (None, None)
        rows.append(
            (pk, position, lines[country], rank, country_rank, fid, family, given, latin_family, latin_given,
             search, country, *rest, waiting, *below, clubs.get(pk), age_category(born, key.date, bands), womens)
        )  # fmt: skip
    return rows


_RATING = _READ.index("list_rating") - _READ.index("list_order")  # its place in ``_rows``'s ``rest``
_GRADE = _READ.index("list_grade") - _READ.index("list_order")


class _Shares:
    """The ranked players' ratings of a list, in the federation and in each country, for each one's percentile."""

    def __init__(self, players: list[tuple[Any, ...]]) -> None:
        rating, category, country = (_READ.index(name) for name in ("list_rating", "list_category", "nationality"))
        ranked = [p for p in players if is_ranked(p[category])]
        self.everyone = sorted(p[rating] for p in ranked)
        self.by_country: dict[str, list[int]] = {}
        for p in ranked:
            self.by_country.setdefault(p[country], []).append(p[rating])
        for ratings in self.by_country.values():
            ratings.sort()

    def below(self, rating: int, country: str) -> tuple[float, float | None]:
        """The share of the ranked players rated below ``rating``, in percent: of all, and of ``country``'s."""
        federation = 100.0 * bisect_left(self.everyone, rating) / len(self.everyone)
        if not country:
            return federation, None
        same = self.by_country[country]
        return federation, 100.0 * bisect_left(same, rating) / len(same)


def _prune(version: DataVersion, *, using: str) -> None:
    """Delete the computed lists of older versions made more than ``KEEP_OLD_VERSIONS`` ago, and this version's
    past lists beyond the ``KEEP_PAST_LISTS`` most recently made."""
    computed = StoredList.objects.using(using).filter(kind=StoredList.Kind.COMPUTED)
    old = computed.exclude(version=version.key).filter(built_at__lt=timezone.now() - KEEP_OLD_VERSIONS)
    past = computed.filter(version=version.key, date__lt=timezone.localdate()).order_by("-built_at", "-pk")
    extra = list(past.values_list("pk", flat=True)[KEEP_PAST_LISTS:])
    gone = list(old.values_list("pk", flat=True)) + extra
    if not gone:
        return
    # Only the lists this process could lock, skipping those another one is deleting: two workers deleting the
    # same lists' lines at once, each in its own order, deadlocked (a past date's first view failed). Their
    # entries go with them, in one DELETE (nothing refers to an entry).
    with transaction.atomic(using=using):
        mine = StoredList.objects.using(using).select_for_update(skip_locked=True).filter(pk__in=gone)
        StoredList.objects.using(using).filter(pk__in=list(mine.values_list("pk", flat=True))).delete()


def computed_lists_delete() -> None:
    """Delete every computed list, of every version (an erasure: no list may still name the player); the lists
    are written again as they are asked for."""
    using = router.db_for_write(StoredList)
    with transaction.atomic(using=using):  # locked first, in one order, as ``_prune`` locks what it deletes
        lists = StoredList.objects.using(using).select_for_update().filter(kind=StoredList.Kind.COMPUTED)
        StoredList.objects.using(using).filter(pk__in=list(lists.order_by("pk").values_list("pk", flat=True))).delete()


def lists_prepare() -> None:
    """Today's two lists (the FESA list and every rated player's) and the FESA lists of the latest list dates, which
    every list page links, for the current data version, and the choices the list pages offer (countries, clubs,
    those dates) in the shared cache: so that the first visitors after a change or at the start of a day read
    rows, not the history. A re-rate's follow-ups (ratings/services/rerate/after.py) and the beat, every minute,
    call it; what is there already is read, not made again. The older versions' lists go here too, once
    ``KEEP_OLD_VERSIONS`` old, whether or not a list was made. So are the other values the public pages read once
    per data version (the rankings of clubs and countries, the federation's numbers by year, its most active
    players), which would otherwise cost their first visitor 0.1 to 0.5 s."""
    version = data_version()
    started = timezone.now()
    stored = [list_stored(None, active=active, version=version) for active in (True, False)]
    stored += [list_stored(date, active=True, version=version) for date in list_dates(version=version)]
    _prune(version, using=router.db_for_write(StoredList))
    if any(s.built_at >= started for s in stored):
        # The new lists' ids are not in the planner's statistics yet: its estimate of a few hundred lines each
        # would sort a filtered list whole rather than read it in list order. Here, in the task, and not in
        # list_build: a past date's list is written on a visitor's first view, which would wait 0.1 s more.
        value_statistics_refresh(ListEntry, "stored_list")
    list_countries(version)
    list_clubs(version)
    club_ranking(version)
    country_ranking(version)
    federation_by_year(version)
    most_active(version)


def official_list_store(official: OfficialList, source: StoredList) -> StoredList:
    """The rows of ``source`` copied under ``official``, as published: in the caller's transaction."""
    stored = StoredList.objects.create(
        kind=StoredList.Kind.OFFICIAL,
        date=official.date,
        active=True,
        version="",
        official=official,
        player_count=source.player_count,
        ranked_count=source.ranked_count,
        indexed=True,
    )
    copies = []
    for entry in ListEntry.objects.using(source._state.db or "default").filter(stored_list=source):
        entry.pk, entry.stored_list = None, stored
        # Not published: an official list's club and category filters read them as recorded now (web/filters.py
        # PublishedListFilter), and an erasure leaves nothing of them behind on a published list.
        entry.club_id, entry.age_group, entry.womens_list = None, "", False
        entry.indexed = True
        copies.append(entry)
    ListEntry.objects.bulk_create(copies, batch_size=1000)
    return stored
