"""Celery tasks: thin interfaces that take ids and call one service (STYLE.md)."""

from __future__ import annotations

from celery import shared_task

from ratings.services.rerate import RerateBusy, rerate_pending


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
def task_rerate_pending(self: object) -> dict[str, object] | None:
    """Re-rate from the pending position, if anything is pending (a burst of requests runs at most twice)."""
    outcome = rerate_pending()
    if outcome is None:
        return None
    return {
        "tables_rated": outcome.tables_rated,
        "tables_unchanged": outcome.tables_unchanged,
        "rows_written": outcome.rows_written,
        "errors": {str(k): v for k, v in outcome.errors.items()},
        "cleared": outcome.cleared,
    }
