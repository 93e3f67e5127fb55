"""A merged player is hidden from the lists, the search, the autocomplete and the API; his page redirects."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from ratings.selectors.search import player_search
from ratings.services.merge.apply import player_merge
from tests.admin.test_player_search import autocomplete
from tests.factories import make_director, make_player, make_rating_officer

pytestmark = pytest.mark.django_db


@pytest.fixture
def merged() -> tuple:
    kept, duplicate = make_player("Rossi", "Mateo", nationality="IT"), make_player("Rossi", "Matteo", nationality="IT")
    player_merge(user=make_rating_officer(), duplicate=duplicate, kept=kept, reason="Entered twice", expected=None)
    return kept, duplicate


def test_the_merged_players_page_redirects_for_good_to_the_kept_player(client: Client, merged: tuple) -> None:
    kept, duplicate = merged
    response = client.get(reverse("ratings:player", args=[duplicate.federation_id]))
    assert response.status_code == 301
    assert response["Location"] == reverse("ratings:player", args=[kept.federation_id])
    assert client.get(reverse("ratings:player", args=[kept.federation_id])).status_code == 200


def test_the_merged_player_is_hidden_from_search_list_autocomplete_and_api(client: Client, merged: tuple) -> None:
    kept, _duplicate = merged
    assert player_search("rossi").players == [kept]
    assert client.get(reverse("ratings:search"), {"q": "matteo"}).context["result"].players == []
    client.force_login(make_director())
    assert [r["id"] for r in autocomplete(client, "rossi")] == [str(kept.pk)]
    api = client.get("/api/v1/players/", {"q": "rossi"}).json()
    assert [p["federation_id"] for p in api["results"]] == [kept.federation_id]


@pytest.mark.parametrize("name", ["api-v1:player", "api-v1:player_history"])
def test_the_merged_players_api_answers_redirect_to_the_kept_player_as_his_page_does(
    client: Client, merged: tuple, name: str
) -> None:
    kept, duplicate = merged
    response = client.get(reverse(name, args=[duplicate.federation_id]))
    assert response.status_code == 301
    assert response["Location"] == reverse(name, args=[kept.federation_id])
    answer = client.get(response["Location"]).json()
    assert (answer if name == "api-v1:player" else answer["player"])["federation_id"] == kept.federation_id


def test_the_kept_players_page_shows_the_merge_in_his_corrections(client: Client, merged: tuple) -> None:
    kept, duplicate = merged
    page = client.get(reverse("ratings:player", args=[kept.federation_id])).content.decode()
    assert f"Rossi Matteo ({duplicate.federation_id}) merged into Rossi Mateo ({kept.federation_id})" in page
