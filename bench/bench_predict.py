"""Benchmark of the comparison of rating systems (ratings/services/predictions.py) on a large synthetic
federation, with the database (not a test).

    python bench/bench_predict.py                       # SQLite file under bench/out/ (built once, reused)
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_predict python bench/bench_predict.py
    python bench/bench_predict.py --courier-refresh table   # Game Courier rated afresh before every table

The federation is the one bench/bench_rerate.py builds (the demo's generator: ``--players`` players over 20
years up to the end of 2024, about ``--games`` rated games, ``--seed``). It prints, in one run:

1. the whole comparison end to end (``prediction_compare(force=True)``: read the history from the database,
   every system predicts and rates every table, the report stored), its time and the process's peak memory;
2. where the time goes: reading the history alone, and each system's own time (begin, predict, rate) in the
   same walk, measured by a wrapper around each system;
3. the peak of Python's allocations during the walk (tracemalloc, in a second walk: it slows Python down,
   so its time is not the figure of 1).

``--what-if`` measures instead a what-if of FESA's rules with every K doubled (ratings/services/whatif.py
``whatif_result``: the whole history replayed in memory through the engine, its predictions and the stored
ratings' scored), its time and the process's peak memory.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import resource
import time
import tracemalloc
from typing import Any

from benchenv import OUT, django_setup

django_setup(OUT / "bench_predict.sqlite3")

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402

from federation.celery import app as celery_app  # noqa: E402
from ratings.demo.build import demo_build  # noqa: E402
from ratings.demo.sim import Knobs  # noqa: E402
from ratings.engine.rules import FESA_RULES  # noqa: E402
from ratings.engine.systems import all_systems  # noqa: E402
from ratings.engine.systems.compare import compare  # noqa: E402
from ratings.models import Game, Player, RatingRow, Table  # noqa: E402
from ratings.selectors.predictions import prediction_history  # noqa: E402
from ratings.services.predictions import prediction_compare  # noqa: E402
from ratings.services.rerate import rerate_from  # noqa: E402
from ratings.services.whatif import whatif_result  # noqa: E402

UNTIL = dt.date(2024, 12, 31)
YEARS = 20


class Timed:
    """A system whose every call is timed."""

    def __init__(self, system: Any) -> None:
        self.system = system
        self.key = system.key
        self.seconds = 0.0

    def _run(self, fn: Any, *args: Any) -> Any:
        started = time.perf_counter()
        try:
            return fn(*args)
        finally:
            self.seconds += time.perf_counter() - started

    def begin(self, date: dt.date) -> None:
        self._run(self.system.begin, date)

    def expected(self, first: Any, second: Any) -> float:
        return self._run(self.system.expected, first, second)  # type: ignore[no-any-return]

    def rate(self, games: Any) -> None:
        self._run(self.system.rate, games)

    def rating(self, player: Any) -> float:
        return self.system.rating(player)  # type: ignore[no-any-return]


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=20_000)
    parser.add_argument("--games", type=int, default=500_000)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--courier-refresh", choices=["table", "month"], default=None)
    parser.add_argument("--skip-tracemalloc", action="store_true")
    parser.add_argument("--only-whole", action="store_true", help="measure 1 only")
    parser.add_argument("--what-if", action="store_true", help="measure a what-if instead (every K doubled)")
    args = parser.parse_args()

    print(f"database: {connection.vendor} {connection.settings_dict['NAME']}")
    call_command("migrate", verbosity=0)
    celery_app.conf.update(task_always_eager=False, broker_url="memory://")
    if not Player.objects.exists():
        clock = time.perf_counter()
        demo_build(
            players=args.players, years=YEARS, games=args.games, seed=args.seed, until=UNTIL, knobs=Knobs(drafts=0)
        )
        print(f"built the federation in {time.perf_counter() - clock:.0f} s (untimed setup)")
    if not RatingRow.objects.exists():
        rerate_from()
    games = Game.objects.filter(second__isnull=False, played=True).count()
    print(f"federation: {Player.objects.count()} players, {Table.objects.count()} tables, {games} rated games")
    rss_before = peak_rss_mb()

    if args.what_if:
        rules = dataclasses.replace(FESA_RULES, k=tuple(2 * k for k in FESA_RULES.k))
        started, cpu = time.perf_counter(), time.process_time()
        answer = whatif_result(rules)
        took, took_cpu = time.perf_counter() - started, time.process_time() - cpu
        print(
            f"what-if (every K doubled): {took:.1f} s ({took_cpu:.1f} s of this process's CPU), "
            f"{answer['whatif']['tables']} tables, {answer['whatif']['games']} games counted, "
            f"{answer['unrated']} not rated, {answer['grades_count']} grades differ; "
            f"peak RSS {peak_rss_mb():.0f} MB ({rss_before:.0f} MB before)"
        )
        return

    started, cpu = time.perf_counter(), time.process_time()
    report = prediction_compare(force=True, courier_refresh=args.courier_refresh)
    whole, whole_cpu = time.perf_counter() - started, time.process_time() - cpu
    result = report.result or {}
    print(
        f"1. whole comparison: {whole:.1f} s ({whole_cpu:.1f} s of this process's CPU; the database's own is in it "
        f"on SQLite), {result.get('tables')} tables, {result.get('games')} games counted, "
        f"Game Courier every {result.get('courier_refresh')}; peak RSS {peak_rss_mb():.0f} MB "
        f"({rss_before:.0f} MB before)"
    )

    if args.only_whole:
        return
    started = time.perf_counter()
    tables = sum(1 for _ in prediction_history())
    read = time.perf_counter() - started
    refresh = result.get("courier_refresh", "month")
    systems = [Timed(s) for s in all_systems(courier_refresh=refresh)]
    started = time.perf_counter()
    compare(prediction_history(), systems)  # type: ignore[arg-type]
    walk = time.perf_counter() - started
    parts = ", ".join(f"{s.key} {s.seconds:.1f} s" for s in systems)
    print(f"2. reading the history alone: {read:.1f} s ({tables} tables); the walk {walk:.1f} s: {parts}")

    if not args.skip_tracemalloc:
        tracemalloc.start()
        compare(prediction_history(), all_systems(courier_refresh=refresh))
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        print(f"3. peak of Python's allocations during the walk: {peak / 2**20:.0f} MB")


if __name__ == "__main__":
    main()
