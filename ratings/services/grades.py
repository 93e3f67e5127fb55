"""Grades: the engine's promotions as records, and the grade the public sees.

Kyu promotions take effect at once; Dan promotions wait for a grade officer (5 and 6 Dan also for the NSR's
consent). Re-rating calls ``promotions_sync`` with what the engine found in the tables it redid.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ratings import engine
from ratings.models import FIRST_DAN, OpeningState, Promotion, PromotionStatus
from ratings.states import state_from_json

ACTIVE = [PromotionStatus.EFFECTIVE, PromotionStatus.PENDING, PromotionStatus.APPROVED]


def promotions_sync(*, tables: Sequence[int], found: Sequence[tuple[int, int, engine.Promotion]]) -> None:
    """Make the promotion records of the redone ``tables`` match what the engine ``found`` in them.

    A promotion is matched by (player, grade) across the whole history, so a correction that moves it to
    another table keeps its decision. One no longer found: pending or effective -> withdrawn; approved ->
    kept, but flagged as no longer supported for the grade officer to decide.
    """
    found_keys = {(pid, p.grade) for pid, _t, p in found}
    players = {pid for pid, _t, _p in found} | set(
        Promotion.objects.filter(table_id__in=tables).values_list("player_id", flat=True)
    )
    existing: dict[tuple[int, int], Promotion] = {}
    for record in Promotion.objects.filter(player_id__in=players).exclude(status=PromotionStatus.WITHDRAWN):
        existing.setdefault((record.player_id, record.grade), record)
    for pid, table_id, p in found:
        record = existing.get((pid, p.grade))
        if record is None:
            Promotion.objects.create(
                player_id=pid,
                grade=p.grade,
                table_id=table_id,
                round=p.round,
                game_number=p.game_number,
                route=p.route,
                rating=p.rating,
                status=PromotionStatus.EFFECTIVE if p.grade < FIRST_DAN else PromotionStatus.PENDING,
            )
            continue
        record.table_id, record.round, record.game_number = table_id, p.round, p.game_number
        record.route, record.rating, record.supported, record.flag_reason = p.route, p.rating, True, ""
        record.save()
    for (pid, grade), record in existing.items():
        if (pid, grade) in found_keys or record.table_id not in tables:
            continue
        reason = "the corrected history no longer reaches this grade"
        if record.status == PromotionStatus.APPROVED:
            record.supported, record.flag_reason = False, reason
        elif record.status in (PromotionStatus.PENDING, PromotionStatus.EFFECTIVE):
            record.status, record.supported, record.flag_reason = PromotionStatus.WITHDRAWN, False, reason
        else:
            continue
        record.save()


def public_grades(computed: Mapping[int, int]) -> dict[int, int]:
    """The grade each player shows: his computed Kyu grade, or the highest Dan grade he holds by approval
    (or brought from the FESA list he was migrated from)."""
    out: dict[int, int] = {}
    approved: dict[int, int] = {}
    for pid, grade in Promotion.objects.filter(
        player_id__in=computed.keys(), status=PromotionStatus.APPROVED, grade__gte=FIRST_DAN
    ).values_list("player_id", "grade"):
        approved[pid] = max(approved.get(pid, 0), grade)
    for opening in OpeningState.objects.filter(player_id__in=computed.keys()):
        grade = state_from_json(opening.state).grade
        approved[opening.player_id] = max(approved.get(opening.player_id, 0), grade)
    for pid, grade in computed.items():
        shown = min(grade, FIRST_DAN - 1)
        out[pid] = max(shown, min(approved.get(pid, 0), grade) if grade >= FIRST_DAN else shown)
    return out
