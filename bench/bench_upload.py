"""Benchmark of a director's upload in the admin: the first preview and the confirmation (not a test).

    python bench/bench_upload.py                        # every case, each in a fresh process, SQLite under bench/out/
    python bench/bench_upload.py --case table-1000-half-new --profile  # one case, with a profile
    DATABASE_URL=postgres://... python bench/bench_upload.py

The budget: the first preview of any upload the limits admit costs at most 2 s of CPU (the process's own
time, which on SQLite includes the database's work), so that a gunicorn worker answers well inside 30 s (a
quarter of its timeout, gunicorn.conf.py) even on a machine loaded five times over. Each case is measured in a
new process, as a worker meets it: one request to the upload form (untimed, it loads the admin), then

1. the upload itself (POST with the files), which reads, checks and previews: its CPU and wall-clock time;
2. the confirmation of that preview (POST with the signed payload and ``confirm``), rolled back afterwards so
   that every case starts from the same database.

The cases, at the limits the upload admits (ratings/services/fesa/tables.py): a table of the reader's maximum of
players, all of them known or half of them new (each new line gets its own selects), a small table with a
``nye-spillere`` of the most players it admits, and one over that limit (refused: the time to say so).
The federation (2,000 players, a director and his tournament) is built once into bench/out/bench_upload.sqlite3
(``--rebuild`` builds it again).
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import random
import subprocess
import sys
import time
from typing import Any

from benchenv import OUT, django_setup

CASES = ["table-1000-known", "table-1000-half-new", "nye-max", "nye-over-max"]
KNOWN = 2_000
DATE = "2024-05-12"
BUDGET = 2.0  # seconds of CPU for a first preview


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--case", choices=CASES, help="measure this case in this process")
    parser.add_argument("--rebuild", action="store_true", help="build the federation again")
    parser.add_argument("--profile", action="store_true", help="with --case: cProfile the first preview")
    return parser.parse_args()


ARGS = arguments()
django_setup(OUT / "bench_upload.sqlite3", ALLOWED_HOSTS="testserver", SECURE_SSL_REDIRECT="0")

from django.conf import settings  # noqa: E402

# Production settings but plain static file names: collectstatic has not run here.
settings.STORAGES = {
    **settings.STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

from django.contrib.auth.models import Group, User  # noqa: E402
from django.core.files.uploadedfile import SimpleUploadedFile  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import transaction  # noqa: E402
from django.test import Client  # noqa: E402

from ratings.access import TOURNAMENT_DIRECTORS  # noqa: E402
from ratings.fesa_files.turnering import MAX_PLAYERS  # noqa: E402
from ratings.models import Player, Tournament  # noqa: E402
from ratings.services.fesa.tables import MAX_NEW_PLAYERS  # noqa: E402

URL = "/admin/ratings/table/upload/turnering/"


def build() -> None:
    call_command("migrate", verbosity=0)
    if ARGS.rebuild:
        Player.objects.all().delete()
        Tournament.objects.all().delete()
        User.objects.filter(username="bench-director").delete()
    if Player.objects.filter(family_name="Known").count() == KNOWN:
        return
    Player.objects.bulk_create(
        Player(
            family_name="Known",
            given_name=f"K{n:05d}",
            search_name=f"known k{n:05d}",
            nationality="FR",
            prior_grade_kind="kyu",
            prior_grade_level=1 + n % 9,  # a first rating for everyone: a table of newcomers alone cannot settle
        )
        for n in range(1, KNOWN + 1)
    )
    director = User.objects.create_user(username="bench-director", password="-", is_staff=True)
    director.groups.add(Group.objects.get(name=TOURNAMENT_DIRECTORS))
    director.user_permissions.clear()
    tournament = Tournament.objects.create(
        name="Bench open", city="Paris", country="FR", start_date=DATE, end_date=DATE
    )
    tournament.directors.set([director])


def table_text(names: list[tuple[str, str]], rounds: int = 7, seed: int = 1) -> bytes:
    """A table of ``names`` (an even number) paired by the circle method, results drawn with ``seed``."""
    rng = random.Random(seed)
    n = len(names)
    cells: list[list[str]] = [[] for _ in range(n)]
    ring = list(range(1, n))
    for _round in range(rounds):
        pairs = [(0, ring[-1])] + [(ring[i], ring[-2 - i]) for i in range(n // 2 - 1)]
        for a, b in pairs:
            sign = rng.choice("+-=")
            cells[a].append(f"{b + 1}{sign}")
            cells[b].append(f"{a + 1}{ {'+': '-', '-': '+', '=': '='}[sign] }")
        ring = ring[1:] + ring[:1]
    lines = ["[Bench open, Paris, France]", f"[{DATE}]"]
    lines += [f"{i + 1} [{f}] [{g}] FR [{' '.join(cells[i])}]" for i, (f, g) in enumerate(names)]
    return ("\n".join(lines) + "\n").encode("iso-8859-1")


def nye_text(count: int) -> bytes:
    rows = [
        f'("Newcomer" "N{n:05d}" (#S(HOME :list #\\E :nationality "FR" :residens "FR")) {1 + n % 9} "Kyu" 0 0 nil)'
        for n in range(1, count + 1)
    ]
    return ("(\n" + "\n".join(rows) + "\n)\n").encode("iso-8859-1")


def case_files(case: str) -> dict[str, bytes]:
    if case == "table-1000-known":
        return {"file": table_text([("Known", f"K{n:05d}") for n in range(1, MAX_PLAYERS + 1)])}
    if case == "table-1000-half-new":
        names = [("Known", f"K{n:05d}") if n % 2 else ("Fresh", f"F{n:05d}") for n in range(1, MAX_PLAYERS + 1)]
        return {"file": table_text(names)}
    count = MAX_NEW_PLAYERS if case == "nye-max" else 5_000
    table = table_text([("Newcomer", "N00001"), ("Newcomer", "N00002"), ("Known", "K00001"), ("Known", "K00002")])
    return {"file": table, "new_players": nye_text(count)}


def measure(case: str) -> dict[str, Any]:
    director = User.objects.get(username="bench-director")
    tournament = Tournament.objects.get(name="Bench open")
    client = Client()
    client.force_login(director)
    assert client.get(URL).status_code == 200  # loads the admin: a worker has it loaded already
    files = case_files(case)
    data: dict[str, Any] = {name: SimpleUploadedFile(name, content) for name, content in files.items()}
    data["tournament"] = str(tournament.pk)
    profiler = cProfile.Profile() if ARGS.profile else None
    cpu, wall = time.process_time(), time.perf_counter()
    response = profiler.runcall(client.post, URL, data) if profiler else client.post(URL, data)
    out: dict[str, Any] = {
        "case": case,
        "bytes": sum(len(v) for v in files.values()),
        "preview_cpu": time.process_time() - cpu,
        "preview_wall": time.perf_counter() - wall,
        "status": response.status_code,
    }
    if profiler:
        pstats.Stats(profiler, stream=sys.stderr).sort_stats("cumulative").print_stats(40)
    page = response.content.decode()
    out["confirmable"] = 'name="confirm"' in page
    problems = page.split('id="problems">', 1)[1].split("</ul>", 1)[0] if 'id="problems"' in page else ""
    out["problems"] = problems.count("<li>")
    out["first_problem"] = problems.split("</li>", 1)[0].removeprefix("\n").strip()[4:200]
    if out["confirmable"]:
        payload = page.split('name="payload" value="', 1)[1].split('"', 1)[0]
        with transaction.atomic():
            cpu, wall = time.process_time(), time.perf_counter()
            saved = client.post(URL, {"payload": payload, "confirm": "1"})
            out["confirm_cpu"] = time.process_time() - cpu
            out["confirm_wall"] = time.perf_counter() - wall
            out["confirm_status"] = saved.status_code
            transaction.set_rollback(True)
    return out


def main() -> None:
    if ARGS.case:
        print(json.dumps(measure(ARGS.case)))
        return
    build()
    print(f"load average {os.getloadavg()[0]:.2f}; budget {BUDGET} s of CPU for a first preview")
    for case in CASES:
        child = subprocess.run(
            [sys.executable, __file__, "--case", case], capture_output=True, text=True, check=True, env=os.environ
        )
        r = json.loads(child.stdout.strip().splitlines()[-1])
        confirm = (
            f"confirm {r['confirm_cpu']:.2f} s CPU, {r['confirm_wall']:.2f} s wall (HTTP {r['confirm_status']})"
            if "confirm_cpu" in r
            else f"not confirmable ({r['problems']} problems, the first: {r['first_problem']})"
        )
        verdict = "within" if r["preview_cpu"] <= BUDGET else "OVER"
        print(
            f"{case:18} {r['bytes']:>9,} bytes: first preview {r['preview_cpu']:.2f} s CPU ({verdict} budget), "
            f"{r['preview_wall']:.2f} s wall (HTTP {r['status']}); {confirm}"
        )
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
