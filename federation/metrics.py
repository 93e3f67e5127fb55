"""Metrics for monitoring (Prometheus text format at /metrics), beside the health endpoints.

Requests: latency by view, responses by status, exceptions (django-prometheus's middleware). The site's own
work, read at each scrape from the database and the broker so that every process shows the same numbers: the
waiting re-rate and its age, re-rate runs by outcome with their total duration, the last run's duration, tables
that did not settle, and the depth of the Celery queue.

Not public: the endpoint answers only a request carrying ``Authorization: Bearer <METRICS_TOKEN>``; without the
variable it does not exist (404). With several gunicorn workers, PROMETHEUS_MULTIPROC_DIR makes the request
metrics add up over them (docs/deploy.md).
"""

from __future__ import annotations

import hmac
import os
from collections.abc import Iterator

import redis
from django.conf import settings
from django.db.models import Count, DurationField, ExpressionWrapper, F, Sum
from django.http import Http404, HttpRequest, HttpResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, generate_latest, multiprocess
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric, SummaryMetricFamily
from prometheus_client.registry import Collector

from ratings.models import OutgoingMail, PendingRerate, RerateRun
from ratings.selectors.settle import unresolved_tables

CELERY_QUEUE = "celery"


class SiteCollector(Collector):
    """The federation's own gauges and counters, from the database and the broker at each scrape."""

    def collect(self) -> Iterator[Metric]:
        pending = PendingRerate.objects.filter(pk=1).values_list("requested_at", flat=True).first()
        yield GaugeMetricFamily(
            "fesa_rerate_waiting", "1 while a re-rate is requested and not yet done", 1 if pending else 0
        )
        age = (timezone.now() - pending).total_seconds() if pending else 0.0
        yield GaugeMetricFamily("fesa_rerate_waiting_seconds", "How long the waiting re-rate has waited", age)

        runs = CounterMetricFamily("fesa_rerate_runs", "Re-rate runs by outcome", labels=["outcome"])
        for outcome, count in RerateRun.objects.values_list("outcome").annotate(n=Count("pk")).order_by():
            runs.add_metric([outcome], count)
        yield runs

        finished = RerateRun.objects.filter(finished_at__isnull=False)
        took = ExpressionWrapper(F("finished_at") - F("started_at"), output_field=DurationField())
        total = finished.aggregate(n=Count("pk"), seconds=Sum(took))
        seconds = total["seconds"].total_seconds() if total["seconds"] else 0.0
        yield SummaryMetricFamily(
            "fesa_rerate_duration_seconds",
            "Time the finished re-rate runs took",
            count_value=total["n"],
            sum_value=seconds,
        )
        last = finished.order_by("-finished_at").values_list("started_at", "finished_at").first()
        yield GaugeMetricFamily(
            "fesa_rerate_last_duration_seconds",
            "Time the latest finished re-rate run took",
            (last[1] - last[0]).total_seconds() if last and last[1] else 0.0,
        )
        yield CounterMetricFamily(
            "fesa_emails_failed",
            "Failed attempts to send a message (each is retried)",
            OutgoingMail.objects.aggregate(n=Sum("failures"))["n"] or 0,
        )
        yield GaugeMetricFamily(
            "fesa_tables_unsettled",
            "Tables that did not settle, waiting for a rating officer's decision",
            unresolved_tables().count(),
        )
        if settings.REDIS_URL:
            try:
                depth = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=1).llen(CELERY_QUEUE)
            except redis.RedisError:
                depth = -1  # the broker does not answer: /health/ready says so too
            yield GaugeMetricFamily("fesa_task_queue_depth", "Tasks waiting in the Celery queue (-1: no broker)", depth)


def _authorised(request: HttpRequest) -> bool:
    token = settings.METRICS_TOKEN
    given = request.headers.get("Authorization", "")
    return bool(token) and hmac.compare_digest(given.encode(), f"Bearer {token}".encode())


@never_cache
@require_GET
def metrics(request: HttpRequest) -> HttpResponse:
    if not _authorised(request):
        raise Http404
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        processes = CollectorRegistry()
        multiprocess.MultiProcessCollector(processes)
        requests = generate_latest(processes)
    else:
        requests = generate_latest(REGISTRY)
    site = CollectorRegistry()
    site.register(SiteCollector())
    return HttpResponse(requests + generate_latest(site), content_type=CONTENT_TYPE_LATEST)
