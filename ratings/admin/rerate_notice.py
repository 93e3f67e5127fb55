"""The message after an edit that re-rates: in the right tense, once the re-rate had its chance to run.

Without a broker the re-rate runs in-process when the edit's transaction commits (federation/settings.py,
CELERY_TASK_ALWAYS_EAGER); with one, a worker does it shortly after. The message is therefore decided on
commit, after the re-rate's own on-commit hook (hooks run in the order they were registered): if nothing is
pending any more, the tables were re-rated already and the message says so.
"""

from __future__ import annotations

from django.contrib import messages
from django.db import transaction
from django.http import HttpRequest

from ratings.selectors.rerate import rerate_is_pending


def report_rerate(request: HttpRequest, *, done: str, queued: str) -> None:
    """Add ``done`` if the re-rate ran by the time the edit committed, else ``queued``."""

    def report() -> None:
        messages.info(request, queued if rerate_is_pending() else done)

    transaction.on_commit(report)
