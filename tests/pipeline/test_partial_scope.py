"""A partial re-rate costs what it changes: it relinks and refreshes only the players whose rows it wrote
differently, and still leaves every link right when a table went between two of a player's rows."""

from __future__ import annotations

import pytest
from django.db import transaction

from ratings.models import Game, Player, RatingRow, Table, TableStatus
from ratings.services.rerate import replay, rerate_check, rerate_pending, rerate_request, sparse
from ratings.services.tables.submit import table_changed, table_delete
from tests.factories import make_player, make_table, round_robin
from tests.pipeline.histories import submit
from tests.pipeline.test_service import rated_table, week

pytestmark = pytest.mark.django_db


def test_correction_leaves_the_links_and_columns_of_players_it_did_not_reach_alone(
    django_capture_on_commit_callbacks,
) -> None:
    reached = [make_player() for _ in range(4)]
    apart = [make_player() for _ in range(4)]
    with django_capture_on_commit_callbacks(execute=True):
        corrected = rated_table(reached, week(0))
        rated_table(reached, week(2))
        rated_table(apart, week(1))
        rated_table(apart, week(3))
    # A mark on a player the correction does not reach: a run that compared and refreshed every player active
    # since week 0 would put it back.
    Player.objects.filter(pk=apart[1].pk).update(games=999)

    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        game = Game.objects.filter(table=corrected).first()
        game.result = "draw"
        game.save()
        table_changed(table=corrected)

    assert Player.objects.get(pk=apart[1].pk).games == 999
    assert [(d.player_id, d.table_id) for d in rerate_check()] == [(apart[1].pk, None)]  # the mark, nothing else


def test_stored_link_that_does_not_hold_is_found_and_relinked(django_capture_on_commit_callbacks) -> None:
    reached = [make_player() for _ in range(4)]
    apart = [make_player() for _ in range(4)]
    with django_capture_on_commit_callbacks(execute=True):
        corrected = rated_table(reached, week(0))
        rated_table(apart, week(1))
        rated_table(apart, week(3))
    # As a table deleted at week 5 would leave it, had it been between: the row points past the next one.
    RatingRow.objects.filter(player=apart[0], date=week(1)).update(valid_until=week(5))
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        table_changed(table=corrected)
    assert RatingRow.objects.get(player=apart[0], date=week(1)).valid_until == week(3)
    assert rerate_check() == []


def test_table_deleted_between_two_rows_of_a_player_relinks_them(django_capture_on_commit_callbacks) -> None:
    players = [make_player() for _ in range(4)]
    with django_capture_on_commit_callbacks(execute=True):
        rated_table(players, week(0))
        middle = rated_table([*players[:2], make_player(), make_player()], week(1))
        rated_table(players, week(2))
        rated_table(players, week(3))
    with django_capture_on_commit_callbacks(execute=True):
        table_delete(table=middle)
    assert RatingRow.objects.get(player=players[0], date=week(0)).valid_until == week(2)
    assert rerate_check() == []


def test_correction_reads_only_the_tables_its_players_reach(django_capture_on_commit_callbacks, monkeypatch) -> None:
    """The pending re-rate replays as the preview does: the stored rows of the later tables the change does not
    reach are not read (a correction one year back read every later table's rows to leave 99 % of them)."""
    reached = [make_player() for _ in range(4)]
    apart = [make_player() for _ in range(4)]
    with django_capture_on_commit_callbacks(execute=True):
        corrected = rated_table(reached, week(0))
        later = rated_table(reached, week(2))
        untouched = [rated_table(apart, week(1)), rated_table(apart, week(3))]
    read: list[int] = []

    def stored_rows(table_ids, *args):  # type: ignore[no-untyped-def]
        read.extend(table_ids)
        return replay.stored_rows(table_ids, *args)

    monkeypatch.setattr(sparse, "stored_rows", stored_rows)
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        game = Game.objects.filter(table=corrected).first()
        game.result = "draw"
        game.save()
        table_changed(table=corrected)
    assert corrected.pk in read and later.pk in read
    assert not {t.pk for t in untouched} & set(read)
    assert rerate_check() == []


def test_player_whose_last_table_went_keeps_the_columns_of_his_table_before(
    django_capture_on_commit_callbacks,
) -> None:
    """Two tables deleted in one run: the earlier one starts the range, the later one was his last. His table
    in between is in the range and unchanged (he did not play the earlier one): his rating is that table's."""
    me = make_player()
    with django_capture_on_commit_callbacks(execute=True):
        earlier = rated_table([make_player() for _ in range(4)], week(1))
        kept = rated_table([me, *(make_player() for _ in range(3))], week(2))
        last = rated_table([me, *(make_player() for _ in range(3))], week(3))
    with django_capture_on_commit_callbacks(execute=False), transaction.atomic():  # a burst: one run serves both
        table_delete(table=earlier)
        table_delete(table=last)
    rerate_pending()
    me.refresh_from_db()
    assert me.rating == RatingRow.objects.get(player=me, table=kept).rating_after
    assert rerate_check() == []


def test_rows_of_a_table_sent_back_to_draft_are_replayed_without_it_the_same_day(
    django_capture_on_commit_callbacks,
) -> None:
    """A table back in draft has its rows removed by the next run. Its players' next table the same day starts
    from them, and their links cannot tell it (a link holds a date): they are replayed from the start."""
    players = [make_player() for _ in range(4)]
    with django_capture_on_commit_callbacks(execute=True):
        rated_table(players, week(0))
        drafted = rated_table(players, week(1))
        same_day = make_table(players, date=week(1), sequence=2)
        round_robin(same_day, players, winner_first=False)
        submit(same_day)
    assert (drafted.date, drafted.sequence) < (same_day.date, same_day.sequence)
    Table.objects.filter(pk=drafted.pk).update(status=TableStatus.DRAFT)
    rerate_request(date=drafted.date, sequence=drafted.sequence, table_ids=[])
    rerate_pending()
    assert not RatingRow.objects.filter(table=drafted).exists()
    assert rerate_check() == []
