"""Faults of the machinery and clients' mistakes never give a 500 nor an ERROR in the log: Redis down, a database
connection dropped under a worker, a NUL byte in a path, a refused query string, a host not allowed."""

from __future__ import annotations

import io
import logging
import socket
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_started
from django.db import connection, connections
from django.test import Client
from django.urls import reverse

from federation.throttling import LOCAL_COUNT
from tests.api.conftest import fresh_request_count  # noqa: F401 - fixture: a fresh API request count
from tests.factories import make_player

pytestmark = pytest.mark.django_db


def closed_port() -> int:
    """A local port nothing listens on: bound, then released."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def redis_down(settings: Any) -> None:
    """The throttle's cache points at a Redis that is not there; no request is counted in the process yet."""
    LOCAL_COUNT.clear()
    settings.CACHES = {
        **settings.CACHES,
        "api-throttle": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{closed_port()}/0",
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        },
    }


@pytest.fixture
def site_log() -> Iterator[io.StringIO]:
    """What the site's own log handler (settings.LOGGING, stderr) writes, with its filters, during the test."""
    (handler,) = [h for h in logging.getLogger().handlers if h.get_name() == "stderr"]
    assert isinstance(handler, logging.StreamHandler)
    written = io.StringIO()
    previous = handler.setStream(written)
    yield written
    handler.setStream(previous)


def test_the_api_and_its_schema_answer_while_redis_is_down(
    client: Client, redis_down: None, settings: Any, caplog: pytest.LogCaptureFixture
) -> None:
    make_player(family_name="Rossi")
    for url in (reverse("api-v1:players"), reverse("api-v1:schema"), reverse("api-v1:players")):
        response = client.get(url)
        assert response.status_code == 200, response.content[:300]
    warnings = [r for r in caplog.records if r.name == "federation.throttling"]
    assert [r.levelname for r in warnings] in ([], ["WARNING"])  # at most once a minute in a process
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def test_while_redis_is_down_the_limit_is_counted_in_the_process(
    client: Client, redis_down: None, settings: Any
) -> None:
    settings.API_ANON_RATE = "2/minute"
    url = reverse("api-v1:schema")
    assert [client.get(url).status_code for _ in range(3)] == [200, 200, 429]


@pytest.mark.django_db(transaction=True)
def test_a_connection_the_database_dropped_is_replaced_before_the_next_request(client: Client) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("a PostgreSQL backend to terminate: the PostgreSQL run (make test-postgres) has it")
    assert connection.settings_dict["CONN_HEALTH_CHECKS"]
    make_player(family_name="Rossi")
    assert client.get(reverse("api-v1:players")).status_code == 200
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (pid,) = cursor.fetchone()
    other = connections.create_connection("default")
    try:
        with other.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
    finally:
        other.close()
    # A server's every request starts with request_started, whose handler checks the kept connections (the test
    # client leaves that handler out of its requests, so send it as a worker's next request would).
    request_started.send(sender=WSGIHandler)
    response = client.get(reverse("api-v1:players"), {"q": "rossi"})
    assert response.status_code == 200
    assert response.json()["count"] == 1


@pytest.mark.parametrize("path", ["/players/%00/", "/api/v1/players/%00/", "/api/v1/players/a%1fb/history/"])
def test_a_control_character_in_the_path_is_a_404(client: Client, path: str, site_log: io.StringIO) -> None:
    response = client.get(path)
    assert response.status_code == 404
    if path.startswith("/api/"):
        assert response.json() == {"detail": "No such endpoint, player, table or page."}
    assert "ERROR" not in site_log.getvalue() and "Traceback" not in site_log.getvalue()


@pytest.mark.parametrize("url", ["/?q=%00", "/api/v1/players/?q=a%07b", "/search/?q=" + "x" * 1001])
def test_a_refused_query_string_is_a_400_logged_as_a_warning_without_traceback(
    client: Client, url: str, site_log: io.StringIO
) -> None:
    response = client.get(url)
    assert response.status_code == 400
    log = site_log.getvalue()
    assert "WARNING" in log and "refused: " in log
    assert "ERROR" not in log and "Traceback" not in log


def test_a_host_not_allowed_is_logged_as_a_warning_without_traceback(client: Client, site_log: io.StringIO) -> None:
    response = client.get("/", HTTP_HOST="elsewhere.example")
    assert response.status_code == 400
    log = site_log.getvalue()
    assert "WARNING" in log and "elsewhere.example" in log
    assert "ERROR" not in log and "Traceback" not in log
