"""Players: the derived columns the lists show, and prior grades (which re-rate what follows)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import F, Max, Window
from django.db.models.functions import RowNumber

from ratings import engine
from ratings.models import Category, OpeningState, Player, RatingRow
from ratings.selectors.states import prior_grade_of, starting_states
from ratings.states import state_from_json

ESTABLISHED_FROM = 18  # game number from which the established test applies (RULES.md §7)


def category_of(state: engine.PlayerState) -> str:
    if state.result_list is not None:
        return Category.UNRATED
    return Category.ESTABLISHED if state.game_count >= ESTABLISHED_FROM else Category.PROVISIONAL


def players_refresh(player_ids: Iterable[int]) -> None:
    """Recompute the players' derived columns (rating, games, category, grades, peak, last played).

    Reads each player's latest rating row, or his starting state if he has none.
    """
    from ratings.services.grades import public_grades  # grades builds on this module

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
    players = list(Player.objects.filter(pk__in=ids))
    for p in players:
        s = states[p.pk]
        p.rating = s.rating
        p.games = s.games
        p.category = category_of(s)
        p.fesa_grade = s.grade
        p.grade = grades[p.pk]
        p.peak_rating = max(peaks.get(p.pk) or 0, s.rating)
        p.last_played = s.last_played
    Player.objects.bulk_update(
        players,
        ["rating", "games", "category", "fesa_grade", "grade", "peak_rating", "last_played"],
        batch_size=1000,
    )


def player_set_prior_grade(
    *,
    player: Player,
    kind: str,
    level: int | None,
    source: str,
    note: str = "",
    date: dt.date | None = None,
    user: Any = None,
) -> bool:
    """Set, correct or clear (``kind=""``) a player's prior grade and its source; save the player.

    A prior grade decides a newcomer's first rating (RULES.md §6), so when the grade differs from the one his
    first rated table used, the history is re-rated from that table (on commit, through the pending mark).
    The comparison is with what the engine used, not with the row before this call, so it does not matter
    whether the caller (an admin form, say) saved the new values already. A player migrated from a FESA list
    starts from his opening state, which holds his prior grade as the list had it: for him the grade is
    recorded only. Returns True when a re-rate was requested.

    ``user``, when given, must be allowed to change players (rating officers); directors and grade officers
    are refused with PermissionDenied. ``None`` is for trusted callers (imports, commands).
    Raises ValidationError for a grade that does not exist (11 Dan) or a grade without its source.
    """
    from ratings.services.rerate import rerate_request

    if user is not None and not (user.is_active and user.has_perm("ratings.change_player")):
        raise PermissionDenied("Only rating officers change prior grades.")
    if not kind:
        level, source, note, date = None, "", "", None
    elif not source:
        raise ValidationError({"prior_grade_source": "Say where the prior grade comes from."})
    with transaction.atomic():
        player.prior_grade_kind = kind
        player.prior_grade_level = level
        player.prior_grade_source = source
        player.prior_grade_note = note
        player.prior_grade_date = date
        own = {"prior_grade_kind", "prior_grade_level", "prior_grade_source", "prior_grade_note", "prior_grade_date"}
        # Only the prior-grade fields: an unrelated field of an old record must not block this correction.
        player.clean_fields(exclude=[f.name for f in Player._meta.fields if f.name not in own])
        player.validate_constraints()
        if user is not None:
            player._history_user = user  # type: ignore[attr-defined]
        player.save()
        first = RatingRow.objects.filter(player=player).order_by("date", "sequence").first()
        if first is not None and not OpeningState.objects.filter(player=player).exists():
            used = state_from_json(first.state_before).prior_grade
            if used != prior_grade_of(player):
                rerate_request(date=first.date, sequence=first.sequence, table_ids=[first.table_id])
                return True
        players_refresh([player.pk])
        return False
