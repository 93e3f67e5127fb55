"""The grade the public sees, and the Dan grades waiting for a grade officer (ratings/services/grades.py decides).

The queue's "age" is the waiting time: days since the record was created, i.e. since the engine first found
the promotion (``waiting_days``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping

from django.utils import timezone

from ratings.engine.grades import NO_GRADE, public_grade
from ratings.models import FIRST_DAN, OpeningState, Promotion, PromotionStatus
from ratings.states import state_from_json

_ID_BATCH = 500  # player ids per IN (...) query: far below every database's parameter limit


def public_grades(computed: Mapping[int, int]) -> dict[int, int]:
    """The grade each player shows, given the engine's ``computed`` grade of each.

    A Kyu grade shows at once; a Dan grade only once approved (or brought from the FESA list the player was
    migrated from, his opening state). So a player computed at 2 Dan with 1 Dan approved and 2 Dan pending
    shows 1 Dan, and with 1 Dan rejected, 1 Kyu. An approved grade shows even when a correction left the
    computed grade below it: it is flagged, and only the grade officer takes it away (``promotion_revoke``).
    """
    held: dict[int, int] = {}
    ids = list(computed)
    for start in range(0, len(ids), _ID_BATCH):
        batch = ids[start : start + _ID_BATCH]
        for pid, grade in Promotion.objects.filter(
            player_id__in=batch, status=PromotionStatus.APPROVED, grade__gte=FIRST_DAN
        ).values_list("player_id", "grade"):
            held[pid] = max(held.get(pid, 0), grade)
        for pid, state in OpeningState.objects.filter(player_id__in=batch).values_list("player_id", "state"):
            held[pid] = max(held.get(pid, 0), state_from_json(state).grade)
    return {pid: public_grade(grade, held.get(pid, NO_GRADE)) for pid, grade in computed.items()}


def waiting_days(promotion: Promotion, *, today: dt.date | None = None) -> int:
    """How long the promotion has waited: whole days since the engine first found it."""
    today = today or timezone.localdate()
    return (today - timezone.localtime(promotion.created_at).date()).days


def players_with_pending(player_ids: Iterable[int]) -> dict[int, int]:
    """For the public pages: each player's lowest Dan grade waiting for approval ("pending"), if any."""
    out: dict[int, int] = {}
    for pid, grade in (
        Promotion.objects.filter(player_id__in=set(player_ids), status=PromotionStatus.PENDING)
        .order_by("grade")
        .values_list("player_id", "grade")
    ):
        out.setdefault(pid, grade)
    return out
