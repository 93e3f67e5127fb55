"""/metrics (federation/metrics.py): Prometheus text for monitoring, behind a token, with the re-rate's numbers."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
import redis
from django.test import Client
from django.utils import timezone
from prometheus_client.parser import text_string_to_metric_families

from ratings.models import PendingRerate, RerateRun, Table, TableResolution
from tests.conftest import skip_or_fail
from tests.factories import make_player, make_rating_officer, make_table

pytestmark = pytest.mark.django_db

TOKEN = "a-long-random-token-for-the-monitoring-server"


@pytest.fixture(autouse=True)
def token(settings: Any) -> None:
    settings.METRICS_TOKEN = TOKEN


def scrape(client: Client) -> dict[str, list[tuple[dict[str, str], float]]]:
    response = client.get("/metrics", headers={"authorization": f"Bearer {TOKEN}"})
    assert response.status_code == 200 and response["Content-Type"].startswith("text/plain")
    samples: dict[str, list[tuple[dict[str, str], float]]] = {}
    for family in text_string_to_metric_families(response.content.decode()):
        for sample in family.samples:
            samples.setdefault(sample.name, []).append((sample.labels, sample.value))
    return samples


@pytest.mark.parametrize("authorization", [None, "Bearer wrong", f"Basic {TOKEN}"])
def test_metrics_are_not_public(client: Client, authorization: str | None) -> None:
    headers = {"authorization": authorization} if authorization else {}
    assert client.get("/metrics", headers=headers).status_code == 404


def test_metrics_do_not_exist_without_a_token(client: Client, settings: Any) -> None:
    settings.METRICS_TOKEN = ""
    assert client.get("/metrics", headers={"authorization": "Bearer "}).status_code == 404


def test_metrics_count_requests_and_tell_the_rerates_state(client: Client) -> None:
    now = timezone.now()
    RerateRun.objects.create(started_at=now - dt.timedelta(seconds=30), finished_at=now - dt.timedelta(seconds=20),
                             outcome=RerateRun.Outcome.DONE)  # fmt: skip
    RerateRun.objects.create(started_at=now - dt.timedelta(seconds=10), finished_at=now - dt.timedelta(seconds=6),
                             outcome=RerateRun.Outcome.DONE)  # fmt: skip
    PendingRerate.objects.create(
        from_date=dt.date(2024, 1, 1), from_sequence=1, requested_at=now - dt.timedelta(minutes=2)
    )
    client.get("/")
    samples = scrape(client)
    assert samples["fesa_rerate_waiting"] == [({}, 1.0)]
    assert 119 <= samples["fesa_rerate_waiting_seconds"][0][1] <= 300
    assert ({"outcome": RerateRun.Outcome.DONE}, 2.0) in samples["fesa_rerate_runs_total"]
    assert samples["fesa_rerate_duration_seconds_count"] == [({}, 2.0)]
    assert samples["fesa_rerate_duration_seconds_sum"] == [({}, 14.0)]
    assert samples["fesa_rerate_last_duration_seconds"] == [({}, 4.0)]
    assert samples["fesa_tables_unsettled"] == [({}, 0.0)]
    assert any(name.startswith("django_http_requests") for name in samples)  # django-prometheus's request metrics


def test_metrics_give_the_task_queues_depth(client: Client, settings: Any) -> None:
    url = "redis://127.0.0.1:6379/3"  # a database the pipeline tests never pick
    broker = redis.Redis.from_url(url, socket_connect_timeout=1)
    try:
        broker.ping()
    except redis.RedisError:
        skip_or_fail("Redis at 127.0.0.1:6379")
    settings.REDIS_URL = url
    broker.delete("celery")
    broker.rpush("celery", "a task", "another task")
    try:
        assert scrape(client)["fesa_task_queue_depth"] == [({}, 2.0)]
    finally:
        broker.delete("celery")
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    assert scrape(client)["fesa_task_queue_depth"] == [({}, -1.0)]


def test_metrics_count_only_the_tables_waiting_for_a_decision(client: Client) -> None:
    cycle = {"players": [], "states": [[1500, 1500], [1510, 1490]]}
    players = [make_player() for _ in range(2)]
    waiting, resolved = make_table(players, date=dt.date(2026, 5, 10)), make_table(players, date=dt.date(2026, 5, 11))
    make_table(players, date=dt.date(2026, 5, 12))  # settled: no cycle
    Table.objects.filter(pk__in=[waiting.pk, resolved.pk]).update(cycle_states=cycle)
    TableResolution.objects.create(
        table=resolved,
        rule="mean",
        states=cycle,
        result={},
        resolved_by=make_rating_officer(),
        resolved_at=timezone.now(),
    )
    assert scrape(client)["fesa_tables_unsettled"] == [({}, 1.0)]
