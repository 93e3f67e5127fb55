"""A table whose rating would run off the handicap scale (docs/rules.md §3) is marked for the rating officer by a
re-rate, as a table that does not settle is: not rated, its error on the table, its players passing unchanged."""

from __future__ import annotations

import pytest

from ratings.models import GameResult, Player, RatingRow, Table, TableStatus
from ratings.services.rerate import rerate_check, rerate_from
from tests.factories import add_game, make_player, make_table
from tests.pipeline.histories import submit
from tests.pipeline.test_unsettled import CUP, LATER, established

pytestmark = pytest.mark.django_db


def runaway_cup(callbacks, handicap: str) -> tuple[Table, Table, Player, Player]:  # type: ignore[no-untyped-def]
    """A newcomer gives a 2678 master ``handicap`` and wins; a later table of the master's."""
    master, newcomer, other = established("Mester", 2678), make_player("Neu"), established("Other", 1500)
    cup = make_table([master, newcomer], date=CUP)
    add_game(cup, 1, newcomer, master, GameResult.FIRST_WON, handicap=handicap, giver="first")
    later = make_table([master, other], date=LATER)
    add_game(later, 1, master, other, GameResult.DRAW)
    with callbacks(execute=True):
        submit(cup)
        submit(later)
    cup.refresh_from_db()
    return cup, later, master, newcomer


def test_a_runaway_table_is_marked_for_the_rating_officer_and_its_players_pass_unchanged(
    django_capture_on_commit_callbacks,
) -> None:
    cup, later, master, newcomer = runaway_cup(django_capture_on_commit_callbacks, "R")
    assert cup.status == TableStatus.SUBMITTED
    assert f"Neu {newcomer.given_name} ({newcomer.federation_id})'s rating would reach" in cup.rating_error
    assert "handicap scale (9999)" in cup.rating_error and "pass into later tables unchanged" in cup.rating_error
    assert not RatingRow.objects.filter(table=cup).exists()
    assert RatingRow.objects.get(table=later, player=master).rating_before == 2678
    assert rerate_check() == []
    # The same from scratch, where the rows go out as the history is rated: the error still names the player.
    error = cup.rating_error
    rerate_from()
    cup.refresh_from_db()
    assert (cup.status, cup.rating_error) == (TableStatus.SUBMITTED, error)
    assert RatingRow.objects.get(table=later, player=master).rating_before == 2678
    assert rerate_check() == []


def test_the_same_table_with_a_bishop_is_rated(django_capture_on_commit_callbacks) -> None:
    cup, _later, _master, newcomer = runaway_cup(django_capture_on_commit_callbacks, "B")
    assert (cup.status, cup.rating_error) == (TableStatus.RATED, "")
    assert 3120 < RatingRow.objects.get(table=cup, player=newcomer).rating_after < 9999
