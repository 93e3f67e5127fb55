"""A production start (DEBUG off, the variables of docs/deploy.md): no debug page, errors logged, the deploy
checks clean, the admin where ADMIN_URL puts it. Each case runs in a process of its own, with a fresh
environment, as a server would start."""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
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
    env.update(STATIC_ROOT=str(STATIC_ROOT), DATABASE_URL=f"sqlite:///{STATIC_ROOT.parent / 'production.sqlite3'}")
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
        env=production_env(
            DATABASE_URL="postgres://fesa@127.0.0.1:5432/fesa",
            REDIS_URL="redis://127.0.0.1:6379/0",
            DATA_LICENCE_NAME="CC0 1.0",
            DATA_LICENCE_URL="https://creativecommons.org/publicdomain/zero/1.0/",
        ),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        ({}, "federation.W001"),  # the data's licence left to the default: the federation never chose it
        ({"DATA_LICENCE_NAME": "CC0 1.0", "PROXY_COUNT": "1"}, "federation.W002"),  # one rule: TRUSTED_PROXIES
        (
            {"DATA_LICENCE_NAME": "CC0 1.0", "PAGE_CACHE_URL": "redis://127.0.0.1:6379"},
            "federation.E002",  # the pages in the broker's database: rewrite_derived_files and maxmemory reach both
        ),
    ],
)
def test_production_check_deploy_asks_what_the_federation_must_choose(extra: dict[str, str], said: str) -> None:
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=production_env(
            DATABASE_URL="postgres://fesa@127.0.0.1:5432/fesa", REDIS_URL="redis://127.0.0.1:6379/0", **extra
        ),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1
    assert said in result.stderr + result.stdout


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


# A request as a monitor inside the network makes it: by the process's address, over plain HTTP.
REQUEST_BY_ADDRESS = """
import django, os
os.environ["DJANGO_SETTINGS_MODULE"] = "federation.settings"
django.setup()
from django.test import Client
client = Client(raise_request_exception=False, HTTP_HOST="10.1.2.3:8000")
for path in ("/health/live", "/health/ready", "/"):
    print("STATUS", path, client.get(path).status_code)
print("STATUS 404", Client(HTTP_HOST="ratings.example.org").get("/no-such-page/", secure=True).status_code)
"""


@pytest.mark.usefixtures("collected_static")  # the refused host's 400 page names static files
def test_production_health_answers_by_address_without_an_error_logged(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    migrated = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
        cwd=ROOT,
        env=production_env(DATABASE_URL=database),
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert migrated.returncode == 0, migrated.stderr
    result = run_python(REQUEST_BY_ADDRESS, DATABASE_URL=database)
    assert "STATUS /health/live 200" in result.stdout, result.stderr
    assert "STATUS /health/ready 200" in result.stdout  # no broker configured: the checks that apply pass
    assert "STATUS / 400" in result.stdout  # every other path keeps Django's host check
    assert "STATUS 404 404" in result.stdout
    logged = [json.loads(line) for line in result.stderr.splitlines() if line.startswith("{")]
    # The page, not the probes; a client's mistake: a WARNING without traceback, never an ERROR (federation/logs.py).
    (host_refused,) = [e for e in logged if "10.1.2.3" in e["message"]]
    assert "'/'" in host_refused.get("request", ""), logged
    assert host_refused["level"] == "WARNING" and "exc_info" not in host_refused, host_refused
    assert not [e for e in logged if e["level"] == "ERROR"], logged
    (not_found,) = [e for e in logged if e["logger"] == "django.request" and e.get("status_code") == 404]
    assert not_found["level"] == "INFO"
    # Times carry their offset from UTC: lines of hosts in different zones sort together.
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d", not_found["time"])


def test_production_start_refuses_uncompiled_translations(tmp_path: Path) -> None:
    """A site whose catalogues were never compiled would serve English to French and German visitors."""
    locale = tmp_path / "locale"
    shutil.copytree(ROOT / "locale", locale, ignore=shutil.ignore_patterns("*.mo"))
    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE'] = 'federation.settings'; django.setup();"
        f"from django.conf import settings; settings.LOCALE_PATHS = [{str(locale)!r}];"
        "from django.core.management import call_command; call_command('check')"
    )
    refused = run_python(code)
    assert refused.returncode != 0
    assert "federation.E001" in refused.stderr and "compile_translations" in refused.stderr
    compiled = run_python(
        code.replace("call_command('check')", "call_command('compile_translations'); call_command('check')")
    )
    assert compiled.returncode == 0, compiled.stderr
    compiled_languages = sorted(p.parent.parent.name for p in locale.glob("*/LC_MESSAGES/django.mo"))
    assert compiled_languages == ["de", "es", "fr", "it", "ja", "nl", "pl"]
