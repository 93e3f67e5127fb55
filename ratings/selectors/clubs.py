"""Clubs: a player's club on a date, a club's members on a date, a club's page, and the rankings of clubs and of
countries by their top ratings (as FIDE ranks federations by the average of their ten best).

A computed list's entries hold each player's club on the list's date, which its club filter reads; an official
list's filter reads ``club_members_q`` on its date, as a club's page does. The pages show each row's club with
``clubs_on``, the files with ``club_names_on``.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from django.db.models import Exists, OuterRef, Q, QuerySet, Subquery
from django.utils import timezone
from django_countries import countries

from ratings.engine.categories import TOP_CATEGORIES
from ratings.models import Club, ClubMembership, Player, Table, TableEntry, Tournament, name_search_key
from ratings.selectors.api import PlayerCount, rated_tables
from ratings.selectors.list_values import active_cutoff, public_players
from ratings.selectors.lists import PUBLIC_TABLE_STATUSES
from ratings.selectors.versions import DataVersion, version_cached

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations

CLUB_TOP = 5
"""A club is ranked by the average rating of its best this many members."""
COUNTRY_TOP = 10
"""A country is ranked by the average rating of its best this many players (FIDE's ranking of federations)."""


def memberships_on(on: dt.date) -> QuerySet[ClubMembership]:
    """Each player's membership in force on ``on``: his latest one from that date or before. In no order: the
    model's (by the players' names) would join every player and sort them, three times the query's cost."""
    later = ClubMembership.objects.filter(player=OuterRef("player"), since__gt=OuterRef("since"), since__lte=on)
    return ClubMembership.objects.filter(since__lte=on).exclude(Exists(later)).order_by()


def club_members_q(club_id: int, on: dt.date) -> Q:
    """The players in club ``club_id`` on ``on``, as a condition on ``Player`` (``Player.objects.filter(q)``;
    a list's queryset of players filters with it)."""
    return Q(pk__in=memberships_on(on).filter(club_id=club_id).values("player_id"))


def clubs_on(player_ids: Iterable[int], on: dt.date) -> dict[int, Club]:
    """The club of each of ``player_ids`` on ``on`` (players in none are left out). One query."""
    rows = memberships_on(on).filter(player_id__in=list(player_ids), club__isnull=False).select_related("club")
    return {row.player_id: row.club for row in rows if row.club is not None}


def club_names_on(on: dt.date) -> dict[int, str]:
    """The name of each player's club on ``on``, by player id (players in none are left out): a list's files,
    whose every row names it. One query, however long the list."""
    return dict(memberships_on(on).filter(club__isnull=False).values_list("player_id", "club__name"))


def club_rated_tables(club: Club) -> QuerySet[WithAnnotations[Table, PlayerCount]]:
    """The rated tables a club's secretary follows, the latest first, each once: those of the tournaments it
    hosted, and those a player played while a member (the membership in force on the table's date), wherever
    they were played. With ``player_count`` (``rated_tables``). One query."""
    club_then = (
        ClubMembership.objects.filter(player=OuterRef("player"), since__lte=OuterRef("table__date"))
        .order_by("-since")
        .values("club_id")[:1]
    )
    members_played = TableEntry.objects.filter(table=OuterRef("pk")).annotate(club_then=Subquery(club_then))
    return rated_tables().filter(Q(tournament__host_club=club) | Exists(members_played.filter(club_then=club.pk)))


def player_club_on(player: Player, on: dt.date) -> Club | None:
    """``player``'s club on ``on``."""
    return clubs_on([player.pk], on).get(player.pk)


def player_club_history(player: Player) -> list[ClubMembership]:
    """``player``'s memberships, newest first."""
    return list(player.club_memberships.select_related("club").order_by("-since"))


def top_average(ratings: list[int], size: int) -> float | None:
    """The average of the best ``size`` of ``ratings``; None with fewer than ``size``: a club or a country is
    ranked only once it has that many."""
    if len(ratings) < size:
        return None
    best = sorted(ratings, reverse=True)[:size]
    return sum(best) / size


def ranked_players() -> QuerySet[Player]:
    """The players a ranking counts: those of today's top lists (active, established, not professionals)."""
    return public_players().filter(
        games__gt=0, category__in=TOP_CATEGORIES, last_played__gte=active_cutoff(timezone.localdate())
    )


@dataclass(frozen=True)
class ClubPage:
    club: Club
    members: list[Player]  # today's members the public lists show, strongest first
    top_average: float | None
    tournaments: list[Tournament]


def club_page(club_id: int) -> ClubPage:
    """A club with its members of today (their ratings), the average of its best ``CLUB_TOP`` ranked members and
    the tournaments it hosted that have a public table. Raises ``Club.DoesNotExist``. Four queries."""
    club = Club.objects.get(pk=club_id)
    today = timezone.localdate()
    members = list(public_players().filter(club_members_q(club.pk, today)).order_by("-rating", "family_name", "pk"))
    ranked = set(ranked_players().filter(club_members_q(club.pk, today)).values_list("pk", flat=True))
    tournaments = list(
        Tournament.objects.filter(host_club=club, tables__status__in=PUBLIC_TABLE_STATUSES)
        .distinct()
        .order_by("-end_date", "name")
    )
    average = top_average([p.rating for p in members if p.pk in ranked], CLUB_TOP)
    return ClubPage(club, members, average, tournaments)


@dataclass(frozen=True)
class RankedGroup:
    rank: int | None  # None: fewer ranked players than the ranking counts
    key: str  # a club's id or a country's code
    name: str
    country: str
    players: int  # ranked players (active, established)
    average: float | None


def _rank(groups: list[RankedGroup]) -> list[RankedGroup]:
    groups.sort(key=lambda g: (g.average is None, -(g.average or 0), name_search_key(g.name)))
    return [
        replace(group, rank=position if group.average is not None else None)
        for position, group in enumerate(groups, start=1)
    ]


def club_ranking(version: DataVersion | None = None) -> list[RankedGroup]:
    """Every club by the average rating of its best ``CLUB_TOP`` ranked members today; those with fewer last,
    unranked. Two queries, once per data version."""

    def make() -> list[RankedGroup]:
        today = timezone.localdate()
        ratings = dict(ranked_players().values_list("pk", "rating"))
        by_club: dict[int, list[int]] = defaultdict(list)
        for player_id, club_id in memberships_on(today).filter(club__isnull=False).values_list("player_id", "club_id"):
            if player_id in ratings:
                by_club[club_id].append(ratings[player_id])
        groups = [
            RankedGroup(
                None, str(c.pk), c.name, c.country.code, len(by_club[c.pk]), top_average(by_club[c.pk], CLUB_TOP)
            )
            for c in Club.objects.all()
        ]
        return _rank(groups)

    return version_cached("club-ranking", version, make)


def country_ranking(version: DataVersion | None = None) -> list[RankedGroup]:
    """Every nationality by the average rating of its best ``COUNTRY_TOP`` ranked players today. One query,
    once per data version."""

    def make() -> list[RankedGroup]:
        by_country: dict[str, list[int]] = defaultdict(list)
        for code, rating in ranked_players().exclude(nationality="").values_list("nationality", "rating"):
            by_country[code].append(rating)
        groups = [
            RankedGroup(None, code, code, code, len(r), top_average(r, COUNTRY_TOP)) for code, r in by_country.items()
        ]
        return _rank(groups)

    # The cache keeps the codes; the names are the reader's language's, and so is the order of the unranked.
    named = [replace(g, name=str(countries.name(g.key))) for g in version_cached("country-ranking", version, make)]
    unranked = sorted((g for g in named if g.rank is None), key=lambda g: name_search_key(g.name))
    return [g for g in named if g.rank is not None] + unranked


def club_choices() -> list[tuple[str, str]]:
    """(id, name) of every club, for a filter's choices."""
    clubs = Club.objects.values_list("pk", "name")
    # By name as a reader looks one up, whatever the database's collation: Ōsaka beside Osaka, not after Zürich.
    return [(str(pk), name) for pk, name in sorted(clubs, key=lambda club: name_search_key(club[1]))]
