"""A production start (DEBUG off, the variables of docs/deploy.md): no debug page, errors logged, the deploy
checks clean, the admin where ADMIN_URL puts it. Each case runs in a process of its own, with a fresh
environment, as a server would start."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # starts production processes

ROOT = Path(__file__).resolve().parent.parent
SECRET = "a-test-only-key-" + secrets.token_urlsafe(48)


STATIC_ROOT = Path(tempfile.mkdtemp(prefix="static-"))


def production_env(**extra: str) -> dict[str, str]:
    # The test process's own settings (test_settings sets DEBUG and LOG_FORMAT) must not leak into a production start.
    unset = {"DEBUG", "SECRET_KEY", "DATABASE_URL", "REDIS_URL", "LOG_FORMAT", "DJANGO_SETTINGS_MODULE"}
    env = {k: v for k, v in os.environ.items() if k not in unset}
    env.update(SECRET_KEY=SECRET, ALLOWED_HOSTS="ratings.example.org", PYTHONPATH=str(ROOT))
    env.update(STATIC_ROOT=str(STATIC_ROOT))
    env.update(extra)
    return env


def run_python(code: str, **extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=production_env(**extra), capture_output=True, text=True, timeout=60
    )


# A request that fails with a server error: the database is a file in a folder that does not exist.
SERVER_ERROR = """
import django, os
os.environ["DJANGO_SETTINGS_MODULE"] = "federation.settings"
django.setup()
from django.test import Client
client = Client(raise_request_exception=False, HTTP_HOST="ratings.example.org")
response = client.get("/", secure=True, HTTP_X_REQUEST_ID="8f14e45f-ceea-467f-a0e6-2f6d8e1c2a11")
print("STATUS", response.status_code)
print("REQUEST-ID", response.headers.get("X-Request-ID"))
print("BODY", response.content.decode())
"""


@pytest.fixture(scope="module")
def collected_static() -> None:
    """Production serves the hashed files collectstatic writes, as the documented start does."""
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput"],
        cwd=ROOT,
        env=production_env(),
        check=True,
        capture_output=True,
        timeout=120,
    )


@pytest.mark.usefixtures("collected_static")
def test_production_server_error_shows_no_debug_page_and_is_logged() -> None:
    missing = Path(tempfile.mkdtemp()) / "no-such-folder" / "db.sqlite3"
    secret_url = f"sqlite:///{missing}"
    result = run_python(SERVER_ERROR, DATABASE_URL=secret_url)
    out = result.stdout
    assert "STATUS 500" in out, result.stderr
    body = out.split("BODY", 1)[1]
    assert "Traceback" not in body and "DATABASE_URL" not in body and str(missing) not in body
    assert "SECRET_KEY" not in body and SECRET not in body
    assert "REQUEST-ID 8f14e45f-ceea-467f-a0e6-2f6d8e1c2a11" in out
    logged = [json.loads(line) for line in result.stderr.splitlines() if line.startswith("{")]
    errors = [entry for entry in logged if entry["level"] == "ERROR" and entry["logger"] == "django.request"]
    assert errors, result.stderr
    assert errors[0]["request_id"] == "8f14e45f-ceea-467f-a0e6-2f6d8e1c2a11"
    assert "OperationalError" in errors[0].get("exc_info", "")


@pytest.mark.usefixtures("collected_static")
def test_production_request_id_that_is_not_a_uuid_is_replaced() -> None:
    """A client cannot write into the logs through the header."""
    code = SERVER_ERROR.replace("8f14e45f-ceea-467f-a0e6-2f6d8e1c2a11", "evil injected line")
    result = run_python(code, DATABASE_URL=f"sqlite:///{Path(tempfile.mkdtemp()) / 'x' / 'db.sqlite3'}")
    request_id = result.stdout.split("REQUEST-ID ", 1)[1].split()[0]
    assert "evil" not in request_id and len(request_id) >= 32


def test_production_check_deploy_is_clean() -> None:
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=production_env(DATABASE_URL="postgres://fesa@127.0.0.1:5432/fesa", REDIS_URL="redis://127.0.0.1:6379/0"),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


@pytest.mark.parametrize(
    ("variable", "value", "expected"),
    [
        ("SECURE_SSL_REDIRECT", "0", "SECURE_SSL_REDIRECT False"),
        ("SECURE_HSTS_SECONDS", "600", "SECURE_HSTS_SECONDS 600"),
        ("SECURE_COOKIES", "0", "SESSION_COOKIE_SECURE False"),
        ("TRUST_X_FORWARDED_PROTO", "0", "SECURE_PROXY_SSL_HEADER None"),
    ],
)
def test_production_https_settings_follow_the_environment(variable: str, value: str, expected: str) -> None:
    name = expected.split()[0]
    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE'] = 'federation.settings'; django.setup();"
        f"from django.conf import settings; print({name!r}, getattr(settings, {name!r}, None))"
    )
    defaults = run_python(code)
    assert defaults.returncode == 0, defaults.stderr
    assert defaults.stdout.strip() != expected  # the default is the safe value
    changed = run_python(code, **{variable: value})
    assert changed.stdout.strip() == expected, changed.stderr


def test_admin_url_is_configurable() -> None:
    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE'] = 'federation.settings'; django.setup();"
        "from django.urls import reverse; print(reverse('admin:index'))"
    )
    assert run_python(code, ADMIN_URL="office/").stdout.strip() == "/office/"
    assert run_python(code).stdout.strip() == "/admin/"
