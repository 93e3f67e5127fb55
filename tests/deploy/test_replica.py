"""Public reads on a PostgreSQL replica (federation/replica.py), and the rule for replica lag.

Two real databases: a primary, migrated, and a copy of it standing for the replica. A site started with
``DATABASE_REPLICA_URL`` reads an anonymous visitor's page from the replica while the replica has the primary's
data version; once the primary has a change the replica lacks (a lagging replica), and for anyone with a session
or any request that is not a GET, it reads the primary alone.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest

from tests.conftest import skip_or_fail

pytestmark = [pytest.mark.services, pytest.mark.slow]

ROOT = Path(__file__).resolve().parent.parent.parent

# Which database each request's queries went to, as the site routes them.
REQUESTS = """
import django, json
django.setup()
from django.db import connections
from django.test import Client

def count(alias, log):
    def wrapper(execute, sql, params, many, context):
        log[alias] = log.get(alias, 0) + 1
        return execute(sql, params, many, context)
    return wrapper

out = {}
cases = {
    "anonymous": (Client(HTTP_HOST="localhost"), "get"),
    "session": (Client(HTTP_HOST="localhost", HTTP_COOKIE="sessionid=x"), "get"),
    "post": (Client(HTTP_HOST="localhost"), "post"),
}
for name, (client, method) in cases.items():
    log = {}
    with connections["default"].execute_wrapper(count("default", log)), \\
            connections["replica"].execute_wrapper(count("replica", log)):
        response = getattr(client, method)("/statistics/")
    out[name] = {"status": response.status_code, **log}
print(json.dumps(out))
"""


def _psql(admin_url: str, sql: str) -> None:
    subprocess.run(["psql", admin_url, "-q", "-c", sql], check=True, capture_output=True, timeout=120)


@pytest.fixture(scope="module")
def databases() -> Iterator[tuple[str, str]]:
    """A migrated primary and a replica made from it; both dropped afterwards."""
    base = os.environ.get("DATABASE_URL", "")
    if not base.startswith(("postgres://", "postgresql://")):  # the SQLite run: the machine's PostgreSQL
        base = "postgres://postgres@127.0.0.1:5432/test"
    try:
        psycopg.connect(base, connect_timeout=3).close()
    except psycopg.Error as exc:
        skip_or_fail(f"needs PostgreSQL at {urlsplit(base).hostname}: {exc}")
    parts = urlsplit(base)
    admin = urlunsplit(parts._replace(path="/postgres"))
    stem = f"{parts.path.lstrip('/') or 'fesa'}_replica_{uuid.uuid4().hex[:8]}"
    primary, replica = urlunsplit(parts._replace(path=f"/{stem}_p")), urlunsplit(parts._replace(path=f"/{stem}_r"))
    _psql(admin, f'CREATE DATABASE "{stem}_p"')
    try:
        run_site("manage.py", "migrate", "--noinput", "-v0", primary=primary)
        _psql(admin, f'CREATE DATABASE "{stem}_r" TEMPLATE "{stem}_p"')
        yield primary, replica
    finally:
        for name in (f"{stem}_r", f"{stem}_p"):
            _psql(admin, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def run_site(*args: str, primary: str, replica: str | None = None) -> str:
    env = {k: v for k, v in os.environ.items() if k not in {"DJANGO_SETTINGS_MODULE", "DATABASE_URL", "REDIS_URL"}}
    env.update(DEBUG="1", DATABASE_URL=primary, PAGE_CACHE="0", DJANGO_SETTINGS_MODULE="federation.settings")
    if replica:
        env["DATABASE_REPLICA_URL"] = replica
    done = subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def routed(primary: str, replica: str) -> dict[str, dict[str, int]]:
    result: dict[str, dict[str, int]] = json.loads(
        run_site("-c", REQUESTS, primary=primary, replica=replica).splitlines()[-1]
    )
    return result


def test_public_reads_go_to_a_replica_that_has_caught_up_and_never_to_a_lagging_one(
    databases: tuple[str, str],
) -> None:
    primary, replica = databases
    caught_up = routed(primary, replica)
    assert caught_up["anonymous"]["status"] == 200
    # The data version is asked of both (one query each); the page's own reads go to the replica.
    assert caught_up["anonymous"]["replica"] > 1 and caught_up["anonymous"]["default"] >= 1
    for staff_or_write in ("session", "post"):
        assert "replica" not in caught_up[staff_or_write], caught_up

    # A change on the primary the replica has not received yet: a tournament, which writes an audit row.
    create = "from ratings.models import Tournament; import datetime as dt; day = dt.date(2026, 1, 10); "
    create += "Tournament.objects.create(name='Only on the primary', start_date=day, end_date=day)"
    run_site("manage.py", "shell", "-c", create, primary=primary)
    lagging = routed(primary, replica)
    assert lagging["anonymous"]["status"] == 200
    assert lagging["anonymous"]["replica"] == 1, lagging  # its version only: it is behind, so the primary serves
    assert lagging["anonymous"]["default"] > caught_up["anonymous"]["default"]
