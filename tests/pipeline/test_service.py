"""The re-rating service on its own (tasks run in-process, no broker): what a run does and leaves alone."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.management import CommandError, call_command
from django.db import transaction

from ratings.engine import PlayerState
from ratings.models import Game, OpeningState, PendingRerate, Player, RatingRow, RerateRun, Table, TableStatus
from ratings.models.states import state_to_json
from ratings.services.players import players_refresh
from ratings.services.rerate import rerate_check, rerate_from, rerate_pending, rerate_request
from ratings.services.tables.submit import table_changed, table_delete
from tests.factories import add_game, make_player, make_table, round_robin
from tests.pipeline.histories import submit

pytestmark = pytest.mark.django_db

JAN = dt.date(2024, 1, 6)


def week(n: int) -> dt.date:
    return JAN + dt.timedelta(days=7 * n)


def rated_table(players: list[Player], date: dt.date, *, winner_first: bool = True) -> Table:
    table = make_table(players, date=date)
    round_robin(table, players, winner_first=winner_first)
    submit(table)
    return table


def test_table_submit_waits_then_run_rates_it_and_records_times(django_capture_on_commit_callbacks) -> None:
    players = [make_player() for _ in range(4)]
    table = make_table(players, date=JAN)
    round_robin(table, players)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        submit(table)
    table.refresh_from_db()
    assert table.status == TableStatus.SUBMITTED and table.needs_rerate and table.first_rated_at is None
    assert PendingRerate.objects.get().from_date == JAN
    assert len(callbacks) == 1  # the task, queued once the edit commits

    outcome = rerate_pending()
    table.refresh_from_db()
    assert outcome is not None and outcome.cleared and outcome.tables_rated == 1 and outcome.rows_written == 4
    assert table.status == TableStatus.RATED and not table.needs_rerate and table.rating_error == ""
    assert table.first_rated_at is not None and table.last_rerated_at == table.first_rated_at
    assert not PendingRerate.objects.exists()
    # Four newcomers, a round robin won by the earlier seat: seat 1 won all 3 games, seat 4 lost all 3.
    ratings = dict(Player.objects.values_list("pk", "rating"))
    assert ratings[players[3].pk] == 1  # only losses: rated 1 (docs/rules.md §5)
    assert ratings[players[0].pk] > ratings[players[1].pk] > ratings[players[2].pk] > 1

    first_rated = table.first_rated_at
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        game = Game.objects.filter(table=table).first()
        game.result = "second"
        game.save()
        table_changed(table=table)
    table.refresh_from_db()
    assert table.first_rated_at == first_rated and table.last_rerated_at > first_rated
    assert rerate_pending() is None  # nothing pending any more


def test_rerate_request_keeps_the_earliest_position_and_counts_requests() -> None:
    rerate_request(date=week(3), sequence=2, table_ids=[])
    rerate_request(date=week(1), sequence=1, table_ids=[])
    rerate_request(date=week(5), sequence=1, table_ids=[])
    pending = PendingRerate.objects.get()
    assert (pending.from_date, pending.from_sequence, pending.generation) == (week(1), 1, 3)


def test_correction_leaves_tables_it_does_not_reach_as_they_are(django_capture_on_commit_callbacks) -> None:
    group_a = [make_player() for _ in range(4)]
    group_b = [make_player() for _ in range(4)]
    with django_capture_on_commit_callbacks(execute=True):
        a_tables = [rated_table(group_a, week(2 * i)) for i in range(3)]
        b_tables = [rated_table(group_b, week(2 * i + 1)) for i in range(3)]
    b_rows = list(RatingRow.objects.filter(table__in=b_tables).order_by("pk").values("pk", "state_after"))
    b_rerated = list(Table.objects.filter(pk__in=[t.pk for t in b_tables]).values_list("last_rerated_at", flat=True))

    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        game = Game.objects.filter(table=a_tables[0]).first()
        game.result = "draw"
        game.save()
        table_changed(table=a_tables[0])

    run = RerateRun.objects.order_by("-pk").first()
    # From week 0 on: the three tables of group A are redone; group B's three enter unchanged.
    assert (run.tables_rated, run.tables_unchanged) == (3, 3)
    assert list(RatingRow.objects.filter(table__in=b_tables).order_by("pk").values("pk", "state_after")) == b_rows
    assert list(Table.objects.filter(pk__in=[t.pk for t in b_tables]).values_list("last_rerated_at", flat=True)) == (
        b_rerated
    )
    assert rerate_check() == []


def test_table_delete_resets_the_columns_of_players_it_was_the_last_table_of(
    django_capture_on_commit_callbacks,
) -> None:
    regulars = [make_player() for _ in range(3)]
    newcomers = [make_player() for _ in range(2)]
    with django_capture_on_commit_callbacks(execute=True):
        rated_table(regulars, week(0))
        last = rated_table([*regulars[:1], *newcomers], week(1))
    assert all(p.rating > 0 for p in Player.objects.filter(pk__in=[n.pk for n in newcomers]))

    with django_capture_on_commit_callbacks(execute=True):
        table_delete(table=last)

    for newcomer in Player.objects.filter(pk__in=[n.pk for n in newcomers]):
        assert (newcomer.rating, newcomer.games, newcomer.last_played) == (0, 0, None)
    assert Player.objects.get(pk=regulars[0].pk).last_played == week(0)
    assert rerate_check() == []


def test_table_that_cannot_be_rated_waits_with_its_error_and_its_players_pass_through(
    django_capture_on_commit_callbacks,
) -> None:
    players = [make_player() for _ in range(4)]
    outsider = make_player()
    with django_capture_on_commit_callbacks(execute=True):
        first = rated_table(players, week(0))
        later = rated_table(players, week(1))
    # Bad data the validation would have refused: a game against a player who is not in the table.
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        add_game(first, 9, players[0], outsider)
        table_changed(table=first)

    first.refresh_from_db()
    assert first.status == TableStatus.SUBMITTED and "not a player of the table" in first.rating_error
    assert not RatingRow.objects.filter(table=first).exists()
    assert RerateRun.objects.order_by("-pk").first().outcome == RerateRun.Outcome.FAILED
    # The later table now rates the players as newcomers, as rating from scratch would.
    assert RatingRow.objects.filter(table=later, games_before=0).count() == 4
    assert rerate_check() == []

    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        Game.objects.filter(table=first, second=outsider).delete()
        table_changed(table=first)
    first.refresh_from_db()
    assert first.status == TableStatus.RATED and first.rating_error == ""
    assert rerate_check() == []


def test_rows_of_a_table_sent_back_to_draft_are_removed(django_capture_on_commit_callbacks) -> None:
    players = [make_player() for _ in range(3)]
    with django_capture_on_commit_callbacks(execute=True):
        table = rated_table(players, week(0))
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        # Rows left on a draft, a state no service makes: the re-rate must clean it up all the same.
        Table.objects.filter(pk=table.pk).update(status=TableStatus.DRAFT)
        rerate_request(date=table.date, sequence=table.sequence, table_ids=[table.pk])
    assert not RatingRow.objects.filter(table=table).exists()
    assert set(Player.objects.filter(pk__in=[p.pk for p in players]).values_list("rating", flat=True)) == {0}
    assert rerate_check() == []


def test_rerate_from_rates_every_table_again_and_serves_a_pending_request(
    django_capture_on_commit_callbacks,
) -> None:
    players = [make_player() for _ in range(4)]
    with django_capture_on_commit_callbacks(execute=True):
        tables = [rated_table(players, week(i)) for i in range(3)]
    with django_capture_on_commit_callbacks(execute=False):
        rerate_request(date=week(2), sequence=1, table_ids=[tables[2].pk])

    outcome = rerate_from(date=week(1), sequence=1)
    assert (outcome.tables_rated, outcome.tables_unchanged, outcome.rows_written) == (2, 0, 8)
    assert outcome.cleared and not PendingRerate.objects.exists()
    assert rerate_from().tables_rated == 3  # from scratch
    assert rerate_check() == []


def test_rerate_command_check_fails_on_a_tampered_row_and_all_repairs_it(
    django_capture_on_commit_callbacks, capsys: pytest.CaptureFixture[str]
) -> None:
    players = [make_player() for _ in range(4)]
    with django_capture_on_commit_callbacks(execute=True):
        table = rated_table(players, week(0))
    call_command("rerate", "--check")
    assert "exactly" in capsys.readouterr().out

    row = RatingRow.objects.get(table=table, player=players[0])
    # Corrupted on purpose, behind the services' back: the check must find both differences.
    RatingRow.objects.filter(pk=row.pk).update(state_after={**row.state_after, "rating": row.state_after["rating"] + 1})
    Player.objects.filter(pk=players[1].pk).update(rating=12345)
    with pytest.raises(CommandError, match="2 difference"):
        call_command("rerate", "--check")
    out = capsys.readouterr().out
    assert f"player {players[0].pk}, table {table.pk}" in out and f"player {players[1].pk}, player columns" in out

    call_command("rerate", "--all")
    call_command("rerate", "--check")
    call_command("rerate", "--from", str(table.pk))
    call_command("rerate", "--pending")
    assert "Nothing is pending" in capsys.readouterr().out


def test_table_whose_numbers_go_beyond_floats_waits_with_its_error_and_later_tables_rate(
    django_capture_on_commit_callbacks,
) -> None:
    """A migrated result list with an opponent rated beyond any float (issue 16): the engine cannot rate his
    table and says so; the run marks it for the rating officer and goes on, as for a table that does not
    settle."""
    extreme = make_player()
    OpeningState.objects.create(
        player=extreme, state=state_to_json(PlayerState(rating=5, result_list=((10**400, 1.0), (400, 0.0))))
    )
    players = [make_player() for _ in range(3)]
    with django_capture_on_commit_callbacks(execute=True):
        first = rated_table([extreme, *players], week(0))
        later = rated_table(players, week(1))

    first.refresh_from_db()
    later.refresh_from_db()
    assert first.status == TableStatus.SUBMITTED and "cannot be rated" in first.rating_error
    assert not RatingRow.objects.filter(table=first).exists()
    assert later.status == TableStatus.RATED and RatingRow.objects.filter(table=later).count() == 3
    assert rerate_check() == []
    call_command("rerate", "--check")  # exits with an error if anything differs


def test_an_opening_state_keeps_its_player_s_first_row_date_through_re_rates(
    django_capture_on_commit_callbacks,
) -> None:
    """``first_rated`` (what a past date's list reads to tell whether a migrated player is on it by his opening
    state or by a row): the date of his first row, moved with it by the re-rate that follows a deleted table,
    None before any, mended by ``players_refresh``, and a difference for ``rerate --check``."""
    migrated = make_player()
    OpeningState.objects.create(player=migrated, state=state_to_json(PlayerState(rating=1500, game_count=30)))
    others = [make_player() for _ in range(3)]
    opening = OpeningState.objects.get(player=migrated)
    assert opening.first_rated is None
    with django_capture_on_commit_callbacks(execute=True):
        first = rated_table([migrated, *others], week(1))
        rated_table([migrated, *others[:2]], week(3))
    opening.refresh_from_db()
    assert opening.first_rated == week(1)

    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        table_delete(table=first)  # a partial re-rate from week 1: his first row is now week 3's
    opening.refresh_from_db()
    assert opening.first_rated == week(3)
    assert rerate_check() == []

    OpeningState.objects.filter(pk=opening.pk).update(first_rated=week(2))  # behind the services' back
    assert [d.player_id for d in rerate_check()] == [migrated.pk]
    players_refresh([migrated.pk])
    opening.refresh_from_db()
    assert opening.first_rated == week(3)
    assert rerate_check() == []
