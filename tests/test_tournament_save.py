"""tournament_save: the admin and the upload create and change tournaments through it."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import Group, User
from django.core.exceptions import ValidationError

from ratings.access import RATING_OFFICERS, TOURNAMENT_DIRECTORS
from ratings.models import Tournament
from ratings.services.tournaments import tournament_save

pytestmark = pytest.mark.django_db

DAY = dt.date(2025, 5, 10)


def _user(name: str, group: str) -> User:
    user = User.objects.create_user(name, password="x", is_staff=True)
    user.groups.add(Group.objects.get(name=group))
    return user


def test_tournament_save_director_creating_becomes_its_director() -> None:
    director = _user("dir", TOURNAMENT_DIRECTORS)
    tournament = tournament_save(tournament=None, user=director, name="Open", start_date=DAY, end_date=DAY)
    assert list(tournament.directors.all()) == [director]
    assert tournament.created_by == director


def test_tournament_save_officer_assigns_directors_and_is_not_one() -> None:
    officer, director = _user("off", RATING_OFFICERS), _user("dir", TOURNAMENT_DIRECTORS)
    tournament = tournament_save(
        tournament=None, user=officer, name="Open", start_date=DAY, end_date=DAY, directors=[director]
    )
    assert list(tournament.directors.all()) == [director]
    changed = tournament_save(
        tournament=tournament, user=officer, name="Open 2025", start_date=DAY, end_date=DAY + dt.timedelta(days=1)
    )
    assert list(changed.directors.all()) == [director]  # None keeps them
    assert Tournament.objects.get().name == "Open 2025"


def test_tournament_save_reversed_dates_refused_naming_the_field_and_nothing_saved() -> None:
    with pytest.raises(ValidationError) as refused:
        tournament_save(tournament=None, user=None, name="Open", start_date=DAY, end_date=DAY - dt.timedelta(days=1))
    assert "end_date" in refused.value.message_dict
    assert not Tournament.objects.exists()
