"""A player's prior grade: set, corrected or cleared; it decides a newcomer's first rating, so a change re-rates."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from ratings.access import can_change_prior_grade
from ratings.models import OpeningState, Player, RatingRow, Table
from ratings.models.states import state_from_json
from ratings.selectors.states import prior_grade_of
from ratings.services.players import players_refresh
from ratings.services.rerate import RATED_STATUSES, rerate_request


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

    A prior grade decides a newcomer's first rating (docs/rules.md §6), so when the grade differs from the one his
    first rated table used, the history is re-rated from that table (on commit, through the pending mark).
    The comparison is with what the engine used, not with the row before this call, so it does not matter
    whether the caller (an admin form, say) saved the new values already. A player migrated from a FESA list
    starts from his opening state, which holds his prior grade as the list had it: for him the grade is
    recorded only. Returns True when a re-rate was requested.

    ``user``, when given, must be allowed to change players (rating officers); directors and grade officers
    are refused with PermissionDenied. ``None`` is for trusted callers (imports, commands).
    Raises ValidationError for a grade that does not exist (11 Dan) or a grade without its source.
    """
    if user is not None and not can_change_prior_grade(user):
        raise PermissionDenied(_("Only rating officers change prior grades."))
    if not kind:
        level, source, note, date = None, "", "", None
    elif not source:
        raise ValidationError({"prior_grade_source": _("Say where the prior grade comes from.")})
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
        start = None if OpeningState.objects.filter(player=player).exists() else _rerate_start(player)
        if start is not None:
            rerate_request(date=start.date, sequence=start.sequence, table_ids=[start.pk])
        players_refresh([player.pk])  # what the re-rate does not reach: he may have no rated game at all
        return start is not None


def _rerate_start(player: Player) -> Table | None:
    """The table the history is re-rated from after the player's prior grade changed, or None if none need be:
    his first rated table, when its row used another grade; his first submitted or rated table with a played
    game of his, when it has no row of his (it could not be rated, a runaway rating for one: with another
    starting rating it may be)."""
    first = RatingRow.objects.filter(player=player).select_related("table").order_by("date", "sequence").first()
    played = Q(games__first=player) | Q(games__second=player)
    entered = (
        Table.objects.filter(status__in=RATED_STATUSES)
        .filter(played, games__played=True, games__second__isnull=False)  # one game: the engine rates it
        .order_by("date", "sequence")
        .first()
    )
    if entered is not None and (first is None or (entered.date, entered.sequence) < (first.date, first.sequence)):
        return entered
    if first is not None and state_from_json(first.state_before).prior_grade != prior_grade_of(player):
        return first.table
    return None
