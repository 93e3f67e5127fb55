"""A player's climb through several Dan grades decided at once: the grade officer approves the pending
promotions up to one grade, lowest first, each as ``promotion_approve`` would alone (the NSR's consent given
for 5 and 6 Dan only), in one transaction: all of them or none."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction

from ratings.engine.grades import FIRST_DAN, needs_nsr_consent
from ratings.models import Player, Promotion, PromotionStatus
from ratings.services.grades.fingerprints import promotion_version
from ratings.services.grades.promotions import promotion_approve


def climb_pending(player: Player) -> list[Promotion]:
    """The player's Dan promotions waiting for a decision, lowest grade first, each with its table."""
    return list(
        Promotion.objects.filter(player=player, status=PromotionStatus.PENDING, grade__gte=FIRST_DAN)
        .select_related("table__tournament")
        .order_by("grade")
    )


def climb_versions(promotions: Sequence[Promotion]) -> dict[int, str]:
    """The version of each promotion as the climb's page shows it."""
    return {p.pk: promotion_version(p) for p in promotions}


def promotion_climb_approve(
    *,
    promotions: Sequence[Promotion],
    up_to: int,
    user: Any,
    reason: str = "",
    nsr_consent: bool = False,
    nsr_consent_date: dt.date | None = None,
    nsr_reference: str = "",
    expected: Mapping[int, str] | None,
) -> list[Promotion]:
    """Approve the pending ``promotions`` (one player's) whose grade is ``up_to`` or lower, lowest first; the
    others stay pending. Raises what ``promotion_approve`` raises, and nothing is approved then.

    ``expected``: each promotion's version as the page showed it (``climb_versions``); a promotion missing from it
    is refused as a change without its version. None only where nothing was shown (a command, the demo)."""
    approved = []
    with transaction.atomic():
        for promotion in sorted((p for p in promotions if p.grade <= up_to), key=lambda p: p.grade):
            consent: dict[str, Any] = {}
            if needs_nsr_consent(promotion.grade):
                consent = {
                    "nsr_consent": nsr_consent,
                    "nsr_consent_date": nsr_consent_date,
                    "nsr_reference": nsr_reference,
                }
            approved.append(
                promotion_approve(
                    promotion=promotion,
                    user=user,
                    reason=reason,
                    expected=None if expected is None else expected.get(promotion.pk, ""),
                    **consent,
                )
            )
    return approved
