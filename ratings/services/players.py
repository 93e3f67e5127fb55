"""Players: the derived columns the lists show (prior grades, which re-rate, are in prior_grades.py)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from django.db.models import Max

from ratings import engine
from ratings.models import VALID_FOREVER, OpeningState, Player, RatingRow
from ratings.models.states import state_from_json
from ratings.selectors.derived import category_of
from ratings.selectors.grades import public_grades
from ratings.selectors.states import ids_in, starting_states, states_before_json
from ratings.services.bulk_write import rows_update

COLUMNS = ("rating", "games", "category", "fesa_grade", "grade", "peak_rating", "last_played", "list_order")


def players_refresh(player_ids: Iterable[int]) -> None:
    """Recompute the players' derived columns (rating, games, category, grades, peak, last played,
    place among equal ratings).

    Reads each player's latest rating row, or his starting state if he has none, and his peak; then
    ``players_write``.
    """
    ids = list(set(player_ids))
    if not ids:
        return
    # A player's latest row is the one valid until further notice (the re-rate keeps ``valid_until``).
    latest = states_before_json(VALID_FOREVER, 1, ids)
    peaks = dict(
        RatingRow.objects.filter(player_id__in=ids_in(ids))
        .values("player_id")
        .annotate(peak=Max("rating_after"))
        .values_list("player_id", "peak")
    )
    states = {pid: state_from_json(s) for pid, s in latest.items()}
    states.update(starting_states([pid for pid in ids if pid not in states]))
    players_write(states, peaks)


def players_write(states: Mapping[int, engine.PlayerState], peaks: Mapping[int, int]) -> None:
    """Write the derived columns of the players of ``states`` from their latest states and their highest
    rating after a table (``peaks``; missing: none), in one set-based UPDATE (ratings/services/bulk_write.py).

    For a caller that has both at hand already (a re-rate: its replay's final states); ``players_refresh``
    reads them first.
    """
    ids = list(states)
    grades = public_grades({pid: s.grade for pid, s in states.items()})
    orders = dict(OpeningState.objects.filter(player_id__in=ids_in(ids)).values_list("player_id", "state__fesa__order"))
    rows = []
    for pid in Player.objects.filter(pk__in=ids_in(ids)).values_list("pk", flat=True):
        s = states[pid]
        order = orders.get(pid)
        rows.append(
            (
                pid,
                s.rating,
                s.games,
                category_of(s),
                s.grade,
                grades[pid],
                # Never below 0, as the re-rate and its check keep it: a player whose ratings were all negative.
                max(peaks.get(pid) or 0, s.rating, 0),
                s.last_played,
                order + 1 if isinstance(order, int) else 0,  # the state list's order (models.Player)
            )
        )
    rows_update(Player, COLUMNS, rows)
