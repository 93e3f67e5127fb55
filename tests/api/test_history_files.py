"""The rating history downloads: written after each re-rate, atomically, listed and served with stable URLs."""

from __future__ import annotations

import csv
import gzip
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.template.defaultfilters import filesizeformat
from django.test import Client
from django.urls import reverse

from ratings.models import Table
from ratings.selectors.history_dump import history_tables
from ratings.services.history_files import CSV_NAME, JSON_NAME, _store_gzip, derived_storage, history_files_write
from ratings.services.privacy import player_erase
from tests.api.conftest import BIRTHDAY, Federation, veteran
from tests.public.conftest import days_ago

pytestmark = pytest.mark.django_db


@pytest.fixture
def downloads(settings: Any, tmp_path: Path) -> Path:
    settings.DOWNLOADS_DIR = tmp_path / "downloads"
    return settings.DOWNLOADS_DIR


def read_json(folder: Path) -> dict[str, Any]:
    return json.loads(gzip.decompress((folder / JSON_NAME).read_bytes()))


def read_csv(folder: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(gzip.decompress((folder / CSV_NAME).read_bytes()).decode())))


def test_files_are_rewritten_after_each_rerate(
    downloads: Path, federation: Federation, rated_round_robin: Callable[..., Table]
) -> None:
    first = read_json(downloads)
    assert first["licence"] == {"name": "CC BY 4.0", "url": "https://creativecommons.org/licenses/by/4.0/"}
    assert [t["id"] for t in first["tables"]] == [federation.table.pk]
    (table,) = first["tables"]
    assert [p["federation_id"] for p in table["players"]] == [p.federation_id for p in federation.players]
    game = table["games"][0]
    assert (game["round"], game["first"], game["result"]) == (1, federation.players[0].federation_id, "first")
    assert len(read_csv(downloads)) == 3

    later = rated_round_robin([veteran(1500), veteran(1450)], days_ago(5))
    again = read_json(downloads)
    assert [t["id"] for t in again["tables"]] == [federation.table.pk, later.pk]
    lines = read_csv(downloads)
    assert len(lines) == 4
    last = lines[-1]
    assert last["table_id"] == str(later.pk) and last["result"] == "first"
    assert int(last["first_rating_after"]) > int(last["first_rating_before"])


def test_files_hold_no_date_of_birth(downloads: Path, federation: Federation) -> None:
    for name in (CSV_NAME, JSON_NAME):
        text = gzip.decompress((downloads / name).read_bytes()).decode()
        assert BIRTHDAY.isoformat() not in text and "birth" not in text
        assert federation.players[0].family_name in text


def test_history_is_read_in_chunks_without_losing_a_table(
    federation: Federation, rated_round_robin: Callable[..., Table]
) -> None:
    players = [veteran(1500), veteran(1450)]
    for days, sequence in ((20, 1), (20, 2), (10, 1)):
        rated_round_robin(players, days_ago(days), sequence=sequence)
    whole = [t["id"] for t in history_tables()]
    assert len(whole) == 4
    assert [t["id"] for t in history_tables(chunk=1)] == [t["id"] for t in history_tables(chunk=3)] == whole


def test_a_failed_write_keeps_the_previous_file(downloads: Path) -> None:
    storage = derived_storage()
    _store_gzip(storage, CSV_NAME, lambda out: out.write("old\n"))

    def fail(out: Any) -> None:
        out.write("half")
        raise RuntimeError("disk full")

    with pytest.raises(RuntimeError):
        _store_gzip(storage, CSV_NAME, fail)
    assert gzip.decompress((downloads / CSV_NAME).read_bytes()) == b"old\n"
    assert [p.name for p in downloads.iterdir()] == [CSV_NAME]  # no temporary file left behind


def test_downloads_page_lists_files_and_serves_them(client: Client, downloads: Path, federation: Federation) -> None:
    page = client.get(reverse("downloads:index")).content.decode()
    for name in (CSV_NAME, JSON_NAME):
        assert f'href="{reverse("downloads:file", args=[name])}"' in page
    assert "?format=all.txt" in page and reverse("api-v1:docs") in page
    size = (downloads / JSON_NAME).stat().st_size
    assert str(filesizeformat(size)) in page
    response = client.get(reverse("downloads:file", args=[JSON_NAME]))
    assert response.status_code == 200 and response["Content-Type"] == "application/gzip"
    assert gzip.decompress(b"".join(response.streaming_content)).startswith(b'{"generated_at"')
    unchanged = client.get(
        reverse("downloads:file", args=[JSON_NAME]), headers={"If-Modified-Since": response["Last-Modified"]}
    )
    assert unchanged.status_code == 304
    assert client.get(reverse("downloads:file", args=["settings.py"])).status_code == 404


def test_downloads_page_before_the_first_rerate(client: Client, downloads: Path) -> None:
    page = client.get(reverse("downloads:index"))
    assert page.status_code == 200 and "Not written yet" in page.content.decode()
    assert client.get(reverse("downloads:file", args=[CSV_NAME])).status_code == 404
    assert history_files_write() == [CSV_NAME, JSON_NAME]
    assert read_json(downloads)["tables"] == [] and read_csv(downloads) == []


def test_an_erased_players_name_leaves_the_files(
    downloads: Path, federation: Federation, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    player = federation.players[0]
    assert player.family_name in gzip.decompress((downloads / CSV_NAME).read_bytes()).decode()
    with django_capture_on_commit_callbacks(execute=True):
        player_erase(player=player, user=None)
    for name in (CSV_NAME, JSON_NAME):
        text = gzip.decompress((downloads / name).read_bytes()).decode()
        assert player.family_name not in text and f"Erased player {player.pk}" in text


def test_a_name_that_starts_a_formula_is_written_as_text(downloads: Path, federation: Federation) -> None:
    opponent = federation.players[1]
    opponent.family_name = "=HYPERLINK(1)"
    opponent.save()
    history_files_write()
    names = {line["second_name"] for line in read_csv(downloads)} | {line["first_name"] for line in read_csv(downloads)}
    assert "'=HYPERLINK(1)" in names and "=HYPERLINK(1)" not in names
