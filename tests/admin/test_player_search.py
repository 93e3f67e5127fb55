"""The admin's player search and autocomplete find players as the public search does and tell namesakes apart."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse

from ratings.models import Player
from tests.factories import make_director, make_player, make_rating_officer

pytestmark = pytest.mark.django_db


def autocomplete(client: Client, term: str) -> list[dict[str, str]]:
    """The players the table's player field offers for ``term``."""
    response = client.get(
        reverse("admin:autocomplete"),
        {"term": term, "app_label": "ratings", "model_name": "tableentry", "field_name": "player"},
    )
    assert response.status_code == 200
    return response.json()["results"]  # type: ignore[no-any-return]


@pytest.mark.parametrize("term", ["lemaitre", "LEMAITRE", "pierre lemaître", "Pierre Lemaitre"])
def test_autocomplete_ignores_accents_case_and_word_order(client: Client, term: str) -> None:
    wanted = make_player("Lemaître", "Pierre")
    make_player("Lemaire", "Paul")
    client.force_login(make_director())
    assert [r["id"] for r in autocomplete(client, term)] == [str(wanted.pk)]


def test_autocomplete_labels_tell_namesakes_apart(client: Client) -> None:
    played = make_player("Girard", "Rémi", nationality="FR")
    Player.objects.filter(pk=played.pk).update(last_played=dt.date(2025, 3, 1))
    newcomer = make_player("Girard", "Remi", nationality="BE")
    client.force_login(make_director())
    labels = {r["id"]: r["text"] for r in autocomplete(client, "girard remi")}
    assert labels == {
        str(played.pk): f"Girard Rémi (FR, #{played.federation_id}, last played 2025-03-01)",
        str(newcomer.pk): f"Girard Remi (BE, #{newcomer.federation_id}, no rated table yet)",
    }


def test_player_list_search_ignores_accents_and_finds_the_federation_id(client: Client) -> None:
    muller, lemaitre = make_player("Müller", "Jörg"), make_player("Lemaître", "Pierre")
    make_player("Martin", "Anne")
    client.force_login(make_rating_officer())
    url = reverse("admin:ratings_player_changelist")
    for term, wanted in [("joerg mueller", muller), ("lemaitre", lemaitre), (lemaitre.federation_id, lemaitre)]:
        shown = client.get(url, {"q": term}).context["cl"].result_list
        assert list(shown) == [wanted], term


def test_player_list_shows_the_federation_id_beside_the_name_and_the_country_as_its_code(client: Client) -> None:
    player = make_player("Vandenberghe", "Maximilian", nationality="GB")
    client.force_login(make_rating_officer())
    html = client.get(reverse("admin:ratings_player_changelist")).content.decode()
    columns = [html.index(f"column-{name}") for name in ("given_name", "federation_id", "grade_shown", "last_played")]
    assert columns == sorted(columns)  # at 1366 px the columns after the grade scroll; the id is in view
    assert f'<td class="field-federation_id">{player.federation_id}</td>' in html
    assert '<abbr title="United Kingdom">GB</abbr>' in html
