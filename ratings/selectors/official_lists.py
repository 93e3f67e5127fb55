"""Reads of the official lists: the archive, a published list as it was published, what it would be today, and
the lists a player was on.

A published list's entries become ``ListRow``s (ratings/selectors/lists.py), so the page, its filters and its
CSV and JSON files are the rating list's own, with the published figures. ``official_list_revision`` sets the
published rows beside the list of the same date computed now from the history, which later corrections moved.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from django.db.models import QuerySet
from django_countries import countries

from ratings.engine.categories import is_ranked
from ratings.models import OfficialList, OfficialListEntry, Player, name_search_key
from ratings.selectors.categories import category_member_ids
from ratings.selectors.clubs import club_member_ids, club_names_on
from ratings.selectors.list_files import export_record
from ratings.selectors.lists import ListRow, RowList, list_filter, rating_list, rating_list_of_rows
from ratings.selectors.versions import DataVersion, version_cached

CHANGE_KINDS = ("rating", "rank", "country_rank", "grade", "games", "category", "name", "country")
"""What may differ between a published row and the same player's row today; plus "added" and "dropped"."""


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


_ENTRY_VALUES = (
    "player_id", "federation_id", "family_name", "given_name", "nationality", "list_order", "prior_grade_kind",
    "prior_grade_level", "rating", "games", "grade", "fesa_grade", "category", "last_played", "pending_grade",
    "rank", "country_rank",
)  # fmt: skip


def _rows(official: OfficialList) -> list[ListRow]:
    """The entries as ``ListRow``s: the values in ListRow's order, the name's search key made here. The ranks
    shown are those the rating list gave that day, counted in the published order as ``ListOrder`` counts them:
    a player of a category the list does not rank shows none and is passed over (the stored ranks, those of
    FESA's all.txt, number every line)."""
    entries = OfficialListEntry.objects.filter(official_list=official).order_by("rank").values_list(*_ENTRY_VALUES)
    rows = []
    ranked, by_country = 0, dict[str, int]()
    for player_id, fid, family, given, country, *rest in entries:
        row = ListRow(player_id or 0, fid, family, given, country, name_search_key(f"{family} {given}"), *rest)
        if is_ranked(row.list_category):
            ranked += 1
            by_country[country] = by_country.get(country, 0) + 1
            row.public_rank, row.public_country_rank = ranked, by_country[country]
        rows.append(row)
    return rows


def official_list_rows(official: OfficialList, version: DataVersion | None = None) -> RowList:
    """The published list as the rating list's rows, in its published order: one query, made once per data
    version for every process when the caller read the version (a published list changes only by an erasure,
    which changes the version)."""
    rows = version_cached(f"official-list:{official.pk}", version, lambda: _rows(official))
    return rating_list_of_rows(official.date, rows)


def group_member_ids(*, club: int | None, group: str, on: dt.date) -> set[int] | None:
    """The ids of the players in club ``club`` and in category ``group`` on ``on``, the date of an official list
    (None, the empty group: no condition); None when neither is asked for. A query for each one asked for."""
    kept: set[int] | None = None
    if club is not None:
        kept = club_member_ids(club, on)
    if group:
        members = category_member_ids(group, on)
        kept = members if kept is None else kept & members
    return kept


def official_list_filter(
    rows: RowList, *, q: str = "", country: str = "", club: int | None = None, group: str = ""
) -> RowList:
    """The published rows matching the rating list's filters: name and country (``list_filter``), and the club and
    the category of the list's date, as the rating list of that date reads them."""
    filtered: RowList = list_filter(rows, q=q, country=country)
    members = group_member_ids(club=club, group=group, on=rows.date)
    return filtered if members is None else filtered.filter(lambda row: row.pk in members)


def list_countries_of(rows: Iterable[ListRow]) -> list[tuple[str, str]]:
    """(code, name) of the countries on a list, by name: the country filter's choices."""
    codes = {r.nationality_code for r in rows} - {""}
    return sorted(((code, str(countries.name(code))) for code in codes), key=lambda c: c[1])


@dataclass(slots=True)
class RevisedRow:
    """A player's row on the published list and on the same date's list today (None where he is not on it)."""

    published: ListRow | None
    now: ListRow | None
    changes: frozenset[str] = frozenset()

    @property
    def row(self) -> ListRow:
        """The row that names the player: today's, or the published one of a player dropped since."""
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


def _changes(published: ListRow | None, now: ListRow | None) -> frozenset[str]:
    if published is None:
        return frozenset({"added"})
    if now is None:
        return frozenset({"dropped"})
    pairs = {
        "rating": (published.list_rating, now.list_rating),
        "rank": (published.rank, now.rank),
        "country_rank": (published.country_rank, now.country_rank),
        "grade": ((published.list_grade, published.list_pending_grade), (now.list_grade, now.list_pending_grade)),
        "games": (published.list_games, now.list_games),
        "category": (published.list_category, now.list_category),
        "name": ((published.family_name, published.given_name), (now.family_name, now.given_name)),
        "country": (published.nationality_code, now.nationality_code),
    }
    return frozenset(kind for kind, (was, is_) in pairs.items() if was != is_)


def revised_rows(published: Sequence[ListRow], now: Sequence[ListRow]) -> list[RevisedRow]:
    """The two lists side by side, matched by player: in today's order, each player dropped since just below
    the row that was above him on the published list; players added since in their place today."""
    by_player = {r.pk: r for r in now}
    keyed: list[tuple[tuple[float, int], RevisedRow]] = []
    above = 0.0  # today's rank of the nearest published row above that is still on the list
    for position, p in enumerate(published):
        current = by_player.get(p.pk) if p.pk else None
        if current is None:
            keyed.append(((above + 0.5, position), RevisedRow(p, None, _changes(p, None))))
        else:
            above = current.rank
            keyed.append(((current.rank, 0), RevisedRow(p, current, _changes(p, current))))
    on_published = {p.pk for p in published if p.pk}
    keyed += [((r.rank, 0), RevisedRow(None, r, _changes(None, r))) for r in now if r.pk not in on_published]
    keyed.sort(key=lambda k: k[0])
    return [row for _, row in keyed]


def official_list_revision(official: OfficialList, version: DataVersion | None = None) -> Revision:
    """The published list beside the list of its date computed now; the counts of each kind of change."""
    published = official_list_rows(official, version).rows
    now = rating_list(date=official.date, active=True, version=version).rows
    rows = revised_rows(published, now)
    counts = {kind: 0 for kind in (*CHANGE_KINDS, "added", "dropped")}
    for r in rows:
        for kind in r.changes:
            counts[kind] += 1
    counts["changed"] = sum(1 for r in rows if r.changes)
    return Revision(official=official, rows=rows, counts=counts)


def revised_filter(
    revision: Revision,
    *,
    q: str = "",
    country: str = "",
    club: int | None = None,
    group: str = "",
    changed_only: bool = False,
) -> list[RevisedRow]:
    """The revised rows whose player matches the rating list's name and country filters (``list_filter``,
    on today's row or a dropped player's published one) and is in ``club`` and in category ``group`` on the
    list's date (a row whose player was removed since is in none); only those that changed if ``changed_only``."""
    rows = revision.changed if changed_only else revision.rows
    if not (q.strip() or country or club is not None or group):
        return rows
    date = revision.official.date
    kept = {
        id(r)
        for r in official_list_filter(
            rating_list_of_rows(date, [r.row for r in rows]), q=q, country=country, club=club, group=group
        )
    }
    return [r for r in rows if id(r.row) in kept]


def player_official_lists(player: Player) -> list[OfficialListEntry]:
    """The published lists the player was on, the latest first, each entry with its list: one query."""
    return list(
        OfficialListEntry.objects.filter(player=player)
        .select_related("official_list")
        .defer("official_list__all_txt", "official_list__note")
        .order_by("-official_list__date")
    )


def official_list_json(official: OfficialList, rows: RowList) -> bytes:
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
        "players": [export_record(r, club=clubs.get(r.pk, "")) for r in rows],
    }
    return json.dumps(document, ensure_ascii=False, indent=1).encode("utf-8") + b"\n"
