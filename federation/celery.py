"""The Celery app. With ``REDIS_URL`` set a worker does the work; without it tasks run in-process.

Settings come from Django's under the ``CELERY_`` prefix (federation/settings.py).
"""

from __future__ import annotations

import os
from typing import Any

from celery import Celery
from celery.signals import beat_init, worker_ready

from federation.beat_guard import beat_guard_take
from federation.heartbeat import heartbeat_record

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "federation.settings")

app = Celery("federation")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_ready.connect
def queue_pending_rerate(sender: Any = None, **kwargs: Any) -> None:
    """A worker that starts queues the re-rate for itself (on the first queue it consumes). The task does
    nothing unless a request was left pending: a broker that was down when it was made, a worker killed in
    the middle of a run."""
    consumed = sorted(app.amqp.queues.consume_from or ())
    app.send_task("ratings.tasks.task_rerate_pending", queue=consumed[0] if consumed else None)
    heartbeat_record()


@app.task(name="federation.worker_heartbeat", ignore_result=True)
def worker_heartbeat() -> None:
    """Queued by beat; the readiness probe reads when a worker last ran it (federation/health.py)."""
    heartbeat_record()


@beat_init.connect
def one_beat_only(sender: Any = None, **kwargs: Any) -> None:
    """A second beat stops here, before it queues anything (federation/beat_guard.py)."""
    beat_guard_take()
