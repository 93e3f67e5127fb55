"""Celery tasks: thin interfaces that take ids and call one service (STYLE.md)."""

from __future__ import annotations

import logging
from typing import Any

from celery import Task, shared_task
from django.conf import settings
from django.utils import timezone

from ratings.services.grades.digest import grade_digest_queue
from ratings.services.history_files import DerivedFilesUnavailable, history_files_write
from ratings.services.lists import lists_prepare
from ratings.services.mail import mail_send
from ratings.services.predictions import prediction_compare, prediction_compare_after_rerate
from ratings.services.reports import reports_expire
from ratings.services.rerate import RerateBusy, rerate_pending
from ratings.services.rerate.after import rerate_after_run
from ratings.services.season.reminders import deadline_reminders_queue, officer_digest_queue
from ratings.services.season.subscriptions import subscriptions_expire
from ratings.services.whatif import whatif_compute

log = logging.getLogger(__name__)


@shared_task(
    bind=True,
    name="ratings.tasks.task_rerate_pending",
    autoretry_for=(RerateBusy,),
    retry_backoff=2,
    retry_backoff_max=120,
    retry_jitter=True,
    max_retries=None,
    acks_late=True,
)
def task_rerate_pending(self: Task[Any, Any]) -> dict[str, object] | None:
    """Re-rate from the pending position, if anything is pending.

    On a worker it first waits for a quiet moment (RERATE_QUIET_SECONDS) so that a burst of edits is served
    by one run, and a lock held by another re-rate turns into a retry with backoff. Run in-process (no
    broker), it neither waits nor retries: the run holding the lock sees the request and runs again. Once the
    run committed, its follow-ups (notices, downloads, today's lists) run through ``rerate_after_run``.
    """
    eager = bool(self.request.is_eager)
    began = timezone.now()
    try:
        outcome = rerate_pending(quiet=0.0 if eager else float(settings.RERATE_QUIET_SECONDS))
    except RerateBusy:
        if not eager:
            raise
        log.info("another re-rate is running; it will serve this request too")
        return None
    rerate_after_run(outcome=outcome, began=began, eager=eager)
    if outcome is None:
        return None
    return {
        "run": outcome.run_id,
        "tables_rated": outcome.tables_rated,
        "tables_unchanged": outcome.tables_unchanged,
        "rows_written": outcome.rows_written,
        "errors": {str(k): v for k, v in outcome.errors.items()},
        "cleared": outcome.cleared,
    }


@shared_task(name="ratings.tasks.task_history_files_write", acks_late=True)
def task_history_files_write() -> list[str]:
    """Write the rating history downloads (CSV and JSON, gzip) anew into the storage of derived files. A store
    that fails is logged as an ERROR; the files stay as they were, and the next re-rate (or ``manage.py
    rewrite_derived_files``) writes them whole again: the re-rate that asked for them stands."""
    try:
        return [str(path) for path in history_files_write()]
    except DerivedFilesUnavailable:
        log.error(
            "could not write the rating history downloads; the next re-rate or `manage.py rewrite_derived_files` "
            "writes them",
            exc_info=True,
        )
        return []


@shared_task(name="ratings.tasks.task_lists_prepare", acks_late=True)
def task_lists_prepare() -> None:
    """Write today's rating lists (ratings/services/lists.py) for the current data version, if not there yet (Celery
    beat, every minute): after midnight the two-year window moved, and an edit without a re-rate (a name, a club)
    made a new version. The first visitor after either should not wait while the list is made."""
    lists_prepare()


@shared_task(name="ratings.tasks.task_predictions_compare", acks_late=True)
def task_predictions_compare() -> int | None:
    """Compare the rating systems on the current data (ratings/services/predictions.py); nothing when its report
    is there or being made. Run nightly (Celery beat)."""
    report = prediction_compare()
    return None if report is None else report.pk


@shared_task(name="ratings.tasks.task_predictions_after_rerate", acks_late=True)
def task_predictions_after_rerate() -> int | None:
    """The comparison queued after a worker's re-rate: it gives way to a newer re-rate, which queues its own."""
    report = prediction_compare_after_rerate()
    return None if report is None else report.pk


@shared_task(name="ratings.tasks.task_whatif_compute", acks_late=True)
def task_whatif_compute(report_id: int) -> int:
    """Replay the history with a what-if's constants (ratings/services/whatif.py); nothing when another run
    has it or it is done. Queued when a rating officer asks for it."""
    return whatif_compute(report_id=report_id).pk


@shared_task(
    name="ratings.tasks.task_mail_send",
    autoretry_for=(Exception,),
    retry_backoff=30,
    retry_backoff_max=3600,
    retry_jitter=True,
    max_retries=8,
    acks_late=True,
)
def task_mail_send(mail_id: int) -> bool:
    """Send one queued message; a failure (recorded on its row) is retried with backoff, about a day in all."""
    return mail_send(mail_id=mail_id)


@shared_task(name="ratings.tasks.task_season_daily")
def task_season_daily() -> dict[str, int]:
    """The daily messages (Celery beat): directors' reminders, the rating and grade officers' digests; and the
    players' subscriptions left unconfirmed too long go."""
    today = timezone.localdate()
    return {
        "reminders": deadline_reminders_queue(today=today),
        "digests": officer_digest_queue(today=today),
        "grade_digests": grade_digest_queue(today=today),
        "subscriptions_expired": subscriptions_expire(now=timezone.now()),
        "reports_expired": reports_expire(now=timezone.now()),
    }
