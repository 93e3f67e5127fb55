"""How every process logs: one JSON object a line on standard error (or plain text), for Django, Celery and
gunicorn alike (gunicorn.conf.py uses :func:`log_config` too).

Each line holds ``time`` (ISO 8601 with the offset from UTC, so lines from hosts in different zones sort
together), ``level``, ``logger``, ``message`` and ``request_id``. gunicorn's access lines add the request's
``method``, ``path``, ``status``, ``bytes``, ``duration_ms``, ``client`` (the proxy, behind one),
``forwarded_for`` (the address the proxy saw) and ``user_agent`` as fields of their own.
A page that is not found is an INFO line, not a WARNING: scanners ask for thousands, and a WARNING should mean
something an operator looks at. A request Django refuses as suspicious is a WARNING without traceback, not an
ERROR (:class:`ClientMistakes`). Nothing here imports Django's settings: gunicorn's master reads it before the
site is loaded.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Mapping
from typing import Any

from django.core.exceptions import SuspiciousOperation
from pythonjsonlogger.json import JsonFormatter


class SiteJsonFormatter(JsonFormatter):
    """python-json-logger's formatter with local times that carry their offset, and gunicorn's access fields."""

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        return dt.datetime.fromtimestamp(record.created).astimezone().isoformat(timespec="milliseconds")

    def add_fields(self, log_data: dict[str, Any], record: logging.LogRecord, message_dict: dict[str, Any]) -> None:
        super().add_fields(log_data, record, message_dict)
        if record.name == "gunicorn.access" and isinstance(record.args, Mapping):
            atoms = record.args
            log_data.update(
                method=atoms.get("m"),
                path=atoms.get("U"),
                status=_int(atoms.get("s")),
                bytes=atoms.get("B"),
                duration_ms=atoms.get("M"),
                client=atoms.get("h"),
                forwarded_for=atoms.get("{x-forwarded-for}i") if atoms.get("{x-forwarded-for}i") != "-" else None,
                user_agent=atoms.get("a"),
            )
            # The access line is written after the response, where the request's id is no longer current:
            # take the one the site sent back.
            if not log_data.get("request_id"):
                log_data["request_id"] = atoms.get("{x-request-id}o") or None


def _int(value: object) -> int | None:
    try:
        return int(str(value))
    except ValueError:
        return None


class NotFoundIsInfo(logging.Filter):
    """Django logs every 404 as a WARNING on ``django.request``; make it INFO."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno == logging.WARNING and getattr(record, "status_code", None) == 404:
            record.levelno = logging.INFO
            record.levelname = logging.getLevelName(logging.INFO)
            return logging.getLogger(record.name).isEnabledFor(logging.INFO)  # dropped where INFO is off
        return True


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


def log_config(*, log_format: str, level: str) -> dict[str, Any]:
    """The ``dictConfig`` of a process: one handler on standard error, every logger through the root."""
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {
            "request_id": {"()": "django_guid.log_filters.CorrelationId"},
            "not_found_is_info": {"()": NotFoundIsInfo},
            "client_mistakes": {"()": ClientMistakes},
        },
        "formatters": {
            "json": {
                "()": SiteJsonFormatter,
                "format": "%(asctime)s %(levelname)s %(name)s %(message)s %(correlation_id)s",
                "rename_fields": {
                    "asctime": "time",
                    "levelname": "level",
                    "name": "logger",
                    "correlation_id": "request_id",
                },
            },
            "text": {"format": "%(asctime)s %(levelname)s [%(correlation_id)s] %(name)s: %(message)s"},
        },
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "stream": "ext://sys.stderr",
                "filters": ["request_id", "not_found_is_info", "client_mistakes"],
                "formatter": log_format,
            }
        },
        # The root logger catches Django's own: a server error is logged by "django.request" with its traceback.
        "root": {"handlers": ["stderr"], "level": level},
        "loggers": {},
    }
