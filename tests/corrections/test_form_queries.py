"""The correction preview pages of the crosstable and of a player read in a number of queries that does not
grow with the player's tables, nor with the table's players beyond the crosstable form's own row checks."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ratings.models import Player, Table
from tests.admin.helpers import page_form_data
from tests.admin.test_grid import grid_data, grid_url, set_cell
from tests.corrections.helpers import rerate_and_check
from tests.factories import make_player, make_rating_officer, make_table, round_robin
from tests.pipeline.histories import submit

pytestmark = pytest.mark.django_db
DAY = dt.date(2024, 3, 2)


def rated_round_robin(size: int, weeks: int, *, start: dt.date = DAY) -> tuple[list[Player], Table]:
    players = [make_player(f"Q{size:02d}x{n:02d}") for n in range(size)]
    first = None
    for week in range(weeks):
        table = make_table(players, date=start + dt.timedelta(days=7 * week))
        round_robin(table, players)
        submit(table)
        first = first or table
    rerate_and_check()
    assert first is not None
    return players, first


def grid_preview_queries(client: Client, size: int) -> int:
    _players, table = rated_round_robin(size, 2, start=DAY + dt.timedelta(days=size * 20))
    data = grid_data(client.get(grid_url(table)))
    one, two = data["row-0-cells"].split()[0], data["row-1-cells"].split()[0]
    assert one == "2+" and two == "1-", (one, two)  # round 1: number 1 beat number 2
    set_cell(data, 1, 1, "2-")
    set_cell(data, 2, 1, "1+")
    with CaptureQueriesContext(connection) as queries:
        response = client.post(grid_url(table), {**data, "_save": "Save"})
    assert response.status_code == 200 and "preview" in response.context, response.context.get("problems")
    assert response.context["preview"].players
    return len(queries)


def player_preview_queries(client: Client, weeks: int) -> int:
    players, _table = rated_round_robin(4, weeks, start=DAY + dt.timedelta(days=weeks * 60))
    url = reverse("admin:ratings_player_change", args=[players[0].pk])
    data = page_form_data(client.get(url)) | {"family_name": "Renamed", "prior_grade_kind": "kyu"}
    data |= {"prior_grade_level": "3", "prior_grade_source": "national"}
    with CaptureQueriesContext(connection) as queries:
        response = client.post(url, data)
    assert response.status_code == 200 and len(response.context["lines"]) == 2
    return len(queries)


def test_crosstable_correction_preview_queries_do_not_grow_with_the_players(client: Client) -> None:
    client.force_login(make_rating_officer())
    small, large = grid_preview_queries(client, 4), grid_preview_queries(client, 10)
    # Only the form grows: each row's player field is checked by one query, as on any save of the page.
    assert large <= small + (10 - 4) + 2, (small, large)
    assert large <= 80, large


def test_player_correction_preview_queries_do_not_grow_with_his_tables(client: Client) -> None:
    client.force_login(make_rating_officer())
    few, many = player_preview_queries(client, 2), player_preview_queries(client, 6)
    assert many <= few + 2, (few, many)
    assert many <= 80, many
