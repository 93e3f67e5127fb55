"""The players' derived columns (category, public grade, peak ...) as their engine states give them.

``players_refresh`` (ratings/services/players.py) writes these columns; the re-rate check and a re-rate's
final pass read here which players' stored columns differ from them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ratings import engine
from ratings.db import id_batches, ids_in
from ratings.engine import categories
from ratings.models import Category, Player
from ratings.selectors.grades import public_grades


def category_of(state: engine.PlayerState) -> str:
    return Category(categories.category_of(state))


PLAYER_COLUMNS = ("rating", "games", "category", "fesa_grade", "grade", "peak_rating", "last_played")


def players_differing(
    states: Mapping[int, engine.PlayerState], peaks: Mapping[int, int]
) -> dict[int, tuple[str, Any, Any]]:
    """The players whose derived columns are not what their latest ``states`` and peak ratings give.

    The columns as ``players_refresh`` derives them (from the same ``category_of`` and ``public_grades``);
    ``peaks`` holds each player's highest rating after a table (missing: none). Returns, per player, the
    first column that differs: (name, stored, expected).
    """
    out: dict[int, tuple[str, Any, Any]] = {}
    for chunk in id_batches(sorted(states)):
        grades = public_grades({pid: states[pid].grade for pid in chunk})
        for pid, *have in Player.objects.filter(pk__in=ids_in(chunk)).order_by().values_list("pk", *PLAYER_COLUMNS):
            s = states[pid]
            want = (s.rating, s.games, category_of(s), s.grade, grades[pid], max(peaks.get(pid, 0), s.rating))
            for name, h, w in zip(PLAYER_COLUMNS, have, (*want, s.last_played), strict=True):
                if h != w:
                    out[pid] = (name, h, w)
                    break
    return out
