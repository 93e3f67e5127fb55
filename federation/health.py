"""Health endpoints for a load balancer and monitoring.

``/health/live``: the process answers (no database touched), for a container's liveness probe.
``/health/ready``: the site can do its work: the database answers, the broker answers, a worker renewed its
heartbeat lately, and no re-rate has been waiting too long. 200 when all hold, 503 otherwise, with a JSON body
naming each check. No personal data and no connection strings appear in it. E-mail that could not be sent
(``mail``) is said too, with the status ``degraded``, but keeps the 200: the pages still work, and a load
balancer must not take the site away because the mail server is down. A 503 is the probe doing its work, not a
server error: it is logged at INFO with the failing checks' names, not by Django at ERROR.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable

import redis
from django.conf import settings
from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.clickjacking import xframe_options_deny
from django.views.decorators.http import require_GET

from federation.heartbeat import heartbeat_age
from ratings.models import MailStatus, OutgoingMail, PendingRerate

logger = logging.getLogger(__name__)

WORKER_SILENT_AFTER = 180.0  # seconds without a heartbeat: six missed beats
RERATE_LATE_AFTER = dt.timedelta(minutes=10)  # a re-rate waits seconds normally; ten minutes is a stuck queue
MAIL_FAILING_WITHIN = dt.timedelta(days=2)  # the task retries a message for about a day; older ones are history

Check = tuple[bool, str]


@never_cache
@xframe_options_deny  # answered before XFrameOptionsMiddleware runs (federation/middleware.py)
@require_GET
def live(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"status": "ok"})


@never_cache
@xframe_options_deny
@require_GET
def ready(request: HttpRequest) -> JsonResponse:
    checks: dict[str, Callable[[], Check]] = {
        "database": _database,
        "broker": _broker,
        "worker": _worker,
        "rerate": _pending_rerate,
    }
    results = {name: _run(check) for name, check in checks.items()}
    healthy = all(ok for ok, _ in results.values())
    mail = _run(_mail)
    results["mail"] = mail
    body = {
        "status": ("ok" if mail[0] else "degraded") if healthy else "failing",
        "checks": {name: {"ok": ok, "detail": detail} for name, (ok, detail) in results.items()},
    }
    response = JsonResponse(body, status=200 if healthy else 503)
    if not healthy:
        failing = ", ".join(name for name, (ok, _) in results.items() if not ok)
        logger.info("ready probe: failing (%s)", failing)
        response._has_been_logged = True  # type: ignore[attr-defined]  # django.utils.log.log_response skips it
    return response


def _run(check: Callable[[], Check]) -> Check:
    try:
        return check()
    except (DatabaseError, redis.RedisError, OSError, ValueError) as exc:
        return False, type(exc).__name__  # the class only: messages can carry host names and users


def _database() -> Check:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return True, connection.vendor


def _broker() -> Check:
    if not settings.REDIS_URL:
        return True, "none: tasks run in-process"
    redis.Redis.from_url(settings.REDIS_URL, socket_timeout=1, socket_connect_timeout=1).ping()
    return True, "redis answers"


def _worker() -> Check:
    if not settings.REDIS_URL:
        return True, "none: tasks run in-process"
    age = heartbeat_age()
    if age is None:
        return False, "no heartbeat yet: are the worker and beat running?"
    if age > WORKER_SILENT_AFTER:
        return False, f"last heartbeat {age:.0f} s ago: are the worker and beat running?"
    return True, f"last heartbeat {age:.0f} s ago"


def _pending_rerate() -> Check:
    pending = PendingRerate.objects.filter(pk=1).values_list("requested_at", flat=True).first()
    if pending is None:
        return True, "nothing pending"
    waiting = timezone.now() - pending
    detail = f"pending for {waiting.total_seconds():.0f} s"
    return waiting <= RERATE_LATE_AFTER, detail


def _mail() -> Check:
    """Messages of the last two days that could not be sent yet: a wrong EMAIL_HOST, or the server refusing."""
    since = timezone.now() - MAIL_FAILING_WITHIN
    failing = OutgoingMail.objects.filter(status=MailStatus.FAILED, created_at__gte=since)
    count = failing.count()
    if not count:
        return True, "no message failing"
    # The error's first words (e.g. "[Errno 111] Connection refused"): the exception's text, not the address.
    error = failing.order_by("-created_at").values_list("last_error", flat=True).first() or ""
    return False, f"{count} message(s) not sent: {error[:80]} (check EMAIL_HOST, docs/deploy.md)"
