"""One rank wherever the site gives it (docs/rules.md §8): the list page, the CSV and JSON files, the API, an
official list's files and API, the revised list and a player's peak rank pass over a player still rated by
performance; only all.txt numbers his line, as the FESA program does."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse

from ratings.models import Player, Table
from ratings.selectors.lists import list_entries
from ratings.selectors.player_stats import peak_rank
from ratings.services.lists import list_stored
from ratings.services.official_lists import official_list_publish
from tests.factories import make_rating_officer
from tests.official.conftest import veteran
from tests.public.conftest import days_ago, seasoned

pytestmark = pytest.mark.django_db

WANT = {"Newcomer": None, "Anders": 1, "Berger": 2}


@pytest.fixture
def players(rated_round_robin: Callable[..., Table]) -> list[Player]:
    """A newcomer rated by performance above two established players, all on the list of 30 days ago."""
    newcomer = seasoned(
        1900, family_name="Newcomer", games=4, result_list=((1800, 1.0),) * 4, last_played=days_ago(400)
    )
    return [newcomer, veteran(1600, "Anders"), veteran(1500, "Berger")]


def streamed(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return b"".join(response.streaming_content).decode() if response.streaming else response.content.decode()


def csv_ranks(text: str) -> dict[str, int | None]:
    return {r["family_name"]: int(r["rank"]) if r["rank"] else None for r in csv.DictReader(io.StringIO(text))}


def test_the_rating_lists_files_and_api_give_the_pages_ranks(client: Client, players: list[Player]) -> None:
    stored = list_stored(days_ago(30))
    assert dict(list_entries(stored).values_list("family_name", "rank")) == WANT  # what the page shows
    assert dict(list_entries(stored).values_list("family_name", "position")) == {
        "Newcomer": 1,
        "Anders": 2,
        "Berger": 3,
    }
    date = days_ago(30).isoformat()
    assert csv_ranks(streamed(client, f"{reverse('ratings:rating_list_csv')}?date={date}")) == WANT
    document = json.loads(streamed(client, f"{reverse('ratings:rating_list_json')}?date={date}"))
    assert {p["family_name"]: p["rank"] for p in document["players"]} == WANT
    api = client.get(reverse("api-v1:rating_list"), {"date": date}).json()["results"]
    assert {p["family_name"]: (p["rank"], p["country_rank"]) for p in api} == {
        name: (rank, rank)
        for name, rank in WANT.items()  # all three French
    }


def test_an_official_lists_files_api_and_peak_ranks_give_the_pages_ranks(client: Client, players: list[Player]) -> None:
    official = official_list_publish(date=days_ago(30), user=make_rating_officer(), expected=None)
    iso = official.date.isoformat()
    assert csv_ranks(streamed(client, reverse("ratings:official_list_csv", args=[iso]))) == WANT
    api = client.get(reverse("api-v1:official_list", args=[iso])).json()["results"]
    assert {p["family_name"]: p["rank"] for p in api} == WANT
    # all.txt numbers every line, the newcomer's included, as the FESA program does.
    txt = streamed(client, reverse("ratings:official_list_txt", args=[iso]))
    assert [line.split()[0] for line in txt.splitlines() if "NEWCOMER" in line.upper()] == ["1"]
    newcomer, anders, _ = players
    entries = official.stored_list.entries.select_related("stored_list")
    assert peak_rank((e for e in entries if e.player_id == anders.pk), today_rank=None, today=days_ago(0)).rank == 1
    assert peak_rank((e for e in entries if e.player_id == newcomer.pk), today_rank=None, today=days_ago(0)) is None
    detail = client.get(reverse("api-v1:player", args=[anders.federation_id])).json()
    assert [(line["rank"], line["country_rank"]) for line in detail["official_lists"]] == [(1, 1)]
