"""The grade officers' decisions: who may make them, what each requires, and that each lands exactly once."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction

from ratings.models import Promotion, PromotionStatus
from ratings.services.grades.promotions import (
    PromotionConflict,
    PromotionInvalid,
    promotion_approve,
    promotion_reject,
)
from tests.factories import make_director, make_grade_officer, make_rating_officer, make_user
from tests.grades.conftest import DAY, DRAW, opponent, pending_grade, seasoned

pytestmark = pytest.mark.django_db
CONSENT = dt.date(2024, 6, 1)


@pytest.fixture
def two_dans(play) -> tuple[Promotion, Promotion]:
    """Pending 1 Dan and 2 Dan from one provisional game at 2100 (see test_routes)."""
    player = seasoned(2100, 20, games=10)
    play(player, opponent(2100), DRAW, date=DAY)
    return Promotion.objects.get(player=player, grade=21), Promotion.objects.get(player=player, grade=22)


def public_grade(promotion: Promotion) -> int:
    promotion.player.refresh_from_db()
    return promotion.player.grade


@pytest.mark.slow
def test_approve_by_grade_officer_shows_the_grade_and_records_who_and_when(one_dan) -> None:
    officer = make_grade_officer()
    promotion_approve(promotion=one_dan, user=officer, reason="strong results", expected=None)
    one_dan.refresh_from_db()
    assert one_dan.status == PromotionStatus.APPROVED
    assert (one_dan.decided_by, one_dan.decision_reason) == (officer, "strong results")
    assert one_dan.decided_at is not None
    assert public_grade(one_dan) == 21
    assert pending_grade(one_dan.player_id) is None


@pytest.mark.slow
def test_approve_writes_the_audit_history_with_the_officer(one_dan) -> None:
    officer = make_grade_officer()
    promotion_approve(promotion=one_dan, user=officer, expected=None)
    latest = one_dan.history.first()
    assert (latest.status, latest.history_user, latest.history_type) == ("approved", officer, "~")


@pytest.mark.slow
def test_reject_keeps_the_previous_grade_and_records_the_reason(one_dan) -> None:
    officer = make_grade_officer()
    promotion_reject(promotion=one_dan, user=officer, reason="results against weak opposition only", expected=None)
    one_dan.refresh_from_db()
    assert (one_dan.status, one_dan.decided_by) == (PromotionStatus.REJECTED, officer)
    assert one_dan.decision_reason == "results against weak opposition only"
    assert public_grade(one_dan) == 20  # 1 Kyu, as before
    assert one_dan.player.fesa_grade == 21  # the engine goes on with its own grade (docs/rules.md §8)


def test_reject_without_a_reason_is_refused(one_dan) -> None:
    with pytest.raises(PromotionInvalid):
        promotion_reject(promotion=one_dan, user=make_grade_officer(), reason="  ", expected=None)
    one_dan.refresh_from_db()
    assert one_dan.status == PromotionStatus.PENDING


@pytest.mark.parametrize("maker", [make_director, make_rating_officer, make_user], ids=["director", "rating", "none"])
def test_decide_by_anyone_but_a_grade_officer_is_refused(one_dan, maker) -> None:
    user = maker()
    with pytest.raises(PermissionDenied):
        promotion_approve(promotion=one_dan, user=user, expected=None)
    with pytest.raises(PermissionDenied):
        promotion_reject(promotion=one_dan, user=user, reason="no", expected=None)
    one_dan.refresh_from_db()
    assert one_dan.status == PromotionStatus.PENDING


def test_decide_by_superuser_is_allowed(one_dan) -> None:
    promotion_approve(promotion=one_dan, user=make_user(superuser=True), expected=None)
    one_dan.refresh_from_db()
    assert one_dan.status == PromotionStatus.APPROVED


def test_decide_by_inactive_grade_officer_is_refused(one_dan) -> None:
    officer = make_grade_officer()
    officer.is_active = False
    officer.save()
    with pytest.raises(PermissionDenied):
        promotion_approve(promotion=one_dan, user=officer, expected=None)


def test_approve_five_dan_without_nsr_consent_is_refused(five_dan) -> None:
    officer = make_grade_officer()
    with pytest.raises(PromotionInvalid):
        promotion_approve(promotion=five_dan, user=officer, expected=None)
    with pytest.raises(PromotionInvalid):  # consent without its date is not a record of it
        promotion_approve(promotion=five_dan, user=officer, nsr_consent=True, expected=None)
    five_dan.refresh_from_db()
    assert five_dan.status == PromotionStatus.PENDING
    assert public_grade(five_dan) == 24


def test_approve_five_dan_with_a_consent_dated_after_today_is_refused(five_dan) -> None:
    tomorrow = dt.date.today() + dt.timedelta(days=2)  # after today in any time zone of the site's
    with pytest.raises(PromotionInvalid, match="cannot be dated in the future"):
        promotion_approve(
            promotion=five_dan, user=make_grade_officer(), nsr_consent=True, nsr_consent_date=tomorrow, expected=None
        )
    five_dan.refresh_from_db()
    assert five_dan.status == PromotionStatus.PENDING


def test_approve_five_dan_with_nsr_consent_records_it(five_dan) -> None:
    promotion_approve(
        promotion=five_dan,
        user=make_grade_officer(),
        nsr_consent=True,
        nsr_consent_date=CONSENT,
        nsr_reference="NSR 2024/17",
        expected=None,
    )
    five_dan.refresh_from_db()
    assert (five_dan.status, five_dan.nsr_consent, five_dan.nsr_consent_date, five_dan.nsr_reference) == (
        PromotionStatus.APPROVED,
        True,
        CONSENT,
        "NSR 2024/17",
    )
    assert public_grade(five_dan) == 25


@pytest.mark.slow
def test_approved_five_dan_without_consent_is_refused_by_the_database(five_dan) -> None:
    # The rule holds even for a write that bypasses the service.
    with pytest.raises(IntegrityError), transaction.atomic():
        Promotion.objects.filter(pk=five_dan.pk).update(status=PromotionStatus.APPROVED)


def test_approve_one_dan_with_nsr_fields_is_refused(one_dan) -> None:
    with pytest.raises(PromotionInvalid):
        promotion_approve(
            promotion=one_dan, user=make_grade_officer(), nsr_consent=True, nsr_consent_date=CONSENT, expected=None
        )


def test_approve_twice_conflicts_and_keeps_the_first_decision(one_dan) -> None:
    first, second = make_grade_officer(), make_grade_officer()
    stale = Promotion.objects.get(pk=one_dan.pk)
    promotion_approve(promotion=one_dan, user=first, expected=None)
    with pytest.raises(PromotionConflict):
        promotion_reject(promotion=stale, user=second, reason="too late", expected=None)
    stale.refresh_from_db()
    assert (stale.status, stale.decided_by) == (PromotionStatus.APPROVED, first)


def test_approve_a_withdrawn_promotion_conflicts(one_dan) -> None:
    # What a re-rate leaves when a correction takes the promotion away, without replaying one here.
    Promotion.objects.filter(pk=one_dan.pk).update(status=PromotionStatus.WITHDRAWN, supported=False)
    with pytest.raises(PromotionConflict):
        promotion_approve(promotion=one_dan, user=make_grade_officer(), expected=None)


def test_approve_higher_dan_while_lower_pending_is_refused(two_dans) -> None:
    one, two = two_dans
    officer = make_grade_officer()
    with pytest.raises(PromotionInvalid):
        promotion_approve(promotion=two, user=officer, expected=None)
    promotion_approve(promotion=one, user=officer, expected=None)
    assert public_grade(one) == 21
    promotion_approve(promotion=two, user=officer, expected=None)
    assert public_grade(two) == 22


def test_reject_lower_then_approve_higher_shows_the_higher(two_dans) -> None:
    one, two = two_dans
    officer = make_grade_officer()
    promotion_reject(promotion=one, user=officer, reason="no", expected=None)
    assert public_grade(one) == 20
    assert pending_grade(one.player_id) == 22
    promotion_approve(promotion=two, user=officer, expected=None)
    assert public_grade(two) == 22
