"""Players' states at a point of the history: before a table position, or before the first table."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from django.db.models import F, Q, Window
from django.db.models.functions import RowNumber

from ratings import engine
from ratings.models import OpeningState, Player, RatingRow
from ratings.models.states import state_from_json


def prior_grade_of(player: Player) -> engine.PriorGrade | None:
    if not player.prior_grade_kind or player.prior_grade_level is None:
        return None
    return engine.PriorGrade(kind=player.prior_grade_kind, level=player.prior_grade_level)  # type: ignore[arg-type]


def starting_states(player_ids: Iterable[int]) -> dict[int, engine.PlayerState]:
    """Each player's state before the first table the site holds: his opening state, or a new player's.

    A new player carries his current prior grade, which decides his first rating (docs/rules.md §6).
    """
    ids = set(player_ids)
    out: dict[int, engine.PlayerState] = {}
    for opening in OpeningState.objects.filter(player_id__in=ids).select_related("player"):
        state = state_from_json(opening.state)
        if state.games == 0:
            # A migrated player who never played: his prior grade is still to be used, so the one on his
            # record (which a rating officer may have corrected since) is the one that counts.
            state = state._replace(prior_grade=prior_grade_of(opening.player))
        out[opening.player_id] = state
    missing = ids - out.keys()
    if missing:
        for player in Player.objects.filter(pk__in=missing).only("id", "prior_grade_kind", "prior_grade_level"):
            out[player.pk] = engine.PlayerState(prior_grade=prior_grade_of(player))
    return out


def before_position(date: dt.date, sequence: int) -> Q:
    """Rating rows of tables that come before the position (date, sequence)."""
    return Q(date__lt=date) | Q(date=date, sequence__lt=sequence)


def states_before(*, date: dt.date, sequence: int, player_ids: Iterable[int]) -> dict[int, engine.PlayerState]:
    """Each player's state as it stood before the table position (date, sequence)."""
    ids = list(set(player_ids))
    latest = (
        RatingRow.objects.filter(before_position(date, sequence), player_id__in=ids)
        .annotate(
            rank=Window(
                RowNumber(),
                partition_by=[F("player_id")],
                order_by=[F("date").desc(), F("sequence").desc()],
            )
        )
        .filter(rank=1)
        .values_list("player_id", "state_after")
    )
    out = {pid: state_from_json(state) for pid, state in latest}
    missing = [pid for pid in ids if pid not in out]
    if missing:
        out.update(starting_states(missing))
    return out
