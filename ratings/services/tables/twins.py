"""A table saved twice: the same results uploaded, submitted or typed again on the same day.

Two tables of one date with the very same games (rounds, players, results, handicaps) are one table saved
twice: rated, it would count each game twice. Every path that saves a table (ratings/services/tables/save.py)
refuses it, and the FESA upload's preview says so before the director confirms
(ratings/services/fesa/turnering.py).
"""

from __future__ import annotations

import datetime as dt
from collections import Counter, defaultdict
from collections.abc import Sequence

from django.utils.translation import gettext as _

from ratings.models import Game, Table

from .submit import GameFacts


def twin_tables(*, date: dt.date, games: Sequence[GameFacts], exclude_table: int | None = None) -> list[Table]:
    """The tables of ``date`` (but ``exclude_table``) whose games are exactly ``games``; none for no game."""
    if not games:
        return []
    wanted = Counter(games)
    found: dict[int, Counter[GameFacts]] = defaultdict(Counter)
    others = Game.objects.filter(table__date=date).exclude(table_id=exclude_table or 0).order_by()
    for game in others:
        found[game.table_id][GameFacts.of(game)] += 1
    same = [pk for pk, facts in found.items() if facts == wanted]
    return list(Table.objects.filter(pk__in=same).select_related("tournament").order_by("sequence"))


def twin_problems(*, date: dt.date, games: Sequence[GameFacts], exclude_table: int | None = None) -> list[str]:
    """One problem for each table of ``date`` that already holds these games, naming it and its state."""
    return [
        _(
            "These games are already saved as table %(id)s, %(table)s (%(status)s): saved again, every result would "
            "count twice. Correct that table instead, or delete it first."
        )
        % {"id": table.pk, "table": table.label, "status": table.get_status_display()}
        for table in twin_tables(date=date, games=games, exclude_table=exclude_table)
    ]
