"""Revising a grade decision: a grade officer changes an approved Dan grade to revoked, or a rejected one to approved.

A decision is not final: new facts (a complaint upheld, a consent that arrived late) may change it. Each
revision needs a reason and is recorded twice: a ``PromotionRevision`` row (who, when, before -> after, why)
for the staff, and the promotion's audit history. It is a compare-and-set update like every decision
(ratings/services/grades/promotions.py), so a revision that crosses another decision or a re-rate gets
``PromotionConflict``; the player's public grade follows at once.

* approved -> revoked: the decision on the grade goes to ``reviewed_*`` (as for a flagged grade the officer
  takes away), the approval's who/when/why stay. Not while a higher Dan grade of the player is approved: the
  public would go on seeing that one, so it is revised first. If a later re-rate redoes the table and the
  history still reaches the grade, a new pending promotion appears, as after any revocation.
* rejected -> approved: the rules of an approval apply (5 and 6 Dan only with the NSR's consent and its date,
  a lower pending Dan grade decided first), and only while the history still supports the grade. The
  rejection's who/when/why stay in the revision and the audit history.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from ratings import engine
from ratings.engine.grades import FIRST_DAN
from ratings.models import Promotion, PromotionRevision, PromotionStatus
from ratings.services.grades.fingerprints import promotion_lock_check
from ratings.services.grades.promotions import (
    PromotionInvalid,
    check_no_lower_pending,
    check_nsr_consent,
    compare_and_set,
    require_officer,
    required_reason,
)
from ratings.services.season.subscriptions import promotion_subscribers_notify

REVISIONS: dict[str, str] = {
    PromotionStatus.APPROVED: PromotionStatus.REVOKED,
    PromotionStatus.REJECTED: PromotionStatus.APPROVED,
}
"""The decisions a grade officer may change, and what each becomes."""


def promotion_revisable(promotion: Promotion) -> bool:
    """Whether the promotion's state allows a revision (the service checks again, atomically)."""
    if promotion.grade < FIRST_DAN or promotion.status not in REVISIONS:
        return False
    return promotion.status == PromotionStatus.APPROVED or promotion.supported


def promotion_revise(
    *,
    promotion: Promotion,
    user: Any,
    reason: str,
    nsr_consent: bool = False,
    nsr_consent_date: dt.date | None = None,
    nsr_reference: str = "",
    expected: str | None,
) -> Promotion:
    """Change the decision on a Dan promotion: approved -> revoked or rejected -> approved (see the module doc).

    The NSR fields are for approving 5 and 6 Dan and refused otherwise.
    Raises PermissionDenied, PromotionInvalid (no reason, no consent, wrong order, nothing to revise),
    PromotionConflict (the promotion changed since it was read), ChangedMeanwhile (not the record of
    ``expected``, the version its page showed).
    """
    require_officer(user)
    reason = required_reason(reason)
    before = promotion.status
    if promotion.grade < FIRST_DAN or before not in REVISIONS:
        raise PromotionInvalid(_("Only an approved or a rejected Dan grade can be revised."))
    after = REVISIONS[before]
    now = timezone.now()
    with transaction.atomic():
        promotion_lock_check(promotion, expected)
        if after == PromotionStatus.REVOKED:
            if nsr_consent or nsr_consent_date is not None or nsr_reference:
                raise PromotionInvalid(_("The NSR's consent is recorded only when approving."))
            _check_no_higher_approved(promotion)
            condition = Q(status=before)
            values: dict[str, Any] = {"reviewed_by": user, "reviewed_at": now, "review_reason": reason}
        else:
            if not promotion.supported:
                raise PromotionInvalid(_("The corrected history no longer reaches this grade: nothing to approve."))
            check_nsr_consent(
                promotion, nsr_consent=nsr_consent, nsr_consent_date=nsr_consent_date, reference=nsr_reference
            )
            check_no_lower_pending(promotion)
            condition = Q(status=before, supported=True)
            values = {
                "nsr_consent": nsr_consent,
                "nsr_consent_date": nsr_consent_date,
                "nsr_reference": nsr_reference.strip(),
                "decided_by": user,
                "decided_at": now,
                "decision_reason": reason,
            }
        compare_and_set(
            promotion, condition, {"status": after, **values}, user=user, label=f"revised: {before} -> {after}"
        )
        PromotionRevision.objects.create(
            promotion=promotion,
            status_before=before,
            status_after=after,
            reason=reason,
            revised_by=user,
            revised_at=now,
        )
        if after == PromotionStatus.APPROVED:  # a rejected grade awarded after all
            promotion_subscribers_notify(promotion=promotion)
    return promotion


def _check_no_higher_approved(promotion: Promotion) -> None:
    higher = (
        Promotion.objects.filter(
            player_id=promotion.player_id, status=PromotionStatus.APPROVED, grade__gt=promotion.grade
        )
        .order_by("-grade")
        .first()
    )
    if higher is not None:
        raise PromotionInvalid(
            _("%(grade)s is approved too and would still show: revise it first.")
            % {"grade": engine.grade_label(higher.grade)}
        )
