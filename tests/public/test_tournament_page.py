"""A tournament's page: each table's standings by place, with performance, change and the crosstable."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse

from ratings.engine.performance import performance_rating
from ratings.models import GameResult, Player, RatingRow, Table
from ratings.selectors.tournaments import tournament_page
from tests.factories import add_game, make_player, make_table, make_tournament
from tests.public.conftest import days_ago, seasoned

pytestmark = pytest.mark.django_db


@pytest.fixture
def swiss(rate: Callable[[Table], Table]) -> tuple[Table, list[Player]]:
    """Four players, three rounds: Dubois 3, Meyer and Rossi 1½ each (a shared place), Lambert 0."""
    players = [
        seasoned(1800, family_name="Lambert"),
        seasoned(1700, family_name="Rossi", nationality="IT"),
        seasoned(1600, family_name="Meyer", nationality="DE"),
        seasoned(1500, family_name="Dubois"),
    ]
    lambert, rossi, meyer, dubois = players
    tournament = make_tournament("Paris Open", date=days_ago(20))
    table = make_table(players, tournament=tournament, date=days_ago(20))
    add_game(table, 1, lambert, dubois, GameResult.SECOND_WON)
    add_game(table, 1, rossi, meyer, GameResult.DRAW)
    add_game(table, 2, dubois, rossi, handicap="L", giver="first")
    add_game(table, 2, meyer, lambert)
    add_game(table, 3, meyer, dubois, GameResult.SECOND_WON)
    add_game(table, 3, rossi, lambert)
    return rate(table), players


def test_standings_order_by_points_and_share_equal_places(swiss: tuple[Table, list[Player]]) -> None:
    table, _ = swiss
    page = tournament_page(table.tournament_id)
    (only,) = page.tables
    lines = [(s.place_label, s.row.player.family_name, s.row.points) for s in only.standings]
    assert lines == [("1", "Dubois", 3.0), ("2–3", "Rossi", 1.5), ("2–3", "Meyer", 1.5), ("4", "Lambert", 0.0)]


def test_standings_give_the_tables_performance_and_change(swiss: tuple[Table, list[Player]]) -> None:
    table, _ = swiss
    page = tournament_page(table.tournament_id)
    for standing in page.tables[0].standings:
        row = RatingRow.objects.get(table=table, player=standing.row.player)
        pairs = [(g["effective_rating"], g["score"]) for g in row.detail]
        assert standing.performance == performance_rating(pairs)
        assert standing.row.change == row.change
    winner = page.tables[0].standings[0]
    assert winner.performance is not None and winner.performance > 1800  # 3 of 3 against higher ratings


def test_tournament_page_shows_tables_linked_cells_and_the_legend(
    client: Client, swiss: tuple[Table, list[Player]]
) -> None:
    table, _ = swiss
    response = client.get(reverse("ratings:tournament", args=[table.tournament_id]))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Paris Open" in html
    assert f'href="#t{table.pk}-s4"' in html  # the opponent's row: Dubois, number 4
    assert f'id="t{table.pk}-s4"' in html
    assert "2+(-L)" in html and "4-(+L)" in html  # round 2: Dubois (4) gave Rossi (2) a lance and won
    assert "How to read the rounds" in html and "docs/" not in html  # no developer's file cited to readers
    assert html.index("DUBOIS") < html.index("ROSSI") < html.index("MEYER") < html.index("LAMBERT")


def test_tournament_page_tells_namesakes_apart(client: Client, rated_round_robin: Callable[..., Table]) -> None:
    a = seasoned(1600, family_name="Martin", given_name="Paul", nationality="FR")
    b = seasoned(1500, family_name="Martin", given_name="Paul", nationality="BE")
    table = rated_round_robin([a, b], days_ago(10))
    html = client.get(reverse("ratings:tournament", args=[table.tournament_id])).content.decode()
    assert f"{a.federation_id} · FR" in html and f"{b.federation_id} · BE" in html


def test_tournament_without_public_table_is_not_found(client: Client) -> None:
    draft = make_table([make_player(), make_player()])
    assert client.get(reverse("ratings:tournament", args=[draft.tournament_id])).status_code == 404
    assert client.get(reverse("ratings:tournament", args=[99999])).status_code == 404


def test_tournament_names_link_to_the_tournament(client: Client, swiss: tuple[Table, list[Player]]) -> None:
    table, players = swiss
    url = reverse("ratings:tournament", args=[table.tournament_id])
    pages = [
        reverse("ratings:tournaments"),
        reverse("ratings:table", args=[table.pk]),
        reverse("ratings:player", args=[players[0].federation_id]),
        reverse("ratings:player_table", args=[players[0].federation_id, table.pk]),
    ]
    for page in pages:
        assert f'href="{url}' in client.get(page).content.decode(), page


def test_a_newcomer_who_lost_every_game_prints_no_rating_nor_performance(
    client: Client, rated_round_robin: Callable[..., Table]
) -> None:
    first, second = seasoned(1500, family_name="Winner"), seasoned(1400, family_name="Second")
    newcomer = make_player("Loser", "Leo")
    table = rated_round_robin([first, second, newcomer], days_ago(3))  # the last-seated player loses every game
    newcomer.refresh_from_db()
    assert newcomer.rating == 1  # the rules' floor for a 0% score
    page = client.get(reverse("ratings:tournament", args=[table.tournament_id])).content.decode()
    row = re.sub(r"\s+", " ", page[page.index(f'id="t{table.pk}-s3"') :].split("</tr>")[0])
    cells = re.findall(r'<td class="num[^"]*">(.*?)</td>', row)  # place, number, rating, points, perf, +/-, new
    assert (cells[2], cells[4], cells[6]) == ("–*", "–", "–"), row
    player = re.sub(r"\s+", " ", client.get(reverse("ratings:player", args=[newcomer.federation_id])).content.decode())
    assert '<dd class="big">–</dd>' in player and "<strong>–</strong>*" in player


def test_tournament_page_shows_the_corrections_of_its_tables(client: Client, swiss: tuple[Table, list[Player]]) -> None:
    from ratings.services.corrections.apply import correction_make
    from ratings.services.rerate import rerate_pending
    from tests.corrections.helpers import result_flipped
    from tests.factories import make_rating_officer

    table, _ = swiss
    url = reverse("ratings:tournament", args=[table.tournament_id])
    assert 'id="corrections"' not in client.get(url).content.decode()
    reason = "The scoresheet says the other player won"
    correction_make(user=make_rating_officer(), reason=reason, change=result_flipped(table), expected=None)
    rerate_pending()
    html = client.get(url).content.decode()
    assert 'id="corrections"' in html and reason in html
