"""Reads of the official lists: the archive, a published list as it was published, what it would be today, and
the lists a player was on.

A published list is a stored list of its own (``OfficialList.stored_list``), whose entries are read as the rating
list's are (ratings/selectors/lists.py): the page, its filters and its CSV and JSON files are the rating list's
own, with the published figures. ``official_list_revision`` sets the published entries beside the stored list of
the same date computed now from the history, which later corrections moved.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field

from django.db.models import QuerySet, Subquery
from django_countries import countries

from ratings.models import ListEntry, OfficialList, Player, StoredList
from ratings.selectors.clubs import club_names_on
from ratings.selectors.list_files import export_record
from ratings.selectors.lists import LIST_ORDER

CHANGE_KINDS = ("rating", "rank", "country_rank", "grade", "games", "category", "name", "country")
"""What may differ between a published entry and the same player's entry today; plus "added" and "dropped".
``rank`` and ``country_rank``: the public ranks, as the pages show them (none for a player rated by performance)."""


def official_lists() -> QuerySet[OfficialList]:
    """Every published list, the latest first, without its all.txt."""
    return OfficialList.objects.defer("all_txt", "note").order_by("-date")


def official_list_for_page(date_text: str) -> OfficialList:
    """The list published for the ISO date ``date_text`` (without its all.txt); OfficialList.DoesNotExist for
    any other text."""
    try:
        date = dt.date.fromisoformat(date_text)
    except ValueError:
        raise OfficialList.DoesNotExist from None
    if len(date_text) != 10:
        raise OfficialList.DoesNotExist
    return OfficialList.objects.defer("all_txt").get(date=date)


def official_list_all_txt(official: OfficialList) -> bytes:
    """The list's all.txt, byte for byte as published (ISO-8859-1)."""
    data = OfficialList.objects.filter(pk=official.pk).values_list("all_txt", flat=True).get()
    return bytes(data)


def official_list_entries(official: OfficialList) -> QuerySet[ListEntry]:
    """The published list's entries, in list order, with the figures as published; each with its stored list (the
    files read the list's date from it). An official list is indexed (``ListEntry.indexed``), and its entries
    are asked for by the stored list's id (a subquery) rather than through a join, so that a sort or a filter
    reads its index (EXPLAIN of a page sorted by name: 0.5 ms against 16 through the join)."""
    stored = StoredList.objects.filter(official=official).values("pk")[:1]
    entries = ListEntry.objects.filter(stored_list=Subquery(stored), indexed=True)
    return entries.select_related("stored_list").order_by(*LIST_ORDER)


def _named(codes: Iterable[str]) -> list[tuple[str, str]]:
    return sorted(((code, str(countries.name(code))) for code in set(codes) - {""}), key=lambda c: c[1])


def list_countries_of(entries: QuerySet[ListEntry]) -> list[tuple[str, str]]:
    """(code, name) of the countries on a list, by name: the country filter's choices. One query."""
    return _named(entries.order_by().values_list("nationality", flat=True).distinct())


@dataclass(slots=True)
class RevisedRow:
    """A player's entry on the published list and on the same date's list today (None where he is not on it)."""

    published: ListEntry | None
    now: ListEntry | None
    changes: frozenset[str] = frozenset()

    @property
    def row(self) -> ListEntry:
        """The entry that names the player: today's, or the published one of a player dropped since."""
        return self.now if self.now is not None else self.published  # type: ignore[return-value]


@dataclass
class Revision:
    """A published list beside the list of its date today: every row, and how many changed in each way."""

    official: OfficialList
    rows: list[RevisedRow]
    counts: dict[str, int] = field(default_factory=dict)

    @property
    def changed(self) -> list[RevisedRow]:
        return [r for r in self.rows if r.changes]

    @property
    def countries(self) -> list[tuple[str, str]]:
        """(code, name) of the countries of the rows, by name: the country filter's choices."""
        return _named(r.row.nationality for r in self.rows)


def _changes(published: ListEntry | None, now: ListEntry | None) -> frozenset[str]:
    if published is None:
        return frozenset({"added"})
    if now is None:
        return frozenset({"dropped"})
    pairs = {
        "rating": (published.rating, now.rating),
        "rank": (published.rank, now.rank),
        "country_rank": (published.country_rank, now.country_rank),
        "grade": ((published.grade, published.shown_pending_grade), (now.grade, now.shown_pending_grade)),
        "games": (published.games, now.games),
        "category": (published.category, now.category),
        "name": ((published.family_name, published.given_name), (now.family_name, now.given_name)),
        "country": (published.nationality, now.nationality),
    }
    return frozenset(kind for kind, (was, is_) in pairs.items() if was != is_)


def revised_rows(published: Sequence[ListEntry], now: Sequence[ListEntry]) -> list[RevisedRow]:
    """The two lists side by side, matched by player: in today's order, each player dropped since just below
    the entry that was above him on the published list; players added since in their place today."""
    by_player = {r.player_id: r for r in now}
    keyed: list[tuple[tuple[float, int], RevisedRow]] = []
    above = 0.0  # today's line of the nearest published entry above that is still on the list
    for index, p in enumerate(published):
        current = by_player.get(p.player_id) if p.player_id else None
        if current is None:
            keyed.append(((above + 0.5, index), RevisedRow(p, None, _changes(p, None))))
        else:
            above = current.position
            keyed.append(((current.position, 0), RevisedRow(p, current, _changes(p, current))))
    on_published = {p.player_id for p in published if p.player_id}
    keyed += [((r.position, 0), RevisedRow(None, r, _changes(None, r))) for r in now if r.player_id not in on_published]
    keyed.sort(key=lambda k: k[0])
    return [row for _, row in keyed]


def official_list_revision(official: OfficialList, now: Iterable[ListEntry]) -> Revision:
    """The published list beside ``now``, the entries of the list of its date computed now (the caller reads
    them: ``list_entries(list_stored(official.date))``); the counts of each kind of change."""
    rows = revised_rows(list(official_list_entries(official)), list(now))
    counts = {kind: 0 for kind in (*CHANGE_KINDS, "added", "dropped")}
    for r in rows:
        for kind in r.changes:
            counts[kind] += 1
    counts["changed"] = sum(1 for r in rows if r.changes)
    return Revision(official=official, rows=rows, counts=counts)


def revised_filter(
    revision: Revision, *, kept: Collection[int] | None = None, changed_only: bool = False
) -> list[RevisedRow]:
    """The revised rows whose entry naming the player (today's, or a dropped player's published one) is among
    the entries ``kept`` (their ids: those the list's filters keep of the published and of today's entries;
    None: every one); only those that changed if ``changed_only``."""
    rows = revision.changed if changed_only else revision.rows
    return rows if kept is None else [r for r in rows if r.row.pk in kept]


def player_official_lists(player: Player) -> list[ListEntry]:
    """The player's entries on the published lists, the latest first, each with its list
    (``entry.stored_list.official``): one query."""
    return list(
        ListEntry.objects.filter(player=player, stored_list__kind=StoredList.Kind.OFFICIAL)
        .select_related("stored_list__official")
        .defer("stored_list__official__all_txt", "stored_list__official__note")
        .order_by("-stored_list__date")
    )


def official_list_json(official: OfficialList, entries: Iterable[ListEntry]) -> bytes:
    """The published list as JSON: the rating list's JSON columns (ratings/selectors/list_files.py), with the
    list's title and when it was published. The club is not part of what was published: it is each player's club
    on the list's date as the clubs are recorded now, as the list's page shows it."""
    clubs = club_names_on(official.date)
    document = {
        "date": official.date.isoformat(),
        "title": official.title,
        "published_at": official.published_at.isoformat(),
        "official": True,
        "active_only": True,
        "grades": "public",
        "players": [export_record(e, club=clubs.get(e.player_id or 0, "")) for e in entries],
    }
    return json.dumps(document, ensure_ascii=False, indent=1).encode("utf-8") + b"\n"
