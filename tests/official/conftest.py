"""Official lists tests: a small federation rated through the real services, a list published from it, and a
correction of the past made afterwards through the corrections service."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.contrib.auth.models import User

from ratings.models import OfficialList, Player, Table
from ratings.services.corrections.apply import correction_make
from ratings.services.official_lists import official_list_publish
from ratings.services.rerate import rerate_pending
from tests.corrections.helpers import result_flipped
from tests.factories import make_rating_officer
from tests.public.conftest import days_ago, rate, rated_round_robin, seasoned  # noqa: F401 - fixtures

LIST_DAYS = 30  # the list is of 30 days ago; the tables before it


@dataclass
class Federation:
    players: list[Player]  # Anders (FR, 1600), Berger (FR, 1500), Claes (DE, 1400), Dupont (FR, 1300, no table)
    tables: list[Table]
    officer: User
    date: dt.date


def veteran(rating: int, family_name: str, nationality: str = "FR") -> Player:
    return seasoned(rating, grade=20, last_played=days_ago(400), family_name=family_name, nationality=nationality)


@pytest.fixture
def federation(rated_round_robin: Callable[..., Table]) -> Federation:  # noqa: F811 - the fixture imported above
    a, b, c = veteran(1600, "Anders"), veteran(1500, "Berger"), veteran(1400, "Claes", "DE")
    first = rated_round_robin([a, b], days_ago(40))  # Anders beats Berger
    second = rated_round_robin([b, c], days_ago(35))  # Berger beats Claes
    d = veteran(1300, "Dupont")  # on the list from his opening state; no table of the site touches him
    return Federation(
        players=[a, b, c, d], tables=[first, second], officer=make_rating_officer(), date=days_ago(LIST_DAYS)
    )


@pytest.fixture
def published(federation: Federation) -> OfficialList:
    return official_list_publish(
        date=federation.date, user=federation.officer, title="Spring list", note="First.", expected=None
    )


def correct_first_table(federation: Federation, *, rerate: bool = True) -> None:
    """The first table's result was entered the wrong way round: Berger beat Anders. Corrected, re-rated."""
    change = result_flipped(federation.tables[0])
    correction_make(user=federation.officer, reason="Result entered the wrong way round", change=change, expected=None)
    if rerate:
        rerate_pending()
