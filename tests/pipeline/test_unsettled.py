"""A table that does not settle: marked with its cycle, shown, resolved by the rule, checked (docs/rules.md §10)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import transaction

from ratings.engine import SETTLE_RULE
from ratings.models import Game, GameResult, OpeningState, Player, RatingRow, Table, TableResolution, TableStatus
from ratings.models.states import state_to_json
from ratings.services.rerate import rerate_check
from ratings.services.tables.settle import CannotResolve, table_resolve
from ratings.services.tables.submit import table_changed
from tests.engine.builders import make_established
from tests.factories import add_game, make_player, make_rating_officer, make_table
from tests.pipeline.histories import submit

pytestmark = pytest.mark.django_db

CUP = dt.date(2024, 5, 4)
LATER = dt.date(2024, 5, 11)


def established(name: str, rating: int) -> Player:
    player = make_player(name)
    OpeningState.objects.create(player=player, state=state_to_json(make_established(rating)))
    return player


def cup_of_bad_luck(callbacks) -> tuple[Table, Table, Player, Player]:  # type: ignore[no-untyped-def]
    """tests/engine/test_settle.py's Cup of Bad Luck, in the database, and a later table of the same two players:
    A flips between 1568 and 1570, B between 1451 and 1452."""
    a, b = established("Alpha", 1580), established("Beta", 1433)
    cup = make_table([a, b], date=CUP)
    add_game(cup, 1, b, a, GameResult.FIRST_WON)
    add_game(cup, 2, b, a, GameResult.DRAW)
    add_game(cup, 3, b, a, GameResult.SECOND_WON)
    later = make_table([a, b], date=LATER)
    add_game(later, 1, a, b, GameResult.DRAW)
    with callbacks(execute=True):
        submit(cup)
        submit(later)
    cup.refresh_from_db()
    return cup, later, a, b


def test_a_table_that_does_not_settle_is_marked_with_its_states_and_its_players_pass_unchanged(
    django_capture_on_commit_callbacks,
) -> None:
    cup, later, a, b = cup_of_bad_luck(django_capture_on_commit_callbacks)
    assert cup.status == TableStatus.SUBMITTED
    assert "did not settle" in cup.rating_error and "pass into later tables unchanged" in cup.rating_error
    assert cup.cycle_states["players"] == [a.pk, b.pk]
    assert sorted(cup.cycle_states["states"]) == [[1568, 1451], [1570, 1452]]
    assert not RatingRow.objects.filter(table=cup).exists()
    assert RatingRow.objects.get(table=later, player=a).rating_before == 1580  # unchanged through the cup
    assert rerate_check() == []


def test_resolving_rates_the_table_by_the_rule_and_records_the_decision(django_capture_on_commit_callbacks) -> None:
    cup, later, a, b = cup_of_bad_luck(django_capture_on_commit_callbacks)
    officer = make_rating_officer()
    with django_capture_on_commit_callbacks(execute=True):
        resolution = table_resolve(table_id=cup.pk, user=officer)

    assert (resolution.rule, resolution.resolved_by, resolution.cleared_at) == (SETTLE_RULE, officer, None)
    assert resolution.result == {str(a.pk): 1568, str(b.pk): 1451}
    assert resolution.states == cup.cycle_states and resolution.history.count() == 1
    cup.refresh_from_db()
    assert cup.status == TableStatus.RATED and cup.rating_error == "" and cup.cycle_states == resolution.states
    rows = {r.player_id: r for r in RatingRow.objects.filter(table=cup)}
    assert (rows[a.pk].rating_after, rows[b.pk].rating_after) == (1568, 1451)
    assert RatingRow.objects.get(table=later, player=a).rating_before == 1568  # later tables use the ruled ratings
    assert rerate_check() == []  # the check replays the resolution the same way

    with django_capture_on_commit_callbacks(execute=True):
        assert table_resolve(table_id=cup.pk, user=officer) == resolution  # the same cycle: nothing new
    assert TableResolution.objects.count() == 1


def test_a_correction_that_makes_the_table_settle_clears_the_mark(django_capture_on_commit_callbacks) -> None:
    cup, _later, _a, _b = cup_of_bad_luck(django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        resolution = table_resolve(table_id=cup.pk, user=make_rating_officer())
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        Game.objects.filter(table=cup, round=3).delete()  # a game entered by mistake
        table_changed(table=cup)

    cup.refresh_from_db()
    resolution.refresh_from_db()
    assert cup.status == TableStatus.RATED and cup.cycle_states is None and cup.rating_error == ""
    assert resolution.cleared_at is not None and resolution.history.count() == 2
    assert RatingRow.objects.filter(table=cup).count() == 2
    assert rerate_check() == []


def test_only_a_table_with_a_cycle_can_be_resolved(django_capture_on_commit_callbacks) -> None:
    cup, later, _a, _b = cup_of_bad_luck(django_capture_on_commit_callbacks)
    with pytest.raises(CannotResolve):
        table_resolve(table_id=later.pk, user=make_rating_officer())
    Table.objects.filter(pk=cup.pk).update(cycle_states={"players": [], "states": []})
    with pytest.raises(CannotResolve):
        table_resolve(table_id=cup.pk, user=make_rating_officer())
    assert not TableResolution.objects.exists()
