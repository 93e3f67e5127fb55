"""The e-mail pipeline end to end: a message queued in a transaction goes, after commit, through Redis to a real
Celery worker, which sends it to a real SMTP server (aiosmtpd) once, however often its event repeats."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.db import transaction

from ratings.models import MailStatus, OutgoingMail
from ratings.services.mail import mail_queue
from tests.pipeline.conftest import RedisForTests, Worker, redis_for_tests, started_worker, wait_for
from tests.season.test_mail import Inbox, smtp_server

__all__ = ["redis_for_tests"]  # a fixture used by name
pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


@pytest.fixture
def smtp_and_worker(
    redis_for_tests: RedisForTests, django_db_setup: None, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Inbox, Worker]]:
    """An SMTP server and a worker that also serves the default queue: the tasks the worker itself queues (the
    sending of the messages its re-rate decided) go there, as in production."""
    log = tmp_path_factory.mktemp("mail") / "worker.log"
    with (
        smtp_server() as (inbox, env),
        started_worker(redis_for_tests, log, queues=f"{redis_for_tests.queue},celery", **env) as worker,
    ):
        yield inbox, worker


def test_worker_sends_a_queued_message_once(smtp_and_worker: tuple[Inbox, Any]) -> None:
    inbox, worker = smtp_and_worker
    with worker.publishing():
        for _ in range(3):  # the same event three times: a burst of re-rates, a retried task
            with transaction.atomic():
                mail_queue(event_key="rated:7", recipient="anna@example.org", subject="Rated", body="Your table")
    mail = OutgoingMail.objects.get(event_key="rated:7")
    wait_for(lambda: OutgoingMail.objects.get(pk=mail.pk).status == MailStatus.SENT, what="the send", worker=worker)
    wait_for(worker.queue_empty, what="an empty queue", worker=worker)
    assert [(m["To"], m["Subject"]) for m in inbox.messages] == [("anna@example.org", "Rated")]
