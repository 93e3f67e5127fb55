"""The digests and the correction notice end to end, against a real SMTP server (aiosmtpd, started here): the
daily task sends the grade officers' digest (with the 5 Dan waiting for the NSR's consent) and the rating
officers' digest (with a new pair of likely duplicates) once, and a correction reaches the table's director with
its reason."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from ratings.models import Promotion, PromotionRoute, PromotionStatus
from ratings.services.corrections.apply import correction_make
from ratings.services.rerate import rerate_pending
from ratings.services.tables.submit import table_submit
from ratings.tasks import task_season_daily
from tests.conftest import FIXED_NOW
from tests.corrections.helpers import result_flipped
from tests.factories import (
    make_director,
    make_grade_officer,
    make_player,
    make_rating_officer,
    make_table,
    make_tournament,
    round_robin,
)
from tests.season.test_mail import Inbox, smtp

__all__ = ["smtp"]  # a fixture used by name
pytestmark = pytest.mark.django_db


def text(message: Any) -> str:
    return str(message.get_payload(decode=True).decode(message.get_content_charset()))


def with_address(user: Any, email: str) -> Any:
    user.email = email
    user.save()
    return user


def test_daily_task_sends_both_digests_once(
    settings: Any, smtp: Inbox, django_capture_on_commit_callbacks: Any
) -> None:
    settings.SITE_URL = "https://ratings.example.org"
    with_address(make_grade_officer(), "grades@example.org")
    with_address(make_rating_officer(), "officer@example.org")
    player = make_player("Sato", "Yuki", nationality="JP")
    played = FIXED_NOW.date() - dt.timedelta(days=30)
    table = make_table([player], tournament=make_tournament("Dutch Open", date=played), date=played)
    five_dan = Promotion.objects.create(
        player=player,
        grade=25,
        table=table,
        game_number=1,
        route=PromotionRoute.UPPER_BOUND,
        rating=2440,
        status=PromotionStatus.PENDING,
    )
    make_player("Rossi", "Mateo", nationality="IT")
    make_player("Rossi", "Matteo", nationality="IT")
    with django_capture_on_commit_callbacks(execute=True):
        assert task_season_daily() == {
            "reminders": 0,
            "digests": 1,
            "grade_digests": 1,
            "subscriptions_expired": 0,
            "reports_expired": 0,
        }
        assert task_season_daily() == {
            "reminders": 0,
            "digests": 0,
            "grade_digests": 0,
            "subscriptions_expired": 0,
            "reports_expired": 0,
        }
    messages = {m["To"]: m for m in smtp.messages}
    assert sorted(messages) == ["grades@example.org", "officer@example.org"]
    grades = text(messages["grades@example.org"])
    assert "5 and 6 Dan promotions waiting for the NSR's consent, to approve once it has consented: 1" in grades
    assert "Sato Yuki" in grades and "waiting 30 days" in grades
    assert f"https://ratings.example.org/admin/ratings/promotion/{five_dan.pk}/change/" in grades
    officers = text(messages["officer@example.org"])
    assert "Pairs of likely duplicate players: 1, 1 of them new since yesterday" in officers
    assert "https://ratings.example.org/admin/ratings/player/duplicates/" in officers


def test_a_correction_reaches_the_director_with_its_reason(
    settings: Any, smtp: Inbox, django_capture_on_commit_callbacks: Any
) -> None:
    settings.SITE_URL = "https://ratings.example.org"
    director = with_address(make_director(), "td@example.org")
    players = [make_player() for _ in range(3)]
    day = dt.date(2026, 5, 10)
    table = make_table(players, tournament=make_tournament("Open de Lyon", date=day, directors=[director]), date=day)
    round_robin(table, players)
    table_submit(table=table, user=director)
    rerate_pending()  # rated first; its message is not captured
    with django_capture_on_commit_callbacks(execute=True):
        correction_make(
            user=make_rating_officer(),
            reason="Round 1 swapped on the sheet",
            change=result_flipped(table),
            expected=None,
        )
    [message] = smtp.messages
    assert (message["To"], message["Subject"]) == ("td@example.org", "FESA ratings: your tables were corrected")
    body = text(message)
    assert "Open de Lyon (2026-05-10): corrected by a rating officer" in body
    assert "this table: Round 1 swapped on the sheet" in body
    assert f"https://ratings.example.org/tables/{table.pk}/" in body
