"""The grade officers' daily digest: what waits (pending Dan promotions, 5 and 6 Dan waiting for the NSR's consent,
flagged approved grades), each with its admin link, to every active grade officer with an address, once a day,
and nothing when nothing waits."""

from __future__ import annotations

import datetime as dt
import itertools
from typing import Any

import pytest
from django.core import mail

from ratings.models import Promotion, PromotionRoute, PromotionStatus
from ratings.services.grades.digest import DIGEST_LIMIT, grade_digest_queue
from tests.conftest import FIXED_NOW
from tests.factories import make_grade_officer, make_player, make_rating_officer, make_table, make_tournament

pytestmark = pytest.mark.django_db
TODAY = FIXED_NOW.date()
PLAYED = TODAY - dt.timedelta(days=12)
_sequence = itertools.count(1)


def promotion(grade: int, status: str = PromotionStatus.PENDING, **fields: Any) -> Promotion:
    player = make_player("Kimura", f"Given{grade}{status}", nationality="DE")
    table = make_table(
        [player], tournament=make_tournament("Hamburg Open", date=PLAYED), date=PLAYED, sequence=next(_sequence)
    )
    return Promotion.objects.create(
        player=player,
        grade=grade,
        table=table,
        game_number=1,
        route=PromotionRoute.UPPER_BOUND,
        rating=2000,
        status=status,
        **fields,
    )


def grade_officer(email: str, *, active: bool = True) -> Any:
    officer = make_grade_officer()
    officer.email, officer.is_active = email, active
    officer.save()
    return officer


def test_nothing_waits_nothing_is_sent(django_capture_on_commit_callbacks: Any) -> None:
    grade_officer("go@example.org")
    promotion(21, PromotionStatus.APPROVED)  # decided and supported: nothing to do
    with django_capture_on_commit_callbacks(execute=True):
        assert grade_digest_queue(today=TODAY) == 0
    assert mail.outbox == []


def test_digest_lists_each_part_with_its_links_once_a_day(
    settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.SITE_URL = "https://ratings.example.org"
    grade_officer("go@example.org")
    grade_officer("gone@example.org", active=False)
    make_grade_officer()  # no address
    rating_officer = make_rating_officer()
    rating_officer.email = "ro@example.org"  # rating officers get their own digest
    rating_officer.save()
    one_dan = promotion(21)
    five_dan = promotion(25)
    flagged = promotion(22, PromotionStatus.APPROVED, supported=False, flag_reason="table corrected")
    promotion(23, PromotionStatus.REJECTED)
    with django_capture_on_commit_callbacks(execute=True):
        assert grade_digest_queue(today=TODAY) == 1
        assert grade_digest_queue(today=TODAY) == 0  # the daily task run twice
    [message] = mail.outbox
    assert message.to == ["go@example.org"]
    assert TODAY.isoformat() in message.subject
    parts = message.body.split("\n\n")
    assert parts[0].startswith("Dan promotions waiting for a decision: 1\n")
    assert "Kimura Given21pending" in parts[0] and "1 Dan, Hamburg Open" in parts[0] and "waiting 12 days" in parts[0]
    assert f"https://ratings.example.org/admin/ratings/promotion/{one_dan.pk}/change/" in parts[0]
    assert parts[1].startswith("5 and 6 Dan promotions waiting for the NSR's consent")
    assert f"/admin/ratings/promotion/{five_dan.pk}/change/" in parts[1] and "5 Dan" in parts[1]
    assert parts[2].startswith("Approved grades a correction left unsupported")
    assert f"/admin/ratings/promotion/{flagged.pk}/change/" in parts[2]
    assert "Given23" not in message.body  # rejected: decided
    assert parts[3] == "The grade officers' queue: https://ratings.example.org/admin/ratings/promotion/\n"
    with django_capture_on_commit_callbacks(execute=True):
        assert grade_digest_queue(today=TODAY + dt.timedelta(days=1)) == 1  # the next day: a new digest
    assert "waiting 13 days" in mail.outbox[1].body


def test_a_long_queue_is_cut_with_the_rest_counted(django_capture_on_commit_callbacks: Any) -> None:
    grade_officer("go@example.org")
    for _ in range(DIGEST_LIMIT + 2):
        promotion(21)
    with django_capture_on_commit_callbacks(execute=True):
        grade_digest_queue(today=TODAY)
    [message] = mail.outbox
    assert f"Dan promotions waiting for a decision: {DIGEST_LIMIT + 2}" in message.body
    assert message.body.count("/change/") == DIGEST_LIMIT
    assert "… and 2 more in the queue." in message.body
