"""Likely duplicates in the rating officers' daily digest: counted, the newest pairs listed with a link to merge
each and the report's link; a new pair sends the digest, pairs seen before alone do not, and when nothing else
waits and nobody was added the detector is not even run."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core import mail
from django.utils import timezone

from ratings.models import Player
from ratings.services.grades.proposals import prior_grade_propose
from ratings.services.season.reminders import officer_digest_queue
from tests.conftest import FIXED_NOW
from tests.factories import make_director, make_player, make_rating_officer

pytestmark = pytest.mark.django_db
TODAY = FIXED_NOW.date()


@pytest.fixture
def officer() -> Any:
    officer = make_rating_officer()
    officer.email = "officer@example.org"
    officer.save()
    return officer


def added_days_ago(days: int, *players: Player) -> None:
    Player.objects.filter(pk__in=[p.pk for p in players]).update(created_at=timezone.now() - dt.timedelta(days=days))


def test_pairs_seen_before_alone_send_nothing_and_run_no_detector(
    officer: Any, django_assert_num_queries: Any, django_capture_on_commit_callbacks: Any
) -> None:
    added_days_ago(
        10, make_player("Rossi", "Mateo", nationality="IT"), make_player("Rossi", "Matteo", nationality="IT")
    )
    with django_capture_on_commit_callbacks(execute=True), django_assert_num_queries(5):
        # overdue, unsettled, proposals, reported mistakes, anyone added: no
        assert officer_digest_queue(today=TODAY) == 0
    assert mail.outbox == []


def test_a_new_pair_sends_the_digest_newest_first_with_links(
    settings: Any, officer: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.SITE_URL = "https://ratings.example.org"
    old = make_player("Rossi", "Mateo", nationality="IT")
    old_twin = make_player("Mateo", "Rossi", nationality="")
    added_days_ago(10, old, old_twin)
    kept = make_player("Lemaître", "Pierre", nationality="FR")
    added_days_ago(1, kept)  # yesterday: still new today
    twice = make_player("Lemaitre", "Pierre", nationality="FR")
    make_player("Lemaitre", "Paul", nationality="FR")  # not alike
    with django_capture_on_commit_callbacks(execute=True):
        assert officer_digest_queue(today=TODAY) == 1
        assert officer_digest_queue(today=TODAY) == 0
    [message] = mail.outbox
    lines = message.body.splitlines()
    assert lines[0] == "Pairs of likely duplicate players: 2, 1 of them new since yesterday"
    first, second = sorted((kept, twice), key=lambda p: p.pk)  # neither has played: the older record first
    assert lines[1] == f"- {first} ({first.federation_id}, FR) and {second} ({second.federation_id}, FR)"
    assert lines[2] == (
        f"  https://ratings.example.org/admin/ratings/player/{second.pk}/merge/?kept={first.federation_id}"
    )
    assert lines[3].startswith("- Rossi Mateo") or lines[3].startswith("- Mateo Rossi")
    assert lines[-1] == "The report of likely duplicates: https://ratings.example.org/admin/ratings/player/duplicates/"


def test_old_pairs_are_counted_when_something_else_waits(officer: Any, django_capture_on_commit_callbacks: Any) -> None:
    pair = make_player("Rossi", "Mateo", nationality="IT"), make_player("Rossi", "Matteo", nationality="IT")
    newcomer = make_player("Nakamura", "Ken", nationality="JP")
    prior_grade_propose(player=newcomer, kind="kyu", level=4, source="national", note="club", user=make_director())
    added_days_ago(10, *pair, newcomer)
    with django_capture_on_commit_callbacks(execute=True):
        assert officer_digest_queue(today=TODAY) == 1
    body = mail.outbox[0].body
    assert "Prior-grade proposals waiting: 1" in body
    assert "Pairs of likely duplicate players: 1, 0 of them new since yesterday" in body
    assert "Rossi Mateo" in body and "Rossi Matteo" in body
