"""The history the comparison reads (ratings/selectors/predictions.py): FESA's predictions from exactly the
ratings the site stored before each table."""

from __future__ import annotations

import pytest

from ratings.engine.systems.base import logistic
from ratings.models import GameResult, RatingRow
from ratings.selectors.predictions import fesa_expected, prediction_history, prediction_openings
from tests.factories import add_game, make_player, make_table
from tests.public.conftest import days_ago, seasoned

pytestmark = pytest.mark.django_db


def test_fesa_predicts_from_the_stored_ratings_before_the_table(rated_round_robin, rate):
    a, b, c = seasoned(1800), seasoned(1600), seasoned(1700)
    first = rated_round_robin([a, b, c], days_ago(20))
    second = make_table([a, b], date=days_ago(10))
    add_game(second, 1, b, a, GameResult.FIRST_WON)
    rate(second)
    tables = list(prediction_history())
    assert [t.date for t in tables] == [days_ago(20), days_ago(10)]
    # The first table: the opening ratings, 1800 v 1600 for a's first game.
    opening = tables[0].games[0]
    assert (opening.game.first, opening.game.second, opening.game.score) == (a.pk, b.pk, 1.0)
    assert opening.stored == pytest.approx(logistic(200))
    # The second: the ratings the site stored before it, which the first table moved.
    before = dict(RatingRow.objects.filter(table=second).values_list("player_id", "rating_before"))
    after_first = dict(RatingRow.objects.filter(table=first).values_list("player_id", "rating_after"))
    assert before == {a.pk: after_first[a.pk], b.pk: after_first[b.pk]}
    (game,) = tables[1].games
    assert game.stored == pytest.approx(logistic(before[b.pk] - before[a.pk]))
    assert game.counted


def test_a_newcomers_first_table_is_not_counted(rated_round_robin):
    old = seasoned(1700)
    new = make_player("Newcomer")
    rated_round_robin([old, new], days_ago(20))
    (table,) = prediction_history()
    assert [g.counted for g in table.games] == [False]


def test_forfeits_are_left_out_and_handicaps_marked(rated_round_robin, rate):
    a, b = seasoned(2000), seasoned(1500)
    table = make_table([a, b], date=days_ago(20))
    add_game(table, 1, a, b, GameResult.SECOND_WON, handicap="B", giver="first")
    add_game(table, 2, a, b, GameResult.FIRST_WON, played=False)
    rate(table)
    (read,) = prediction_history()
    (game,) = read.games
    assert game.game.handicap and game.game.score == 0.0
    assert game.stored == pytest.approx(fesa_expected(2000, 1500, handicap="B", giver_is_first=True))


def test_the_giver_is_seen_lowered_by_his_handicap():
    # 2000 is half way up 3 Dan (1920..2080); a bishop (1.5 grades) down lands on 2 Dan's lower bound, 1800.
    assert fesa_expected(2000, 1800, handicap="B", giver_is_first=True) == pytest.approx(0.5)
    assert fesa_expected(1800, 2000, handicap="B", giver_is_first=False) == pytest.approx(0.5)
    assert fesa_expected(2000, 1800) == pytest.approx(logistic(200))


def test_the_opening_balance_is_read_for_players_who_had_games():
    migrated = seasoned(1830)
    new = make_player("Newcomer")
    openings = prediction_openings()
    assert openings == {migrated.pk: 1830}
    assert new.pk not in openings
