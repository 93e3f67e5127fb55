"""A player's page: the games played before the site's records began."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse

from ratings.models import Promotion, Table
from tests.factories import make_player
from tests.public.conftest import days_ago, seasoned

pytestmark = pytest.mark.django_db


def test_player_page_tells_the_games_before_the_records(
    client: Client, rated_round_robin: Callable[..., Table]
) -> None:
    migrated = seasoned(1600, games=391)
    rated_round_robin([migrated, seasoned(1500)], days_ago(10))
    response = client.get(reverse("ratings:player", args=[migrated.federation_id]))
    assert response.context["games_before_records"] == 391
    assert "392 games, of which 391 were played before the site's records began" in response.content.decode()


def test_player_page_of_a_player_new_to_the_site_has_no_such_note(client: Client) -> None:
    newcomer = make_player("New")
    response = client.get(reverse("ratings:player", args=[newcomer.federation_id]))
    assert response.context["games_before_records"] == 0
    assert "before the site" not in response.content.decode()


def test_crosstable_and_promotions_tell_namesakes_apart(
    client: Client, rated_round_robin: Callable[..., Table]
) -> None:
    # 6 Dan: the engine promotes nobody, so the one promotion is the one made here
    a = seasoned(1600, grade=26, family_name="Martin", given_name="Paul", nationality="FR")
    b = seasoned(1500, grade=26, family_name="Martin", given_name="Paul", nationality="BE")
    other = seasoned(1400, grade=26, family_name="Dubois")
    table = rated_round_robin([a, b, other], days_ago(10))
    Promotion.objects.create(
        player=b, grade=5, table=table, game_number=41, route="upper_bound", rating=500, status="effective"
    )
    for url in (reverse("ratings:table", args=[table.pk]), reverse("ratings:promotions")):
        html = client.get(url).content.decode()
        assert f"{b.federation_id} · BE" in html, url
        assert f"{other.federation_id} ·" not in html, url
