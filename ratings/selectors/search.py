"""Finding players by name: the search box of every public page and the rating list's name filter.

A query matches a player when every word of it is in his name, accents, case and the German spellings without
umlauts ignored ("mueller" finds Müller, Mueller and Muller), or when it is his federation id.
"""

from __future__ import annotations

import bisect
import threading
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.db.models import F, Q, QuerySet, Value
from django.db.models.expressions import Combinable
from django.db.models.functions import Replace

from ratings.models import GERMAN_FOLDS, Player, name_fold_key, name_search_key
from ratings.selectors.versions import DataVersion, data_version

MAX_QUERY = 100
SEARCH_LIMIT = 50


def _folded(field: str) -> Combinable:
    """The stored key ``field`` folded in SQL as ``name_fold_key`` folds a query."""
    expression: Combinable = F(field)
    for pair, single in GERMAN_FOLDS:
        expression = Replace(expression, Value(pair), Value(single))
    return expression


def name_matches(queryset: QuerySet[Player], value: str, prefix: str = "") -> QuerySet[Player]:
    """The players of ``queryset`` whose name holds every word of ``value`` (see the module), or whose
    federation id is ``value``; ``prefix`` reaches the player through a relation ("player__").

    Rows written without save() have no search key yet and are matched on their names as typed.
    """
    text = value[:MAX_QUERY]
    words = name_fold_key(text).split()
    if not words:
        return queryset
    alias = f"{prefix.replace('__', '_')}folded_name"
    by_name = Q()
    # Typed as is for the rows without a key: their stored names still carry the accents.
    for folded, typed_word in zip(words, text.split(), strict=False):
        typed = Q(**{f"{prefix}family_name__icontains": typed_word}) | Q(
            **{f"{prefix}given_name__icontains": typed_word}
        )
        by_name &= Q(**{f"{alias}__contains": folded}) | (Q(**{f"{prefix}search_name": ""}) & typed)
    by_id = Q(**{f"{prefix}federation_id": text.strip().upper()})
    return queryset.alias(**{alias: _folded(f"{prefix}search_name")}).filter(by_name | by_id)


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


def player_search(query: str, *, limit: int = SEARCH_LIMIT, version: DataVersion | None = None) -> SearchResult:
    """Every player matching ``query`` (professionals too: they have a page), highest rating first: matched in
    this process's search index of the data ``version`` (read once per version), then the players shown and
    their namesakes read in two queries."""
    text = query[:MAX_QUERY]
    words = sorted(name_fold_key(text).split(), key=len, reverse=True)  # the longest word rules out the most
    if not words:
        return SearchResult(query=query, players=[], more=False, namesakes=set())
    index = _search_index(version or data_version())
    found = index.find(words, text.strip().upper(), limit + 1)
    by_pk = Player.objects.in_bulk(found)
    players = [by_pk[pk] for pk in found if pk in by_pk][:limit]
    return SearchResult(query=query, players=players, more=len(found) > limit, namesakes=namesake_ids(players))


class _SearchIndex:
    """Every player's folded search key (the stored key folded as ``name_fold_key`` folds a query; made here
    for a row written without one) and federation id, in the search's order: highest rating first."""

    def __init__(self, rows: Iterable[tuple[int, str, str, str, str]]) -> None:
        self.keys: list[str] = []
        self.pks: list[int] = []
        self.by_id: dict[str, int] = {}  # federation id -> position
        for pk, federation_id, search_name, family, given in rows:
            key = search_name or name_search_key(f"{family} {given}")
            if " " in family.strip():  # "de Vries" is also typed "devries", "van der Meer" "vandermeer"
                key = f"{key} {name_search_key(family).replace(' ', '')}"
            for pair, single in GERMAN_FOLDS:
                key = key.replace(pair, single)
            self.by_id[federation_id] = len(self.pks)
            self.keys.append(key)
            self.pks.append(pk)

    def find(self, words: list[str], federation_id: str, limit: int) -> list[int]:
        """The pks of the first ``limit`` players whose key holds every word, or whose id is ``federation_id``."""
        first, others = words[0], words[1:]
        positions = [i for i, key in enumerate(self.keys) if first in key]
        for word in others:
            positions = [i for i in positions if word in self.keys[i]]
        by_id = self.by_id.get(federation_id)
        if by_id is not None and by_id not in positions:
            bisect.insort(positions, by_id)
        return [self.pks[i] for i in positions[:limit]]


_indexes: dict[str, _SearchIndex] = {}  # the search index of the latest data version this process read
_indexes_lock = threading.Lock()


def search_index_forget() -> None:
    """Drop the index this process keeps (tests: a rolled-back transaction may give a version again)."""
    with _indexes_lock:
        _indexes.clear()


def _search_index(version: DataVersion) -> _SearchIndex:
    index = _indexes.get(version.key)
    if index is None:
        rows = (
            Player.objects.filter(merged_into__isnull=True)
            .order_by("-rating", "family_name", "given_name", "pk")
            .values_list("pk", "federation_id", "search_name", "family_name", "given_name")
        )
        index = _SearchIndex(rows.iterator(chunk_size=5000))
        with _indexes_lock:
            _indexes.clear()
            _indexes[version.key] = index
    return index


def namesake_ids(players: Sequence[Player]) -> set[int]:
    """The ids of those of ``players`` whose name another player shares (accents and case ignored), in one
    query, so that a list can tell them apart. Family names are compared as stored, so a namesake spelt with
    other capitals or accents in the family name is not seen."""
    families = {p.family_name for p in players}
    if not families:
        return set()
    names = Player.objects.filter(family_name__in=families, merged_into__isnull=True).values_list(
        "family_name", "given_name"
    )
    counts = Counter(name_search_key(f"{family} {given}") for family, given in names)
    return {p.pk for p in players if counts[name_search_key(f"{p.family_name} {p.given_name}")] > 1}
