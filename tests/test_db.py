"""ratings/db.py: what the selectors and services ask of the database below the ORM, the same on SQLite and
PostgreSQL (CI runs these on both)."""

from __future__ import annotations

import datetime as dt
import gc

import pytest
from django.db import connection, connections, transaction

from ratings import db
from ratings.db import rows_update
from ratings.models import Category, Player, TableEntry
from ratings.services.lists import list_stored, lists_prepare
from tests.factories import make_player, make_table
from tests.public.conftest import seasoned

pytestmark = pytest.mark.django_db


def test_rows_update_sets_the_columns_of_the_rows_named_and_of_no_other() -> None:
    first, second, untouched = make_player(), make_player(), make_player()
    before = Player.objects.values("rating", "last_played", "category", "games").get(pk=untouched.pk)
    day = dt.date(2024, 3, 9)
    updated = rows_update(
        Player,
        ("rating", "last_played", "category"),
        [(first.pk, 1234, day, Category.ESTABLISHED), (second.pk, -5, None, Category.PROVISIONAL)],
    )
    assert updated == 2
    rows = dict(Player.objects.filter(pk__in=[first.pk, second.pk]).values_list("pk", "rating"))
    assert rows == {first.pk: 1234, second.pk: -5}
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.last_played, first.category) == (day, Category.ESTABLISHED)
    assert (second.last_played, second.category) == (None, Category.PROVISIONAL)
    assert Player.objects.values("rating", "last_played", "category", "games").get(pk=untouched.pk) == before


def test_rows_update_skips_missing_keys_and_can_run_twice_in_one_transaction() -> None:
    player = make_player()
    with transaction.atomic():
        assert rows_update(Player, ("games",), [(player.pk, 3), (player.pk + 10_000, 4)]) == 1
        assert rows_update(Player, ("games",), [(player.pk, 7)]) == 1
    player.refresh_from_db()
    assert player.games == 7
    assert rows_update(Player, ("games",), []) == 0


def test_id_batches_keep_the_order_and_cut_at_the_in_list_size() -> None:
    ids = list(range(2 * db.IN_LIST + 3))
    batches = list(db.id_batches(ids))
    assert [len(b) for b in batches] == [db.IN_LIST, db.IN_LIST, 3]
    assert [i for b in batches for i in b] == ids
    assert list(db.id_batches([])) == []


def test_id_batches_as_arrays_are_one_statement_only_where_the_database_takes_arrays() -> None:
    ids = list(range(db.IN_LIST + 1))
    sizes = [len(b) for b in db.id_batches(ids, as_array=True)]
    assert sizes == ([db.IN_LIST + 1] if connection.vendor == "postgresql" else [db.IN_LIST, 1])


def test_ids_condition_and_ids_in_find_exactly_the_ids_given() -> None:
    players = [make_player() for _ in range(3)]
    wanted = [players[0].pk, players[2].pk]
    assert set(Player.objects.filter(pk__in=db.ids_in(wanted)).values_list("pk", flat=True)) == set(wanted)
    condition, params = db.ids_condition(connection.ops.quote_name("id"), wanted)
    table = connection.ops.quote_name(Player._meta.db_table)
    rows = db.raw_rows(f"SELECT {connection.ops.quote_name('id')} FROM {table} WHERE {condition}", params)
    assert sorted(pk for (pk,) in rows) == sorted(wanted)


def test_batched_load_merges_what_each_batch_loads() -> None:
    seen: list[int] = []

    def load(ids: object) -> dict[int, int]:
        seen.append(len(ids))  # type: ignore[arg-type]
        return {i: -i for i in ids}  # type: ignore[attr-defined]

    out = db.batched_load(load, range(db.IN_LIST + 2))
    assert seen == [db.IN_LIST, 2]
    assert out == {i: -i for i in range(db.IN_LIST + 2)}


def test_raw_values_give_the_rows_with_dates_and_json_readable_by_the_helpers() -> None:
    player = make_player(last_played=dt.date(2023, 5, 6))
    ((pk, last),) = db.raw_values(Player.objects.filter(pk=player.pk), "pk", "last_played")
    assert (pk, db.as_date(last)) == (player.pk, dt.date(2023, 5, 6))
    assert db.json_value(db.json_text({"a": [1, 2.5]})) == {"a": [1, 2.5]}


def test_rows_insert_and_rows_delete_write_plain_rows() -> None:
    table = make_table([])
    players = [make_player() for _ in range(3)]
    db.rows_insert(TableEntry, ("table", "player", "seat"), [(table.pk, p.pk, i) for i, p in enumerate(players, 1)])
    assert list(TableEntry.objects.filter(table=table).order_by("seat").values_list("player_id", flat=True)) == [
        p.pk for p in players
    ]
    db.rows_delete(TableEntry, "table", [table.pk])
    assert not TableEntry.objects.filter(table=table).exists()


def test_row_stream_writes_every_batch_by_its_close() -> None:
    table = make_table([])
    players = [make_player() for _ in range(4)]
    stream = db.RowStream(TableEntry, ("table", "player", "seat"))
    with transaction.atomic():
        stream.write([(table.pk, players[0].pk, 1), (table.pk, players[1].pk, 2)])
        stream.write([])
        stream.write([(table.pk, players[2].pk, 3)])
        stream.close()
        stream.write([(table.pk, players[3].pk, 4)])
        stream.close()
        assert TableEntry.objects.filter(table=table).count() == 4


@pytest.mark.skipif(connection.vendor != "postgresql", reason="a COPY is PostgreSQL's")
def test_row_stream_refuses_a_query_while_its_copy_is_open() -> None:
    table, player = make_table([]), make_player()
    stream = db.RowStream(TableEntry, ("table", "player", "seat"))
    with transaction.atomic():
        stream.write([(table.pk, player.pk, 1)])
        with pytest.raises(RuntimeError, match="open COPY"):
            Player.objects.count()
        stream.close()
        assert TableEntry.objects.filter(table=table).count() == 1


def test_gc_paused_pauses_the_collector_and_gives_it_back() -> None:
    assert gc.isenabled()
    with db.gc_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_advisory_xact_lock_holds_the_keys_on_postgresql() -> None:
    held = "SELECT classid, objid FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()"
    with transaction.atomic():
        db.advisory_xact_lock(7, 9)  # SQLite: nothing to hold, and no error
        if connection.vendor == "postgresql":
            assert db.raw_rows(held, []) == [(7, 9)]


@pytest.mark.skipif(connection.vendor != "postgresql", reason="JIT compilation is PostgreSQL's")
def test_a_new_postgresql_connection_compiles_no_plan() -> None:
    fresh = connections.create_connection("default")
    try:
        with fresh.cursor() as cursor:
            cursor.execute("SHOW jit")
            assert cursor.fetchone() == ("off",)
    finally:
        fresh.close()


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the statistics' most common values are PostgreSQL's")
def test_a_list_just_written_is_in_the_planners_statistics() -> None:
    players = [seasoned(1500 + i) for i in range(3)]
    lists_prepare()  # writes today's lists, then has the planner learn their ids
    today = list_stored(None, active=True)
    assert today.player_count == len(players)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT most_common_vals::text::bigint[] FROM pg_stats"
            " WHERE tablename = 'ratings_listentry' AND attname = 'stored_list_id'"
        )
        (common,) = cursor.fetchone()
    assert today.pk in common
