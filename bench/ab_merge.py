"""A merge's re-rate against a full re-rate, in CPU time, this checkout against another, alternated (not a test).

    python bench/ab_merge.py --root /tmp/before [--players 5000] [--games 120000] [--rounds 3]

The federation is bench_correction.py's SQLite database of that size (bench/out/bench_correction-P-G.sqlite3:
run ``bench_correction.py --merge --check`` once to build it). Each measurement starts from a fresh copy of it
and runs in a process of its own, from inside the checkout measured (Celery's Django fix-up puts the working
directory first on ``sys.path``): the merge ``bench_correction.py --merge`` measures (the newcomer with the
longest history into the player of his country with the most games who never met him) is saved, then timed
are the re-rate that follows it (``rerate_pending``) and a full re-rate (``rerate_from``). On SQLite the
database works inside the process, so the process's CPU time (user + system) is all of it; the wall clock, on a
machine shared with others, is not. The two checkouts take turns, the first of a round alternating.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import datetime, json, os, sys, time
sys.path.insert(0, os.getcwd())
import django
django.setup()
from django.contrib.auth.models import User
from django.db.models import Min
from federation.celery import app
from ratings.models import Player, TableEntry
from ratings.services.merge.apply import player_merge
from ratings.services.merge.moves import merge_refusal
from ratings.services.rerate import rerate_from, rerate_pending

app.conf.update(task_always_eager=False, broker_url="memory://")
entries = TableEntry.objects.values("player_id").annotate(first=Min("table__date"))
first = dict(entries.values_list("player_id", "first"))
newcomers = Player.objects.filter(opening_state__isnull=True, games__gte=50, merged_into__isnull=True)
duplicate = min(newcomers, key=lambda p: (first.get(p.pk, datetime.date.max), -p.games, p.pk))
his = set(TableEntry.objects.filter(player=duplicate).values_list("table_id", flat=True))
candidates = Player.objects.filter(nationality=duplicate.nationality, merged_into__isnull=True).exclude(pk=duplicate.pk)
kept = next(
    k for k in candidates.order_by("-games", "pk")[:200]
    if not TableEntry.objects.filter(player=k, table_id__in=his).exists() and not merge_refusal(duplicate, k)
)
officer, _ = User.objects.get_or_create(username="bench-officer", defaults={"is_superuser": True})
player_merge(user=officer, duplicate=duplicate, kept=kept, reason="bench", expected=None)

def timed(fn):
    cpu, wall = time.process_time(), time.perf_counter()
    outcome = fn()
    return time.process_time() - cpu, time.perf_counter() - wall, outcome

merge_cpu, merge_wall, merged = timed(rerate_pending)
full_cpu, full_wall, full = timed(rerate_from)
print(json.dumps({
    "merge_cpu": merge_cpu, "merge_wall": merge_wall, "full_cpu": full_cpu, "full_wall": full_wall,
    "redone": merged.tables_rated, "unchanged": merged.tables_unchanged,
    "full_tables": full.tables_rated, "pair": [duplicate.pk, kept.pk],
}))
"""


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--root", type=Path, required=True, help="the other checkout (the code before)")
    parser.add_argument("--players", type=int, default=5_000)
    parser.add_argument("--games", type=int, default=120_000)
    parser.add_argument("--rounds", type=int, default=3)
    return parser.parse_args()


def measure(root: Path, source: Path, copy: Path) -> dict[str, float]:
    shutil.copyfile(source, copy)
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DEBUG", "DATABASE_URL")}
    env.update(
        DATABASE_URL=f"sqlite:///{copy}",
        DJANGO_SETTINGS_MODULE="federation.settings",
        DEBUG="0",  # no query log
        SECRET_KEY="bench-only-" + "k" * 20 + "-not-a-secret-used-anywhere-else",
    )
    python = root / ".venv" / "bin" / "python"
    done = subprocess.run([str(python), "-c", CHILD], cwd=root, env=env, capture_output=True, text=True, check=False)
    if done.returncode:
        raise SystemExit(f"{root}: {done.stderr[-3000:]}")
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    copy.unlink()
    return result


def main() -> None:
    args = arguments()
    source = ROOT / "bench" / "out" / f"bench_correction-{args.players}-{args.games}.sqlite3"
    if not source.exists():
        raise SystemExit(f"{source} missing: run bench/bench_correction.py --merge --check first")
    sides = {"this": ROOT, "other": args.root.resolve()}
    results: dict[str, list[dict[str, float]]] = {name: [] for name in sides}
    print(f"load before: {os.getloadavg()[0]:.1f}; {args.players} players, {args.games} games (SQLite)")
    for n in range(args.rounds):
        order = list(sides) if n % 2 == 0 else list(reversed(sides))
        for name in order:
            r = measure(sides[name], source, ROOT / "bench" / "out" / f"ab_merge-{name}.sqlite3")
            results[name].append(r)
            print(
                f"round {n + 1} {name}: merge re-rate {r['merge_cpu']:.2f} s CPU ({r['merge_wall']:.2f} wall; "
                f"{r['redone']} tables redone, {r['unchanged']} left, {r['read']} read), full re-rate "
                f"{r['full_cpu']:.2f} s CPU ({r['full_wall']:.2f} wall); ratio {r['merge_cpu'] / r['full_cpu']:.3f}; "
                f"load {os.getloadavg()[0]:.1f}",
                flush=True,
            )
    for name, runs in results.items():
        merge = statistics.median(r["merge_cpu"] for r in runs)
        full = statistics.median(r["full_cpu"] for r in runs)
        print(
            f"{name} ({sides[name]}): median CPU merge re-rate {merge:.2f} s, full {full:.2f} s, "
            f"ratio {merge / full:.3f}"
        )
    print(f"load after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    sys.exit(main())
