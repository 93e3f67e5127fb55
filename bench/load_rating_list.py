"""Load test of the public pages: p50/p95 latency at 8 concurrent clients against gunicorn on loopback.

    python bench/load_rating_list.py                 # build bench/out/load-<builder>-20000.sqlite3 once, measure
    python bench/load_rating_list.py --rebuild --players 20000 --requests 400 --clients 8
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench python bench/load_rating_list.py --rebuild

The federation is built once, through the real engine, by the demo generator (ratings/demo):
``manage.py seed_demo --players N --years 8 --seed S``. ``--builder demo`` (the default) builds the site's demo;
``--builder own`` the harsher variant of the same generator (``--careers-end 0.9 --no-dan-approvals``): most
careers end during the period, so much of the federation is no longer active, and no grade officer ever
approves a Dan grade, so every Dan promotion is pending.

The site is then served by gunicorn (DEBUG off, WhiteNoise for the static files, ``--workers`` sync workers) on
127.0.0.1 at a free port, and each URL below is loaded by ``--clients`` concurrent clients after a short warm-up:
with wrk (Debian's ``wrk``) for ``--seconds`` per URL when it is installed, else by a small Python client of
``--clients`` threads making ``--requests`` requests in all. Printed: requests made, requests per second, p50,
p95 and max latency in milliseconds. Any answer other than 200 stops the run. The machine's load average is
printed before and after: on a shared machine it says how much of the CPU the site really had. The URLs
(``url_list``): the rating list filtered, sorted, paged and of a past date, its exports, a player, a table, the
tournaments and one tournament, the promotions, the name search, the top lists, the calculator, the JSON API
and the Atom feeds. The site keeps each page in its page cache (ratings/web/caching.py, in each worker's memory
here) after its first request; the API's limit per client address is lifted for the run (``API_ANON_RATE``).
``bench/page_cpu.py`` measures the same URLs' CPU time in process, made afresh and from the page cache.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import http.client
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"
HARSHER = ["--careers-end", "0.9", "--no-dan-approvals"]  # --builder own: most careers end, no Dan approved


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def measure(port: int, path: str, requests: int, clients: int) -> tuple[float, list[float]]:
    """Fetch ``path`` ``requests`` times from ``clients`` threads; returns (wall seconds, latencies in ms)."""
    latencies: list[float] = []
    lock = threading.Lock()
    per_client = [requests // clients + (1 if i < requests % clients else 0) for i in range(clients)]
    failures: list[str] = []

    def client(count: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        mine: list[float] = []
        for _ in range(count):
            started = time.perf_counter()
            conn.request("GET", path)
            response = conn.getresponse()
            response.read()
            mine.append((time.perf_counter() - started) * 1000)
            if response.status != 200:
                failures.append(f"{path}: HTTP {response.status}")
                break
        conn.close()
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=client, args=(n,)) for n in per_client]
    return run_clients(threads, failures), latencies


def run_clients(threads: list[threading.Thread], failures: list[str]) -> float:
    """Run the client threads to their end: the wall seconds, or an exit with the first failure they noted."""
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if failures:
        raise SystemExit(failures[0])
    return time.perf_counter() - started


WRK_SCRIPT = """
function response(status, headers, body)
  if status ~= 200 then io.stderr:write("HTTP " .. status .. "\\n") end
end
function done(summary, latency, requests)
  io.write(string.format("RESULT %d %d %.3f %.3f %.3f %d\\n", summary.requests, summary.duration,
    latency:percentile(50) / 1000, latency:percentile(95) / 1000, latency.max / 1000,
    summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.timeout))
end
"""


def measure_wrk(port: int, path: str, seconds: int, clients: int) -> tuple[int, float, float, float, float]:
    """(requests, requests per second, p50, p95, max in ms) by wrk: ``clients`` connections on two threads for
    ``seconds`` (wrk bounds a run by time; the number of requests it made is reported)."""
    script = OUT / "wrk-report.lua"
    script.write_text(WRK_SCRIPT)
    command = ["wrk", "-t", "2", "-c", str(clients), "-d", f"{seconds}s", "--timeout", "30s", "-s", str(script)]
    out = subprocess.run([*command, f"http://127.0.0.1:{port}{path}"], capture_output=True, text=True, check=True)
    line = next(x for x in out.stdout.splitlines() if x.startswith("RESULT"))
    done, micros, p50, p95, most, errors = line.split()[1:]
    if int(errors) or "HTTP " in out.stderr:
        raise SystemExit(f"{path}: {errors} errors {out.stderr.strip()[:200]}")
    return int(done), int(done) / (int(micros) / 1e6), float(p50), float(p95), float(most)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=2016)
    parser.add_argument("--rebuild", action="store_true", help="build the database again even if it exists")
    parser.add_argument("--requests", type=int, default=400, help="requests per URL, Python client (default 400)")
    parser.add_argument("--seconds", type=int, default=20, help="seconds per URL, wrk (default 20)")
    parser.add_argument("--clients", type=int, default=8, help="concurrent clients (default 8)")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers (default 4)")
    parser.add_argument("--build-only", action="store_true")
    parser.add_argument("--builder", choices=("auto", "demo", "own"), default="auto")
    parser.add_argument(
        "--client", choices=("auto", "wrk", "python"), default="auto", help="load tool (auto: wrk when installed)"
    )
    args = parser.parse_args()

    env = bench_database(args.players, args.seed, args.builder, rebuild=args.rebuild)
    if args.build_only:
        return
    with served(env, args.workers) as (port, _):
        urls = bench_urls(port)
        client = args.client if args.client != "auto" else ("wrk" if shutil.which("wrk") else "python")
        bound = f"{args.seconds} s per URL" if client == "wrk" else f"{args.requests} requests per URL"
        print(
            f"gunicorn --workers {args.workers}, {args.clients} concurrent clients ({client}), {bound}, "
            f"{os.cpu_count()} CPUs, load average before {os.getloadavg()[0]:.1f}"
        )
        print(f"{'URL':56} {'requests':>8} {'req/s':>7} {'p50 ms':>7} {'p95 ms':>7} {'max ms':>7}")
        for path in urls:
            measure(port, path, args.clients * 2, args.clients)  # warm-up: every worker connected and loaded
            if client == "wrk":
                done, rate, p50, p95, most = measure_wrk(port, path, args.seconds, args.clients)
            else:
                wall, latencies = measure(port, path, args.requests, args.clients)
                done, rate = len(latencies), len(latencies) / wall
                p50, p95, most = percentile(latencies, 50), percentile(latencies, 95), max(latencies)
            print(f"{path[:56]:56} {done:8d} {rate:7.1f} {p50:7.1f} {p95:7.1f} {most:7.1f}", flush=True)
        print(f"load average after {os.getloadavg()[0]:.1f}")


def bench_database(players: int, seed: int, builder: str = "auto", *, rebuild: bool = False) -> dict[str, str]:
    """The environment of the benchmark's site (DEBUG off, the API's limit lifted), its database migrated and,
    if missing or ``rebuild``, built by the demo generator: a SQLite file in bench/out/ unless ``DATABASE_URL``
    names another database."""
    OUT.mkdir(parents=True, exist_ok=True)
    builder = "demo" if builder == "auto" else builder
    db_file = OUT / f"load-{builder}-{players}.sqlite3"
    env = dict(os.environ)
    env.setdefault("DATABASE_URL", f"sqlite:///{db_file}")
    env.update(
        DEBUG="0",
        SECRET_KEY="bench-only-" + "k" * 20 + "-not-a-secret-used-anywhere-else",  # DEBUG=0 wants 50+
        SECURE_SSL_REDIRECT="0",  # plain HTTP on loopback, as behind a proxy that terminates TLS
        ALLOWED_HOSTS="127.0.0.1",
        DJANGO_SETTINGS_MODULE="federation.settings",
        API_ANON_RATE="1000000/minute",  # the load comes from one address: the API's limit is not measured
    )
    manage = [sys.executable, str(ROOT / "manage.py")]
    sqlite = env["DATABASE_URL"].startswith("sqlite")
    if env["DATABASE_URL"].startswith("sqlite:///"):  # a SQLite file of the caller's: built only if missing
        db_file = Path(env["DATABASE_URL"].removeprefix("sqlite:///"))
    if rebuild and sqlite and db_file.exists():
        db_file.unlink()
    fresh = (sqlite and not db_file.exists()) or rebuild
    subprocess.run([*manage, "migrate", "--noinput", "-v", "0"], env=env, check=True, cwd=ROOT)
    if fresh:
        command = [*manage, "seed_demo", "--players", str(players), "--years", "8", "--seed", str(seed)]
        subprocess.run([*command, *(HARSHER if builder == "own" else []), "--flush"], env=env, check=True, cwd=ROOT)
    if not sqlite:
        # A fresh PostgreSQL database has no planner statistics nor visibility map until autovacuum comes by; a
        # running site has. Without the map a past date's list reads every rating row instead of its index. On
        # every later run, the stored lists' tables, whose lines each run writes and deletes by the hundred
        # thousand: where autovacuum is off (this machine's CI settings) their dead lines pile up, 9.3 million
        # after a few runs, and every list is read slower.
        tables = "" if fresh else " ratings_listentry, ratings_storedlist"
        analyze = f"from django.db import connection; connection.cursor().execute('VACUUM ANALYZE{tables}')"
        subprocess.run([*manage, "shell", "-c", analyze], env=env, check=True, cwd=ROOT)
    return env


@contextlib.contextmanager
def served(env: dict[str, str], workers: int, root: Path = ROOT) -> Iterator[tuple[int, int]]:
    """The site of ``env`` served by gunicorn with ``workers`` sync workers on a free port of 127.0.0.1, until
    the block ends; yields the port and gunicorn's process id. ``root``: the checkout whose code is served."""
    subprocess.run(
        [sys.executable, str(root / "manage.py"), "collectstatic", "--noinput", "-v", "0"],
        env=env,
        check=True,
        cwd=root,
    )
    port = free_port()
    gunicorn = str(Path(sys.executable).parent / "gunicorn")
    command = [gunicorn, "federation.wsgi", "--workers", str(workers), "--bind", f"127.0.0.1:{port}"]
    server = subprocess.Popen([*command, "--log-level", "warning"], env=env, cwd=root)
    try:
        for _ in range(100):
            try:
                http.client.HTTPConnection("127.0.0.1", port, timeout=1).request("HEAD", "/")
                break
            except OSError:
                time.sleep(0.1)
        yield port, server.pid
    finally:
        server.terminate()
        server.wait(timeout=30)


def bench_urls(port: int) -> list[str]:
    """The URLs of the load (``url_list``), the ids they need read from the site's JSON API."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def fetch_json(path: str) -> Any:
        conn.request("GET", path)
        response = conn.getresponse()
        body = response.read()
        if response.status != 200:
            raise SystemExit(f"{path}: HTTP {response.status}")
        return json.loads(body)

    return url_list(fetch_json)


def url_list(fetch_json: Callable[[str], Any]) -> list[str]:
    """The rating list as people use it (filters, sorting, a deep page, a past date, filtered and sorted too),
    its CSV export and all.txt, a player's page, a table, the tournaments and a tournament's page, the
    promotions, the name search (a few different names), the top lists, the calculator, the JSON API's lists
    and a player, and the Atom feeds. ``fetch_json(path)`` reads the API, for the ids of a player and a
    tournament."""
    past = dt.date.today().replace(day=1) - dt.timedelta(days=365)
    player = fetch_json("/api/v1/rating-list/?page_size=1")["results"][0]["federation_id"]
    tournament = fetch_json("/api/v1/tournaments/?page_size=1")["results"][0]
    table = tournament["tables"][0]["id"] if tournament["tables"] else None
    urls = [
        "/",
        "/?country=FR",
        "/?q=ber",
        "/?sort=name",
        "/?sort=-games&page=20",
        "/?active=all&grade_min=11&grade_max=20",
        "/?category=established&country=DE",
        f"/?date={past}",
        f"/?date={past}&q=ber&sort=-games",
        "/export.csv?country=FR",
        "/files/rating-list?format=csv",  # all.txt: the demo has names ISO-8859-1 cannot hold (a 409)
        f"/players/{player}/",
        *([f"/tables/{table}/"] if table else []),
        "/tournaments/",
        f"/tournaments/{tournament['id']}/",
        "/promotions/",
        "/search/?q=ber",
        "/search/?q=an",
        "/search/?q=mar+an",
        "/statistics/",
        "/statistics/?country=FR",
        "/calculator/",
        f"/calculator/?player={player}",
        "/api/v1/rating-list/",
        f"/api/v1/rating-list/?date={past}&country=FR",
        "/api/v1/players/?q=ber",
        f"/api/v1/players/{player}/",
        "/api/v1/tournaments/",
        "/feeds/tables.atom",
        "/feeds/promotions.atom",
    ]
    return urls


if __name__ == "__main__":
    main()
