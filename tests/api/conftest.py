"""API tests: a small federation rated through the real services, and a client with a fresh request count."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.core.cache import caches
from django.urls import reverse

from ratings.models import Player, Promotion, Table
from tests.factories import make_grade_officer, make_tournament
from tests.public.conftest import days_ago, rate, rated_round_robin, seasoned  # noqa: F401 - fixtures

TOP = 26  # 6 Dan: never promoted by the engine, so the promotions are the ones a test makes
BIRTHDAY = dt.date(1971, 3, 14)
SECRET_REASON = "Known to the officer from a private letter"


@pytest.fixture(autouse=True)
def fresh_request_count() -> None:
    """Each test starts with no API request counted against the test client's address."""
    caches["api-throttle"].clear()


@dataclass
class Federation:
    players: list[Player]
    table: Table
    officer_name: str


def veteran(rating: int, **fields: object) -> Player:
    return seasoned(rating, grade=TOP, last_played=days_ago(900), **fields)


@pytest.fixture
def federation(rated_round_robin: Callable[..., Table]) -> Federation:  # noqa: F811 - the fixture imported above
    """Three rated players (one with a date of birth), a rated table, an effective and a decided promotion."""
    players = [veteran(1600, date_of_birth=BIRTHDAY, family_name="Åberg", given_name="Nils"), veteran(1500)]
    players.append(veteran(1400, nationality="DE"))
    table = rated_round_robin(players, days_ago(30), tournament=make_tournament("Paris Open", date=days_ago(30)))
    officer = make_grade_officer(username="officer-lastname")
    Promotion.objects.create(
        player=players[1], grade=15, table=table, game_number=41, route="upper_bound", rating=1500, status="effective"
    )
    Promotion.objects.create(
        player=players[0],
        grade=21,
        table=table,
        game_number=41,
        route="upper_bound",
        rating=1600,
        status="rejected",
        decided_by=officer,
        decision_reason=SECRET_REASON,
    )
    Promotion.objects.create(
        player=players[2], grade=22, table=table, game_number=41, route="upper_bound", rating=1400, status="pending"
    )
    return Federation(players=players, table=table, officer_name=officer.username)


def api_urls(federation: Federation) -> list[str]:
    player, table = federation.players[0].federation_id, federation.table.pk
    """A request to every endpoint with data, a few with filters, and two errors (404, 400)."""
    return [
        reverse("api-v1:players") + "?q=aberg",
        reverse("api-v1:player", args=[player]),
        reverse("api-v1:player_history", args=[player]),
        reverse("api-v1:rating_list") + "?active=all&page_size=2",
        reverse("api-v1:rating_list") + "?country=DE&grade_min=20",
        reverse("api-v1:tournaments") + "?country=FR",
        reverse("api-v1:tables"),
        reverse("api-v1:table", args=[table]),
        reverse("api-v1:promotions"),
        reverse("api-v1:pending_promotions"),
        reverse("api-v1:predictions"),
        reverse("api-v1:player", args=["NOSUCHID"]),
        reverse("api-v1:rating_list") + "?date=yesterday",
    ]
