"""Two site instances, as on two web hosts: two gunicorns on one PostgreSQL database, one Redis for the shared
cache (``PAGE_CACHE_URL``, a database of its own) and one storage of derived files (``DOWNLOADS_DIR``).

What one instance builds for a data version (a page, the numbers kept by ``version_cached``) the other serves
from the cache: the test changes what the cache holds and sees the other instance serve the change, which it
could not have made itself. A change of the data is shown by both at once (the cache's keys hold the data
version), and a download written through the storage of derived files is served by both.
"""

from __future__ import annotations

import datetime as dt
import gzip
import http.client
import json
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import redis
from django.core.cache.backends.redis import RedisCache
from django.core.files.storage import storages
from django.db import connection

from ratings.selectors.stats import YearNumbers
from ratings.services.history_files import JSON_NAME, history_files_write
from tests.factories import make_table, round_robin
from tests.pipeline.conftest import claimed_redis_database, closed_port, process_env, running_process
from tests.pipeline.histories import submit
from tests.pipeline.test_worker import rated_history

pytestmark = [pytest.mark.services, pytest.mark.slow, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

HOST = "localhost"  # both instances are asked under the site's one name, as behind one proxy
STATISTICS = "/statistics/"
YEAR_ROW = re.compile(r'\?year=(\d{4})">\1</a></th><td class="num minor">(\d+)</td>')  # the year's rated tables


@contextmanager
def site_instance(env: dict[str, str], log: Path) -> Iterator[int]:
    """gunicorn serving the site on a free port of 127.0.0.1 with ``env``, stopped on leaving; yields the port."""
    port = closed_port()
    command = [str(Path(sys.executable).parent / "gunicorn"), "federation.wsgi", "--bind", f"127.0.0.1:{port}"]
    with running_process([*command, "--workers", "1"], env, log, ready=lambda: live(port)):
        yield port


def live(port: int) -> bool:
    try:
        return get(port, "/health/live")[0] == 200
    except OSError:
        return False


def get(port: int, path: str, *, language: str = "en") -> tuple[int, bytes]:
    """An anonymous visitor's GET (no cookie, nothing compressed), under the site's name."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request("GET", path, headers={"Host": HOST, "Accept-Language": language})
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def tables_by_year(port: int, *, language: str = "en") -> dict[int, int]:
    """The rated tables of each year, as the statistics page shows them."""
    status, body = get(port, STATISTICS, language=language)
    assert status == 200, body[:2000]
    return {int(year): int(n) for year, n in YEAR_ROW.findall(body.decode())}


@pytest.fixture
def two_instances(tmp_path: Path, settings: Any) -> Iterator[tuple[int, int, str]]:
    """Two instances on the test database, one Redis database for their cache and one downloads folder (this
    process writes there too); yields their ports and the cache's URL."""
    if connection.vendor != "postgresql":
        pytest.skip("two servers on one database: the PostgreSQL run (make test-postgres) has them")
    downloads = tmp_path / "downloads"
    settings.DOWNLOADS_DIR = downloads
    with claimed_redis_database() as cache_url:
        env = process_env(TESTS_SHARED_PAGE_CACHE="1", PAGE_CACHE_URL=cache_url, DOWNLOADS_DIR=str(downloads))
        with (
            site_instance(env, tmp_path / "first.log") as first,
            site_instance(env, tmp_path / "second.log") as second,
        ):
            yield first, second, cache_url


def keys(cache_url: str, pattern: str) -> list[str]:
    """The cache's keys matching ``pattern``, as Django names them (without its ``pages:1:`` prefix and version)."""
    client = redis.Redis.from_url(cache_url)
    return sorted(key.decode().removeprefix("pages:1:") for key in client.scan_iter(match=f"pages:1:{pattern}"))


def test_two_instances_share_the_cache_the_data_version_and_the_derived_files(
    two_instances: tuple[int, int, str],
) -> None:
    first, second, cache_url = two_instances
    cache = RedisCache(cache_url, {"KEY_PREFIX": "pages"})  # the shared cache as the instances reach it
    players, tables = rated_history()  # four tables in 2024, rated in this process

    # The first instance builds the page and the numbers of this data version once, into the shared cache.
    assert tables_by_year(first) == {2024: 4}
    (page,) = keys(cache_url, "page:*")
    (numbers,) = keys(cache_url, "version:*:federation-by-year")

    # The second serves the page the first stored: what the cache holds, not a page of its own.
    status, streamed, _compressed, _content, headers = cache.get(page)
    assert status == 200
    cache.set(page, (status, streamed, False, b"<p>stored by the other instance</p>", headers))
    assert get(second, STATISTICS) == (200, b"<p>stored by the other instance</p>")

    # Another page of the same version (another language) is made by the second instance with the numbers
    # the first built, read from the cache: it shows what the cache holds and builds no second copy.
    cache.set(numbers, [YearNumbers(year=1999, tables=7, games=21, new_players=7, promotions=0)])
    assert tables_by_year(second, language="fr") == {1999: 7}
    assert keys(cache_url, "version:*:federation-by-year") == [numbers]

    # A change of the data, in this process: both instances show it at once, under the new data version.
    newest = make_table(players[:4], date=tables[-1].date + dt.timedelta(days=7))
    round_robin(newest, players[:4])
    submit(newest)  # rated in this process
    assert tables_by_year(second, language="fr") == {2024: 5}
    assert tables_by_year(first) == {2024: 5}
    assert len(keys(cache_url, "version:*:federation-by-year")) == 2  # one build for each version

    # A download written through the storage of derived files is served by both, as written.
    history_files_write()
    with storages["derived"].open(JSON_NAME) as written:
        expected = written.read()
    path = f"/downloads/{JSON_NAME}"
    assert get(first, path) == (200, expected)
    assert get(second, path) == (200, expected)
    assert newest.pk in [table["id"] for table in json.loads(gzip.decompress(expected))["tables"]]
