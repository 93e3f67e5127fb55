"""Players: the derived columns the lists show, and prior grades (which re-rate what follows)."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.db.models import F, Max, Window
from django.db.models.functions import RowNumber

from ratings import engine
from ratings.models import Category, Player, RatingRow
from ratings.selectors import starting_states

ESTABLISHED_FROM = 18  # game number from which the established test applies (RULES.md §7)


def category_of(state: engine.PlayerState) -> str:
    if state.result_list is not None:
        return Category.UNRATED
    return Category.ESTABLISHED if state.game_count >= ESTABLISHED_FROM else Category.PROVISIONAL


def players_refresh(player_ids: Iterable[int]) -> None:
    """Recompute the players' derived columns (rating, games, category, grades, peak, last played).

    Reads each player's latest rating row, or his starting state if he has none.
    """
    from ratings.services.grades import public_grades
    from ratings.states import state_from_json

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
    *, player: Player, kind: str, level: int | None, source: str, note: str = "", date: object = None
) -> None:
    """Set or correct a player's prior grade; it decides his first rating, so re-rate from his first table."""
    from ratings.services.rerate import rerate_request

    with transaction.atomic():
        player.prior_grade_kind = kind
        player.prior_grade_level = level
        player.prior_grade_source = source
        player.prior_grade_note = note
        player.prior_grade_date = date  # type: ignore[assignment]
        player.full_clean()
        player.save()
        first = RatingRow.objects.filter(player=player).order_by("date", "sequence").first()
        if first is not None and not hasattr(player, "opening_state"):
            rerate_request(date=first.date, sequence=first.sequence, table_ids=[first.table_id])
        else:
            players_refresh([player.pk])
