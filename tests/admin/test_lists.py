"""The admin's lists cost the same number of queries for one row as for three, for every role that reads them."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ratings.models import Tournament
from tests.factories import add_game, make_director, make_player, make_rating_officer, make_table, make_tournament

pytestmark = pytest.mark.django_db


def queries_for(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200
    return len(captured.captured_queries)


def add_tournament_with_table(director: object, index: int) -> Tournament:
    tournament = make_tournament(f"Open {index}", directors=[director])
    a, b = make_player(), make_player()
    table = make_table([a, b], tournament=tournament, sequence=index)
    add_game(table, 1, a, b)
    return tournament


@pytest.mark.parametrize("page", ["table", "tournament", "player"])
@pytest.mark.parametrize("role", [make_director, make_rating_officer], ids=["director", "rating-officer"])
def test_list_query_count_does_not_grow_with_rows(client: Client, page: str, role: Callable[..., object]) -> None:
    user = role()
    client.force_login(user)
    url = reverse(f"admin:ratings_{page}_changelist")
    director = user if role is make_director else make_director()

    add_tournament_with_table(director, 1)
    one = queries_for(client, url)
    add_tournament_with_table(director, 2)
    add_tournament_with_table(director, 3)
    three = queries_for(client, url)

    assert one == three
