"""The Django project: settings, URLs and the Celery app of the federation site."""

from __future__ import annotations

from .celery import app as celery_app

__all__ = ["celery_app"]
