"""Registering a tournament with FESA, its review, and where its results stand."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.core.exceptions import ValidationError
from django.test import override_settings
from django.utils import timezone

from ratings.models import AnnouncementStatus, TableStatus, Tournament
from ratings.selectors.season import overdue_tournaments, season_status, status_list, with_results
from ratings.services.season import tournament_accept, tournament_refuse, tournament_register
from ratings.services.season.rules import announcement_problems
from tests.conftest import FIXED_NOW
from tests.factories import make_director, make_player, make_rating_officer, make_table

pytestmark = pytest.mark.django_db
TODAY = FIXED_NOW.date()


def register(user, *, start: dt.date, end: dt.date | None = None, minutes=30, increment=30, byoyomi=None, **kw):
    return tournament_register(
        tournament=kw.pop("tournament", None),
        user=user,
        name=kw.pop("name", "Open de Paris"),
        start_date=start,
        end_date=end or start,
        city="Paris",
        country=kw.pop("country", "FR"),
        main_time_minutes=minutes,
        increment_seconds=increment,
        byoyomi_seconds=byoyomi,
        mode="Swiss",
        contact="td@example.org",
        **kw,
    )


@pytest.mark.parametrize(
    ("minutes", "increment", "byoyomi", "keeps"),
    [
        (30, 30, None, True),
        (45, 30, None, True),
        (30, 29, None, False),
        (29, 60, None, False),
        (20, None, 40, True),
        (20, None, 39, False),
        (19, None, 60, False),
        (None, None, None, False),
        (60, 30, 40, False),  # an increment and a byoyomi at once
    ],
)
def test_time_control_rule_keeps_fesa_minimums(minutes, increment, byoyomi, keeps) -> None:
    problems = announcement_problems(
        registered_on=TODAY,
        start_date=TODAY + dt.timedelta(days=30),
        minutes=minutes,
        increment=increment,
        byoyomi=byoyomi,
    )
    assert ("main_time_minutes" not in problems) is keeps


@pytest.mark.parametrize(("days", "keeps"), [(13, False), (14, True), (40, True)])
def test_notice_period_counts_days_before_the_start(days: int, keeps: bool) -> None:
    problems = announcement_problems(
        registered_on=TODAY, start_date=TODAY + dt.timedelta(days=days), minutes=30, increment=30, byoyomi=None
    )
    assert ("start_date" not in problems) is keeps


@override_settings(SEASON_NOTICE_DAYS=30, SEASON_MIN_FISCHER="60+0")
def test_rules_follow_the_settings() -> None:
    problems = announcement_problems(
        registered_on=TODAY, start_date=TODAY + dt.timedelta(days=20), minutes=30, increment=30, byoyomi=None
    )
    assert set(problems) == {"start_date", "main_time_minutes"}


def test_register_refuses_a_late_registration_and_saves_nothing() -> None:
    director = make_director()
    with pytest.raises(ValidationError) as caught:
        register(director, start=TODAY + dt.timedelta(days=3))
    assert "start_date" in caught.value.message_dict
    assert not director.directed_tournaments.exists()


def test_register_then_accept_makes_the_director_its_director_and_public() -> None:
    director, officer = make_director(), make_rating_officer()
    tournament = register(director, start=TODAY + dt.timedelta(days=20), minutes=20, increment=None, byoyomi=40)
    assert tournament.announcement == AnnouncementStatus.PROPOSED
    assert list(tournament.directors.all()) == [director]
    assert tournament.time_control == "20 min + 40 s byoyomi"
    with pytest.raises(ValidationError):
        tournament_accept(tournament=tournament, user=director)  # only an officer reviews
    tournament = tournament_accept(tournament=tournament, user=officer)
    assert tournament.announcement == AnnouncementStatus.ACCEPTED
    assert tournament.reviewed_by == officer
    with pytest.raises(ValidationError):
        tournament_accept(tournament=tournament, user=officer)  # already accepted: compare-and-set refuses


def test_refusal_needs_a_reason_and_keeps_it() -> None:
    officer = make_rating_officer()
    tournament = register(make_director(), start=TODAY + dt.timedelta(days=20))
    with pytest.raises(ValidationError):
        tournament_refuse(tournament=tournament, user=officer, reason="  ")
    tournament = tournament_refuse(tournament=tournament, user=officer, reason="No byoyomi clocks")
    assert (tournament.announcement, tournament.review_reason) == (AnnouncementStatus.REFUSED, "No byoyomi clocks")


def test_a_directors_change_sends_an_accepted_tournament_back_to_review_and_keeps_its_notice() -> None:
    director, officer = make_director(), make_rating_officer()
    tournament = tournament_accept(tournament=register(director, start=TODAY + dt.timedelta(days=15)), user=officer)
    # Ten days later six days are left before the new start: fine, the notice counts from the registration.
    with time_machine.travel(FIXED_NOW + dt.timedelta(days=10)):
        tournament = register(director, start=TODAY + dt.timedelta(days=16), tournament=tournament, name="Open 2")
        with pytest.raises(ValidationError):  # a new registration made that day would be too late
            register(director, start=TODAY + dt.timedelta(days=16), name="Open 3")
    assert tournament.announcement == AnnouncementStatus.PROPOSED
    assert tournament.name == "Open 2"


def stage(tournament, today: dt.date) -> str:

    return season_status(with_results(Tournament.objects.filter(pk=tournament.pk)).get(), today=today).stage


def test_stage_runs_from_announced_to_rated() -> None:
    director, officer = make_director(), make_rating_officer()
    start = TODAY + dt.timedelta(days=20)
    tournament = tournament_accept(
        tournament=register(director, start=start, end=start + dt.timedelta(days=1)), user=officer
    )
    end = tournament.end_date
    assert stage(tournament, TODAY) == "announced"
    assert stage(tournament, start) == "playing"
    assert stage(tournament, end + dt.timedelta(days=14)) == "awaited"
    assert stage(tournament, end + dt.timedelta(days=15)) == "overdue"
    assert list(overdue_tournaments(today=end + dt.timedelta(days=15))) == [tournament]
    assert list(overdue_tournaments(today=end + dt.timedelta(days=14))) == []
    players = [make_player() for _ in range(2)]
    table = make_table(players, tournament=tournament, date=end, status=TableStatus.SUBMITTED)
    table.submitted_at = timezone.now()
    table.save()
    assert stage(tournament, end + dt.timedelta(days=30)) == "received"
    assert list(overdue_tournaments(today=end + dt.timedelta(days=30))) == []
    table.status, table.first_rated_at = TableStatus.RATED, timezone.now()
    table.save()
    assert stage(tournament, end + dt.timedelta(days=30)) == "rated"
    rows = status_list(today=end + dt.timedelta(days=30))
    assert [(t.pk, s.stage, s.rated_on) for t, s in rows] == [(tournament.pk, "rated", timezone.localdate())]
