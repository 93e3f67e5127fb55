"""Players: the derived columns the lists show (prior grades, which re-rate, are in prior_grades.py)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.db.models import Max, OuterRef, Subquery

from ratings import engine
from ratings.db import ids_in, rows_update
from ratings.models import VALID_FOREVER, OpeningState, Player, RatingRow
from ratings.models.states import state_from_json
from ratings.selectors.derived import category_of
from ratings.selectors.grades import public_grades
from ratings.selectors.states import starting_states, states_before_json

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
    openings_first_rated(ids)


def openings_first_rated(player_ids: Iterable[int] | None = None) -> None:
    """Set the opening states' ``first_rated`` (of these players; None: of all) to the date of their player's
    first rating row, or None; only those that differ are written."""
    changed = [(pk, first) for pk, _pid, _stored, first in first_rated_differences(player_ids)]
    rows_update(OpeningState, ("first_rated",), changed)


def first_rated_differences(player_ids: Iterable[int] | None = None) -> list[tuple[int, int, Any, Any]]:
    """(opening state, player, stored ``first_rated``, his first row's date) of the opening states (of these
    players; None: of all) whose ``first_rated`` is not that date; each read from the rows' index on (player,
    date)."""
    first = RatingRow.objects.filter(player_id=OuterRef("player_id")).order_by("date").values("date")[:1]
    openings = OpeningState.objects.order_by()
    if player_ids is not None:
        openings = openings.filter(player_id__in=ids_in(sorted(set(player_ids))))
    found = openings.annotate(first=Subquery(first)).values_list("pk", "player_id", "first_rated", "first")
    return [(pk, pid, stored, first) for pk, pid, stored, first in found if stored != first]


def players_write(states: Mapping[int, engine.PlayerState], peaks: Mapping[int, int]) -> None:
    """Write the derived columns of the players of ``states`` from their latest states and their highest
    rating after a table (``peaks``; missing: none), in one set-based UPDATE (``rows_update``, ratings/db.py).

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
