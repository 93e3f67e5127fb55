"""Grades tests: players with a chosen standing, and tables rated or corrected through the real services.

A player's standing before the site's first table is an opening state (as if migrated from the FESA list), so
one small table can reach a chosen promotion route; the comments in the tests give the arithmetic.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import replace

import pytest

from ratings import engine
from ratings.models import GameResult, Player, Promotion, Table, TableStatus
from ratings.selectors.list_values import pending_dan
from ratings.services.tables.save import GameEdit, table_save
from ratings.services.tables.submit import GameFacts, table_submit
from tests.factories import add_game, make_player, make_table, with_opening_state

START = dt.date(2024, 1, 1)
DAY = dt.date(2024, 5, 12)  # the day of the tables the promotions below come from
TOP = 26  # 6 Dan: an opponent at the top grade is never promoted, so only the subject's promotions show


def seasoned(
    rating: int,
    grade: int,
    *,
    games: int = 40,
    lb_run: int = 0,
    lb_mp_seen: bool = False,
    mp_run: int = 0,
    nationality: str = "FR",
    family_name: str | None = None,
) -> Player:
    """A player rated normally before the site's first table (bonus used up, so no weak-player bonus)."""
    state = engine.PlayerState(
        rating=rating,
        result_list=None,
        game_count=games,
        bonus_count=100,
        grade=grade,
        lb_run=lb_run,
        lb_mp_seen=lb_mp_seen,
        mp_run=mp_run,
        last_played=START,
    )
    return with_opening_state(make_player(family_name, nationality=nationality), state)


def pending_grade(player_id: int) -> int | None:
    """The Dan grade the public pages show as pending beside the player's grade (``pending_dan``), or None."""
    return Player.objects.annotate(pending=pending_dan()).values_list("pending", flat=True).get(pk=player_id)


def opponent(rating: int, **kwargs: object) -> Player:
    return seasoned(rating, TOP, **kwargs)  # type: ignore[arg-type]


@pytest.fixture
def rate(django_capture_on_commit_callbacks: Callable[..., object]) -> Callable[[Table], Table]:
    """Submit a table and run the re-rate its submission queues, as the site does on commit."""

    def _rate(table: Table) -> Table:
        with django_capture_on_commit_callbacks(execute=True):  # type: ignore[attr-defined]
            table_submit(table=table, user=None)
        table.refresh_from_db()
        assert table.status == TableStatus.RATED, table.rating_error
        return table

    return _rate


@pytest.fixture
def play(rate: Callable[[Table], Table]) -> Callable[..., Table]:
    """One game between ``first`` and ``second``, rated as its own table."""

    def _play(first: Player, second: Player, result: str, *, date: dt.date, sequence: int = 1) -> Table:
        table = make_table([first, second], date=date, sequence=sequence)
        add_game(table, 1, first, second, result)
        return rate(table)

    return _play


@pytest.fixture
def correct(django_capture_on_commit_callbacks: Callable[..., object]) -> Callable[[Table, str], None]:
    """Change the result of a rated one-game table as a rating officer does, and run the re-rate it queues."""

    def _correct(table: Table, result: str) -> None:
        games = [GameEdit(facts=replace(GameFacts.of(g), result=result), id=g.pk) for g in table.games.all()]
        with django_capture_on_commit_callbacks(execute=True):  # type: ignore[attr-defined]
            table_save(
                table=table,
                tournament=table.tournament,
                name=table.name,
                date=table.date,
                entries=None,
                games=games,
                strict_dates=False,
            )

    return _correct


WON, LOST, DRAW = GameResult.FIRST_WON, GameResult.SECOND_WON, GameResult.DRAW


@pytest.fixture
def one_dan(play: Callable[..., Table]) -> Promotion:
    """A pending 1 Dan: 1 Kyu at 1795 beating an equal passes UB(1 Dan) = 1800 (see test_routes)."""
    player = seasoned(1795, 20, family_name="Aoki", nationality="FR")
    play(player, opponent(1795), WON, date=DAY)
    return Promotion.objects.get(player=player, grade=21)


@pytest.fixture
def five_dan(play: Callable[..., Table]) -> Promotion:
    """A pending 5 Dan: 4 Dan at 2435 beating an equal gains K/2 = 8 > 5 to UB(5 Dan) = 2440. The day's second
    table, so that a test may ask for ``one_dan`` too."""
    player = seasoned(2435, 24, family_name="Brandt", nationality="DE")
    play(player, opponent(2435), WON, date=DAY, sequence=2)
    return Promotion.objects.get(player=player, grade=25)
