"""Log filters of the site (federation/settings.py ``LOGGING``)."""

from __future__ import annotations

import logging

from django.core.exceptions import SuspiciousOperation


class ClientMistakes(logging.Filter):
    """A request Django refuses as suspicious (a host not allowed, too many fields, a malformed header) is the
    client's mistake, answered 400: logged as a WARNING without its traceback, never as an ERROR, so that no one
    can fill the error log by sending such requests. The message still names what was refused."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if record.name.startswith("django.security.") and isinstance(exc, SuspiciousOperation):
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            record.exc_info, record.exc_text = None, None
        return True
