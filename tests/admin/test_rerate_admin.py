"""The re-rating screens (rating officers only) and the edits that ask for a re-rate."""

from __future__ import annotations

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from ratings.models import PendingRerate, RerateRun, TableStatus
from ratings.services.rerate import rerate_request
from tests.admin.helpers import errors_of, post_page, set_row, statuses_by_role
from tests.factories import (
    add_game,
    make_director,
    make_player,
    make_rating_officer,
    make_table,
    make_tournament,
)

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("page", ["pendingrerate", "reraterun"])
def test_rerate_screens_are_for_rating_officers_only(client: Client, page: str) -> None:
    url = reverse(f"admin:ratings_{page}_changelist")
    assert statuses_by_role(client, url) == {"rating officer": 200, "director": 403, "grade officer": 403}


def test_rating_officer_runs_the_pending_rerate_from_the_admin(client: Client) -> None:
    a, b = make_player(), make_player()
    table = make_table([a, b], status=TableStatus.SUBMITTED)
    add_game(table, 1, a, b)
    rerate_request(date=table.date, sequence=table.sequence, table_ids=[table.pk])
    client.force_login(make_rating_officer())

    response = client.post(
        reverse("admin:ratings_pendingrerate_changelist"), {"action": "run_now", "_selected_action": [1]}
    )

    assert response.status_code == 302
    assert [str(m) for m in get_messages(response.wsgi_request)] == ["Re-rated: 1 table rated, 0 unchanged."]
    table.refresh_from_db()
    assert table.status == TableStatus.RATED
    assert not PendingRerate.objects.exists()
    assert RerateRun.objects.get().outcome == RerateRun.Outcome.DONE


def test_director_saving_his_submitted_table_asks_for_a_rerate(client: Client) -> None:
    director = make_director()
    a, b = make_player(), make_player()
    table = make_table([a, b], tournament=make_tournament(directors=[director]), status=TableStatus.SUBMITTED)
    add_game(table, 1, a, b)
    client.force_login(director)

    _page, response = post_page(
        client,
        reverse("admin:ratings_table_change", args=[table.pk]),
        lambda data: set_row(data, "games", 0, result="draw"),
    )

    assert response.status_code == 302, errors_of(response)
    table.refresh_from_db()
    assert table.needs_rerate
    assert PendingRerate.objects.filter(from_date=table.date, from_sequence=table.sequence).exists()


def test_saving_a_table_unchanged_asks_for_no_rerate(client: Client) -> None:
    officer = make_rating_officer()
    a, b = make_player(), make_player()
    table = make_table([a, b], status=TableStatus.SUBMITTED)
    add_game(table, 1, a, b)
    client.force_login(officer)

    _page, response = post_page(client, reverse("admin:ratings_table_change", args=[table.pk]))

    assert response.status_code == 302, errors_of(response)
    assert not PendingRerate.objects.exists()


def test_submitted_table_cannot_be_saved_without_a_rated_game(client: Client) -> None:
    officer = make_rating_officer()
    a, b = make_player("Abe", "Ken"), make_player("Berg", "Lena")
    table = make_table([a, b], status=TableStatus.SUBMITTED)
    add_game(table, 1, a, b)
    client.force_login(officer)

    _page, response = post_page(
        client,
        reverse("admin:ratings_table_change", args=[table.pk]),
        lambda data: set_row(data, "games", 0, played=False),
    )

    assert response.status_code == 200
    assert "The table has no rated game." in errors_of(response)
    assert table.games.get().played


def test_director_finds_players_by_name_for_a_game(client: Client) -> None:
    habu = make_player("Habu", "Yoshiharu")
    make_player("Hayashi", "Ken")
    client.force_login(make_director())

    response = client.get(
        reverse("admin:autocomplete"),
        {"app_label": "ratings", "model_name": "game", "field_name": "first", "term": "habu"},
    )

    assert response.status_code == 200
    assert [r["text"] for r in response.json()["results"]] == [
        f"Habu Yoshiharu (FR, #{habu.federation_id}, no rated table yet)"
    ]
