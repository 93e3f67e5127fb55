"""A player's page: the games played before the site's records began."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse

from ratings.models import Promotion, PromotionRoute, PromotionStatus, Table, TableStatus
from tests.factories import make_player, make_table
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


def test_player_page_tells_the_games_his_prior_grade_counts(
    client: Client, rated_round_robin: Callable[..., Table]
) -> None:
    """A newcomer with a prior grade has a win and a loss at its rating put before his first table's games
    (docs/rules.md §6): the count of games says where the two come from."""
    newcomer = make_player("Takeda", prior=("dan", 1))
    rated_round_robin([newcomer, seasoned(1500), seasoned(1400)], days_ago(10))
    newcomer.refresh_from_db()
    response = client.get(reverse("ratings:player", args=[newcomer.federation_id]))
    assert newcomer.games == 4 and response.context["prior_grade_games"] == 2
    assert "of which 2 from the prior grade (a win and a loss at its rating)" in response.content.decode()
    other = client.get(reverse("ratings:player", args=[seasoned(1300).federation_id]))
    assert other.context["prior_grade_games"] == 0 and "from the prior grade" not in other.content.decode()


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


def test_recent_promotions_page_newer_and_older_without_counting_every_table(client: Client) -> None:
    player = make_player("Abe", "Ken")
    for day in range(12):
        table = make_table([player], date=dt.date(2024, 5, 1) + dt.timedelta(days=day), status=TableStatus.RATED)
        Promotion.objects.create(
            player=player, grade=5 + day, table=table, route=PromotionRoute.UPPER_BOUND,
            status=PromotionStatus.EFFECTIVE, game_number=1, rating=1500,
        )  # fmt: skip
    first = client.get("/promotions/").content.decode()
    assert "2024-05-12" in first and "2024-05-03" in first and "2024-05-02" not in first  # ten a page, newest first
    assert 'rel="next"' in first and 'rel="prev"' not in first
    second = client.get("/promotions/", {"page": "2"}).content.decode()
    assert "2024-05-02" in second and "2024-05-01" in second and "2024-05-03" not in second
    assert 'rel="prev"' in second and 'rel="next"' not in second
    beyond = client.get("/promotions/", {"page": "999"})  # a page past the end: the first
    assert beyond.status_code == 200 and "2024-05-12" in beyond.content.decode()
