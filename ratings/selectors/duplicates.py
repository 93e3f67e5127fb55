"""Likely duplicate players: the same person entered twice under a slightly different spelling.

Two players are likely the same person when their names, folded as the name search folds them (accents, case
and German spellings ignored, ``name_fold_key``), are

* the same, or the same words in another order ("Rossi Mateo" and "Mateo Rossi"), or
* one edit apart (a letter added, dropped, changed, or two neighbours swapped: "Mateo" and "Matteo"), for
  names of at least ``MIN_FUZZY_LENGTH`` letters and no digits, since two short names one letter apart are
  mostly two people (and "Player12", "Player13" are test names),

and their nationalities are the same or either is unknown. A merged player is never a candidate.

One name is checked against every player of its country in one query and a linear pass (``duplicates_of``);
the whole federation (``duplicate_pairs``) is blocked by each name's one-letter deletions (the "symmetric
delete" index), so that only names sharing such a variant are compared, never every pair
(``bench/bench_duplicates.py`` measures it).
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from django.db.models import Q, QuerySet
from rapidfuzz import process
from rapidfuzz.distance import OSA

from ratings.db import id_batches
from ratings.models import Player, TableEntry, name_fold_key

MIN_FUZZY_LENGTH = 8
"""Folded names shorter than this match only exactly or with their words swapped."""


@dataclass(frozen=True)
class NameKey:
    plain: str  # the folded name in its own word order
    ordered: str  # its words sorted: the same for swapped names

    @classmethod
    def of(cls, family_name: str, given_name: str = "") -> NameKey:
        plain = name_fold_key(f"{family_name} {given_name}")
        return cls(plain, " ".join(sorted(plain.split())))


def _key_of(plain: str) -> NameKey:
    return NameKey(plain, " ".join(sorted(plain.split())))


def names_alike(a: NameKey, b: NameKey) -> bool:
    """The rule of the module on two folded names."""
    if not a.plain or not b.plain:
        return False
    if a.ordered == b.ordered:
        return True
    if min(len(a.plain), len(b.plain)) < MIN_FUZZY_LENGTH or _has_digits(a.plain) or _has_digits(b.plain):
        return False
    return (
        OSA.distance(a.plain, b.plain, score_cutoff=1) <= 1 or OSA.distance(a.ordered, b.ordered, score_cutoff=1) <= 1
    )


def _has_digits(text: str) -> bool:
    return any(c.isdigit() for c in text)


def countries_agree(a: str, b: str) -> bool:
    return not a or not b or a == b


def _candidates(nationality: str) -> QuerySet[Player]:
    players = Player.objects.filter(merged_into__isnull=True)
    if nationality:
        players = players.filter(Q(nationality=nationality) | Q(nationality=""))
    return players


def duplicates_of(
    family_name: str, given_name: str, nationality: str = "", *, exclude: Iterable[int] = ()
) -> list[Player]:
    """The players a new player of this name and nationality would likely duplicate, best known first."""
    key = NameKey.of(family_name, given_name)
    if not key.plain:
        return []
    rows = list(
        _candidates(str(nationality or ""))
        .exclude(pk__in=list(exclude))
        .values_list("pk", "search_name", "family_name", "given_name")
    )
    # The stored search key, folded as name_fold_key folds (the names themselves for a row without one); then
    # rapidfuzz finds the keys at most one edit away in C, and the rule is applied to those few.
    keys = [text or NameKey.of(f, g).plain for _pk, text, f, g in rows]
    near = {i for i, k in enumerate(keys) if k == key.plain}
    for text, texts in ((key.plain, keys), (key.ordered, [" ".join(sorted(k.split())) for k in keys])):
        near.update(i for _t, _d, i in process.extract(text, texts, scorer=OSA.distance, score_cutoff=1, limit=None))
    near.update(i for i, k in enumerate(keys) if " ".join(sorted(k.split())) == key.ordered)
    found = [rows[i][0] for i in near if names_alike(key, _key_of(keys[i]))]
    return list(Player.objects.filter(pk__in=found).order_by("-last_played", "family_name", "given_name", "pk"))


def _deletions(text: str) -> Iterator[str]:
    yield text
    if len(text) >= MIN_FUZZY_LENGTH:
        for i in range(len(text)):
            yield text[:i] + text[i + 1 :]


@dataclass(frozen=True)
class DuplicatePair:
    """Two players likely to be one person; ``first`` has played more (the one to keep, as a rule)."""

    first: Player
    second: Player

    @property
    def both(self) -> tuple[Player, Player]:
        return self.first, self.second


def _pair_ids(rows: Sequence[tuple[int, str, str, str]]) -> set[tuple[int, int]]:
    """The pairs of players whose names are alike and countries agree: the distinct names are compared (those
    sharing a one-letter deletion), then each pair of alike names gives the pairs of their players."""
    groups: dict[NameKey, list[tuple[int, str]]] = defaultdict(list)
    for pk, family, given, country in rows:
        key = NameKey.of(family, given)
        if key.plain:
            groups[key].append((pk, country))
    by_order: dict[str, list[NameKey]] = defaultdict(list)
    buckets: dict[str, set[str]] = defaultdict(set)
    for key in groups:
        by_order[key.ordered].append(key)
        for variant in {*_deletions(key.plain), *_deletions(key.ordered)}:
            buckets[variant].add(key.ordered)
    alike: set[tuple[str, str]] = {(o, o) for o in by_order}
    for members in buckets.values():
        ordered = sorted(members)
        for i, a in enumerate(ordered):
            for b in ordered[i + 1 :]:
                if (a, b) not in alike and any(names_alike(x, y) for x in by_order[a] for y in by_order[b]):
                    alike.add((a, b))
    pairs: set[tuple[int, int]] = set()
    for a, b in alike:
        left = [p for key in by_order[a] for p in groups[key]]
        right = left if a == b else [p for key in by_order[b] for p in groups[key]]
        for pa, ca in left:
            for pb, cb in right:
                if pa != pb and countries_agree(ca, cb):
                    pairs.add((min(pa, pb), max(pa, pb)))
    return pairs


def _played_together(pairs: set[tuple[int, int]]) -> set[tuple[int, int]]:
    """The pairs who sat in one table: two people, whatever their names."""
    ids = {pk for pair in pairs for pk in pair}
    tables: dict[int, set[int]] = defaultdict(set)
    for chunk in id_batches(sorted(ids)):
        for player_id, table_id in TableEntry.objects.filter(player_id__in=chunk).values_list("player_id", "table_id"):
            tables[player_id].add(table_id)
    return {(a, b) for a, b in pairs if tables[a] & tables[b]}


def duplicate_pairs() -> list[DuplicatePair]:
    """Every pair of likely duplicates in the federation, who never played in one table, by name."""
    rows = list(_candidates("").values_list("pk", "family_name", "given_name", "nationality").iterator(chunk_size=5000))
    pairs = _pair_ids(rows)
    pairs -= _played_together(pairs)
    ids = sorted({pk for pair in pairs for pk in pair})
    players: dict[int, Player] = {}
    for start in range(0, len(ids), 5000):
        players.update(Player.objects.in_bulk(ids[start : start + 5000]))
    out = []
    for a, b in pairs:
        first, second = sorted((players[a], players[b]), key=_keep_order)
        out.append(DuplicatePair(first, second))
    out.sort(key=lambda p: (str(p.first).casefold(), str(p.second).casefold(), p.first.pk, p.second.pk))
    return out


@dataclass(frozen=True)
class DuplicateSuspects:
    """The likely pairs for the rating officers' digest: how many, how many are new, the newest few."""

    total: int
    new: int  # pairs one of whose players was added since the moment asked
    newest: list[DuplicatePair]


def duplicate_suspects(*, since: dt.datetime, limit: int = 5) -> DuplicateSuspects:
    """Every likely pair (``duplicate_pairs``), counted, with those a player added since ``since`` made and the
    ``limit`` newest: a person entered twice is mostly a new record, and the old pairs are the same every day."""
    pairs = duplicate_pairs()

    def added(pair: DuplicatePair) -> tuple[dt.datetime, int]:
        newer = max(pair.both, key=lambda p: (p.created_at, p.pk))
        return newer.created_at, newer.pk

    newest = sorted(pairs, key=added, reverse=True)
    return DuplicateSuspects(total=len(pairs), new=sum(added(p)[0] >= since for p in pairs), newest=newest[:limit])


def merged_into_id_of(federation_id: str) -> str:
    """The federation id of the player the record ``federation_id`` was merged into; "" if not merged."""
    kept = Player.objects.filter(federation_id=federation_id.upper(), merged_into__isnull=False)
    return kept.values_list("merged_into__federation_id", flat=True).first() or ""


def _keep_order(player: Player) -> tuple[int, int, int]:
    return (-player.games, -(player.last_played or dt.date.min).toordinal(), player.pk)
