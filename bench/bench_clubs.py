"""Benchmark of the club and category filters and of the pages of clubs, categories and a player's statistics,
on a demo federation already in the database (not a test).

    DATABASE_URL=postgres://... python manage.py seed_demo --players 5000 --years 4   # once; then ANALYZE
    DATABASE_URL=postgres://... python bench/bench_clubs.py

Timed (median of five): the first 50 rows of a list in list order from the list's SQL (ratings/selectors/
list_values.py) unfiltered and with ``club_members_q`` (today and two years ago) or ``category_q`` (U20, the
women's list), the filter's count, ``clubs_on`` for a page of 50, the club ranking built without the cache, a club's
page, the top lists per category, a busy player's best wins and percentiles; then the plan of the club filter.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "federation.settings")
os.environ.setdefault("DEBUG", "1")
os.environ.setdefault("PAGE_CACHE", "0")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.db.models import Count, Q  # noqa: E402
from django.utils import timezone  # noqa: E402

from ratings.models import Club, Player  # noqa: E402
from ratings.selectors.categories import category_q, top_per_category  # noqa: E402
from ratings.selectors.clubs import club_members_q, club_page, club_ranking, clubs_on  # noqa: E402
from ratings.selectors.list_values import list_values  # noqa: E402
from ratings.selectors.lists import LIST_ORDER  # noqa: E402
from ratings.selectors.player_stats import best_wins, percentiles  # noqa: E402


def timed(name: str, run: Callable[[], Any], times: int = 5) -> None:
    spent = []
    for _ in range(times):
        start = time.perf_counter()
        run()
        spent.append((time.perf_counter() - start) * 1000)
    print(f"{name}: median {statistics.median(spent):.1f} ms")


def main() -> None:
    today = timezone.localdate()
    club = Club.objects.annotate(n=Count("memberships")).order_by("-n").first()
    if club is None:
        sys.exit("no club: build the demo first (manage.py seed_demo)")
    print(f"{Player.objects.count()} players; the largest club, {club.name}, {club.n} memberships")  # type: ignore[attr-defined]

    def page(condition: Q) -> list[int]:
        return list(list_values(today).filter(condition).order_by(*LIST_ORDER).values_list("pk", flat=True)[:50])

    timed("list, first 50, unfiltered", lambda: page(Q()))
    timed("list, first 50, club", lambda: page(club_members_q(club.pk, today)))
    timed(
        "list, first 50, club two years ago", lambda: page(club_members_q(club.pk, today.replace(year=today.year - 2)))
    )
    timed("list, first 50, U20", lambda: page(category_q("U20", today)))
    timed("list, first 50, women", lambda: page(category_q("W", today)))
    timed("club filter's count", lambda: list_values(today).filter(club_members_q(club.pk, today)).count())
    top = list(Player.objects.order_by("-rating").values_list("pk", flat=True)[:50])
    timed("clubs_on, 50 players", lambda: clubs_on(top, today))
    timed("club ranking, not cached", lambda: club_ranking(None))
    timed("club page", lambda: club_page(club.pk))
    timed("top lists per category", top_per_category)
    busy = Player.objects.order_by("-games").first()
    assert busy is not None
    timed("best wins of the busiest player", lambda: best_wins(busy))
    timed("percentiles", lambda: percentiles(busy))
    query = list_values(today).filter(club_members_q(club.pk, today)).order_by(*LIST_ORDER)[:50]
    sql, params = query.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN {sql}", params)
        print("\n".join(str(row[0]) for row in cursor.fetchall()))


if __name__ == "__main__":
    main()
