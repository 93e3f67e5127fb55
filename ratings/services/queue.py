"""Queueing a task by its registered name: the one way the services and the tasks hand work to Celery.

A service never imports ratings/tasks.py (the tasks import the services): it names the task, and a process that
has not imported the tasks modules yet (a web or command process) has Celery's autodiscovery import them once.
Without a broker (CELERY_TASK_ALWAYS_EAGER) the task runs in-process, right there.

A task is queued once the caller's transaction commits, so that it sees the rows that asked for it and is not
queued for a change rolled back. A broker that is down fails in many ways; each is logged as a WARNING that says
what happens meanwhile, never raised: what asked for the task is saved, and something else catches up (the beat,
a worker's start, the next run).
"""

from __future__ import annotations

import logging

from django.db import transaction

from federation.celery import app as celery_app

log = logging.getLogger(__name__)


def enqueue(name: str, *args: int, failure: str, after_commit: bool = True) -> None:
    """Queue the task registered as ``name`` with ``args`` (ids only, STYLE.md) once the current transaction
    commits, or at once with ``after_commit=False`` (a task queueing the next one: no transaction of its own).
    ``failure``: the warning logged when it cannot be queued, saying what becomes of the work."""

    def send() -> None:
        try:
            if name not in celery_app.tasks:
                celery_app.loader.import_default_modules()
            celery_app.tasks[name].delay(*args)
        except Exception:  # an unreachable broker fails in many ways
            log.warning(failure, exc_info=True)

    if after_commit:
        transaction.on_commit(send, robust=True)
    else:
        send()
