"""Top lists and the federation's numbers by year."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse

from ratings.models import Promotion, Table
from ratings.selectors.stats import federation_by_year, most_active, top_players
from ratings.web.charts import bar_chart
from tests.factories import make_player
from tests.public.conftest import days_ago, seasoned

pytestmark = pytest.mark.django_db


def test_top_players_by_country_and_grade_leave_out_inactive_and_professionals() -> None:
    a = seasoned(2000, grade=20, nationality="DE")
    b = seasoned(1900, grade=18, nationality="FR")
    seasoned(2100, last_played=days_ago(900))  # not active
    seasoned(2200, is_professional=True)
    assert list(top_players()) == [a, b]
    assert list(top_players(country="FR")) == [b]
    assert list(top_players(grade=20)) == [a]


def test_most_active_counts_the_last_twelve_months(rated_round_robin: Callable[..., Table]) -> None:
    busy, quiet, old = (seasoned(rating, last_played=days_ago(500)) for rating in (1500, 1400, 1300))
    rated_round_robin([busy, quiet], days_ago(400))
    rated_round_robin([busy, old], days_ago(200))
    rated_round_robin([busy, quiet, old], days_ago(100))
    lines = [(p.pk, p.recent_games, p.recent_tables) for p in most_active()]
    assert lines[0] == (busy.pk, 3, 2)
    assert {(pk, games) for pk, games, _ in lines[1:]} == {(old.pk, 3), (quiet.pk, 2)}


def test_federation_by_year_counts_tables_games_new_players_promotions(
    rated_round_robin: Callable[..., Table],
) -> None:
    # 6 Dan: never promoted by the engine, so the only promotion is the one made here
    veteran, newcomer = seasoned(1500, grade=26), make_player("New")
    table = rated_round_robin([veteran, newcomer, seasoned(1400, grade=26)], days_ago(5))
    Promotion.objects.create(
        player=veteran, grade=5, table=table, game_number=41, route="upper_bound", rating=500, status="effective"
    )
    (year,) = federation_by_year()
    assert (year.year, year.tables, year.games, year.new_players, year.promotions) == (table.date.year, 1, 3, 1, 1)


def test_bar_chart_draws_a_bar_per_label_with_its_value() -> None:
    svg = bar_chart([("2023", 4), ("2024", 10)], title="Tables", chart_id="t")
    assert svg.count("<rect") == 2 and "2024: 10" in svg and '<title id="t-t">Tables</title>' in svg
    assert bar_chart([], title="x", chart_id="x") == ""


def test_statistics_page_shows_lists_table_and_charts(client: Client, rated_round_robin: Callable[..., Table]) -> None:
    a, b = seasoned(1800, nationality="DE"), seasoned(1700)
    rated_round_robin([a, b], days_ago(30))
    response = client.get(reverse("ratings:statistics"), {"country": "DE"})
    assert response.status_code == 200
    assert response.context["top"] == [a]
    html = response.content.decode()
    assert html.count('<svg class="chart bars"') == 4
    assert client.get(reverse("ratings:statistics"), {"grade": "nonsense"}).status_code == 400


def test_top_players_count_established_players_only() -> None:
    established = seasoned(1800)
    seasoned(1900, games=10)  # provisional
    seasoned(2300, result_list=((2100, 1.0), (2000, 1.0)))  # rated by performance
    assert list(top_players()) == [established]
