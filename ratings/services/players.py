"""Players: the derived columns the lists show (prior grades, which re-rate, are in prior_grades.py)."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import F, Max, Window
from django.db.models.functions import RowNumber

from ratings.models import OpeningState, Player, RatingRow
from ratings.models.states import state_from_json
from ratings.selectors.derived import category_of
from ratings.selectors.grades import public_grades
from ratings.selectors.states import starting_states


def players_refresh(player_ids: Iterable[int]) -> None:
    """Recompute the players' derived columns (rating, games, category, grades, peak, last played,
    place among equal ratings).

    Reads each player's latest rating row, or his starting state if he has none.
    """
    ids = list(set(player_ids))
    if not ids:
        return
    latest = dict(
        RatingRow.objects.filter(player_id__in=ids)
        .annotate(
            rank=Window(RowNumber(), partition_by=[F("player_id")], order_by=[F("date").desc(), F("sequence").desc()])
        )
        .filter(rank=1)
        .values_list("player_id", "state_after")
    )
    peaks = dict(
        RatingRow.objects.filter(player_id__in=ids)
        .values("player_id")
        .annotate(peak=Max("rating_after"))
        .values_list("player_id", "peak")
    )
    states = {pid: state_from_json(s) for pid, s in latest.items()}
    states.update(starting_states([pid for pid in ids if pid not in states]))
    grades = public_grades({pid: s.grade for pid, s in states.items()})
    orders = dict(OpeningState.objects.filter(player_id__in=ids).values_list("player_id", "state__fesa__order"))
    players = list(Player.objects.filter(pk__in=ids))
    for p in players:
        s = states[p.pk]
        p.rating = s.rating
        p.games = s.games
        p.category = category_of(s)
        p.fesa_grade = s.grade
        p.grade = grades[p.pk]
        # Never below 0, as the re-rate and its check keep it: a player whose ratings were all negative.
        p.peak_rating = max(peaks.get(p.pk) or 0, s.rating, 0)
        p.last_played = s.last_played
        order = orders.get(p.pk)
        p.list_order = order + 1 if isinstance(order, int) else 0  # the state list's order (models.Player)
    Player.objects.bulk_update(
        players,
        ["rating", "games", "category", "fesa_grade", "grade", "peak_rating", "last_played", "list_order"],
        batch_size=1000,
    )
