"""Celery tasks: thin interfaces that take ids and call one service (STYLE.md)."""

from __future__ import annotations

import logging
from typing import Any

from celery import Task, shared_task
from django.conf import settings

from ratings.services.rerate import RerateBusy, rerate_pending

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
    broker), it neither waits nor retries: the run holding the lock sees the request and runs again.
    """
    eager = bool(self.request.is_eager)
    try:
        outcome = rerate_pending(quiet=0.0 if eager else float(settings.RERATE_QUIET_SECONDS))
    except RerateBusy:
        if not eager:
            raise
        log.info("another re-rate is running; it will serve this request too")
        return None
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
