"""A player's subscriber end to end: a table submitted in the test goes through Redis to a real Celery worker,
which re-rates it, queues the subscriber's message and sends it to a real SMTP server (aiosmtpd) once, with its
unsubscribe headers; a subscriber who has not confirmed gets nothing."""

from __future__ import annotations

import datetime as dt
from email.header import decode_header, make_header
from typing import Any

import pytest
from django.db import transaction
from django.utils import timezone

from ratings.models import MailStatus, OutgoingMail, PendingRerate, Subscription
from ratings.services.tables.submit import table_submit
from tests.factories import make_player, make_table, round_robin
from tests.pipeline.conftest import redis_for_tests, wait_for
from tests.season.test_mail_worker import smtp_and_worker

__all__ = ["redis_for_tests", "smtp_and_worker"]  # fixtures used by name
pytestmark = [pytest.mark.slow, pytest.mark.services, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def test_worker_rates_a_table_and_tells_the_confirmed_subscriber_once(smtp_and_worker: tuple[Any, Any]) -> None:
    inbox, worker = smtp_and_worker
    players = [make_player() for _ in range(4)]
    Subscription.objects.create(player=players[0], email="fan@example.org", language="de", confirmed_at=timezone.now())
    Subscription.objects.create(player=players[1], email="waiting@example.org", language="en")  # not confirmed
    table = make_table(players, date=dt.date(2026, 5, 10))
    round_robin(table, players)
    with worker.publishing():
        with transaction.atomic():
            table_submit(table=table, user=None)
        wait_for(
            lambda: OutgoingMail.objects.filter(recipient="fan@example.org", status=MailStatus.SENT).exists(),
            what="the subscriber's message",
            worker=worker,
        )
        wait_for(lambda: not PendingRerate.objects.exists() and worker.queue_empty(), what="the end", worker=worker)
    [message] = inbox.messages
    assert message["To"] == "fan@example.org"
    assert str(make_header(decode_header(message["Subject"]))).startswith(
        "FESA-Wertung"
    )  # the language the subscriber chose
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    unsubscribe = " ".join(message["List-Unsubscribe"].split())  # a long header comes folded
    assert unsubscribe.startswith("<http") and "/subscriptions/unsubscribe/" in unsubscribe
