"""Load test of many distinct public URLs, as real visitors make them: requests/s, p50 and p95 of a seeded mix.

    python bench/load_mix.py                               # SQLite, 20,000 players (built once, see below)
    python bench/load_mix.py --players 5000 --requests 2000 --seed 7
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench python bench/load_mix.py --players 5000
    python bench/load_mix.py --players 5000 --root /path/to/other/checkout   # the same load on other code

The federation is the one ``bench/load_rating_list.py`` builds (``bench_database``: the demo generator through
the real engine, ``--players`` players over 8 years; about 25 games a player). The site is served by gunicorn
(``--workers`` sync workers, DEBUG off) and loaded by ``--clients`` concurrent clients (threads with keep-alive
connections) for ``--requests`` requests drawn from this mix, with a fixed ``--seed``, so that every run asks
for the same URLs in the same order:

    10 %  the front page (today's rating list)
    10 %  list variants: a sort, a country, all players, a category, pages 1-30
    12 %  past-date lists: any day of the federation's history (``/?date=``)
    30 %  player pages: any player who played
    10 %  tournament pages
    15 %  searches: a 3- or 4-letter prefix of a real family name
     8 %  API rating list: today or a past date, pages 1-50 (fewer on a smaller federation: a past date's
          list may still be shorter; its 404 is counted apart)
     5 %  API player

Nearly every URL is asked once, so nearly every request is a first view: the page cache helps only the front
page. The clients ask for compressed answers (``Accept-Encoding: gzip``) as browsers do unless ``--no-gzip``.
Printed: the number of distinct URLs, requests per second, p50, p95 and max latency over all and per kind,
the workers' CPU time per request (from /proc), and the load average before and after (the machine may be
shared: the figures are worth what the load lets them be). Any answer but 200 (or a search's 302 to the one
player found) stops the run.
"""

from __future__ import annotations

import argparse
import datetime as dt
import http.client
import json
import os
import random
import subprocess
import sys
import threading
import time
from collections import defaultdict
from pathlib import Path
from urllib.parse import quote

from load_rating_list import ROOT, bench_database, percentile, run_clients, served

MIX = (
    ("front", 10),
    ("list", 10),
    ("past", 12),
    ("player", 30),
    ("tournament", 10),
    ("search", 15),
    ("api-list", 8),
    ("api-player", 5),
)
SORTS = ("name", "-name", "rating", "-games", "games", "country_rank", "nationality", "-last_played", "category")
CATEGORIES = ("established", "provisional", "unrated")

FACTS = """
import json
from django.db.models import Max, Min
from ratings.models import Club, Player, Table, Tournament
players = list(Player.objects.filter(games__gt=0, merged_into__isnull=True).order_by("pk")
               .values_list("federation_id", "family_name", "nationality"))
dates = Table.objects.filter(status="rated").aggregate(first=Min("date"), last=Max("date"))
print(json.dumps({
    "players": [p[0] for p in players],
    "names": sorted({p[1] for p in players}),
    "countries": sorted({p[2] for p in players} - {""}),
    "tournaments": list(Tournament.objects.order_by("pk").values_list("pk", flat=True)),
    "clubs": list(Club.objects.order_by("pk").values_list("pk", flat=True)),
    "first": dates["first"].isoformat(),
    "last": dates["last"].isoformat(),
}))
"""


def federation_facts(env: dict[str, str], root: Path) -> dict[str, list]:
    """What the URLs are drawn from: players who played, names, countries, tournaments, the history's dates."""
    out = subprocess.run(
        [sys.executable, str(root / "manage.py"), "shell", "-c", FACTS],
        env=env,
        cwd=root,
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def mix_urls(facts: dict, count: int, seed: int) -> list[tuple[str, str]]:
    """``count`` (kind, URL) pairs drawn from the mix with ``seed``: the same list for the same facts."""
    rng = random.Random(seed)
    first, last = dt.date.fromisoformat(facts["first"]), dt.date.fromisoformat(facts["last"])
    span = (last - first).days

    api_pages = max(1, min(50, len(facts["players"]) // 400))  # 50 at 20,000 players: pages that exist

    def past() -> str:
        return (first + dt.timedelta(days=rng.randrange(span + 1))).isoformat()

    def prefix() -> str:
        names = [n for n in facts["names"] if len(n) >= 4]
        return rng.choice(names)[: rng.choice((3, 4))]

    def list_variant() -> str:
        page = f"page={rng.randint(1, 30)}"
        choice = rng.randrange(4)
        if choice == 0:
            return f"/?sort={rng.choice(SORTS)}&{page}"
        if choice == 1:
            return f"/?country={rng.choice(facts['countries'])}&page={rng.randint(1, 3)}"
        if choice == 2:
            return f"/?active=all&{page}"
        return f"/?category={rng.choice(CATEGORIES)}&page={rng.randint(1, 10)}"

    makers = {
        "front": lambda: "/",
        "list": list_variant,
        "past": lambda: f"/?date={past()}",
        "player": lambda: f"/players/{rng.choice(facts['players'])}/",
        "tournament": lambda: f"/tournaments/{rng.choice(facts['tournaments'])}/",
        "search": lambda: f"/search/?q={quote(prefix())}",
        "api-list": lambda: (
            "/api/v1/rating-list/?"
            + (f"date={past()}&" if rng.random() < 0.5 else "")
            + f"page={rng.randint(1, api_pages)}"
        ),
        "api-player": lambda: f"/api/v1/players/{rng.choice(facts['players'])}/",
    }
    kinds = [kind for kind, _ in MIX]
    weights = [weight for _, weight in MIX]
    return [(kind, makers[kind]()) for kind in rng.choices(kinds, weights, k=count)]


def run_mix(port: int, urls: list[tuple[str, str]], clients: int, gzip: bool) -> tuple[float, dict[str, list[float]]]:
    """Fetch ``urls`` in order from ``clients`` threads; (wall seconds, latencies in ms by kind)."""
    latencies: dict[str, list[float]] = defaultdict(list)
    lock = threading.Lock()
    position = iter(range(len(urls)))
    failures: list[str] = []
    headers = {"Accept-Encoding": "gzip"} if gzip else {}

    def client() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        while not failures:
            with lock:
                i = next(position, None)
            if i is None:
                break
            kind, path = urls[i]
            started = time.perf_counter()
            try:
                conn.request("GET", path, headers=headers)
                response = conn.getresponse()
                response.read()
            except (OSError, http.client.HTTPException) as error:
                failures.append(f"{path}: {error!r}")
                break
            took = (time.perf_counter() - started) * 1000
            if response.status == 404 and kind == "api-list":
                kind = "api-list-404"  # a page past the end of a short past list
            elif response.status not in (200, 302):  # a search with one match goes to the player's page
                failures.append(f"{path}: HTTP {response.status}")
            with lock:
                latencies[kind].append(took)
        conn.close()

    threads = [threading.Thread(target=client) for _ in range(clients)]
    return run_clients(threads, failures), latencies


def process_cpu(pid: int | str) -> float:
    """CPU seconds (user + system) of a process so far, from /proc; 0 if it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def workers_cpu(master: int) -> float:
    """CPU seconds (user + system) of gunicorn's workers so far, from /proc."""
    return sum(process_cpu(pid) for pid in Path(f"/proc/{master}/task/{master}/children").read_text().split())


def database_cpu() -> dict[str, float]:
    """CPU seconds so far of each PostgreSQL server process on this machine (none for SQLite), by pid."""
    out = {}
    for stat in Path("/proc").glob("[0-9]*/comm"):
        try:
            if stat.read_text().strip() == "postgres":
                out[stat.parent.name] = process_cpu(stat.parent.name)
        except OSError:
            continue
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=20_000, help="size of the federation (default 20,000)")
    parser.add_argument("--build-seed", type=int, default=2016, help="the demo generator's seed")
    parser.add_argument("--seed", type=int, default=1, help="the seed of the URLs drawn")
    parser.add_argument("--requests", type=int, default=2000, help="requests in all (default 2,000)")
    parser.add_argument("--clients", type=int, default=8, help="concurrent clients (default 8)")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers (default 4)")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout whose code is served")
    parser.add_argument("--no-gzip", action="store_true", help="ask for uncompressed answers")
    args = parser.parse_args()

    env = bench_database(args.players, args.build_seed)
    facts = federation_facts(env, args.root)
    urls = mix_urls(facts, args.requests, args.seed)
    with served(env, args.workers, args.root) as (port, master):
        run_mix(port, [("warm", "/")] * args.workers * 2, args.clients, False)
        load_before = os.getloadavg()
        cpu_before, client_before, database_before = workers_cpu(master), time.process_time(), database_cpu()
        wall, latencies = run_mix(port, urls, args.clients, not args.no_gzip)
        cpu, client = workers_cpu(master) - cpu_before, time.process_time() - client_before
        # A backend that ended meanwhile is not counted; one that started is counted whole.
        database = sum(seconds - database_before.get(pid, 0.0) for pid, seconds in database_cpu().items())
        load_after = os.getloadavg()
    every = [x for values in latencies.values() for x in values]
    print(
        f"{args.root.name}: {len(facts['players'])} players who played, {env['DATABASE_URL'].split(':')[0]}, "
        f"gunicorn --workers {args.workers}, {args.clients} clients, {len(urls)} requests "
        f"({len({u for _, u in urls})} distinct URLs), seed {args.seed}, {os.cpu_count()} CPUs"
    )
    before, after = (f"{a[0]:.2f} {a[1]:.2f}" for a in (load_before, load_after))
    print(f"load average (1 and 5 min) before {before}, after {after}")
    print(f"{'kind':12} {'requests':>8} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}")
    for kind in [kind for kind, _ in MIX] + ["api-list-404"]:
        values = latencies.get(kind, [])
        if values:
            p50, p95 = percentile(values, 50), percentile(values, 95)
            print(f"{kind:12} {len(values):8d} {p50:8.1f} {p95:8.1f} {max(values):8.1f}")
    print(
        f"{'all':12} {len(every):8d} {percentile(every, 50):8.1f} {percentile(every, 95):8.1f} {max(every):8.1f}"
        f"   {len(every) / wall:.1f} requests/s, {cpu / len(every) * 1000:.1f} ms worker CPU per request"
    )
    per = 1000 / len(every)
    print(
        f"CPU per request: workers {cpu * per:.1f} ms, database server {database * per:.1f} ms, "
        f"this client {client * per:.1f} ms; the machine had {wall * (os.cpu_count() or 1) * per:.1f} ms"
    )


if __name__ == "__main__":
    main()
