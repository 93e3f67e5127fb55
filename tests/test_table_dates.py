"""A table's date lies within its tournament's dates and not after today, on every path that saves one."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from ratings.models import GameResult, Table
from ratings.services.tables.save import EntryFacts, GameEdit, TableRefused, table_check, table_save
from ratings.services.tables.submit import GameFacts
from ratings.services.tournaments import tournament_save
from tests.admin.helpers import post_page
from tests.factories import make_director, make_player, make_table, make_tournament

pytestmark = pytest.mark.django_db

DAY = dt.date(2024, 5, 12)


def save_on(date: dt.date, tournament_date: dt.date = DAY) -> Table:
    a, b = make_player(), make_player()
    return table_save(
        table=None,
        tournament=make_tournament("Open", date=tournament_date),
        name="",
        date=date,
        entries=[EntryFacts(player_id=a.pk), EntryFacts(player_id=b.pk)],
        games=[GameEdit(facts=GameFacts(round=1, first_id=a.pk, second_id=b.pk, result=GameResult.FIRST_WON))],
        strict_dates=True,
    ).table


def test_table_save_refuses_a_date_in_the_future_naming_the_date() -> None:
    tomorrow = timezone.localdate() + dt.timedelta(days=1)
    with pytest.raises(TableRefused) as caught:
        save_on(tomorrow, tournament_date=tomorrow)
    assert caught.value.by_field == {"date": [f"The table's date {tomorrow} is in the future: check the year."]}
    assert not Table.objects.exists()


@pytest.mark.parametrize("date", [DAY - dt.timedelta(days=1), DAY + dt.timedelta(days=1)])
def test_table_save_refuses_a_date_outside_the_tournament(date: dt.date) -> None:
    with pytest.raises(TableRefused) as caught:
        save_on(date)
    assert caught.value.by_field == {
        "date": [f"The table's date {date} is outside its tournament's dates (2024-05-12 to 2024-05-12)."]
    }


def test_table_save_takes_today_and_the_tournaments_last_day() -> None:
    today = timezone.localdate()
    assert save_on(today, tournament_date=today).date == today


def test_table_check_without_a_tournament_checks_only_the_future() -> None:
    tomorrow = timezone.localdate() + dt.timedelta(days=1)
    assert table_check(table=None, tournament=None, date=DAY, sequence=None, entries=[], games=[], strict_dates=True)
    with pytest.raises(TableRefused):
        table_check(table=None, tournament=None, date=tomorrow, sequence=None, entries=[], games=[], strict_dates=True)


def test_tournament_save_refuses_dates_that_leave_out_its_tables_naming_them() -> None:
    tournament = make_tournament("Open", date=DAY)
    tournament.end_date = DAY + dt.timedelta(days=1)
    tournament.save()
    make_table([make_player()], tournament=tournament, date=DAY)
    make_table([make_player()], tournament=tournament, date=DAY + dt.timedelta(days=1), sequence=1)
    with pytest.raises(ValidationError) as caught:
        tournament_save(tournament=tournament, user=None, name="Open", start_date=DAY, end_date=DAY)
    assert caught.value.message_dict == {
        "end_date": [
            "The tournament has tables outside these dates: Open (2024-05-13). Change the tables' dates first."
        ]
    }
    later = DAY + dt.timedelta(days=1)
    with pytest.raises(ValidationError) as caught:
        tournament_save(tournament=tournament, user=None, name="Open", start_date=later, end_date=later)
    assert list(caught.value.message_dict) == ["start_date"]
    assert "Open (2024-05-12)" in caught.value.messages[0]
    tournament.refresh_from_db()
    assert (tournament.start_date, tournament.end_date) == (DAY, later)


def test_tournament_save_may_widen_its_dates() -> None:
    tournament = make_tournament("Open", date=DAY)
    make_table([make_player()], tournament=tournament, date=DAY)
    widened = tournament_save(
        tournament=tournament, user=None, name="Open", start_date=DAY - dt.timedelta(days=1), end_date=DAY
    )
    assert widened.start_date == DAY - dt.timedelta(days=1)


def test_factory_tables_lie_within_their_tournaments() -> None:
    """The factories build what the rule allows: a table of another day than its tournament's widens it."""
    tournament = make_tournament("Open", date=DAY)
    make_table([make_player()], tournament=tournament, date=DAY + dt.timedelta(days=1))
    tournament.refresh_from_db()
    assert (tournament.start_date, tournament.end_date) == (DAY, DAY + dt.timedelta(days=1))


def test_admin_table_form_shows_a_mistyped_year_on_the_date_field(client: Client) -> None:
    director = make_director()
    a, b = make_player(), make_player()
    table = make_table([a, b], tournament=make_tournament("Open", date=DAY, directors=[director]), date=DAY)
    client.force_login(director)
    _page, response = post_page(client, reverse("admin:ratings_table_change", args=[table.pk]), {"date": "2999-05-12"})
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["date"] == [
        "The table's date 2999-05-12 is in the future: check the year.",
        "The table's date 2999-05-12 is outside its tournament's dates (2024-05-12 to 2024-05-12).",
    ]
    table.refresh_from_db()
    assert table.date == DAY
