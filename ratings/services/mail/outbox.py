"""Queueing and sending one message.

``mail_queue`` records the message in the caller's transaction and, on commit, hands its id to the sending
task; the pair (event, recipient) is unique, so a second call for the same event and address finds the row and
queues nothing: nothing is sent twice, however often the event repeats or its task is retried. ``mail_send``
sends one queued message over Django's e-mail backend (SMTP in production); a failure is recorded on the row
(its count feeds the metrics), logged as a WARNING and raised again, so the task retries with backoff.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from ratings.models import MailStatus, OutgoingMail
from ratings.services.queue import enqueue

log = logging.getLogger(__name__)
MAIL_TASK = "ratings.tasks.task_mail_send"


def mail_queue(
    *, event_key: str, recipient: str, subject: str, body: str, headers: dict[str, str] | None = None
) -> OutgoingMail | None:
    """Record a message for ``event_key`` to ``recipient`` (with extra ``headers``); None when that event
    already has one for it."""
    try:
        with transaction.atomic():
            mail = OutgoingMail.objects.create(
                event_key=event_key, recipient=recipient, subject=subject, body=body, headers=headers or {}
            )
    except IntegrityError:  # the unique pair: this event was told to this address already
        return None
    # A broker that is down leaves the row queued; the daily task retries it.
    enqueue(MAIL_TASK, mail.pk, failure=f"could not queue message {mail.pk}; it stays queued")
    return mail


def mail_send(*, mail_id: int) -> bool:
    """Send a queued message; False when it was sent already (a repeated task). Raises the backend's error
    after recording it, for the task to retry."""
    mail = OutgoingMail.objects.filter(pk=mail_id).exclude(status=MailStatus.SENT).first()
    if mail is None:
        return False
    message = EmailMessage(
        subject=mail.subject,
        body=mail.body,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[mail.recipient],
        headers=mail.headers or None,
    )
    try:
        message.send()
    except Exception as exc:  # SMTP, DNS and socket errors alike: recorded, then retried by the task
        OutgoingMail.objects.filter(pk=mail.pk).update(
            status=MailStatus.FAILED, attempts=F("attempts") + 1, failures=F("failures") + 1, last_error=str(exc)[:2000]
        )
        # A WARNING of its own: Celery logs the retry as INFO only, and a wrong EMAIL_HOST fails every message.
        log.warning(
            "could not send message %s (%s) through %s:%s: %s: %s; it is retried",
            mail.pk,
            mail.event_key.partition(":")[0],
            settings.EMAIL_HOST,
            settings.EMAIL_PORT,
            type(exc).__name__,
            exc,
        )
        raise
    OutgoingMail.objects.filter(pk=mail.pk).update(
        status=MailStatus.SENT, attempts=F("attempts") + 1, sent_at=timezone.now(), last_error=""
    )
    return True
