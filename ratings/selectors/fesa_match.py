"""Matching the names of a ``turnering.txt`` to the federation's players.

A line gives (family name, given name) as the director typed them. One rule decides whether the site takes a
player without asking: **the names read the same in plain Latin letters, and only one player's do.** Both
names are folded (:func:`name_spellings`): accents and other marks dropped and letters outside the Latin
alphabet transliterated by ``anyascii`` (``Zieliński`` and ``Zielinski``, ``Łukasz`` and ``Lukasz``, ``ß`` as
``ss``, ``山田`` as the files write it), German ``ä``/``ö``/``ü`` read also as ``ae``/``oe``/``ue``
(``Müller`` is ``Muller`` and ``Mueller``), case and extra blanks ignored; a player whose name is in another
script is folded by the Latin form he gave too. So a file the site wrote (its letters outside ISO-8859-1
transliterated, ratings/fesa_files/encoding.py) reads back to the same player, and so does a director's
keyboard without accents. In order:

1. **same** — the players whose names fold to the line's: exactly one is taken without asking (``exact``
   when the names are character for character his, ``spelling`` otherwise); several (namesakes,
   ``Muller`` and ``Müller`` among them) wait for the director's choice, the exact spelling first;
2. **close** — the two names swapped (``[Musashi] [Ishikawa]``), folded the same way: offered to the director,
   never taken on their own;
3. **alike** — one edit apart once folded as the name search folds names (``Mateo``/``Matteo``, ``Mueller``/
   ``Muller``, ratings/selectors/duplicates.py): offered the same way, since a name a letter apart is as often
   a different person as a typo, and a new player who looks like an existing one is not created unseen;
4. **none** — a new player.

Reads only; creating players is ratings/services/fesa/turnering.py's job.
"""

from __future__ import annotations

import itertools
import unicodedata
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from anyascii import anyascii
from django.utils.translation import gettext as _
from rapidfuzz import process
from rapidfuzz.distance import OSA

from ratings.models import Player
from ratings.selectors.duplicates import NameKey, names_alike

How = Literal["exact", "spelling", "swapped", "alike"]

_DIAERESIS = "\u0308"
_GERMAN_VOWELS = frozenset("AOUaou")


def _plain(text: str) -> str:
    """``text`` in ASCII letters, case-folded, one blank between words."""
    if not text.isascii():
        text = anyascii(unicodedata.normalize("NFC", text))
    return " ".join(text.casefold().split())


def _umlauts_as_e(text: str) -> str:
    """``Müller`` as German writes it without the umlaut: ``Mueller`` (ä, ö, ü; capitals too)."""
    decomposed = unicodedata.normalize("NFD", text)
    if _DIAERESIS not in decomposed:
        return text
    letters = [
        "e" if c == _DIAERESIS and i and decomposed[i - 1] in _GERMAN_VOWELS else c for i, c in enumerate(decomposed)
    ]
    return unicodedata.normalize("NFC", "".join(letters))


def name_spellings(text: str) -> frozenset[str]:
    """The plain Latin letters ``text`` reads as (see the module docstring): ``"Müller"`` -> ``{"muller",
    "mueller"}``, ``"Zieliński "`` -> ``{"zielinski"}``, ``"STRAẞE"`` -> ``{"strasse"}``. Two names are the same
    in plain letters when their sets share a spelling."""
    if text.isascii():  # most names: nothing to fold but case and blanks
        return frozenset((" ".join(text.casefold().split()),))
    return frozenset({_plain(text), _plain(_umlauts_as_e(text))})


@dataclass(frozen=True, slots=True)
class Candidate:
    """A player a line may mean, and why (``how``, see the module docstring). ``newcomer_grade`` is not None
    for a player of the ``nye-spillere`` that comes with the table, created with it: the prior grade the
    file gives him ("" for none)."""

    player_id: int
    family_name: str
    given_name: str
    nationality: str
    rating: int
    how: How
    newcomer_grade: str | None = None

    @property
    def label(self) -> str:
        name = f"{self.family_name} {self.given_name}".strip()
        if self.newcomer_grade is not None:
            country = f" ({self.nationality})" if self.nationality else ""
            if self.newcomer_grade:
                return _("%(name)s — new player from the nye-spillere file, prior grade in the file: %(grade)s") % {
                    "name": f"{name}{country}",
                    "grade": self.newcomer_grade,
                }
            return _("%(name)s — new player from the nye-spillere file, no prior grade in the file") % {
                "name": f"{name}{country}"
            }
        why = {
            "exact": _("same name"),
            "spelling": _("same name but for accents or case"),
            "swapped": _("family and given names swapped"),
            "alike": _("one letter apart"),
        }[self.how]
        country = f", {self.nationality}" if self.nationality else ""
        return f"{name} ({self.rating}{country}) — {why}"

    def as_how(self, how: How) -> Candidate:
        return Candidate(
            self.player_id, self.family_name, self.given_name, self.nationality, self.rating, how, self.newcomer_grade
        )


@dataclass(frozen=True, slots=True)
class NameMatch:
    """What the federation holds for one line's names.

    ``same`` are the players whose names read the same in plain Latin letters (exact spellings first, then
    by id): the one is taken, several wait for a choice; ``close`` the others the line may mean (swapped
    names, or one letter apart), closest first.
    """

    same: tuple[Candidate, ...]
    close: tuple[Candidate, ...]

    @property
    def taken(self) -> Candidate | None:
        """The player the line is taken as without asking: the only one whose names read the same."""
        return self.same[0] if len(self.same) == 1 else None

    @property
    def candidates(self) -> tuple[Candidate, ...]:
        return self.same + self.close


Row = tuple[int, str, str, str, int]
"""A player to match: id, family name, given name, nationality, rating."""

Newcomer = tuple[int, str, str, str, str]
"""A player of a ``nye-spillere``, not saved yet: stand-in id, family name, given name, nationality, the
prior grade the file gives him ("" for none)."""


class PlayerIndex:
    """Every player's names, loaded once, to match a whole table with one query.

    Loading (id, names, nationality, rating) of every player costs about a millisecond per thousand
    players; a table has at most a few hundred lines, so one pass beats a query per line.
    """

    def __init__(self, players: Iterable[Row] | None = None, *, extra: Iterable[Newcomer] = ()) -> None:
        """``players`` None: the site's players; ``extra``: the new players of a file that comes with the
        table, not saved yet (under stand-in ids), matched like the others."""
        rows = (
            Player.objects.filter(merged_into__isnull=True).values_list(
                "id", "family_name", "given_name", "nationality", "rating"
            )
            if players is None
            else players
        )
        latin = (
            Player.objects.filter(merged_into__isnull=True)
            .exclude(latin_family_name="")
            .values_list("id", "latin_family_name", "latin_given_name")
            if players is None
            else ()
        )
        candidates = [Candidate(pid, f, g, str(country or ""), rating, "exact") for pid, f, g, country, rating in rows]
        candidates += [
            Candidate(pid, f, g, str(country or ""), 0, "exact", grade) for pid, f, g, country, grade in extra
        ]
        self._exact: dict[tuple[str, str], list[Candidate]] = defaultdict(list)
        self._folded: dict[tuple[str, str], list[Candidate]] = defaultdict(list)
        self._all: list[tuple[NameKey, Candidate]] = []
        by_id: dict[int, Candidate] = {}
        for c in candidates:
            self._add(c.family_name, c.given_name, c)
            self._all.append((NameKey.of(c.family_name, c.given_name), c))
            by_id[c.player_id] = c
        # A name in another script is written in the files in the Latin form the player gave (fesa_records.py).
        for pid, family, given in latin:
            if pid in by_id:
                self._add(family, given, by_id[pid])
        # The texts every new name is compared with, made once rather than for each line of a table.
        self._plain = [k.plain for k, _c in self._all]
        self._ordered = [k.ordered for k, _c in self._all]

    def _add(self, family: str, given: str, candidate: Candidate) -> None:
        self._exact[(family, given)].append(candidate)
        for key in itertools.product(name_spellings(family), name_spellings(given)):
            if candidate not in self._folded[key]:
                self._folded[key].append(candidate)

    def _folded_as(self, family: str, given: str) -> list[Candidate]:
        found = {
            c.player_id: c
            for key in itertools.product(name_spellings(family), name_spellings(given))
            for c in self._folded.get(key, ())
        }
        return sorted(found.values(), key=lambda c: c.player_id)

    def match(self, family_name: str, given_name: str) -> NameMatch:
        """The players a line's names may mean (see the module docstring)."""
        exact = sorted(self._exact.get((family_name, given_name), []), key=lambda c: c.player_id)
        seen = {c.player_id for c in exact}
        same = [
            *exact,
            *(c.as_how("spelling") for c in self._folded_as(family_name, given_name) if c.player_id not in seen),
        ]
        seen.update(c.player_id for c in same)
        close = [c.as_how("swapped") for c in self._folded_as(given_name, family_name) if c.player_id not in seen]
        if not same and not close:
            close = self._alike(family_name, given_name)
        return NameMatch(same=tuple(same), close=tuple(close))

    def _alike(self, family_name: str, given_name: str) -> list[Candidate]:
        """The players one edit apart (a new name only: a known one needs no guess)."""
        key = NameKey.of(family_name, given_name)
        if not key.plain:
            return []
        near: set[int] = set()
        for text, texts in ((key.plain, self._plain), (key.ordered, self._ordered)):
            near.update(
                i for _t, _d, i in process.extract(text, texts, scorer=OSA.distance, score_cutoff=1, limit=None)
            )
        return [c.as_how("alike") for other, c in (self._all[i] for i in sorted(near)) if names_alike(key, other)]
