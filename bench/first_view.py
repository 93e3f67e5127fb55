"""First views of the load mix's pages, in process: worker CPU and database time per kind of page.

    python bench/first_view.py --players 5000                  # bench/out/load-demo-5000.sqlite3
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench python bench/first_view.py --players 5000
    python bench/first_view.py --players 5000 --root /path/to/other/checkout   # the same pages on other code
    python bench/first_view.py --after-rerate --profile past      # cProfile of one kind's first views
    SORT=tottime TOP=30 CALLEES='views/lists.py' python bench/first_view.py --profile front   # its order, length
    python bench/first_view.py --after-rerate --filters           # the club and category filters instead
    python bench/first_view.py --rows --root /path/to/other/checkout  # the pages of tables of rows

The URLs are ``bench/load_mix.py``'s (the same seed gives the same URLs), ``--per-kind`` of each kind. Before
each request every cache of the site is emptied (the shared cache, and the private memos of code that still
has them), so each page is made as on its first view after a change of the data, nothing built before it.
With ``--after-rerate``, what the re-rate's task builds once for every process before the first visitor
(today's list orders) is built again after each emptying, untimed: the first view after a re-rate rather than
after an edit without one. Printed per kind: the median and p95 of the worker's CPU milliseconds
(``time.process_time``: on SQLite the database's work is in it too) and of the milliseconds spent in database
queries (wall clock around each query: on a loaded machine it holds waiting for the CPU), and the queries per
page, and the process's resident memory after each kind's pages (the same process makes them all, as a
worker would). On PostgreSQL, also the mean CPU of the connection's server process per view (read from /proc in
clock ticks, 10 ms: a mean over many views, not a median): what the database itself spent.

With ``--filters``, the kinds are the rating list's club and category filters (``club``, ``group``: today's
list; ``-past``: a past date's, read on that date) beside the same lists unfiltered (``front``, ``past``) or
filtered by country, and the API's list with and without a club.

With ``--rows``, the kinds are the pages made mostly of a table's rows: searches and tournaments (as in the
mix), the list of tournaments (pages, years, countries) and the promotions (pages of the recent ones and of
the pending ones).
"""

from __future__ import annotations

import argparse
import cProfile
import datetime as dt
import os
import pstats
import random
import statistics
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from load_mix import MIX, federation_facts, mix_urls, process_cpu  # noqa: E402
from load_rating_list import ROOT, bench_database, percentile  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1, help="the seed of the URLs drawn (as load_mix.py)")
    parser.add_argument("--per-kind", type=int, default=20, help="pages of each kind (default 20)")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout whose code makes the pages")
    parser.add_argument(
        "--after-rerate",
        action="store_true",
        help="after emptying the caches, do (untimed) what the re-rate's task does before the first visitor: "
        "build today's list orders (code without that step: nothing)",
    )
    parser.add_argument(
        "--lists-kept",
        action="store_true",
        help="keep the stored lists between requests (a later visitor's view of a list someone asked for before); "
        "by default they are deleted with the caches, so a past date's first view writes its list",
    )
    parser.add_argument("--profile", metavar="KIND", help="cProfile the first views of this kind's pages instead")
    parser.add_argument("--filters", action="store_true", help="the club and category filters' kinds of pages")
    parser.add_argument("--rows", action="store_true", help="the pages of tables of rows (search, tournaments)")
    args = parser.parse_args()

    env = bench_database(args.players, 2016)
    facts = federation_facts(env, args.root)
    by_kind: dict[str, list[str]] = {kind: [] for kind, _ in MIX}
    for kind, url in mix_urls(facts, 100 * args.per_kind, args.seed):
        if len(by_kind[kind]) < args.per_kind:
            by_kind[kind].append(url)
    if args.filters:
        by_kind = filter_urls(facts, args.per_kind, args.seed)
    if args.rows:
        by_kind = {kind: by_kind[kind] for kind in ("search", "tournament")} | row_urls(facts, args.per_kind, args.seed)
    os.environ.update({**env, "ALLOWED_HOSTS": "testserver", "LOG_LEVEL": "WARNING"})
    os.environ.pop("PAGE_CACHE_URL", None)
    sys.path.insert(0, str(args.root))
    os.chdir(args.root)
    import django  # after the environment above is set

    django.setup()
    from django.conf import settings  # needs django.setup()
    from django.core.cache import caches  # needs django.setup()
    from django.core.management import call_command  # needs django.setup()
    from django.db import connection  # needs django.setup()
    from django.test import Client  # needs django.setup()

    call_command("collectstatic", "--noinput", "-v", "0")  # DEBUG off: the pages name the manifest's files
    forget = _private_memos()
    if not args.lists_kept:
        forget.append(_stored_lists_forget())
    prepare = _rerate_preparation() if args.after_rerate else None
    client = Client()
    spent: list[float] = []

    def timed(execute, sql, params, many, context):  # type: ignore[no-untyped-def]
        started = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            spent.append((time.perf_counter() - started) * 1000)

    server: list[int] = []  # PostgreSQL: the pid of the connection's server process, whose CPU a view costs

    def first_view(url: str, profile: cProfile.Profile | None = None) -> tuple[float, float, int, float]:
        for alias in settings.CACHES:
            caches[alias].clear()
        for reset in forget:
            reset()
        if prepare is not None:
            prepare()
        spent.clear()
        server_before = process_cpu(server[0]) if server else 0.0
        with connection.execute_wrapper(timed):
            started = time.process_time()
            if profile is not None:
                profile.enable()
            response = client.get(url)
            if response.streaming:
                b"".join(response.streaming_content)
            if profile is not None:
                profile.disable()
            cpu = (time.process_time() - started) * 1000
        server_cpu = (process_cpu(server[0]) - server_before) * 1000 if server else 0.0
        if response.status_code not in (200, 302, 404):
            raise SystemExit(f"{url}: HTTP {response.status_code}")
        return cpu, sum(spent), len(spent), server_cpu

    first_view("/")  # the templates, the URL resolver, the connection
    if connection.vendor == "postgresql":  # the connection is kept between views (DB_CONN_MAX_AGE)
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            server.append(cursor.fetchone()[0])
    print(
        f"{args.root.name}: {len(facts['players'])} players who played, {connection.vendor}, {args.per_kind} per kind"
    )
    print(f"load average {os.getloadavg()[0]:.2f}" + (", caches as the re-rate's task leaves them" if prepare else ""))
    print(f"resident memory after the first request: {resident_mb():.0f} MB")
    print(
        f"{'kind':12} {'CPU p50':>8} {'p95':>7} {'DB p50':>8} {'p95':>7} {'queries':>8}"
        + (f" {'server CPU mean':>16}" if server else "")
        + "   (ms)  RSS after (MB)"
    )
    if args.profile:
        profile = cProfile.Profile()
        for url in by_kind[args.profile]:
            first_view(url, profile)
        stats = pstats.Stats(profile)
        if os.environ.get("CALLERS"):  # a pattern of functions: who called them, and what each call cost
            stats.print_callers(os.environ["CALLERS"])
        if os.environ.get("CALLEES"):  # a pattern of functions: what they called
            stats.print_callees(os.environ["CALLEES"])
        stats.sort_stats(os.environ.get("SORT", "cumulative")).print_stats(int(os.environ.get("TOP", "45")))
        return
    for kind, urls in by_kind.items():
        runs = [first_view(url) for url in urls]
        cpu, db, count, server_cpu = (list(x) for x in zip(*runs, strict=True))
        print(
            f"{kind:12} {statistics.median(cpu):8.1f} {percentile(cpu, 95):7.1f} "
            f"{statistics.median(db):8.1f} {percentile(db, 95):7.1f} {statistics.median(count):8.0f}"
            + (f" {statistics.mean(server_cpu):16.1f}" if server else "")
            + f"   {resident_mb():8.0f}",
            flush=True,
        )


def resident_mb() -> float:
    """The process's resident memory now, as a worker's would be read (``ps``'s RSS)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


GROUPS = ("U12", "U16", "U20", "S50", "S65", "W")  # the categories of the default settings


def filter_urls(facts: dict, per_kind: int, seed: int) -> dict[str, list[str]]:
    """``per_kind`` URLs of each kind of filtered list, and of the same lists unfiltered, drawn with ``seed``."""
    rng = random.Random(seed)
    first, last = dt.date.fromisoformat(facts["first"]), dt.date.fromisoformat(facts["last"])

    def past() -> str:
        return (first + dt.timedelta(days=rng.randrange((last - first).days + 1))).isoformat()

    def club() -> int:
        return rng.choice(facts["clubs"])

    makers = {
        "front": lambda: "/",
        "country": lambda: f"/?country={rng.choice(facts['countries'])}",
        "club": lambda: f"/?club={club()}",
        "group": lambda: f"/?group={rng.choice(GROUPS)}",
        "past": lambda: f"/?date={past()}",
        "country-past": lambda: f"/?country={rng.choice(facts['countries'])}&date={past()}",
        "club-past": lambda: f"/?club={club()}&date={past()}",
        "group-past": lambda: f"/?group={rng.choice(GROUPS)}&date={past()}",
        "api-list": lambda: "/api/v1/rating-list/",
        "api-club": lambda: f"/api/v1/rating-list/?club={club()}",
    }
    return {kind: [make() for _ in range(per_kind)] for kind, make in makers.items()}


def row_urls(facts: dict, per_kind: int, seed: int) -> dict[str, list[str]]:
    """``per_kind`` URLs of the list of tournaments and of the promotions, drawn with ``seed``."""
    rng = random.Random(seed)
    years = range(dt.date.fromisoformat(facts["first"]).year, dt.date.fromisoformat(facts["last"]).year + 1)
    tournaments = (
        lambda: f"/tournaments/?page={rng.randint(1, 20)}",
        lambda: f"/tournaments/?year={rng.choice(years)}&page={rng.randint(1, 5)}",
        lambda: f"/tournaments/?country={rng.choice(facts['countries'])}",
    )
    promotions = (
        lambda: f"/promotions/?page={rng.randint(1, 20)}",
        lambda: f"/promotions/?pending-page={rng.randint(1, 20)}",
    )
    return {
        "tournaments": [rng.choice(tournaments)() for _ in range(per_kind)],
        "promotions": [rng.choice(promotions)() for _ in range(per_kind)],
    }


def _rerate_preparation():  # type: ignore[no-untyped-def]
    """What the re-rate's task builds for the first visitors (ratings/services/rerate/after.py): today's stored
    lists, or in older code today's list orders."""
    import importlib  # here: each function exists only in some versions of the code

    try:
        return importlib.import_module("ratings.services.lists").lists_prepare
    except ImportError:
        return getattr(importlib.import_module("ratings.selectors.lists"), "list_orders_prepare", lambda: None)


def _stored_lists_forget():  # type: ignore[no-untyped-def]
    """The deletion of every computed stored list (as after a change of the data: a new version), or nothing in
    code from before the stored lists."""
    import importlib  # here: the model exists only in newer code

    stored = getattr(importlib.import_module("ratings.models"), "StoredList", None)
    if stored is None:
        return lambda: None
    return lambda: stored.objects.filter(kind="computed").delete()


def _private_memos() -> list:  # type: ignore[type-arg]
    """The resets of the per-process memos of code from before the shared cache (none today)."""
    import importlib  # here: the modules exist only in older code

    found = []
    for module, name in (
        ("ratings.selectors.lists", "rating_list_forget"),
        ("ratings.selectors.official_lists", "official_list_forget"),
        ("ratings.selectors.stats", "federation_by_year_forget"),
        ("ratings.selectors.search", "search_index_forget"),
    ):
        reset = getattr(importlib.import_module(module), name, None)
        if reset is not None:
            found.append(reset)
    return found


if __name__ == "__main__":
    main()
