"""Two officers deciding the same promotion or answering the same proposal, each in his own session: the later
one is refused, told who decided what and when, and nothing of his is saved (ratings/services/fingerprints.py)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from ratings.models import Correction, Player, Promotion, PromotionStatus, ProposalStatus
from ratings.services.corrections.apply import correction_make
from ratings.services.corrections.facts import PriorGradeChange
from ratings.services.fingerprints import VERSION_FIELD, ChangedMeanwhile
from ratings.services.grades.fingerprints import promotion_version
from ratings.services.grades.promotions import promotion_reject
from ratings.services.grades.revisions import promotion_revise
from tests.corrections.helpers import hidden
from tests.factories import make_director, make_grade_officer, make_player, make_rating_officer
from tests.grades.test_prior_grade_proposals import CHANGELIST, propose

pytestmark = pytest.mark.django_db


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def told(response: Any) -> str:
    return " ".join(str(m) for m in get_messages(response.wsgi_request))


def decide_url(promotion: Promotion, action: str) -> str:
    return reverse("admin:ratings_promotion_decide", args=[promotion.pk, action])


def test_a_promotion_rejected_while_another_officer_had_it_open_is_not_approved(one_dan) -> None:
    a, b = logged_in(make_grade_officer(username="anna")), logged_in(make_grade_officer(username="bruno"))
    shown = hidden(a.get(decide_url(one_dan, "approve")), VERSION_FIELD)
    b_shown = hidden(b.get(decide_url(one_dan, "reject")), VERSION_FIELD)
    rejected = b.post(decide_url(one_dan, "reject"), {"reason": "No consent", VERSION_FIELD: b_shown})
    assert rejected.status_code == 302

    refused = a.post(decide_url(one_dan, "approve"), {"reason": "Strong results", VERSION_FIELD: shown})
    assert refused.status_code == 302
    said = told(refused)
    assert "bruno" in said and "1 Dan" in said and "nothing was saved" in said
    one_dan.refresh_from_db()
    assert one_dan.status == PromotionStatus.REJECTED and one_dan.decided_by.username == "bruno"


def test_a_decision_on_a_promotion_a_re_rate_changed_since_is_refused(one_dan) -> None:
    a = logged_in(make_grade_officer(username="anna"))
    shown = hidden(a.get(decide_url(one_dan, "approve")), VERSION_FIELD)
    Promotion.objects.filter(pk=one_dan.pk).update(supported=False)  # a correction took away its grounds
    refused = a.post(decide_url(one_dan, "approve"), {"reason": "Strong results", VERSION_FIELD: shown})
    assert refused.status_code == 302 and "nothing was saved" in told(refused)
    one_dan.refresh_from_db()
    assert one_dan.status == PromotionStatus.PENDING


def test_a_decision_stands_when_a_re_rate_only_moved_the_rating_it_was_reached_at(one_dan) -> None:
    a = logged_in(make_grade_officer(username="anna"))
    shown = hidden(a.get(decide_url(one_dan, "approve")), VERSION_FIELD)
    Promotion.objects.filter(pk=one_dan.pk).update(rating=one_dan.rating + 3)  # a correction before it
    a.post(decide_url(one_dan, "approve"), {"reason": "Strong results", VERSION_FIELD: shown})
    one_dan.refresh_from_db()
    assert one_dan.status == PromotionStatus.APPROVED


def test_a_proposal_confirmed_over_a_prior_grade_set_meanwhile_is_refused() -> None:
    player = make_player("Habu", nationality="JP")
    proposal = propose(player, make_director())
    a = logged_in(make_rating_officer(username="anna"))
    shown = a.get(reverse(CHANGELIST))
    name = f"{VERSION_FIELD}_{proposal.pk}"
    version = hidden(shown, name)

    change = PriorGradeChange(player=player, kind="kyu", level=2, source="national")
    correction_make(user=make_rating_officer(username="bruno"), reason="Known to us", change=change, expected=None)

    data = {"action": "confirm_selected", "_selected_action": [str(proposal.pk)], name: version}
    refused = a.post(reverse(CHANGELIST), data)
    assert "bruno" in told(refused) and "Proposals confirmed: 0." in told(refused)
    proposal.refresh_from_db()
    player = Player.objects.get(pk=player.pk)
    assert proposal.status == ProposalStatus.PENDING and (player.prior_grade_kind, player.prior_grade_level) == (
        "kyu",
        2,
    )
    assert Correction.objects.count() == 1


def test_a_revision_over_a_decision_taken_since_the_page_was_shown_is_refused(one_dan) -> None:
    """Rejected, then shown to A for revision; meanwhile B revises it to approved: A's revision, from the
    rejected record he saw, is refused and names B."""
    promotion_reject(
        promotion=one_dan, user=make_grade_officer(username="carl"), reason="Weak opposition", expected=None
    )
    shown = promotion_version(one_dan)
    promotion_revise(
        promotion=one_dan, user=make_grade_officer(username="bruno"), reason="Complaint upheld", expected=None
    )
    stale = Promotion.objects.get(pk=one_dan.pk)
    stale.status = PromotionStatus.REJECTED  # A's request still holds the record as he loaded it
    with pytest.raises(ChangedMeanwhile, match="bruno"):
        promotion_revise(promotion=stale, user=make_grade_officer(username="anna"), reason="Late", expected=shown)
    one_dan.refresh_from_db()
    assert one_dan.status == PromotionStatus.APPROVED and one_dan.decided_by.username == "bruno"
