"""Finding players by name: the search box of every public page and the rating list's name filter; and the
clubs the same words name, which the search page shows beside the players.

A query matches a player when every word of it is in his name, accents, case and the German spellings without
umlauts ignored ("mueller" finds Müller, Mueller and Muller), or when it is his federation id. A club matches
when every word is in its name, folded the same way.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from django.db.models import Count, Model, Q, QuerySet

from ratings.models import Club, Player, name_fold_key, name_search_key

MAX_QUERY = 100
SEARCH_LIMIT = 50
CLUB_LIMIT = 10

_Rows = TypeVar("_Rows", bound=Model)  # players, or rows that reach a player through ``prefix``


def name_condition(value: str) -> Q | None:
    """The rows (players, or the lines of a stored list, which carry the same name fields) whose name holds every
    word of ``value`` (see the module), or whose federation id is ``value``; None for a value without words.

    Rows written without save() have no search key yet and are matched on their names as typed."""
    # "DEKKER, Ruben", as lists write a name: the comma is no part of a name, only a separator.
    text = value[:MAX_QUERY].replace(",", " ")
    words = name_fold_key(text).split()
    if not words:
        return None
    by_name = Q()
    # Typed as is for the rows without a key: their stored names still carry the accents.
    for folded, typed_word in zip(words, text.split(), strict=False):
        typed = Q(family_name__icontains=typed_word) | Q(given_name__icontains=typed_word)
        by_name &= Q(search_name__contains=folded) | (Q(search_name="") & typed)
    return by_name | Q(federation_id=text.strip().upper())


def name_matches(queryset: QuerySet[_Rows], value: str, prefix: str = "") -> QuerySet[_Rows]:
    """The players of ``queryset`` whose name holds every word of ``value`` or whose federation id is ``value``
    (``name_condition``); ``prefix`` reaches the player through a relation ("player__").

    The players are matched in a subquery: in one query with the page's order, SQLite (without statistics) reads
    the players in that order through its index, a lookup of the row for each, and a name that few players bear
    reads all of them that way: several times slower than reading the keys once.
    """
    condition = name_condition(value)
    if condition is None:
        return queryset
    matching = Player.objects.filter(condition).values("pk")
    return queryset.filter(**{f"{prefix}pk__in": matching})


@dataclass(frozen=True)
class SearchResult:
    """The players found, strongest first, at most ``SEARCH_LIMIT``; ``more`` when there were others."""

    query: str
    players: list[Player]
    more: bool
    namesakes: set[int]

    @property
    def only(self) -> Player | None:
        """The one player found, for a search that should go straight to his page."""
        return self.players[0] if len(self.players) == 1 and not self.more else None


def player_search(query: str, *, limit: int = SEARCH_LIMIT) -> SearchResult:
    """Every player matching ``query`` (professionals too: they have a page), highest rating first: the
    players shown in one query (on PostgreSQL through the trigram index of the search key, migration 0027),
    their namesakes in another."""
    if not name_fold_key(query[:MAX_QUERY]).split():
        return SearchResult(query=query, players=[], more=False, namesakes=set())
    found = list(
        name_matches(Player.objects.filter(merged_into__isnull=True), query).order_by(
            "-rating", "family_name", "given_name", "pk"
        )[: limit + 1]
    )
    players = found[:limit]
    return SearchResult(query=query, players=players, more=len(found) > limit, namesakes=namesake_ids(players))


def namesake_ids(players: Sequence[Player]) -> set[int]:
    """The ids of those of ``players`` whose name another player shares (accents and case ignored), in one
    query, so that a list can tell them apart. Family names are compared as stored, so a namesake spelt with
    other capitals or accents in the family name is not seen."""
    families = {p.family_name for p in players}
    if not families:
        return set()
    # Each name as stored once, with its number of players: a common family name is borne by hundreds of
    # players but by far fewer names, and each name's key is made in Python.
    names = (
        Player.objects.filter(family_name__in=families, merged_into__isnull=True)
        .values_list("family_name", "given_name")
        .annotate(bearers=Count("pk"))
        .order_by()
    )
    counts: Counter[str] = Counter()
    for family, given, bearers in names:
        counts[name_search_key(f"{family} {given}")] += bearers
    return {p.pk for p in players if counts[name_search_key(f"{p.family_name} {p.given_name}")] > 1}


def clubs_named(value: str) -> list[Club]:
    """The clubs whose name holds every word of ``value`` (its folded ``name_key``), by name, at most
    ``CLUB_LIMIT`` and one more (which says there are more): a club secretary who types his club's name in the
    search box finds its page."""
    words = name_fold_key(value[:MAX_QUERY]).split()
    if not words:
        return []
    named = Club.objects.filter(*(Q(name_key__contains=word) for word in words)).order_by("name")
    return list(named[: CLUB_LIMIT + 1])
