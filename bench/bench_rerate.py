"""Benchmark of re-rating on a large synthetic federation, with the database (not a test).

    python bench/bench_rerate.py                        # SQLite file under bench/out/ (built once, reused)
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_rerate python bench/bench_rerate.py
    python bench/bench_rerate.py --profile full         # cProfile of one measurement instead

Use a database of its own (``createdb -h 127.0.0.1 -U postgres bench_rerate``): it is migrated, filled and,
with ``--rebuild``, emptied. The federation is the demo's (ratings/demo, what ``manage.py seed_demo`` builds):
``--players`` players over 20 years up to the end of 2024, the calendar sized for about ``--games`` rated
games, deterministic by ``--seed``, with no drafts. Written with bulk inserts, then rated once through
``rerate_from()`` (untimed: that first run also creates every promotion record).

It prints, measured in the same run:

1. a full re-rate from scratch, end to end with the database (``rerate_from()``: load, rate every table,
   replace every row, players' columns, promotions, commit), and the process's peak memory after it (the
   full re-rate's own peak when the federation was built by an earlier run);
2. the re-rate after correcting a game in the latest table (``rerate_pending()`` after the edit);
3. the same after correcting a game in a table one year back;
4. the floor: replacing the same number of rating rows without any rating (delete all, write the rows the
   full re-rate wrote, commit), with the service's writer and, for comparison, with the ORM's bulk_create.

The budgets for (1) and (2) are in bench/README.md.
"""

from __future__ import annotations

import argparse
import cProfile
import datetime as dt
import json
import pstats
import resource
import time
from typing import Any

from benchenv import OUT, django_setup

django_setup(OUT / "bench_rerate.sqlite3")

from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402

from federation.celery import app as celery_app  # noqa: E402
from ratings.demo.build import demo_build  # noqa: E402
from ratings.demo.sim import Knobs  # noqa: E402
from ratings.models import (  # noqa: E402
    Game,
    PendingRerate,
    Player,
    RatingRow,
    Table,
    TableStatus,
)
from ratings.services.rerate import ROW_COLUMNS, rating_rows_insert, rerate_from, rerate_pending  # noqa: E402
from ratings.services.rerate.validity import rating_rows_link  # noqa: E402
from ratings.services.tables.submit import table_changed  # noqa: E402

UNTIL = dt.date(2024, 12, 31)  # fixed, so that the federation does not move with the calendar
YEARS = 20


# --- The synthetic federation ---------------------------------------------------------------------------


def build(players_target: int, games_target: int, seed: int) -> None:
    """Fill the database with the demo federation (ratings/demo) and rate it; prints what it made.

    No drafts: the latest table must be a rated one, for the correction measured in it.
    """
    clock = time.perf_counter()
    s = demo_build(
        players=players_target,
        years=YEARS,
        games=games_target,
        seed=seed,
        until=UNTIL,
        knobs=Knobs(drafts=0),
        progress=lambda message: print(f"  {message}", flush=True),
    )
    phases = ", ".join(f"{name} {seconds:.0f} s" for name, seconds in s.seconds.items())
    print(
        f"built {s.players} players ({s.listed} on the opening list), {s.tables_rated} tables, {s.games} rated "
        f"games, rated once (untimed setup; creates the promotions), in {time.perf_counter() - clock:.0f} s "
        f"({phases})"
    )


# --- Measurements ---------------------------------------------------------------------------------------


def federation_ready(*, players: int, games: int, seed: int, rebuild: bool) -> None:
    """The database migrated, the federation built (again with ``rebuild``) and rated, untimed."""
    print(f"database: {connection.vendor} {connection.settings_dict['NAME']}")
    call_command("migrate", verbosity=0)
    if rebuild:
        call_command("flush", interactive=False, verbosity=0)
    if not Player.objects.exists():
        build(players, games, seed)
    # Tasks go to an in-memory broker nobody reads: every re-rate after this is called and timed explicitly.
    celery_app.conf.update(task_always_eager=False, broker_url="memory://")
    if not RatingRow.objects.exists() or PendingRerate.objects.exists():
        seconds, outcome = timed("first rating", rerate_from)
        print(f"first rating (untimed setup; creates the promotions): {seconds:.1f} s, {outcome.rows_written} rows")


def timed(label: str, fn: Any, profile: bool = False) -> tuple[float, Any]:
    profiler = cProfile.Profile() if profile else None
    started = time.perf_counter()
    result = profiler.runcall(fn) if profiler else fn()
    seconds = time.perf_counter() - started
    if profiler:
        print(f"--- profile of {label} ---")
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(30)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(20)
    return seconds, result


def vacuum() -> None:
    """What autovacuum does some time after a bulk rewrite (this machine's PostgreSQL runs without it):
    reclaim the dead rows and refresh the statistics, so that the corrections below are timed on a database
    in its steady state, not on 10^6 dead rows."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")


def correct_a_game(table: Table) -> float:
    """A rating officer's correction: one game's result changes, in one transaction; returns its time.

    The task it queues goes to an in-memory broker nobody reads, so that the re-rate is timed on its own.
    """
    game = Game.objects.filter(table=table, second__isnull=False, played=True).order_by("round", "id").first()
    assert game is not None
    started = time.perf_counter()
    with transaction.atomic():
        game.result = "second" if game.result == "first" else "first"
        game.save()
        table_changed(table=table)
    return time.perf_counter() - started


def stored_rows_as_tuples() -> list[tuple[Any, ...]]:
    """Every rating row as the writer takes it (JSON columns as their text)."""
    quote = connection.ops.quote_name
    cast = "::text" if connection.vendor == "postgresql" else ""
    columns = ", ".join(
        quote(RatingRow._meta.get_field(c).column) + (cast if c in ("state_before", "state_after", "detail") else "")
        for c in ROW_COLUMNS
    )
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {columns} FROM {quote(RatingRow._meta.db_table)}")
        return list(cursor.fetchall())


def floor_write(rows: list[tuple[Any, ...]]) -> None:
    with transaction.atomic():
        RatingRow.objects.all()._raw_delete(RatingRow.objects.db)
        for i in range(0, len(rows), 20000):
            rating_rows_insert(rows[i : i + 20000])


def floor_write_orm(rows: list[tuple[Any, ...]]) -> float:
    """The same with model instances and bulk_create (the JSON columns given as parsed values, as the ORM
    wants them: text would be stored as a JSON string)."""
    json_columns = [i for i, c in enumerate(ROW_COLUMNS) if c in ("state_before", "state_after", "detail")]
    parsed = []
    for row in rows:
        values = list(row)
        for i in json_columns:
            values[i] = json.loads(values[i])
        parsed.append(dict(zip(ROW_COLUMNS, values, strict=True)))
    started = time.perf_counter()
    with transaction.atomic():
        RatingRow.objects.all()._raw_delete(RatingRow.objects.db)
        RatingRow.objects.bulk_create([RatingRow(**values) for values in parsed], batch_size=2000)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=20_000)
    parser.add_argument("--games", type=int, default=500_000)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--rebuild", action="store_true", help="empty the database and build it again")
    parser.add_argument("--profile", choices=["full", "latest", "year"], help="cProfile this measurement")
    parser.add_argument("--skip-orm-floor", action="store_true", help="skip the slow bulk_create comparison")
    args = parser.parse_args()

    federation_ready(players=args.players, games=args.games, seed=args.seed, rebuild=args.rebuild)
    games = Game.objects.filter(second__isnull=False, played=True).count()
    print(f"federation: {Player.objects.count()} players, {Table.objects.count()} tables, {games} rated games")

    cpu_started = time.process_time()
    full_s, full = timed("full", rerate_from, args.profile == "full")
    full_cpu = time.process_time() - cpu_started
    phases = ", ".join(f"{k} {v:.1f} s" for k, v in full.seconds.items())
    print(
        f"1. full re-rate from scratch: {full_s:.2f} s ({full.tables_rated} tables, {full.rows_written} rows; {phases})"
    )
    # The process's peak so far is the full re-rate's when the federation was built by an earlier run: the
    # floor below holds every row at once, so the peak of the whole run is not the re-rate's.
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"   this process's CPU {full_cpu:.1f} s (the database's is not in it); its peak memory so far "
        f"{peak_mb:.0f} MB (the build's too, if this run built)"
    )

    vacuum()
    # Rated tables: a federation made by seed_demo (rather than this benchmark's own build) ends on drafts and
    # submitted tables, whose change asks for no re-rate.
    rated = Table.objects.filter(status=TableStatus.RATED)
    latest = rated.order_by("-date", "-sequence").first()
    edit_s = correct_a_game(latest)
    latest_s, latest_outcome = timed("latest", rerate_pending, args.profile == "latest")
    phases = ", ".join(f"{k} {v:.3f} s" for k, v in latest_outcome.seconds.items())
    print(
        f"2. correction in the latest table: re-rate {latest_s:.3f} s ({latest_outcome.tables_rated} tables "
        f"redone, {latest_outcome.rows_written} rows; {phases}; the edit's own transaction {edit_s:.3f} s)"
    )

    year_back = rated.filter(date__lte=latest.date - dt.timedelta(days=365)).order_by("-date").first()
    edit_s = correct_a_game(year_back)
    year_s, year_outcome = timed("year", rerate_pending, args.profile == "year")
    phases = ", ".join(f"{k} {v:.2f} s" for k, v in year_outcome.seconds.items())
    print(
        f"3. correction one year back: re-rate {year_s:.2f} s ({year_outcome.tables_rated} tables redone, "
        f"{year_outcome.tables_unchanged} left as they were, {year_outcome.rows_written} rows; {phases})"
    )

    rows = stored_rows_as_tuples()
    cpu_started = time.process_time()
    floor_s, _ = timed("floor", lambda: floor_write(rows))
    floor_cpu = time.process_time() - cpu_started
    print(
        f"4. floor, {len(rows)} rows replaced without rating: {floor_s:.2f} s (the service's writer; this "
        f"process's CPU {floor_cpu:.1f} s)"
    )
    with transaction.atomic():
        # The floor wrote the rows without their validity: link them again (untimed), or the next
        # benchmark on this database starts from rows that all look like each player's latest.
        rating_rows_link()
    if not args.skip_orm_floor:
        orm_s = floor_write_orm(rows)
        print(f"   the same with the ORM's bulk_create: {orm_s:.2f} s")
    print(
        f"targets: latest-table correction {latest_s:.3f} s (< 0.3 s: {'met' if latest_s < 0.3 else 'MISSED'}); "
        f"full re-rate {full_s / floor_s:.1f}x the floor (<= 2x: {'met' if full_s <= 2 * floor_s else 'MISSED'})"
    )


if __name__ == "__main__":
    main()
