"""Matching the names of a ``turnering.txt`` to the federation's players.

A line gives (family name, given name) as the director typed them. In order:

1. **exact** — the same two names, character for character, or the names as the FESA files write them
   (``Zielinski`` for ``Zieliński``: letters ISO-8859-1 lacks are transliterated, ratings/fesa_files/encoding.py,
   so a file the site wrote reads back to the same player): the player is taken without asking, unless
   several players share the name (namesakes, ``Zielinski`` and ``Zieliński`` among them): then the director
   chooses among them;
2. **close** — the same names once accents, case and extra blanks are ignored (``Hébert``/``HEBERT``),
   or the two names swapped (``[Musashi] [Ishikawa]``), with or without accents: offered to the director,
   never taken on their own, because a close name is as often a different person as a typo;
3. **alike** — one edit apart once folded as the name search folds names (``Mateo``/``Matteo``,
   ratings/selectors/duplicates.py): offered the same way, so that a new player who looks like an existing
   one is not created unseen;
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

from django.utils.translation import gettext as _
from rapidfuzz import process
from rapidfuzz.distance import OSA

from ratings.fesa_files.encoding import latin1_text
from ratings.models import Player
from ratings.selectors.duplicates import NameKey, names_alike

How = Literal["exact", "accents", "swapped", "alike"]


def name_key(text: str) -> str:
    """``text`` without accents, case or repeated blanks: ``"  Hébert "`` and ``"hebert"`` give the same key.

    Letters that do not decompose (``ø``, ``ł``, ``ß``) are kept as they are after case folding, so
    ``Bjørn`` matches ``BJØRN`` but not ``Bjorn``: a guess there would be a guess, not a normalisation.
    """
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(stripped.split())


@dataclass(frozen=True, slots=True)
class Candidate:
    """A player a line may mean, and why: ``how`` is ``exact``, ``accents`` (accents/case) or ``swapped``."""

    player_id: int
    family_name: str
    given_name: str
    nationality: str
    rating: int
    how: How

    @property
    def label(self) -> str:
        why = {
            "exact": _("same name"),
            "accents": _("same name but for accents or case"),
            "swapped": _("family and given names swapped"),
            "alike": _("one letter apart"),
        }[self.how]
        name = f"{self.family_name} {self.given_name}".strip()
        country = f", {self.nationality}" if self.nationality else ""
        return f"{name} ({self.rating}{country}) — {why}"


@dataclass(frozen=True, slots=True)
class NameMatch:
    """What the federation holds for one line's names.

    ``exact`` are the players with exactly these names (normally zero or one); ``close`` the others that
    match once accents and case are ignored or the names swapped, closest first.
    """

    exact: tuple[Candidate, ...]
    close: tuple[Candidate, ...]

    @property
    def unique_exact(self) -> Candidate | None:
        return self.exact[0] if len(self.exact) == 1 else None

    @property
    def candidates(self) -> tuple[Candidate, ...]:
        return self.exact + self.close


class PlayerIndex:
    """Every player's names, loaded once, to match a whole table with one query.

    Loading (id, names, nationality, rating) of every player costs about a millisecond per thousand
    players; a table has at most a few hundred lines, so one pass beats a query per line.
    """

    def __init__(
        self,
        players: Iterable[tuple[int, str, str, str, int]] | None = None,
        *,
        extra: Iterable[tuple[int, str, str, str, int]] = (),
    ) -> None:
        """``players`` None: the site's players; ``extra``: more, not saved yet (the new players of a file
        that comes with the table, under stand-in ids), matched like the others."""
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
        rows = itertools.chain(rows, extra)
        self._exact: dict[tuple[str, str], list[Candidate]] = defaultdict(list)
        self._loose: dict[tuple[str, str], list[Candidate]] = defaultdict(list)
        self._all: list[tuple[NameKey, Candidate]] = []
        for pid, family, given, country, rating in rows:
            candidate = Candidate(pid, family, given, str(country or ""), rating, "exact")
            self._exact[(family, given)].append(candidate)
            written = (latin1_text(family), latin1_text(given))
            if written != (family, given):
                self._exact[written].append(candidate)
            self._loose[(name_key(family), name_key(given))].append(candidate)
            self._all.append((NameKey.of(family, given), candidate))
        # A name in another script is written in the files in the Latin form the player gave (fesa_records.py).
        by_id = {c.player_id: c for _k, c in self._all}
        for pid, family, given in latin:
            if pid in by_id:
                self._exact[(latin1_text(family), latin1_text(given))].append(by_id[pid])
        # The texts every new name is compared with, made once rather than for each line of a table.
        self._plain = [k.plain for k, _c in self._all]
        self._ordered = [k.ordered for k, _c in self._all]

    def match(self, family_name: str, given_name: str) -> NameMatch:
        """The players a line's names may mean (see the module docstring)."""
        exact = sorted(self._exact.get((family_name, given_name), []), key=lambda c: c.player_id)
        seen = {c.player_id for c in exact}
        close: list[Candidate] = []
        family, given = name_key(family_name), name_key(given_name)
        lookups: list[tuple[tuple[str, str], How]] = [((family, given), "accents")]
        if family != given:
            lookups.append(((given, family), "swapped"))
        for key, how in lookups:
            for c in sorted(self._loose.get(key, []), key=lambda c: c.player_id):
                if c.player_id not in seen:
                    seen.add(c.player_id)
                    close.append(Candidate(c.player_id, c.family_name, c.given_name, c.nationality, c.rating, how))
        if not exact and not close:
            close = self._alike(family_name, given_name)
        return NameMatch(exact=tuple(exact), close=tuple(close))

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
        return [
            Candidate(c.player_id, c.family_name, c.given_name, c.nationality, c.rating, "alike")
            for other, c in (self._all[i] for i in sorted(near))
            if names_alike(key, other)
        ]
