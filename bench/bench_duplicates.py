"""Benchmark of duplicate detection and of merging, with the database (not a test).

    python bench/bench_duplicates.py                 # both parts, SQLite files under bench/out/
    python bench/bench_duplicates.py --detect 20000  # detection only, on that many players
    python bench/bench_duplicates.py --merge 3000    # merge only, on a demo federation of that many players

1. Detection: ``--detect`` players with the demo's names (ratings/demo/names.py, so many namesakes) are
   written with bulk inserts; timed are one name checked as the add form and the upload check it
   (``duplicates_of``) and the staff report of the whole federation (``duplicate_pairs``).
2. Merge: the demo federation (``demo_build``) of ``--merge`` players over ``--years`` years, rated; two
   players of one country who never met are merged. Timed: the preview, the merge (one transaction) and the
   re-rate it asks for, then the same for its undo; ``rerate_check`` must come back clean after each.
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import time

from benchenv import OUT, django_setup

ARGS = argparse.ArgumentParser(description=__doc__.splitlines()[0])
ARGS.add_argument("--detect", type=int, default=20000)
ARGS.add_argument("--merge", type=int, default=3000)
ARGS.add_argument("--years", type=int, default=8)
ARGS.add_argument("--only", choices=["detect", "merge"])
OPTIONS = ARGS.parse_args()
DB = OUT / f"bench_duplicates_{OPTIONS.only or 'all'}.sqlite3"
if DB.exists():
    DB.unlink()
django_setup(DB)

from django.core.management import call_command  # noqa: E402

from federation.celery import app as celery_app  # noqa: E402
from ratings.demo.build import demo_build, demo_flush  # noqa: E402
from ratings.demo.names import COUNTRIES  # noqa: E402
from ratings.demo.sim import Knobs  # noqa: E402
from ratings.models import Player, TableEntry, new_federation_id, player_search_key  # noqa: E402
from ratings.selectors.duplicates import duplicate_pairs, duplicates_of  # noqa: E402
from ratings.services.corrections.apply import correction_preview, correction_undo, correction_undo_change  # noqa: E402
from ratings.services.merge.apply import merge_refusal, player_merge, player_merge_preview  # noqa: E402
from ratings.services.rerate import rerate_check, rerate_pending  # noqa: E402
from tests.factories import make_rating_officer  # noqa: E402


def timed(label: str, fn):  # type: ignore[no-untyped-def]
    started, cpu = time.perf_counter(), time.process_time()
    result = fn()
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    print(f"{label}: {wall:.3f} s, CPU {cpu:.3f} s", flush=True)
    return result


def detect(count: int) -> None:
    rng = random.Random(1)
    players = []
    for _ in range(count):
        country = rng.choice(COUNTRIES)
        family, given = rng.choice(country.family), rng.choice(country.male)
        players.append(
            Player(
                family_name=family,
                given_name=given,
                nationality=country.code,
                federation_id=new_federation_id(),
                search_name=player_search_key(family, given),
            )
        )
    Player.objects.bulk_create(players, batch_size=2000)
    print(f"{Player.objects.count()} players")
    found = timed("one name checked (add form, upload)", lambda: duplicates_of("Martin", "Jean", "FR"))
    print(f"  {len(found)} candidates")
    found = timed("one name checked, country unknown", lambda: duplicates_of("Martin", "Jean", ""))
    print(f"  {len(found)} candidates")
    pairs = timed("staff report, whole federation", duplicate_pairs)
    print(f"  {len(pairs)} pairs")


def merge(count: int, years: int) -> None:
    demo_flush()
    s = demo_build(players=count, years=years, seed=1, until=dt.date(2024, 12, 31), knobs=Knobs(drafts=0))
    print(f"built {s.players} players, {s.tables_rated} tables, {s.games} games")
    # Tasks go to an in-memory broker nobody reads: the re-rate is called and timed on its own.
    celery_app.conf.update(task_always_eager=False, broker_url="memory://")
    officer = make_rating_officer()
    duplicate, kept = _two_who_never_met()
    print(f"merging {duplicate} ({duplicate.games} games) into {kept} ({kept.games} games)")
    preview = timed("merge preview", lambda: player_merge_preview(duplicate=duplicate, kept=kept))
    print(f"  {len(preview.players)} players change, {preview.tables_redone} tables replayed")
    correction = timed(
        "merge (one transaction)",
        lambda: player_merge(user=officer, duplicate=duplicate, kept=kept, reason="bench", expected=None),
    )
    timed("re-rate after the merge", rerate_pending)
    assert rerate_check() == [], "the database is not what the history gives after the merge"
    undo = correction_undo_change(correction)
    timed("undo preview", lambda: correction_preview(undo))
    timed(
        "undo (one transaction)",
        lambda: correction_undo(correction=correction, user=officer, reason="bench", expected=None),
    )
    timed("re-rate after the undo", rerate_pending)
    assert rerate_check() == [], "the database is not what the history gives after the undo"
    print("rerate_check clean after the merge and after the undo")


def _two_who_never_met() -> tuple[Player, Player]:
    """A newcomer (no FESA opening state) and a player of his country with more games who never met him."""
    base = Player.objects.filter(is_professional=False, games__gte=10).order_by("-games")
    newcomers = list(base.filter(opening_state__isnull=True)[:300])
    players = list(base[:300])
    tables = {
        p.pk: set(TableEntry.objects.filter(player=p).values_list("table_id", flat=True)) for p in newcomers + players
    }
    for b in newcomers:
        for a in players:
            met = tables[a.pk] & tables[b.pk]
            if a.pk != b.pk and a.nationality == b.nationality and not met and not merge_refusal(b, a):
                return b, a
    raise SystemExit("no two players who never met")


if __name__ == "__main__":
    call_command("migrate", verbosity=0)
    if OPTIONS.only in (None, "detect"):
        detect(OPTIONS.detect)
    if OPTIONS.only in (None, "merge"):
        Player.objects.all().delete() if OPTIONS.only is None else None
        merge(OPTIONS.merge, OPTIONS.years)
