"""Settings come from the environment and fail loudly on malformed values."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from federation.env import env_bool, env_int, env_list, env_url

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(("raw", "expected"), [("1", True), ("yes", True), ("ON", True), ("0", False), ("off", False)])
def test_env_bool_reads_usual_spellings(monkeypatch: pytest.MonkeyPatch, raw: str, expected: bool) -> None:
    monkeypatch.setenv("X_FLAG", raw)
    assert env_bool("X_FLAG", not expected) is expected


@pytest.mark.parametrize(
    ("func", "raw"),
    [(env_bool, "maybe"), (env_int, "12a"), (env_list, " , ")],
)
def test_env_malformed_value_raises_naming_the_variable(monkeypatch: pytest.MonkeyPatch, func, raw: str) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("X_VALUE", raw)
    with pytest.raises(ImproperlyConfigured, match="X_VALUE"):
        func("X_VALUE", None)


def test_env_url_rejects_wrong_scheme(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_URL", "mysql://localhost/db")
    with pytest.raises(ImproperlyConfigured, match="DATABASE_URL"):
        env_url("DATABASE_URL", {"postgres", "sqlite"})


def test_env_url_unset_is_none(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REDIS_URL", raising=False)
    assert env_url("REDIS_URL", {"redis"}) is None


def _check(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "SECRET_KEY", "DATABASE_URL", "REDIS_URL"}}
    clean.pop("DJANGO_SETTINGS_MODULE", None)
    return subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env={**clean, **env}, capture_output=True, text=True
    )


def test_settings_malformed_debug_stops_startup() -> None:
    result = _check({"DEBUG": "perhaps"})
    assert result.returncode != 0
    assert "DEBUG='perhaps'" in result.stderr


def test_settings_production_without_secret_key_stops_startup() -> None:
    result = _check({"DEBUG": "0"})
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_settings_without_any_variable_are_production_and_ask_for_a_key() -> None:
    """DEBUG is off unless asked for: a forgotten variable never serves Django's debug page."""
    result = _check({})
    assert result.returncode != 0
    assert "SECRET_KEY must be set (DEBUG is off)" in result.stderr


def test_settings_development_starts_with_debug_alone() -> None:
    result = _check({"DEBUG": "1"})
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(
    ("key", "problem"),
    [
        ("short-but-secret", "too short"),
        ("a" * 60, "too short"),  # long, but one character: Django's own check refuses fewer than 5 distinct
        ("local-development-only-not-secret", "development key"),
        ("django-insecure-" + "x1y2z3" * 10, "development key"),
    ],
)
def test_settings_production_refuses_a_weak_secret_key(key: str, problem: str) -> None:
    result = _check({"DEBUG": "0", "SECRET_KEY": key})
    assert result.returncode != 0
    assert problem in result.stderr


def test_settings_malformed_api_rate_stops_startup() -> None:
    result = _check({"DEBUG": "1", "API_ANON_RATE": "lots"})
    assert result.returncode != 0
    assert "API_ANON_RATE='lots'" in result.stderr


GOOD_KEY = "a-test-only-key-" + "k3y" * 20


def test_settings_production_without_database_url_stops_startup() -> None:
    """A shell or unit without the site's variables must not run on an empty SQLite file beside the code."""
    result = _check({"DEBUG": "0", "SECRET_KEY": GOOD_KEY})
    assert result.returncode != 0
    assert "DATABASE_URL must be set (DEBUG is off)" in result.stderr


def test_settings_production_with_a_sqlite_url_given_on_purpose_starts(tmp_path: Path) -> None:
    result = _check({"DEBUG": "0", "SECRET_KEY": GOOD_KEY, "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"})
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(
    ("variables", "message"),
    [
        ({"TRUSTED_PROXIES": "127.0.0.1,proxy.example.org"}, "TRUSTED_PROXIES: 'proxy.example.org'"),
        ({"DOWNLOADS_STORAGE": "ftp"}, "DOWNLOADS_STORAGE='ftp'"),
        ({"DOWNLOADS_STORAGE": "s3"}, "DOWNLOADS_S3_BUCKET must be set"),
    ],
)
def test_settings_malformed_proxy_or_storage_stops_startup(variables: dict[str, str], message: str) -> None:
    result = _check({"DEBUG": "1", **variables})
    assert result.returncode != 0
    assert message in result.stderr


def test_settings_database_password_needs_no_escaping() -> None:
    """compose passes POSTGRES_PASSWORD as it is: one with @ : / # must reach the driver unchanged."""
    password = "p@ss:w/rd#1%"
    code = "import django; django.setup(); from django.conf import settings; print(settings.DATABASES['default'])"
    clean = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "SECRET_KEY", "DATABASE_URL", "REDIS_URL"}}
    clean.update(
        DJANGO_SETTINGS_MODULE="federation.settings",
        DEBUG="0",
        SECRET_KEY=GOOD_KEY,
        DATABASE_URL="postgres://fesa@db:5432/fesa",
        DATABASE_PASSWORD=password,
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=clean, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert f"'PASSWORD': {password!r}" in result.stdout and "'HOST': 'db'" in result.stdout


def _settings_python(code: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "SECRET_KEY", "DATABASE_URL", "REDIS_URL"}}
    clean.update(DJANGO_SETTINGS_MODULE="federation.settings", DEBUG="1")
    setup = "import django; django.setup()\n"
    return subprocess.run(
        [sys.executable, "-c", setup + code], cwd=ROOT, env={**clean, **env}, capture_output=True, text=True
    )


def test_a_link_signed_before_a_key_rotation_works_with_the_old_key_in_the_fallbacks() -> None:
    """The unsubscribe links already delivered were signed with the old SECRET_KEY and never expire."""
    old, new = GOOD_KEY, "a-newer-test-key-" + "n3w" * 20
    sign = "from ratings.services.season.subscriptions import UNSUBSCRIBE_SALT as S\n"
    sign += "from django.core import signing\nprint(signing.Signer(salt=S).sign('42'))"
    token = _settings_python(sign, {"SECRET_KEY": old}).stdout.strip()
    unsign = f"from ratings.services.season.subscriptions import unsubscribe_id\nprint(unsubscribe_id({token!r}))"
    assert _settings_python(unsign, {"SECRET_KEY": new}).stdout.strip() == "None"  # the rotation alone breaks it
    kept = _settings_python(unsign, {"SECRET_KEY": new, "SECRET_KEY_FALLBACKS": f"{old},"})
    assert kept.stdout.strip() == "42", kept.stderr


def test_the_federation_zone_is_a_variable_and_a_wrong_one_stops_the_start() -> None:
    shown = _settings_python("from django.conf import settings; print(settings.TIME_ZONE)", {"TIME_ZONE": "Asia/Tokyo"})
    assert shown.stdout.strip() == "Asia/Tokyo", shown.stderr
    result = _check({"DEBUG": "1", "TIME_ZONE": "Europe/Lutece"})
    assert result.returncode != 0
    assert "TIME_ZONE='Europe/Lutece'" in result.stderr
