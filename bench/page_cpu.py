"""CPU time of each public page, in process (Django's test client), made afresh and from the page cache.

    python bench/page_cpu.py                          # bench/out/load-demo-20000.sqlite3 (load_rating_list.py)
    python bench/page_cpu.py --players 5000 --repeat 20
    python bench/page_cpu.py --profile /?date=2024-01-01   # cProfile of one page made afresh, top functions

The database is the one ``load_rating_list.py`` builds (``--build-only`` builds it without the load). For each
URL of the load test (the same list, ``load_rating_list.bench_urls``) it prints the median and p95 CPU
milliseconds (``time.process_time``) of ``--repeat`` requests made afresh (the page cache emptied before
each: the data's own per-process memo, such as the rating list's rows, stays warm, as on a running site) and
of as many served from the page cache. CPU time rather than wall clock: the machine may be shared.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=20_000)
    parser.add_argument("--builder", choices=("demo", "own"), default="demo")
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--profile", metavar="URL", help="profile one URL made afresh instead")
    parser.add_argument("urls", nargs="*", help="only these URLs (default: the load test's)")
    args = parser.parse_args()

    db_file = ROOT / "bench" / "out" / f"load-{args.builder}-{args.players}.sqlite3"
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{db_file}")
    os.environ.update(
        DEBUG="0",
        SECRET_KEY="bench-only-" + "k" * 20 + "-not-a-secret-used-anywhere-else",
        SECURE_SSL_REDIRECT="0",
        ALLOWED_HOSTS="testserver",
        API_ANON_RATE="1000000/minute",
        DJANGO_SETTINGS_MODULE="federation.settings",
        LOG_LEVEL="WARNING",
    )
    os.environ.pop("PAGE_CACHE_URL", None)
    import django  # after the environment above is set

    django.setup()
    from django.core.cache import caches  # needs django.setup()
    from django.core.management import call_command  # needs django.setup()
    from django.test import Client  # needs django.setup()
    from load_rating_list import url_list  # needs django.setup()

    try:
        from ratings.web.caching import PAGE_CACHE  # needs django.setup()
    except ImportError:  # the site from before the page cache: every page is made afresh
        PAGE_CACHE = "default"

    call_command("collectstatic", "--noinput", "-v", "0")  # DEBUG off: the pages name the manifest's files
    client = Client()
    pages = caches[PAGE_CACHE]

    def get(url: str) -> float:
        started = time.process_time()
        response = client.get(url)
        if hasattr(response, "streaming_content"):
            b"".join(response.streaming_content)
        elapsed = (time.process_time() - started) * 1000
        if response.status_code not in (200, 302):
            raise SystemExit(f"{url}: HTTP {response.status_code}")
        return elapsed

    urls = args.urls or url_list(lambda path: client.get(path).json())
    if args.profile:
        get(args.profile)
        pages.clear()
        profile = cProfile.Profile()
        profile.enable()
        for _ in range(5):
            pages.clear()
            get(args.profile)
        profile.disable()
        if os.environ.get("DUMP"):
            profile.dump_stats(os.environ["DUMP"])
        order, top = os.environ.get("SORT", "cumulative"), int(os.environ.get("TOP", "45"))
        pstats.Stats(profile).sort_stats(order).print_stats(top)
        return
    print(f"{'URL':60} {'fresh p50':>9} {'p95':>6} {'cached p50':>10} {'p95':>6}  (CPU ms)")
    for url in urls:
        get(url)  # warm: the process's memo of the data, the templates
        fresh = []
        for _ in range(args.repeat):
            pages.clear()
            fresh.append(get(url))
        cached = [get(url) for _ in range(args.repeat)]
        print(
            f"{url[:60]:60} {statistics.median(fresh):9.1f} {p95(fresh):6.1f} "
            f"{statistics.median(cached):10.1f} {p95(cached):6.1f}",
            flush=True,
        )


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


if __name__ == "__main__":
    main()
