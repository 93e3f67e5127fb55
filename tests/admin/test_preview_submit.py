"""The preview shows what rating a table would do and saves nothing; submitting stores exactly that."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from ratings.engine import PlayerState
from ratings.models import (
    Game,
    OpeningState,
    PendingRerate,
    Player,
    Promotion,
    RatingRow,
    RerateRun,
    Table,
    TableEntry,
    TableStatus,
)
from ratings.models.states import state_to_json
from ratings.services.tables.submit import table_submit
from tests.factories import add_game, make_director, make_player, make_table, make_tournament, round_robin

pytestmark = pytest.mark.django_db

ONE_KYU, ONE_DAN = 20, 21


def established(player: Player, rating: int, grade: int) -> Player:
    """An established player migrated from the FESA list: 100 games, no weak-player bonus left."""
    state = PlayerState(
        rating=rating,
        result_list=None,
        game_count=100,
        bonus_count=100,
        grade=grade,
        last_played=dt.date(2024, 1, 1),
    )
    OpeningState.objects.create(player=player, state=state_to_json(state), source="test")
    return player


def url(view: str, table: Table) -> str:
    return reverse(f"admin:ratings_table_{view}", args=[table.pk])


def snapshot() -> dict[str, Any]:
    """Everything a preview could write by mistake."""
    return {
        "rows": list(RatingRow.objects.values_list("pk", "rating_after")),
        "promotions": Promotion.objects.count(),
        "pending": list(PendingRerate.objects.values_list("generation", flat=True)),
        "runs": RerateRun.objects.count(),
        "tables": list(Table.objects.values_list("pk", "status", "needs_rerate", "updated_at")),
        "players": list(Player.objects.values_list("pk", "rating", "games", "grade")),
        "history": (
            Table.history.count(),
            TableEntry.history.count(),
            Game.history.count(),
            Player.history.count(),
        ),
    }


def test_preview_shows_hand_computed_ratings_and_promotion(client: Client, director: Any) -> None:
    # Two established 1 Kyu players at 1790 (K 24, no bonus left); Abe wins: E = 0.5, so 24 * 0.5 = 12 each way
    # (docs/rules.md §4). Abe's 1802 reaches the upper bound of 1 Dan (1800), a promotion by "upper bound" on his
    # round-1 game (§7); Berg's 1778 stays 1 Kyu.
    abe = established(make_player("Abe", "Ken"), 1790, ONE_KYU)
    berg = established(make_player("Berg", "Lena"), 1790, ONE_KYU)
    table = make_table([abe, berg], tournament=make_tournament(directors=[director]))
    add_game(table, 1, abe, berg)

    response = client.get(url("preview", table))

    assert response.status_code == 200
    lines = {line.name: line for line in response.context["preview"].players}
    assert (lines["Abe Ken"].rating_before, lines["Abe Ken"].rating_after, lines["Abe Ken"].change) == (1790, 1802, 12)
    assert (lines["Berg Lena"].rating_before, lines["Berg Lena"].rating_after, lines["Berg Lena"].change) == (
        1790,
        1778,
        -12,
    )
    [promotion] = response.context["preview"].promotions
    assert (promotion.name, promotion.grade, promotion.grade_label, promotion.round) == ("Abe Ken", ONE_DAN, "1 Dan", 1)
    assert promotion.route == "reached the upper bound"
    page = response.content.decode()
    assert "+12" in page and "-12" in page and "1 Dan" in page


def test_preview_marks_a_new_players_performance_rating_with_a_star(client: Client, director: Any) -> None:
    newcomer, other = make_player("Abe", "Ken"), make_player("Berg", "Lena")
    table = make_table([newcomer, other], tournament=make_tournament(directors=[director]))
    add_game(table, 1, newcomer, other)

    response = client.get(url("preview", table))

    line = next(line for line in response.context["preview"].players if line.name == "Abe Ken")
    assert line.performance
    assert line.change_label == f"{line.rating_after}*"
    assert f"{line.rating_after}*" in response.content.decode()


def test_preview_and_submit_confirmation_save_nothing(client: Client, director: Any) -> None:
    players = [make_player(prior=("kyu", 5)), make_player(prior=("dan", 1)), make_player(), make_player()]
    table = make_table(players, tournament=make_tournament(directors=[director]))
    round_robin(table, players)
    before = snapshot()

    assert client.get(url("preview", table)).status_code == 200
    assert client.get(url("submit", table)).status_code == 200

    assert snapshot() == before


def test_submit_stores_the_ratings_the_preview_showed(
    client: Client, director: Any, django_capture_on_commit_callbacks: Any
) -> None:
    veterans = [established(make_player(f"Vet{i}"), 1790 - 40 * i, ONE_KYU) for i in range(2)]
    newcomers = [make_player("New", prior=("kyu", 3)), make_player("Fresh", prior=("dan", 2))]
    players = veterans + newcomers
    table = make_table(players, tournament=make_tournament(directors=[director]))
    round_robin(table, players)
    shown = client.get(url("preview", table)).context["preview"]
    assert shown.promotions  # Vet0, 1790 and winning every game, passes 1800: the comparison covers promotions

    # The re-rate runs in-process when the submission commits (no REDIS_URL), here when the capture ends.
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url("submit", table))

    table.refresh_from_db()
    assert table.status == TableStatus.RATED
    stored = {row.player_id: row for row in RatingRow.objects.filter(table=table)}
    assert len(stored) == len(shown.players) == 4
    for line in shown.players:
        row = stored[line.player_id]
        assert (row.rating_before, row.rating_after, row.change, row.rated_games, row.score) == (
            line.rating_before,
            line.rating_after,
            line.change,
            line.games,
            line.score,
        )
    assert sorted((p.player_id, p.grade) for p in Promotion.objects.filter(table=table)) == sorted(
        (p.player_id, p.grade) for p in shown.promotions
    )


def test_submit_without_a_worker_says_the_table_will_be_rated_shortly(client: Client, director: Any) -> None:
    a, b = make_player(), make_player()
    table = make_table([a, b], tournament=make_tournament(directors=[director]))
    add_game(table, 1, a, b)

    response = client.post(url("submit", table))  # on-commit work does not run inside the test's transaction

    assert response.status_code == 302
    assert [str(m) for m in get_messages(response.wsgi_request)] == [
        f"{table} was submitted; it will be rated shortly."
    ]
    table.refresh_from_db()
    assert table.status == TableStatus.SUBMITTED
    assert PendingRerate.objects.filter(from_date=table.date, from_sequence=table.sequence).exists()


def test_preview_of_a_table_that_cannot_be_rated_shows_its_problems(client: Client, director: Any) -> None:
    a, b = make_player("Abe", "Ken"), make_player("Berg", "Lena")
    table = make_table([a], tournament=make_tournament(directors=[director]))
    add_game(table, 2, a, b)

    response = client.get(url("preview", table))

    [problem] = response.context["problems"]
    assert problem.startswith("Round 2: ") and problem.endswith(" plays but is not entered in the table.")
    assert problem in response.content.decode()
    assert response.context["preview"] is None
    assert not response.context["can_submit"]


def test_submit_of_a_table_that_cannot_be_rated_keeps_it_a_draft(client: Client, director: Any) -> None:
    a, b = make_player("Abe", "Ken"), make_player("Berg", "Lena")
    table = make_table([a], tournament=make_tournament(directors=[director]))
    add_game(table, 2, a, b)

    response = client.post(url("submit", table))

    assert response.status_code == 302 and response["Location"] == url("preview", table)
    [message] = [str(m) for m in get_messages(response.wsgi_request)]
    assert message.startswith("Round 2: ") and message.endswith(" plays but is not entered in the table.")
    table.refresh_from_db()
    assert table.status == TableStatus.DRAFT
    assert not PendingRerate.objects.exists()


def test_submit_action_submits_the_valid_drafts_and_names_the_others(client: Client, director: Any) -> None:
    tournament = make_tournament(directors=[director])
    a, b = make_player(), make_player("Berg", "Lena")
    good = make_table([a, b], tournament=tournament, sequence=1)
    add_game(good, 1, a, b)
    empty = make_table([], tournament=tournament, sequence=2)

    response = client.post(
        reverse("admin:ratings_table_changelist"),
        {"action": "submit_for_rating", "_selected_action": [good.pk, empty.pk]},
    )

    assert response.status_code == 302
    shown = [str(m) for m in get_messages(response.wsgi_request)]
    assert any(str(empty) in m and "The table has no players." in m for m in shown)
    good.refresh_from_db()
    empty.refresh_from_db()
    assert (good.status, empty.status) == (TableStatus.SUBMITTED, TableStatus.DRAFT)


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_submit_says_so_when_the_table_was_rated_at_once(client: Client) -> None:
    # A real commit (no test transaction around the view): the in-process re-rate runs before the reply.
    director = make_director()
    client.force_login(director)
    a, b = make_player(), make_player()
    table = make_table([a, b], tournament=make_tournament(directors=[director]))
    add_game(table, 1, a, b)

    response = client.post(url("submit", table))

    assert [str(m) for m in get_messages(response.wsgi_request)] == [f"{table} was submitted and is rated already."]
    table.refresh_from_db()
    assert table.status == TableStatus.RATED
    assert RatingRow.objects.filter(table=table).count() == 2


def test_preview_says_a_newcomers_grades_found_on_one_game_in_one_line(client: Client, director: Any) -> None:
    newcomer = make_player("Abe", "Ken")
    others = [established(make_player(f"Player{i}", ""), 1300, 10) for i in range(9)]
    table = make_table([newcomer, *others], tournament=make_tournament(directors=[director]))
    round_robin(table, [newcomer, *others])  # he wins nine games: at his 9th game the provisional test, many grades

    response = client.get(url("preview", table))

    lines = [p for p in response.context["preview"].promotions if p.name == "Abe Ken"]
    assert len(lines) == 1, lines
    [line] = lines
    assert line.first_grade_label == "20 Kyu" and line.grade > 5
    assert f"20 Kyu – {line.grade_label}" in response.content.decode()


def test_submit_records_the_director_who_submitted(client: Client, director: Any) -> None:
    a, b = make_player(), make_player()
    table = make_table([a, b], tournament=make_tournament(directors=[director]))
    add_game(table, 1, a, b)

    client.post(url("submit", table))

    table.refresh_from_db()
    assert table.submitted_by == director


@pytest.mark.parametrize("user", [None, AnonymousUser()])
def test_submit_by_nobody_signed_in_records_no_submitter(user: AnonymousUser | None) -> None:
    a, b = make_player(), make_player()
    table = make_table([a, b])
    add_game(table, 1, a, b)

    table_submit(table=table, user=user)

    table.refresh_from_db()
    assert table.status == TableStatus.SUBMITTED
    assert table.submitted_by is None
