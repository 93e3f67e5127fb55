"""The site's e-mail: every message goes through the outbox (outbox.py), one row per event and recipient, and
is sent by a Celery task after the transaction that decided it commits, never inside a request."""

from __future__ import annotations

from ratings.services.mail.links import site_link
from ratings.services.mail.outbox import MAIL_TASK, mail_queue, mail_send

__all__ = ["MAIL_TASK", "mail_queue", "mail_send", "site_link"]
