"""The Celery app. With ``REDIS_URL`` set a worker does the work; without it tasks run in-process.

Settings come from Django's under the ``CELERY_`` prefix (federation/settings.py).
"""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "federation.settings")

app = Celery("federation")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
