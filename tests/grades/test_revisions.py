"""Revising a grade decision: approved -> revoked, rejected -> approved, always with a reason, recorded, and only
by a grade officer; the public grade follows."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django.utils import timezone

from ratings.models import Promotion, PromotionRevision, PromotionStatus
from ratings.services.grades.promotions import PromotionConflict, PromotionInvalid, promotion_approve, promotion_reject
from ratings.services.grades.revisions import promotion_revisable, promotion_revise
from tests.factories import make_director, make_grade_officer, make_rating_officer, make_user
from tests.grades.conftest import DAY, DRAW, opponent, seasoned
from tests.grades.test_admin import shown as page_version

pytestmark = pytest.mark.django_db
CONSENT = dt.date(2024, 6, 1)


def shown(promotion: Promotion) -> int:
    promotion.player.refresh_from_db()
    return promotion.player.grade


def test_revise_approved_to_revoked_lowers_the_public_grade_and_records_it(one_dan) -> None:
    approver, reviser = make_grade_officer(), make_grade_officer()
    promotion_approve(promotion=one_dan, user=approver, reason="strong results", expected=None)
    assert shown(one_dan) == 21
    promotion_revise(promotion=one_dan, user=reviser, reason="results annulled by the appeals board", expected=None)
    one_dan.refresh_from_db()
    assert one_dan.status == PromotionStatus.REVOKED
    assert (one_dan.reviewed_by, one_dan.review_reason) == (reviser, "results annulled by the appeals board")
    assert (one_dan.decided_by, one_dan.decision_reason) == (approver, "strong results")  # the approval stays
    assert shown(one_dan) == 20
    revision = PromotionRevision.objects.get(promotion=one_dan)
    assert (revision.status_before, revision.status_after, revision.revised_by) == ("approved", "revoked", reviser)
    assert revision.revised_at is not None
    latest = one_dan.history.first()
    assert (latest.status, latest.history_user, latest.history_change_reason) == (
        "revoked",
        reviser,
        "revised: approved -> revoked",
    )
    assert [h.status for h in one_dan.history.all()][:2] == ["revoked", "approved"]  # the audit history stays


@pytest.mark.slow
def test_revise_rejected_to_approved_raises_the_public_grade(one_dan) -> None:
    officer = make_grade_officer()
    promotion_reject(promotion=one_dan, user=officer, reason="weak opposition", expected=None)
    assert shown(one_dan) == 20
    promotion_revise(promotion=one_dan, user=officer, reason="the opposition was stronger than listed", expected=None)
    one_dan.refresh_from_db()
    assert (one_dan.status, one_dan.decision_reason) == (
        PromotionStatus.APPROVED,
        "the opposition was stronger than listed",
    )
    assert shown(one_dan) == 21
    assert PromotionRevision.objects.get(promotion=one_dan).status_before == "rejected"


def test_revise_rejected_five_dan_needs_the_nsr_consent(five_dan) -> None:
    officer = make_grade_officer()
    promotion_reject(promotion=five_dan, user=officer, reason="no consent yet", expected=None)
    with pytest.raises(PromotionInvalid):
        promotion_revise(promotion=five_dan, user=officer, reason="consent arrived", expected=None)
    five_dan.refresh_from_db()
    assert five_dan.status == PromotionStatus.REJECTED
    assert not PromotionRevision.objects.exists()
    promotion_revise(
        promotion=five_dan,
        user=officer,
        reason="consent arrived",
        nsr_consent=True,
        nsr_consent_date=CONSENT,
        expected=None,
    )
    five_dan.refresh_from_db()
    assert (five_dan.status, five_dan.nsr_consent_date) == (PromotionStatus.APPROVED, CONSENT)
    assert shown(five_dan) == 25


def test_revise_to_revoked_refuses_nsr_fields(one_dan) -> None:
    officer = make_grade_officer()
    promotion_approve(promotion=one_dan, user=officer, expected=None)
    with pytest.raises(PromotionInvalid):
        promotion_revise(
            promotion=one_dan, user=officer, reason="x", nsr_consent=True, nsr_consent_date=CONSENT, expected=None
        )


def test_revise_without_a_reason_is_refused(one_dan) -> None:
    officer = make_grade_officer()
    promotion_approve(promotion=one_dan, user=officer, expected=None)
    with pytest.raises(PromotionInvalid):
        promotion_revise(promotion=one_dan, user=officer, reason="  ", expected=None)
    one_dan.refresh_from_db()
    assert one_dan.status == PromotionStatus.APPROVED


def test_revise_a_pending_promotion_is_refused(one_dan) -> None:
    assert not promotion_revisable(one_dan)
    with pytest.raises(PromotionInvalid):
        promotion_revise(promotion=one_dan, user=make_grade_officer(), reason="too early", expected=None)


@pytest.mark.parametrize("maker", [make_director, make_rating_officer, make_user])
def test_revise_by_anyone_but_a_grade_officer_is_refused(one_dan, maker) -> None:
    promotion_approve(promotion=one_dan, user=make_grade_officer(), expected=None)
    with pytest.raises(PermissionDenied):
        promotion_revise(promotion=one_dan, user=maker(), reason="I disagree", expected=None)
    one_dan.refresh_from_db()
    assert one_dan.status == PromotionStatus.APPROVED


def test_revise_a_stale_promotion_conflicts(one_dan) -> None:
    officer = make_grade_officer()
    promotion_approve(promotion=one_dan, user=officer, expected=None)
    stale = Promotion.objects.get(pk=one_dan.pk)
    promotion_revise(promotion=one_dan, user=officer, reason="annulled", expected=None)
    with pytest.raises(PromotionConflict):
        promotion_revise(promotion=stale, user=make_grade_officer(), reason="annulled too", expected=None)
    assert PromotionRevision.objects.count() == 1


@pytest.mark.slow
def test_revoke_lower_while_higher_approved_is_refused(play) -> None:
    player = seasoned(2100, 20, games=10)  # one provisional draw at 2100: 1 Dan and 2 Dan (see test_routes)
    play(player, opponent(2100), DRAW, date=DAY)
    officer = make_grade_officer()
    one, two = (Promotion.objects.get(player=player, grade=g) for g in (21, 22))
    promotion_approve(promotion=one, user=officer, expected=None)
    promotion_approve(promotion=two, user=officer, expected=None)
    with pytest.raises(PromotionInvalid):
        promotion_revise(promotion=one, user=officer, reason="annulled", expected=None)
    promotion_revise(promotion=two, user=officer, reason="annulled", expected=None)
    promotion_revise(promotion=one, user=officer, reason="annulled", expected=None)
    assert shown(one) == 20


@pytest.mark.slow
def test_revise_in_the_admin_by_a_grade_officer(client, one_dan) -> None:
    officer = make_grade_officer()
    promotion_approve(promotion=one_dan, user=officer, expected=None)
    client.force_login(officer)
    url = reverse("admin:ratings_promotion_decide", args=[one_dan.pk, "revise"])
    change = client.get(reverse("admin:ratings_promotion_change", args=[one_dan.pk]))
    assert url in change.content.decode()
    assert client.post(url, {"reason": ""}).status_code == 200  # the form asks for the reason again
    response = client.post(url, {"reason": "annulled by the appeals board", **page_version(one_dan)})
    assert response.status_code == 302
    one_dan.refresh_from_db()
    assert one_dan.status == PromotionStatus.REVOKED
    page = client.get(reverse("admin:ratings_promotion_change", args=[one_dan.pk])).content.decode()
    assert "annulled by the appeals board" in page  # staff see the revision and its reason


@pytest.mark.parametrize("maker", [make_director, make_rating_officer])
def test_revise_in_the_admin_by_others_is_forbidden(client, one_dan, maker) -> None:
    promotion_approve(promotion=one_dan, user=make_grade_officer(), expected=None)
    client.force_login(maker())
    url = reverse("admin:ratings_promotion_decide", args=[one_dan.pk, "revise"])
    assert client.post(url, {"reason": "I disagree"}).status_code == 403
    one_dan.refresh_from_db()
    assert one_dan.status == PromotionStatus.APPROVED


def test_public_grade_history_shows_dates_but_no_reasons_or_officers(client, one_dan, play) -> None:
    officer = make_grade_officer(username="officer_tanaka")
    promotion_reject(promotion=one_dan, user=officer, reason="SECRET-REJECTION-REASON", expected=None)
    page = client.get(reverse("ratings:player", args=[one_dan.player.federation_id])).content.decode()
    assert DAY.isoformat() in page  # the table's date
    one_dan.refresh_from_db()
    # The decision's date as the site shows it, in its time zone: late in the evening UTC it is already the next
    # day in Paris.
    assert f"{timezone.localtime(one_dan.decided_at):%Y-%m-%d}" in page
    assert "SECRET-REJECTION-REASON" not in page
    assert "officer_tanaka" not in page
    promotion_revise(promotion=one_dan, user=officer, reason="SECRET-REVISION-REASON", expected=None)
    promotion_revise(promotion=one_dan, user=officer, reason="SECRET-REVOCATION-REASON", expected=None)
    response = client.get(reverse("ratings:player", args=[one_dan.player.federation_id]))
    page = response.content.decode()
    assert "SECRET-" not in page and "officer_tanaka" not in page
    (step,) = response.context["grade_steps"]
    one_dan.refresh_from_db()
    assert (step.status, step.decided_at) == ("revoked", one_dan.reviewed_at)
