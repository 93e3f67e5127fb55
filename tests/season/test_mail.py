"""The outbox against a real SMTP server (aiosmtpd, started here): a message is sent after commit, once per
event and recipient; a failure is recorded, counted in the metrics and sent on a retry; the season's daily
reminders and digest reach the right people once."""

from __future__ import annotations

import datetime as dt
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from email import message_from_bytes
from typing import Any

import pytest
from aiosmtpd.controller import Controller

from federation.metrics import SiteCollector
from ratings.models import MailStatus, OutgoingMail, Tournament
from ratings.services.grades.proposals import prior_grade_propose
from ratings.services.mail import mail_queue, mail_send
from ratings.services.season import tournament_accept, tournament_register
from ratings.services.season.reminders import deadline_reminders_queue, officer_digest_queue
from tests.conftest import FIXED_NOW
from tests.factories import make_director, make_player, make_rating_officer

pytestmark = pytest.mark.django_db
TODAY = FIXED_NOW.date()


class Inbox:
    def __init__(self) -> None:
        self.messages: list[Any] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.messages.append(message_from_bytes(envelope.content))
        return "250 OK"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def smtp_server(port: int | None = None) -> Iterator[tuple[Inbox, dict[str, str]]]:
    """A real SMTP server (aiosmtpd) on 127.0.0.1: its inbox, and the settings that send to it (as a process's
    environment; the test's own settings take the same values)."""
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=port or free_port())
    controller.start()
    env = {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(controller.port),
    }
    try:
        yield inbox, env
    finally:
        controller.stop()


@pytest.fixture
def smtp(settings: Any) -> Iterator[Inbox]:
    with smtp_server() as (inbox, env):
        settings.EMAIL_BACKEND, settings.EMAIL_HOST = env["EMAIL_BACKEND"], env["EMAIL_HOST"]
        settings.EMAIL_PORT = int(env["EMAIL_PORT"])
        yield inbox


def failed_total() -> float:
    [metric] = [m for m in SiteCollector().collect() if m.name == "fesa_emails_failed"]
    return sum(s.value for s in metric.samples if s.name == "fesa_emails_failed_total")


def test_message_is_sent_after_commit_once_per_event(smtp: Inbox, django_capture_on_commit_callbacks: Any) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        first = mail_queue(event_key="test:1", recipient="anna@example.org", subject="Rated", body="Your table")
        again = mail_queue(event_key="test:1", recipient="anna@example.org", subject="Rated", body="Your table")
        assert smtp.messages == []  # nothing leaves before the commit
    assert first is not None and again is None
    [message] = smtp.messages
    assert (message["To"], message["Subject"]) == ("anna@example.org", "Rated")
    first.refresh_from_db()
    assert (first.status, first.attempts) == (MailStatus.SENT, 1)
    assert mail_send(mail_id=first.pk) is False  # a repeated task sends nothing
    assert len(smtp.messages) == 1


def test_failure_is_recorded_counted_and_sent_on_retry(settings: Any) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", free_port(), 2  # nobody listens
    mail = OutgoingMail.objects.create(event_key="test:2", recipient="jan@example.org", subject="S", body="B")
    before = failed_total()
    with pytest.raises(OSError):
        mail_send(mail_id=mail.pk)
    mail.refresh_from_db()
    assert (mail.status, mail.failures) == (MailStatus.FAILED, 1)
    assert mail.last_error
    assert failed_total() == before + 1
    with smtp_server(settings.EMAIL_PORT) as (inbox, _env):
        assert mail_send(mail_id=mail.pk) is True
    mail.refresh_from_db()
    assert (mail.status, mail.attempts, mail.failures) == (MailStatus.SENT, 2, 1)
    assert failed_total() == before + 1  # the count only grows
    assert [m["To"] for m in inbox.messages] == ["jan@example.org"]


def ended_tournament(days_ago: int) -> Tournament:
    director = make_director()
    director.email = "td@example.org"
    director.save()
    start = TODAY + dt.timedelta(days=20)
    tournament = tournament_register(
        tournament=None,
        user=director,
        name="Open de Lyon",
        start_date=start,
        end_date=start,
        city="Lyon",
        country="FR",
        main_time_minutes=30,
        increment_seconds=30,
        byoyomi_seconds=None,
        mode="Swiss",
        contact="td@example.org",
    )
    tournament = tournament_accept(tournament=tournament, user=make_rating_officer())
    ended = TODAY - dt.timedelta(days=days_ago)
    Tournament.objects.filter(pk=tournament.pk).update(start_date=ended, end_date=ended)
    return tournament


def test_directors_are_reminded_once_before_the_deadline(smtp: Inbox, django_capture_on_commit_callbacks: Any) -> None:
    ended_tournament(days_ago=12)  # due in 2 days: within the 3 days' reminder
    ended_tournament(days_ago=5)  # due in 9 days: not yet
    with django_capture_on_commit_callbacks(execute=True):
        assert deadline_reminders_queue(today=TODAY) == 1
        assert deadline_reminders_queue(today=TODAY) == 0  # the daily task run twice
    [message] = smtp.messages
    assert message["To"] == "td@example.org"
    assert (TODAY + dt.timedelta(days=2)).isoformat() in message["Subject"]


def test_officers_digest_lists_overdue_results_once_a_day(smtp: Inbox, django_capture_on_commit_callbacks: Any) -> None:
    officer = make_rating_officer()
    officer.email = "officer@example.org"
    officer.save()
    assert officer_digest_queue(today=TODAY) == 0  # nothing overdue: no message
    ended_tournament(days_ago=20)
    with django_capture_on_commit_callbacks(execute=True):
        assert officer_digest_queue(today=TODAY) == 1
        assert officer_digest_queue(today=TODAY) == 0
    [message] = smtp.messages
    assert message["To"] == "officer@example.org"
    assert "Open de Lyon" in message.get_payload()


def test_officers_digest_tells_of_waiting_prior_grade_proposals(
    smtp: Inbox, django_capture_on_commit_callbacks: Any
) -> None:
    officer = make_rating_officer()
    officer.email = "officer@example.org"
    officer.save()
    player = make_player()
    prior_grade_propose(
        player=player, kind="kyu", level=4, source="national", note="club diploma", user=make_director()
    )
    with django_capture_on_commit_callbacks(execute=True):
        assert officer_digest_queue(today=TODAY) == 1
    [message] = smtp.messages
    assert "Prior-grade proposals waiting: 1" in message.get_payload()


def test_failed_send_is_a_warning_and_health_says_mail_is_failing(settings: Any, caplog: Any, client: Any) -> None:
    """A wrong EMAIL_HOST: the volunteer sees it in the log's warnings and at /health/ready, not only in Celery's
    INFO line about the retry; the site itself stays ready (200)."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", free_port(), 2  # nobody listens
    assert client.get("/health/ready").json()["checks"]["mail"]["ok"] is True
    mail = OutgoingMail.objects.create(
        event_key="subscription-confirm:7", recipient="jan@example.org", subject="S", body="B"
    )
    with caplog.at_level("INFO", logger="ratings.services.mail.outbox"), pytest.raises(OSError):
        mail_send(mail_id=mail.pk)
    (warning,) = [r for r in caplog.records if r.levelname == "WARNING"]
    assert f"127.0.0.1:{settings.EMAIL_PORT}" in warning.getMessage()
    assert "jan@example.org" not in warning.getMessage()  # the address is personal data
    response = client.get("/health/ready")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "degraded" and body["checks"]["mail"]["ok"] is False
    assert "1 message" in body["checks"]["mail"]["detail"]
    with smtp_server(settings.EMAIL_PORT):
        assert mail_send(mail_id=mail.pk) is True
    assert client.get("/health/ready").json()["status"] == "ok"
