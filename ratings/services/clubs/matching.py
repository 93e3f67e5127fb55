"""One rule matches a club named in a file or an upload to a club of the site: the same folded name
(``name_fold_key``: case, accents and the German spellings ignored, as for players' names) in the same country.
A name matched by nothing is a new club, which is created only once the person sending the file has seen it in
the preview and kept it."""

from __future__ import annotations

from django.db.models import Q

from ratings.models import Club, name_fold_key


def club_match(*, name: str, country: str = "") -> Club | None:
    """The club ``name`` stands for, in ``country`` (empty: any country, when only one club has that name)."""
    key = name_fold_key(name)
    if not key:
        return None
    found = list(Club.objects.filter(Q(name_key=key), *([Q(country=country)] if country else []))[:2])
    return found[0] if len(found) == 1 else None
