"""Benchmark of re-rating on a large synthetic federation, with the database (not a test).

    python bench/bench_rerate.py                        # SQLite file under bench/out/ (built once, reused)
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_rerate python bench/bench_rerate.py
    python bench/bench_rerate.py --profile full         # cProfile of one measurement instead

Use a database of its own (``createdb -h 127.0.0.1 -U postgres bench_rerate``): it is migrated, filled and,
with ``--rebuild``, emptied. The federation (``--players``, ``--games``, ``--seed``) is deterministic: 20 years
of tables, most small club tables (6-12 players, 4-5 rounds), some open tournaments (12-32, 5-7 rounds), a
few championships (32-80, 7-9 rounds); about 10% newcomers per table, a third of them with a prior grade;
a pool of established players migrated with opening states; results drawn from hidden strengths, about 2%
draws, 3% handicap games, 1% forfeits and byes for odd rounds. Built with bulk inserts, then rated once
(untimed: that first run also creates every promotion record).

It prints, measured in the same run:

1. a full re-rate from scratch, end to end with the database (``rerate_from()``: load, rate every table,
   replace every row, players' columns, promotions, commit);
2. the re-rate after correcting a game in the latest table (``rerate_pending()`` after the edit);
3. the same after correcting a game in a table one year back;
4. the floor: replacing the same number of rating rows without any rating (delete all, write the rows the
   full re-rate wrote, commit), with the service's writer and, for comparison, with the ORM's bulk_create.

Targets: (2) under 0.3 s; (1) within 3x the floor.
"""

from __future__ import annotations

import argparse
import cProfile
import datetime as dt
import json
import os
import pstats
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
(ROOT / "bench" / "out").mkdir(parents=True, exist_ok=True)
os.environ.setdefault("DATABASE_URL", f"sqlite:///{ROOT / 'bench' / 'out' / 'bench_rerate.sqlite3'}")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "federation.settings")
os.environ.setdefault("DEBUG", "0")  # no query log
os.environ.setdefault("SECRET_KEY", "bench-only")
os.environ.pop("REDIS_URL", None)

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402

from federation.celery import app as celery_app  # noqa: E402
from ratings.engine.constants import lower_bound  # noqa: E402
from ratings.models import (  # noqa: E402
    Game,
    OpeningState,
    PendingRerate,
    Player,
    RatingRow,
    Table,
    TableEntry,
    TableStatus,
    Tournament,
)
from ratings.services.rerate import ROW_COLUMNS, rating_rows_insert, rerate_from, rerate_pending  # noqa: E402
from ratings.services.tables import table_changed  # noqa: E402

START = dt.date(2005, 1, 8)
YEARS = 20
HANDICAPS = ["S", "L", "B", "R", "RL", "2p", "4p"]


# --- The synthetic federation ---------------------------------------------------------------------------


def plausible_grade(rating: float) -> int:
    """The highest grade whose lower bound lies 60 points below the rating (an established player's grade)."""
    return max([g for g in range(1, 27) if lower_bound(g) + 60 <= rating], default=0)


def prior_for(rng: random.Random, strength: float) -> tuple[str, int] | None:
    if rng.random() > 0.33:
        return None
    if rng.random() < 0.05:
        return "pro", rng.randint(1, 9)
    if strength >= 1700:
        return "dan", min(8, max(1, int((strength - 1600) / 150)))
    return "kyu", min(20, max(1, int((1700 - strength) / 80)))


def table_shape(rng: random.Random) -> tuple[int, int]:
    roll = rng.random()
    if roll < 0.55:
        return rng.randint(6, 12), rng.randint(4, 5)
    if roll < 0.90:
        return rng.randint(12, 32), rng.randint(5, 7)
    return rng.randint(32, 80), rng.randint(7, 9)


def build(players_target: int, games_target: int, seed: int) -> None:
    """Fill the database with the federation; prints what it made."""
    rng = random.Random(seed)
    clock = time.perf_counter()
    opening_pool = 500
    strength: list[float] = []
    players: list[Player] = []
    openings: list[OpeningState] = []

    def new_player(s: float, *, opening: bool) -> int:
        prior = None if opening else prior_for(rng, s)
        p = Player(family_name=f"Player{len(players) + 1:05d}", given_name=rng.choice("ABCDEFGH"), nationality="FR")
        if prior is not None:
            p.prior_grade_kind, p.prior_grade_level, p.prior_grade_source = prior[0], prior[1], "national"
        players.append(p)
        strength.append(s)
        return len(players) - 1

    for _ in range(opening_pool):
        new_player(min(2700.0, max(300.0, rng.gauss(1500, 380))), opening=True)
    # Tables needed for the games wanted (about 54 rated games a table), newcomers spread over them (a few
    # more than needed, so that the federation has at least the players asked for).
    tables_expected = games_target / 54
    newcomer_rate = 1.04 * (players_target - opening_pool) / tables_expected
    active = list(range(opening_pool))
    days = YEARS * 365
    shapes: list[tuple[dt.date, int, list[int], list[tuple[Any, ...]]]] = []
    games_made = 0
    per_date: dict[dt.date, int] = {}
    while games_made < games_target:
        date = START + dt.timedelta(days=int(days * len(shapes) / tables_expected))
        per_date[date] = per_date.get(date, 0) + 1
        size, rounds = table_shape(rng)
        newcomers = min(size - 2, int(newcomer_rate) + (rng.random() < newcomer_rate % 1))
        chosen = rng.sample(active, min(len(active), size - newcomers))
        for _ in range(newcomers):
            key = new_player(min(2800.0, max(100.0, rng.gauss(1150, 450))), opening=False)
            chosen.append(key)
            active.append(key)
        for _ in range(newcomers):  # as many stop as join: the active pool keeps its size
            active.pop(rng.randrange(len(active)))
        for key in chosen:
            strength[key] += rng.gauss(0, 8)
        points = dict.fromkeys(chosen, 0.0)
        games: list[tuple[Any, ...]] = []
        for rnd in range(1, rounds + 1):
            order = sorted(chosen, key=lambda k: (-points[k], rng.random()))
            if len(order) % 2:
                games.append((rnd, order.pop(), None, "bye", "", "", True, False))
                points[games[-1][1]] += 1
            for a, b in zip(order[::2], order[1::2], strict=True):
                expected = 1.0 / (1.0 + 10.0 ** ((strength[b] - strength[a]) / 400.0))
                result = "draw" if rng.random() < 0.02 else ("first" if rng.random() < expected else "second")
                handicap, giver = ("", "")
                if rng.random() < 0.03:
                    handicap, giver = rng.choice(HANDICAPS), "first" if strength[a] >= strength[b] else "second"
                played = rng.random() > 0.01
                games.append((rnd, a, b, result, handicap, giver, played, rng.random() < 0.005))
                games_made += played
                points[a] += 1.0 if result == "first" else 0.5 if result == "draw" else 0.0
                points[b] += 1.0 if result == "second" else 0.5 if result == "draw" else 0.0
        shapes.append((date, per_date[date], chosen, games))

    with transaction.atomic():
        Player.objects.bulk_create(players, batch_size=2000)
        ids = [p.pk for p in players]
        for key in range(opening_pool):
            rating = int(strength[key] + rng.gauss(0, 50))
            count = rng.randint(18, 400)
            state = {
                "rating": rating, "result_list": None, "game_count": count,
                "bonus_count": min(100, count - rng.randint(0, 17)), "grade": plausible_grade(rating),
                "prior_grade": None, "lb_run": 0, "lb_mp_seen": False, "mp_run": 0, "last_played": "2004-12-31",
            }  # fmt: skip
            openings.append(OpeningState(player_id=ids[key], state=state, source="bench"))
        OpeningState.objects.bulk_create(openings, batch_size=2000)
        tournaments = Tournament.objects.bulk_create(
            [Tournament(name=f"Tournament {i + 1}", start_date=d, end_date=d) for i, (d, *_r) in enumerate(shapes)],
            batch_size=2000,
        )
        tables = Table.objects.bulk_create(
            [
                Table(tournament=t, date=d, sequence=seq, status=TableStatus.SUBMITTED)
                for t, (d, seq, _c, _g) in zip(tournaments, shapes, strict=True)
            ],
            batch_size=2000,
        )
        entries: list[TableEntry] = []
        game_rows: list[Game] = []
        for table, (_d, _s, chosen, games) in zip(tables, shapes, strict=True):
            entries.extend(TableEntry(table=table, player_id=ids[k], seat=i) for i, k in enumerate(chosen, 1))
            game_rows.extend(
                Game(
                    table=table,
                    round=rnd,
                    first_id=ids[a],
                    second_id=None if b is None else ids[b],
                    result=result,
                    handicap=handicap,
                    handicap_giver=giver,
                    played=played,
                    replay_draw=replay,
                )
                for rnd, a, b, result, handicap, giver, played, replay in games
            )
            if len(game_rows) > 50_000:
                Game.objects.bulk_create(game_rows, batch_size=5000)
                game_rows = []
        TableEntry.objects.bulk_create(entries, batch_size=5000)
        Game.objects.bulk_create(game_rows, batch_size=5000)
    print(
        f"built {len(players)} players, {len(tables)} tables, {len(entries)} entries, {games_made} rated games "
        f"in {time.perf_counter() - clock:.0f} s"
    )


# --- Measurements ---------------------------------------------------------------------------------------


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

    print(f"database: {connection.vendor} {connection.settings_dict['NAME']}")
    call_command("migrate", verbosity=0)
    if args.rebuild:
        call_command("flush", interactive=False, verbosity=0)
    if not Player.objects.exists():
        build(args.players, args.games, args.seed)
    # Tasks go to an in-memory broker nobody reads: every re-rate below is called and timed explicitly.
    celery_app.conf.update(task_always_eager=False, broker_url="memory://")
    if not RatingRow.objects.exists() or PendingRerate.objects.exists():
        seconds, outcome = timed("first rating", rerate_from)
        print(f"first rating (untimed setup; creates the promotions): {seconds:.1f} s, {outcome.rows_written} rows")

    games = Game.objects.filter(second__isnull=False, played=True).count()
    print(f"federation: {Player.objects.count()} players, {Table.objects.count()} tables, {games} rated games")

    full_s, full = timed("full", rerate_from, args.profile == "full")
    phases = ", ".join(f"{k} {v:.1f} s" for k, v in full.seconds.items())
    print(
        f"1. full re-rate from scratch: {full_s:.2f} s ({full.tables_rated} tables, {full.rows_written} rows; {phases})"
    )

    vacuum()
    latest = Table.objects.order_by("-date", "-sequence").first()
    edit_s = correct_a_game(latest)
    latest_s, latest_outcome = timed("latest", rerate_pending, args.profile == "latest")
    phases = ", ".join(f"{k} {v:.3f} s" for k, v in latest_outcome.seconds.items())
    print(
        f"2. correction in the latest table: re-rate {latest_s:.3f} s ({latest_outcome.tables_rated} tables "
        f"redone, {latest_outcome.rows_written} rows; {phases}; the edit's own transaction {edit_s:.3f} s)"
    )

    year_back = Table.objects.filter(date__lte=latest.date - dt.timedelta(days=365)).order_by("-date").first()
    edit_s = correct_a_game(year_back)
    year_s, year_outcome = timed("year", rerate_pending, args.profile == "year")
    phases = ", ".join(f"{k} {v:.2f} s" for k, v in year_outcome.seconds.items())
    print(
        f"3. correction one year back: re-rate {year_s:.2f} s ({year_outcome.tables_rated} tables redone, "
        f"{year_outcome.tables_unchanged} left as they were, {year_outcome.rows_written} rows; {phases})"
    )

    rows = stored_rows_as_tuples()
    floor_s, _ = timed("floor", lambda: floor_write(rows))
    print(f"4. floor, {len(rows)} rows replaced without rating: {floor_s:.2f} s (the service's writer)")
    if not args.skip_orm_floor:
        orm_s = floor_write_orm(rows)
        print(f"   the same with the ORM's bulk_create: {orm_s:.2f} s")
    print(
        f"targets: latest-table correction {latest_s:.3f} s (< 0.3 s: {'met' if latest_s < 0.3 else 'MISSED'}); "
        f"full re-rate {full_s / floor_s:.1f}x the floor (<= 3x: {'met' if full_s <= 3 * floor_s else 'MISSED'})"
    )


if __name__ == "__main__":
    main()
