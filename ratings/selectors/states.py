"""Players' states at a point of the history: before a table position, or before the first table."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from django.db.models import F, Q, Window
from django.db.models.functions import RowNumber

from ratings import engine
from ratings.models import OpeningState, Player, RatingRow
from ratings.states import state_from_json


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
    ids = set(player_ids)
    out = {pid: state_from_json(state) for pid, state in states_before_json(date, sequence, ids).items()}
    missing = ids - out.keys()
    if missing:
        out.update(starting_states(missing))
    return out


def states_before_json(date: dt.date, sequence: int, player_ids: Iterable[int]) -> dict[int, dict[str, Any]]:
    """The state after (as stored JSON) of each player's latest rating row before the position (date,
    sequence); a player with no such row is left out (his state is his starting state).

    The row a player's state before the position comes from is valid on the position's date: its
    ``valid_until``, the date of his next row, is on or after it (ratings/services/rerate/validity.py). So it
    is found by one short range of the validity index per player, instead of a sort of every row he has before
    the position; a correction one year back asks this for the thousands of players of the later tables. A
    player found that way is not looked for again; the others (most of them have no row before the position at
    all) by their latest row, which also covers a row whose next row was deleted and not re-rated yet.
    """
    ids = list(set(player_ids))
    out: dict[int, dict[str, Any]] = {}
    at: dict[int, tuple[dt.date, int]] = {}
    valid = RatingRow.objects.filter(before_position(date, sequence), player_id__in=ids, valid_until__gte=date)
    for pid, row_date, row_sequence, state in valid.values_list("player_id", "date", "sequence", "state_after"):
        if pid not in at or (row_date, row_sequence) > at[pid]:
            at[pid], out[pid] = (row_date, row_sequence), state
    missing = [pid for pid in ids if pid not in out]
    if missing:
        latest = (
            RatingRow.objects.filter(before_position(date, sequence), player_id__in=missing)
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
        out.update(latest)
    return out
