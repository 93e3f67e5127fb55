"""The derived files in an S3-compatible bucket (``DOWNLOADS_STORAGE=s3``, docs/deploy.md), against a real
S3-compatible server: moto's, started by the test on a free port of 127.0.0.1.

The storage is configured as the doc tells a volunteer: the environment variables it names, read by the same
code the settings run at start-up (``derived_storage_setting``), and once by a ``manage.py`` process started
with nothing but that environment. Checked: a re-rate writes the rating history downloads into the bucket, the
downloads page lists them and their URLs stream them from the bucket; ``rewrite_derived_files`` rewrites them
there; a bucket that stops answering is logged as an ERROR, the re-rate stands, the page says the files cannot be
reached, and the next write puts them back whole. The official lists' all.txt files live in the database (a
backup holds them), not in the store, and are served while it is down.
"""

from __future__ import annotations

import csv
import datetime as dt
import gzip
import io
import json
import logging
import subprocess
import sys
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.core.files.storage import storages
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse

from federation.settings import derived_storage_setting
from ratings.models import OfficialList, RatingRow, Table, TableStatus
from ratings.services.history_files import CSV_NAME, HISTORY_FILES, JSON_NAME, history_files_write
from ratings.services.official_lists import official_list_publish
from ratings.services.tables.submit import table_submit
from tests.conftest import skip_or_fail
from tests.factories import make_player, make_table, make_user, round_robin
from tests.pipeline.conftest import REPO, closed_port, process_env

pytestmark = pytest.mark.services

REGION = "eu-west-1"
PREFIX = "downloads"  # DOWNLOADS_S3_PREFIX's default, as the doc says
KEYS = {"AWS_ACCESS_KEY_ID": "fesa-test", "AWS_SECRET_ACCESS_KEY": "fesa-test-secret"}


@dataclass
class Bucket:
    """A bucket of the test's S3-compatible server, and the environment that points the site at it."""

    server: Any  # moto.server.ThreadedMotoServer
    port: int
    name: str
    running: bool = True

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def env(self) -> dict[str, str]:
        """The site's environment for this bucket, as docs/deploy.md names it."""
        return {
            "DOWNLOADS_STORAGE": "s3",
            "DOWNLOADS_S3_BUCKET": self.name,
            "DOWNLOADS_S3_ENDPOINT_URL": self.endpoint,
            "DOWNLOADS_S3_REGION": REGION,
            **KEYS,
        }

    def client(self) -> Any:
        import boto3

        return boto3.client("s3", endpoint_url=self.endpoint, region_name=REGION, **_boto_keys())

    def keys(self) -> list[str]:
        listing = self.client().list_objects_v2(Bucket=self.name)
        return sorted(item["Key"] for item in listing.get("Contents", []))

    def read(self, name: str) -> bytes:
        """A derived file as the bucket holds it, uncompressed."""
        body = self.client().get_object(Bucket=self.name, Key=f"{PREFIX}/{name}")["Body"].read()
        return gzip.decompress(body)

    def stop(self) -> None:
        self.server.stop()
        self.running = False

    def start(self) -> None:
        """Start the server again on the same port, with the buckets it held (moto keeps them in this process)."""
        from moto.server import ThreadedMotoServer

        self.server = ThreadedMotoServer(ip_address="127.0.0.1", port=self.port, verbose=False)
        self.server.start()
        self.running = True


def _boto_keys() -> dict[str, str]:
    return {"aws_access_key_id": KEYS["AWS_ACCESS_KEY_ID"], "aws_secret_access_key": KEYS["AWS_SECRET_ACCESS_KEY"]}


@pytest.fixture
def bucket(monkeypatch: pytest.MonkeyPatch, settings: Any) -> Iterator[Bucket]:
    """An S3-compatible server with one empty bucket, and the storage of derived files set to it from the
    environment the doc gives; at the end the server forgets its buckets and stops."""
    try:
        import boto3  # noqa: F401 - the site's own requirement
        from moto.server import ThreadedMotoServer
    except ImportError:
        skip_or_fail("moto[server] is not installed (requirements-dev.txt)")
    port = closed_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    found = Bucket(server=server, port=port, name=f"fesa-{uuid.uuid4().hex[:12]}")
    try:
        found.client().create_bucket(Bucket=found.name, CreateBucketConfiguration={"LocationConstraint": REGION})
        for name, value in found.env().items():
            monkeypatch.setenv(name, value)
        settings.STORAGES = {**settings.STORAGES, "derived": derived_storage_setting()}
        yield found
    finally:
        if not found.running:
            found.start()
        reset = urllib.request.Request(f"{found.endpoint}/moto-api/reset", method="POST")
        urllib.request.urlopen(reset, timeout=30).close()  # moto keeps the buckets in this process
        found.stop()


def rated(players: list[Any], date: dt.date, capture: Callable[..., Any]) -> Table:
    """A round robin submitted and rated in-process, with what the submission queues after commit (the
    re-rate, then the downloads' task)."""
    table = make_table(players, date=date)
    round_robin(table, players)
    with capture(execute=True):
        table_submit(table=table, user=None)
    table.refresh_from_db()
    return table


def tables_in(bucket: Bucket) -> list[int]:
    return [t["id"] for t in json.loads(bucket.read(JSON_NAME))["tables"]]


def csv_tables_in(bucket: Bucket) -> set[int]:
    return {int(line["table_id"]) for line in csv.DictReader(io.StringIO(bucket.read(CSV_NAME).decode()))}


def test_the_storage_the_doc_configures_is_the_bucket(bucket: Bucket) -> None:
    from storages.backends.s3 import S3Storage

    storage = storages["derived"]
    assert isinstance(storage, S3Storage)
    assert (storage.bucket_name, storage.location, storage.endpoint_url) == (bucket.name, PREFIX, bucket.endpoint)
    with open(REPO / "docs" / "deploy.md", encoding="utf-8") as doc:
        text = doc.read()
    for name in bucket.env():
        assert f"`{name}`" in text, f"docs/deploy.md does not name {name}"


@pytest.mark.django_db
def test_a_rerate_writes_the_downloads_into_the_bucket_and_the_site_serves_them(
    bucket: Bucket, client: Client, django_capture_on_commit_callbacks: Callable[..., Any], settings: Any, tmp_path: Any
) -> None:
    settings.DOWNLOADS_DIR = tmp_path / "downloads"  # the folder the storage would use otherwise
    players = [make_player() for _ in range(3)]
    assert client.get(reverse("downloads:file", args=[CSV_NAME])).status_code == 404
    assert "Not written yet" in client.get(reverse("downloads:index")).content.decode()

    first = rated(players, dt.date(2026, 5, 2), django_capture_on_commit_callbacks)
    assert bucket.keys() == [f"{PREFIX}/{name}" for name in sorted(HISTORY_FILES)]
    assert tables_in(bucket) == [first.pk] and csv_tables_in(bucket) == {first.pk}
    assert not settings.DOWNLOADS_DIR.exists()  # nothing went to the local folder

    page = client.get(reverse("downloads:index")).content.decode()
    for name in HISTORY_FILES:
        assert f'href="{reverse("downloads:file", args=[name])}"' in page
    response = client.get(reverse("downloads:file", args=[JSON_NAME]))
    assert response.status_code == 200 and response["Content-Type"] == "application/gzip"
    served = b"".join(response.streaming_content)
    assert gzip.decompress(served) == bucket.read(JSON_NAME)  # the bucket's file, byte for byte
    assert response["Content-Length"] == str(len(served))
    unchanged = client.get(
        reverse("downloads:file", args=[JSON_NAME]), headers={"If-Modified-Since": response["Last-Modified"]}
    )
    assert unchanged.status_code == 304

    second = rated(players[:2], dt.date(2026, 5, 9), django_capture_on_commit_callbacks)
    assert tables_in(bucket) == [first.pk, second.pk] and csv_tables_in(bucket) == {first.pk, second.pk}
    response = client.get(reverse("downloads:file", args=[CSV_NAME]))
    assert gzip.decompress(b"".join(response.streaming_content)) == bucket.read(CSV_NAME)


@pytest.mark.django_db
def test_rewrite_derived_files_rewrites_the_bucket(
    bucket: Bucket, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    table = rated([make_player() for _ in range(3)], dt.date(2026, 5, 2), django_capture_on_commit_callbacks)
    client = bucket.client()
    for name in HISTORY_FILES:  # what a restore leaves: files of another history, or none
        client.delete_object(Bucket=bucket.name, Key=f"{PREFIX}/{name}")
    client.put_object(Bucket=bucket.name, Key=f"{PREFIX}/{JSON_NAME}", Body=gzip.compress(b'{"tables": []}'))
    out = io.StringIO()
    call_command("rewrite_derived_files", stdout=out)
    assert f"wrote {CSV_NAME}" in out.getvalue() and f"wrote {JSON_NAME}" in out.getvalue()
    assert tables_in(bucket) == [table.pk] and csv_tables_in(bucket) == {table.pk}
    assert bucket.keys() == [f"{PREFIX}/{name}" for name in sorted(HISTORY_FILES)]


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_site_process_started_with_the_docs_environment_writes_into_the_bucket(
    bucket: Bucket, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    """The literal path: ``manage.py rewrite_derived_files`` in a process of its own, configured by nothing but
    the environment the doc gives (the settings read it at start-up), on the test database."""
    players = [make_player() for _ in range(3)]
    table = make_table(players, date=dt.date(2026, 5, 2))
    round_robin(table, players)
    table_submit(table=table, user=None)  # committed; rated in this process (no broker)
    assert RatingRow.objects.filter(table=table).exists()
    client = bucket.client()
    for name in HISTORY_FILES:
        client.delete_object(Bucket=bucket.name, Key=f"{PREFIX}/{name}")
    assert bucket.keys() == []
    done = subprocess.run(
        [sys.executable, "manage.py", "rewrite_derived_files"],
        cwd=REPO,
        env=process_env(**bucket.env()),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    assert f"wrote {JSON_NAME}" in done.stdout
    assert tables_in(bucket) == [table.pk] and csv_tables_in(bucket) == {table.pk}


@pytest.mark.django_db
def test_a_bucket_that_stops_answering_loses_no_rerate_and_the_next_write_repairs_the_files(
    bucket: Bucket,
    client: Client,
    django_capture_on_commit_callbacks: Callable[..., Any],
    caplog: pytest.LogCaptureFixture,
) -> None:
    players = [make_player() for _ in range(3)]
    first = rated(players, dt.date(2026, 5, 2), django_capture_on_commit_callbacks)
    assert tables_in(bucket) == [first.pk]

    bucket.stop()
    with caplog.at_level(logging.ERROR):
        second = rated(players[:2], dt.date(2026, 5, 9), django_capture_on_commit_callbacks)
    # The re-rate stands: the table is rated, its rows are written; the files could not be.
    assert second.status == TableStatus.RATED
    assert RatingRow.objects.filter(table=second).count() == 2
    (failure,) = [r for r in caplog.records if r.name == "ratings.tasks"]
    assert failure.levelno == logging.ERROR and "could not write the rating history downloads" in failure.getMessage()
    assert failure.exc_info is not None and bucket.endpoint in str(failure.exc_info[1])

    # While it is down the page says so, a file's URL answers 503, each logged; the command fails clearly.
    caplog.clear()
    page = client.get(reverse("downloads:index"))
    assert page.status_code == 200 and "cannot be reached just now" in page.content.decode()
    response = client.get(reverse("downloads:file", args=[CSV_NAME]))
    assert response.status_code == 503 and response["Retry-After"].isdigit()
    assert (
        len([r for r in caplog.records if r.levelno == logging.ERROR and r.name == "ratings.web.views.downloads"]) == 2
    )
    with pytest.raises(CommandError, match=f"did not store {CSV_NAME}"):
        call_command("rewrite_derived_files", stdout=io.StringIO())

    # Back up, it still holds the files of before; the next write puts both tables in.
    bucket.start()
    assert tables_in(bucket) == [first.pk]
    history_files_write()
    assert tables_in(bucket) == [first.pk, second.pk] and csv_tables_in(bucket) == {first.pk, second.pk}
    response = client.get(reverse("downloads:file", args=[JSON_NAME]))
    assert gzip.decompress(b"".join(response.streaming_content)) == bucket.read(JSON_NAME)


@pytest.mark.django_db
def test_official_lists_files_are_kept_in_the_database_and_served_while_the_store_is_down(
    bucket: Bucket, client: Client, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    players = [make_player() for _ in range(3)]
    rated(players, dt.date(2026, 5, 2), django_capture_on_commit_callbacks)
    before = bucket.keys()
    official = official_list_publish(date=dt.date(2026, 6, 1), user=make_user(superuser=True), expected=None)
    assert bucket.keys() == before  # publishing writes nothing to the store
    bucket.stop()
    response = client.get(reverse("ratings:official_list_txt", args=[official.date.isoformat()]))
    assert response.status_code == 200
    assert response.content == bytes(OfficialList.objects.get(pk=official.pk).all_txt)  # as published, in the database
    assert all(p.family_name.encode("latin-1") in response.content for p in players)
