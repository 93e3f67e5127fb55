"""The e-mail pipeline end to end: a message queued in a transaction goes, after commit, through Redis to a real
Celery worker, which sends it to a real SMTP server (aiosmtpd) once, however often its event repeats."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from django.db import transaction

from ratings.models import MailStatus, OutgoingMail
from ratings.services.mail import mail_queue
from tests.pipeline.conftest import RedisForTests, Worker, redis_for_tests, started_worker, wait_for
from tests.season.test_mail import Inbox, free_port

__all__ = ["redis_for_tests"]  # a fixture used by name
pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


@pytest.fixture
def smtp_and_worker(
    redis_for_tests: RedisForTests, django_db_setup: None, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Inbox, Worker]]:
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    env = {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(controller.port),
    }
    try:
        with started_worker(redis_for_tests, tmp_path_factory.mktemp("mail") / "worker.log", **env) as worker:
            yield inbox, worker
    finally:
        controller.stop()


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
