"""The grade the public sees, and the Dan grades waiting for a grade officer
(ratings/services/grades/promotions.py decides).

The queue's "age" is the waiting time: days since the date of the table that earned the promotion
(``waiting_days``), not since the record was written: a table entered weeks after it was played, or a re-rate,
writes the record late, and the player has waited since he played.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping

from django.db.models import F, Q, QuerySet
from django.utils import timezone

from ratings.db import id_batches, ids_in
from ratings.engine.grades import FIRST_DAN, NO_GRADE, NSR_CONSENT_FROM, public_grade
from ratings.models import OpeningState, Promotion, PromotionStatus
from ratings.models.states import state_from_json

TO_DECIDE = Q(status=PromotionStatus.PENDING) | Q(
    status=PromotionStatus.APPROVED, supported=False, reviewed_at__isnull=True
)
"""What waits for a grade officer: pending promotions and flagged approved grades not decided yet."""


def public_grades(
    computed: Mapping[int, int], *, owners: Mapping[tuple[str, int], int] | None = None
) -> dict[int, int]:
    """The grade each player shows, given the engine's ``computed`` grade of each.

    A Kyu grade shows at once; a Dan grade only once approved (or brought from the FESA list the player was
    migrated from, his opening state). So a player computed at 2 Dan with 1 Dan approved and 2 Dan pending
    shows 1 Dan, and with 1 Dan rejected, 1 Kyu. An approved grade shows even when a correction left the
    computed grade below it: it is flagged, and only the grade officer takes it away (``promotion_revoke``).
    ``owners``: records that change hands in a previewed merge, ("promotion" or "opening", id) -> player.
    """
    held: dict[int, int] = {}
    moved = owners or {}
    for batch in id_batches(list(computed), as_array=True):
        promotions = Q(player_id__in=ids_in(batch)) | Q(pk__in=[pk for kind, pk in moved if kind == "promotion"])
        openings = Q(player_id__in=ids_in(batch)) | Q(pk__in=[pk for kind, pk in moved if kind == "opening"])
        found = [
            (moved.get(("promotion", pk), pid), grade)
            for pk, pid, grade in Promotion.objects.filter(
                promotions, status=PromotionStatus.APPROVED, grade__gte=FIRST_DAN
            )
            .order_by()  # not the model's order by table date: a join for nothing
            .values_list("pk", "player_id", "grade")
        ] + [
            (moved.get(("opening", pk), pid), state_from_json(state).grade)
            for pk, pid, state in OpeningState.objects.filter(openings).values_list("pk", "player_id", "state")
        ]
        members = set(batch)
        for pid, grade in found:
            if pid in members:
                held[pid] = max(held.get(pid, 0), grade)
    return {pid: public_grade(grade, held.get(pid, NO_GRADE)) for pid, grade in computed.items()}


def waiting_since(promotion: Promotion) -> dt.date:
    """The date the promotion was earned: its table's date; the day it was found if its table was deleted."""
    if promotion.table_id is not None and promotion.table is not None:
        return promotion.table.date
    return timezone.localtime(promotion.created_at).date()


def waiting_days(promotion: Promotion, *, today: dt.date | None = None) -> int:
    """How long the promotion has waited: whole days since the table that earned it (``waiting_since``)."""
    today = today or timezone.localdate()
    return (today - waiting_since(promotion)).days


def waiting_between(low: int, high: int | None, *, today: dt.date | None = None) -> Q:
    """Promotions that have waited at least ``low`` and less than ``high`` whole days (no ``high``: any longer).

    The same measure as ``waiting_days``, as a query condition for the grade officers' queue.
    """
    today = today or timezone.localdate()
    by_table = Q(table__isnull=False, table__date__lte=today - dt.timedelta(days=low))
    by_record = Q(table__isnull=True, created_at__date__lte=today - dt.timedelta(days=low))
    if high is not None:
        by_table &= Q(table__date__gt=today - dt.timedelta(days=high))
        by_record &= Q(created_at__date__gt=today - dt.timedelta(days=high))
    return by_table | by_record


def promotions_to_decide() -> dict[str, QuerySet[Promotion]]:
    """What waits for a grade officer (``TO_DECIDE``), in three parts, the longest waiting first:

    * ``decision``: Dan promotions below 5 Dan, pending;
    * ``consent``: 5 and 6 Dan promotions, pending: approved only with the NSR's consent (which the site
      records with the approval), so they wait for it;
    * ``flagged``: approved grades a correction left unsupported, kept or taken away by a grade officer.
    """
    waiting = (
        Promotion.objects.select_related("player", "table__tournament")
        .filter(TO_DECIDE)
        .order_by(F("table__date").asc(nulls_last=True), "created_at", "pk")
    )
    pending = waiting.filter(status=PromotionStatus.PENDING)
    return {
        "decision": pending.filter(grade__lt=NSR_CONSENT_FROM),
        "consent": pending.filter(grade__gte=NSR_CONSENT_FROM),
        "flagged": waiting.filter(status=PromotionStatus.APPROVED),
    }
