"""Queueing a task by its name (ratings/services/queue.py): after the caller's commit, and a broker that is down
is a warning, never an error for the caller."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import pytest
from django.core import mail
from django.db import transaction

from ratings.models import MailStatus, OutgoingMail
from ratings.services.mail import MAIL_TASK
from ratings.services.queue import enqueue
from tests.pipeline.conftest import celery_pointed_at, closed_port

pytestmark = pytest.mark.django_db

DOWN = "could not queue the test message; it stays queued"


def _queued_mail() -> OutgoingMail:
    return OutgoingMail.objects.create(event_key="test:1", recipient="jan@example.org", subject="S", body="B")


def test_enqueue_runs_the_task_once_the_transaction_commits(
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    message = _queued_mail()
    with django_capture_on_commit_callbacks(execute=True):
        enqueue(MAIL_TASK, message.pk, failure=DOWN)
        assert mail.outbox == []  # not before the commit: the task would not see the caller's rows
    assert len(mail.outbox) == 1
    message.refresh_from_db()
    assert message.status == MailStatus.SENT


def test_enqueue_without_waiting_for_the_commit_runs_the_task_at_once() -> None:
    message = _queued_mail()
    with transaction.atomic():
        enqueue(MAIL_TASK, message.pk, after_commit=False, failure=DOWN)
        assert len(mail.outbox) == 1


def test_enqueue_with_the_broker_down_logs_a_warning_and_raises_nothing(caplog: pytest.LogCaptureFixture) -> None:
    message = _queued_mail()
    with caplog.at_level(logging.WARNING), celery_pointed_at(f"redis://127.0.0.1:{closed_port()}/0"):
        enqueue(MAIL_TASK, message.pk, after_commit=False, failure=DOWN)
    (warning,) = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert warning.getMessage() == DOWN
    assert mail.outbox == []
    message.refresh_from_db()
    assert message.status == MailStatus.QUEUED
