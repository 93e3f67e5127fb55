"""What ``manage.py fesa_compare`` needs from the site besides its state list: the players the documented
divergences concern (ratings/fesa_files/compare.py)."""

from __future__ import annotations

import datetime as dt

from django.db.models import Exists, OuterRef, Q

from ratings.models import Game, TableEntry, TableStatus


def players_with_only_byes(*, as_of: dt.date | None = None) -> set[tuple[str, str]]:
    """The names (family, given) of the players listed in a rated table (of ``as_of`` or before) without a rated
    game in it: only byes, absences, no-shows or forfeits. They take no part on the site (docs/rules.md §6), where
    the program rates a newcomer among them 1 and dates them all. One query."""
    rated_game = Game.objects.filter(table=OuterRef("table"), played=True, second__isnull=False).filter(
        Q(first=OuterRef("player")) | Q(second=OuterRef("player"))
    )
    entries = TableEntry.objects.filter(table__status=TableStatus.RATED).exclude(Exists(rated_game))
    if as_of is not None:
        entries = entries.filter(table__date__lte=as_of)
    return set(entries.values_list("player__family_name", "player__given_name"))
