"""Public pages tests: players with a chosen standing and tables rated through the real services."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence

import pytest
from django.utils import timezone

from ratings import engine
from ratings.models import Player, Promotion, Table
from ratings.services.tables.submit import table_submit
from tests.factories import make_player, make_table, round_robin, with_opening_state


def days_ago(days: int) -> dt.date:
    return timezone.localdate() - dt.timedelta(days=days)


def seasoned(
    rating: int,
    *,
    grade: int = 0,
    games: int = 40,
    last_played: dt.date | None = None,
    family_name: str | None = None,
    given_name: str = "",
    nationality: str = "FR",
    result_list: tuple[tuple[int, float], ...] | None = None,
    **fields: object,
) -> Player:
    """A player rated normally before the site's first table (an opening state, as if migrated from FESA);
    with ``result_list`` (pairs of opponent rating and score), one still rated by performance."""
    player = make_player(family_name, given_name, nationality=nationality, **fields)
    state = engine.PlayerState(
        rating=rating,
        result_list=result_list,
        game_count=games,
        bonus_count=100,
        grade=grade,
        last_played=last_played or days_ago(30),
    )
    return with_opening_state(player, state)


@pytest.fixture
def rate(django_capture_on_commit_callbacks: Callable[..., object]) -> Callable[[Table], Table]:
    """Submit a table and run what the submission queues after commit (the re-rate, in-process)."""

    def submit(table: Table) -> Table:
        with django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
            table_submit(table=table, user=None)
        table.refresh_from_db()
        return table

    return submit


@pytest.fixture
def rated_round_robin(rate: Callable[[Table], Table]) -> Callable[..., Table]:
    """A rated round robin of the players on a date (the earlier-seated player wins every game)."""

    def make(players: Sequence[Player], date: dt.date, sequence: int = 1, **kwargs: object) -> Table:
        table = make_table(players, date=date, sequence=sequence, **kwargs)  # type: ignore[arg-type]
        round_robin(table, players)
        return rate(table)

    return make


@pytest.fixture
def pending_first_dan(rated_round_robin: Callable[..., Table]) -> Promotion:
    """Alpha's 1 Dan, won at a table ten days ago, waiting for a grade officer; Alpha tops the list."""
    a, b = seasoned(1900, family_name="Alpha", grade=20), seasoned(1500, family_name="Beta")
    table = rated_round_robin([a, b], days_ago(10))
    promotion, _ = Promotion.objects.get_or_create(  # the engine may have found it already
        player=a,
        grade=21,
        defaults={"table": table, "game_number": 41, "route": "upper_bound", "rating": 1900, "status": "pending"},
    )
    return promotion
