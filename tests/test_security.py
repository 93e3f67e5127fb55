"""Security headers on every kind of page, login throttling for the admin, and the health endpoints."""

from __future__ import annotations

import datetime as dt
import uuid
from pathlib import Path

import pytest
import redis
from django.contrib.auth.models import User
from django.http import HttpResponse
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from federation import heartbeat
from ratings.models import PendingRerate
from tests.conftest import skip_or_fail

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("url", ["/", "/tournaments/", "/promotions/", "/admin/login/", "/health/ready"])
def test_security_headers_on_public_admin_and_health_pages(client: Client, url: str) -> None:
    response = client.get(url)
    assert response.status_code == 200
    csp = response.headers["Content-Security-Policy"]
    assert "default-src 'self'" in csp and "script-src 'self'" in csp and "style-src 'self'" in csp
    assert "unsafe-inline" not in csp and "frame-ancestors 'none'" in csp
    assert response.headers["Referrer-Policy"] == "same-origin"
    assert "camera=()" in response.headers["Permissions-Policy"]
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert uuid.UUID(response.headers["X-Request-ID"])


def test_templates_carry_no_inline_style_or_script() -> None:
    """The policy allows no inline style or script, so no template may need one."""
    templates = Path(__file__).resolve().parent.parent / "templates"
    offending = [
        str(path.relative_to(templates))
        for path in templates.rglob("*.html")
        if any(marker in path.read_text(encoding="utf-8") for marker in ("<style", "style=", "<script>", " onclick="))
    ]
    assert not offending


def _login(client: Client, password: str) -> int:
    return _login_response(client, password).status_code


def _login_response(client: Client, password: str) -> HttpResponse:
    return client.post("/admin/login/?next=/admin/", {"username": "officer", "password": password})


@override_settings(AXES_FAILURE_LIMIT=3)
def test_admin_login_is_locked_after_repeated_failures(client: Client) -> None:
    User.objects.create_user("officer", password="right-password-1", is_staff=True)
    assert [_login(client, "wrong") for _ in range(2)] == [200, 200]  # the form again, with its error
    assert _login(client, "wrong") == 429
    locked = _login_response(client, "right-password-1")  # even the right password waits for the cool-off
    assert locked.status_code == 429
    assert "Too many failed logins" in locked.content.decode()
    assert "_auth_user_id" not in client.session


@override_settings(AXES_FAILURE_LIMIT=3)
def test_admin_good_login_clears_the_failure_count(client: Client) -> None:
    User.objects.create_user("officer", password="right-password-1", is_staff=True)
    assert [_login(client, "wrong") for _ in range(2)] == [200, 200]
    assert _login(client, "right-password-1") == 302
    client.logout()
    assert [_login(client, "wrong") for _ in range(2)] == [200, 200]  # counting starts again


def test_health_live_answers_without_the_database(client: Client) -> None:
    response = client.get("/health/live")
    assert response.status_code == 200 and response.json() == {"status": "ok"}
    assert "no-cache" in response.headers["Cache-Control"]


def test_health_ready_in_process_is_ok(client: Client) -> None:
    body = client.get("/health/ready").json()
    assert body["status"] == "ok"
    assert set(body["checks"]) == {"database", "broker", "worker", "rerate", "mail"}


def test_health_ready_fails_on_a_re_rate_waiting_too_long(client: Client) -> None:
    PendingRerate.objects.create(
        from_date=dt.date(2024, 1, 1), from_sequence=1, requested_at=timezone.now() - dt.timedelta(hours=1)
    )
    response = client.get("/health/ready")
    assert response.status_code == 503
    assert response.json()["checks"]["rerate"] == {"ok": False, "detail": "pending for 3600 s"}


def test_health_ready_names_an_unreachable_broker_without_its_address(client: Client) -> None:
    with override_settings(REDIS_URL="redis://user:hunter2@127.0.0.1:1/0"):
        response = client.get("/health/ready")
    assert response.status_code == 503
    body = response.json()
    assert body["checks"]["broker"]["ok"] is False
    assert "hunter2" not in response.content.decode() and "127.0.0.1" not in response.content.decode()


@pytest.fixture
def redis_url() -> str:
    url = "redis://127.0.0.1:6379/15"
    try:
        redis.Redis.from_url(url, socket_connect_timeout=1).ping()
    except redis.RedisError:
        skip_or_fail("Redis at 127.0.0.1:6379")
    return url


def test_health_ready_follows_the_worker_heartbeat(client: Client, redis_url: str) -> None:
    with override_settings(REDIS_URL=redis_url):
        connection = redis.Redis.from_url(redis_url)
        connection.delete(heartbeat.HEARTBEAT_KEY)
        try:
            missing = client.get("/health/ready")
            assert missing.status_code == 503 and missing.json()["checks"]["worker"]["ok"] is False
            heartbeat.heartbeat_record()
            fresh = client.get("/health/ready")
            assert fresh.status_code == 200, fresh.json()
            connection.set(heartbeat.HEARTBEAT_KEY, repr(timezone.now().timestamp() - 600))
            stale = client.get("/health/ready").json()["checks"]["worker"]
            assert stale["ok"] is False and "600 s ago" in stale["detail"]
        finally:
            connection.delete(heartbeat.HEARTBEAT_KEY)


@pytest.mark.parametrize("unsafe", ["https://evil.example/admin/", "//evil.example/", "javascript:alert(1)"])
def test_admin_login_with_an_unsafe_next_lands_on_the_admin_index(client: Client, unsafe: str) -> None:
    User.objects.create_user("officer", password="right-password-1", is_staff=True)
    login = reverse("admin:login")
    response = client.post(
        f"{login}?next={unsafe}", {"username": "officer", "password": "right-password-1", "next": unsafe}
    )
    assert response.status_code == 302 and response["Location"] == reverse("admin:index")
