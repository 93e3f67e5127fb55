"""Benchmark of a correction on a large synthetic federation: its preview, then its save and re-rate (not a test).

    python bench/bench_correction.py --players 5000 --games 120000     # SQLite file under bench/out/
    python bench/bench_correction.py --profile preview                 # cProfile of the preview instead

The federation is bench_rerate.py's (the demo's, built once with bulk inserts and rated; ``--rebuild`` builds
it again), in a database of its own per size: bench/out/bench_correction-<players>-<games>.sqlite3. A rating
officer corrects the result of one game in a table one year back (the latest table at least 365 days before
the latest one; ``--years-back`` sets how many years), as the admin's preview page and its save do:

1. ``correction_preview(change)`` (best of ``--repeat``): the players whose rating, category or grade would
   change, and the promotions, computed by replaying the history in memory (what the officer waits for);
2. ``correction_make``: the correction's own transaction (the table saved, the correction recorded, the
   re-rate requested);
3. ``rerate_pending()``: the re-rate that follows (what the worker does);

then checks that the re-rate stored exactly what the preview showed, and undoes the correction (untimed) so
that the database is left as it was built.

``--merge`` measures a merge instead (``MergeChange``, as the admin's merge page makes it): the newcomer with
the longest history into the player of his country with the most games who never met him; timed are its
preview, save and re-rate, then the undo's preview, save and re-rate. Each re-rate prints its phases and the
promotion audit rows it wrote; ``--check`` runs ``rerate --check`` after each re-rate. ``--merge-years-back N``
merges a shorter career instead: the newcomer whose first table is the first at most N years before the latest
table (and who played at least ``MERGED_GAMES`` games), so that merges of several reaches can be set side by side.

``--full`` also times a full re-rate from scratch (``rerate_from()``) on the same database, after ``VACUUM
ANALYZE`` as every other run here: what each re-rate is divided by for its share of a full one. A merge's re-rate
and its undo's run each after a vacuum too (a merge leaves 10^5 dead rows behind, which the next run would read).
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import os
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=5_000)
    parser.add_argument("--games", type=int, default=120_000)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--rebuild", action="store_true", help="empty the database and build it again")
    parser.add_argument("--profile", choices=["preview", "rerate"], help="cProfile this measurement")
    parser.add_argument("--repeat", type=int, default=3, help="time the preview (it writes nothing) this often")
    parser.add_argument("--check", action="store_true", help="check the database (a full replay) after each re-rate")
    parser.add_argument("--merge", action="store_true", help="measure a merge of a long career instead")
    parser.add_argument("--years-back", type=int, default=1, help="how far back the corrected table is (default 1)")
    parser.add_argument(
        "--merge-years-back",
        type=float,
        help="with --merge: a duplicate whose first table is at most this many years before the latest table "
        "(default: the longest career)",
    )
    parser.add_argument("--full", action="store_true", help="also time a full re-rate, for each re-rate's share of it")
    return parser.parse_args()


ARGS = arguments()
(ROOT / "bench" / "out").mkdir(parents=True, exist_ok=True)
DATABASE = ROOT / "bench" / "out" / f"bench_correction-{ARGS.players}-{ARGS.games}.sqlite3"
os.environ.setdefault("DATABASE_URL", f"sqlite:///{DATABASE}")

# bench_rerate sets up Django (on the DATABASE_URL above) and builds the federation.
from bench_rerate import federation_ready, timed, vacuum  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.db.models import Max, Min  # noqa: E402

from ratings.models import Game, Player, Promotion, Table, TableEntry  # noqa: E402
from ratings.services.corrections.apply import (  # noqa: E402
    correction_make,
    correction_preview,
    correction_undo,
    correction_undo_change,
)
from ratings.services.corrections.facts import TableChange  # noqa: E402
from ratings.services.merge.moves import MergeChange, merge_refusal  # noqa: E402
from ratings.services.rerate import rerate_check, rerate_from, rerate_pending  # noqa: E402
from ratings.services.tables.save import EntryFacts, GameEdit  # noqa: E402
from ratings.services.tables.submit import GameFacts  # noqa: E402

FLIP = {"first": "second", "second": "first"}
MERGED_GAMES = 10  # the least games of a duplicate chosen by --merge-years-back


def result_flipped(table: Table) -> TableChange:
    """The table with the result of its first decided game (round order) reversed, as the change form sends it."""
    games = [GameEdit(facts=GameFacts.of(g), id=g.pk) for g in Game.objects.filter(table=table).order_by("round", "id")]
    chosen = next(i for i, g in enumerate(games) if g.facts.result in FLIP and g.facts.second_id and g.facts.played)
    facts = games[chosen].facts
    games[chosen] = GameEdit(facts=dataclasses.replace(facts, result=FLIP[facts.result]), id=games[chosen].id)
    entries = [EntryFacts(player_id=e.player_id, seat=e.seat) for e in TableEntry.objects.filter(table=table)]
    return TableChange.in_place(table, sorted(entries, key=lambda e: e.seat or 0), games)


def columns() -> dict[int, tuple[int, str, int]]:
    return {pid: (r, c, g) for pid, r, c, g in Player.objects.values_list("pk", "rating", "category", "grade")}


def setup() -> Any:
    federation_ready(players=ARGS.players, games=ARGS.games, seed=ARGS.seed, rebuild=ARGS.rebuild)
    # Untimed, always: a fresh build, or bench_rerate.py's floor run on the same database, leaves every rating
    # row dead once, which a merge's preview and re-rate would read (a preview 13 s instead of 6; a re-rate 12.4 s
    # instead of 10.2); autovacuum would have reclaimed them on a running site.
    vacuum()
    games = Game.objects.filter(second__isnull=False, played=True).count()
    print(f"federation: {Player.objects.count()} players, {Table.objects.count()} tables, {games} rated games")
    officer, _ = User.objects.get_or_create(username="bench-officer", defaults={"is_superuser": True})
    return officer


def measured(change: Any, officer: Any, *, undo_timed: bool, full_s: float | None) -> None:
    """Preview (best of ``--repeat``), save and re-rate ``change``; compare the preview with what the re-rate
    stored; undo it (timed with its preview if ``undo_timed``) so that the database is left as it was built.
    ``full_s``: a full re-rate's seconds on this database, which each re-rate is divided by."""
    before = columns()
    runs = [timed("preview", lambda: correction_preview(change), ARGS.profile == "preview")]
    runs += [timed("preview", lambda: correction_preview(change)) for _ in range(ARGS.repeat - 1)]
    preview_s, preview = min(runs, key=lambda run: run[0])
    print(
        f"1. preview: {preview_s:.2f} s, best of {len(runs)} (all: {', '.join(f'{s:.2f}' for s, _ in runs)}; "
        f"{preview.tables_redone} tables replayed, {len(preview.players)} players and {len(preview.promotions)} "
        "promotions change)"
    )
    save_s, correction = timed(
        "save", lambda: correction_make(user=officer, reason="bench", change=change, expected=None)
    )
    audit = Promotion.history.count()
    if ARGS.merge:
        vacuum()
    rerate_s, outcome = timed("rerate", rerate_pending, ARGS.profile == "rerate")
    phases = ", ".join(f"{k} {v:.2f} s" for k, v in outcome.seconds.items())
    print(f"2. save (the correction's transaction): {save_s:.3f} s")
    print(
        f"3. re-rate that follows: {rerate_s:.2f} s ({outcome.tables_rated} tables redone, "
        f"{outcome.tables_unchanged} left as they were, {outcome.rows_written} rows; {phases}; "
        f"{Promotion.history.count() - audit} promotion audit rows)"
    )
    if full_s:
        print(f"re-rate ÷ full re-rate: {rerate_s / full_s:.2f}")
    after = columns()
    stored = {pid: (before[pid], now) for pid, now in after.items() if before[pid] != now}
    shown = {
        c.player_id: ((c.rating[0], c.category[0], c.grade[0]), (c.rating[1], c.category[1], c.grade[1]))
        for c in preview.players
    }
    print(f"preview equals what the re-rate stored: {'yes' if stored == shown else 'NO'} ({len(stored)} players)")
    print(f"preview ÷ (save + re-rate): {preview_s / (save_s + rerate_s):.2f}")
    if ARGS.check:
        problems: list[Any] = rerate_check()
        print(f"rerate --check after the re-rate: {'clean' if not problems else problems[:3]}")

    undo = correction_undo_change(correction)
    if undo_timed:
        undo_preview_s, _preview = timed("undo preview", lambda: correction_preview(undo))
        print(f"4. undo preview: {undo_preview_s:.2f} s")
    undo_s, _undo = timed(
        "undo", lambda: correction_undo(correction=correction, user=officer, reason="bench: undo", expected=None)
    )
    audit = Promotion.history.count()
    if ARGS.merge:
        vacuum()
    back_s, outcome = timed("rerate", rerate_pending)
    if undo_timed:
        print(
            f"5. undo: {undo_s:.3f} s, its re-rate {back_s:.2f} s ({outcome.tables_rated} tables redone; "
            f"{Promotion.history.count() - audit} promotion audit rows)"
            + (f"; ÷ full re-rate: {back_s / full_s:.2f}" if full_s else "")
        )
    else:
        print("undone (untimed)")
    if ARGS.check:
        problems = rerate_check()
        print(f"rerate --check after the undo: {'clean' if not problems else problems[:3]}")


def merge_pair(since: dt.date | None) -> tuple[Player, Player]:
    """The merge measured: as the duplicate, the newcomer (no FESA opening state) with the longest history, or
    the one whose first table is the first on or after ``since``; into the player of his country with the
    most games who never played in a table with him."""
    first = dict(
        TableEntry.objects.values("player_id").annotate(first=Min("table__date")).values_list("player_id", "first")
    )
    newcomers = Player.objects.filter(
        opening_state__isnull=True, games__gte=50 if since is None else MERGED_GAMES, merged_into__isnull=True
    )
    if since is not None:
        newcomers = [p for p in newcomers if first.get(p.pk, dt.date.min) >= since]
    duplicate = min(newcomers, key=lambda p: (first.get(p.pk, dt.date.max), -p.games, p.pk))
    his = set(TableEntry.objects.filter(player=duplicate).values_list("table_id", flat=True))
    candidates = Player.objects.filter(nationality=duplicate.nationality, merged_into__isnull=True).exclude(
        pk=duplicate.pk
    )
    for kept in candidates.order_by("-games", "pk")[:200]:
        met = TableEntry.objects.filter(player=kept, table_id__in=his).exists()
        if not met and not merge_refusal(duplicate, kept):
            return duplicate, kept
    raise SystemExit("no player to merge him into")


def main() -> None:
    officer = setup()
    full_s = None
    if ARGS.full:
        full_s, outcome = timed("full", rerate_from)
        print(f"full re-rate: {full_s:.2f} s ({outcome.tables_rated} tables, {outcome.rows_written} rows)")
        vacuum()  # every row was written again
    if ARGS.merge:
        since = None
        if ARGS.merge_years_back is not None:
            latest = Table.objects.aggregate(d=Max("date"))["d"]
            since = latest - dt.timedelta(days=round(365.25 * ARGS.merge_years_back))
        duplicate, kept = merge_pair(since)
        years = Table.objects.filter(entries__player=duplicate).aggregate(a=Min("date"), b=Max("date"))
        print(
            f"merged: {duplicate} ({duplicate.games} games, {years['a']} to {years['b']}) into {kept} "
            f"({kept.games} games)"
        )
        measured(MergeChange(duplicate=duplicate, kept=kept), officer, undo_timed=True, full_s=full_s)
        return
    latest = Table.objects.order_by("-date", "-sequence").first()
    assert latest is not None
    back = dt.timedelta(days=365 * ARGS.years_back)
    table = Table.objects.filter(date__lte=latest.date - back).order_by("-date", "-sequence")[0]
    later = Table.objects.filter(date__gt=table.date).count()
    print(f"corrected: {table} of {table.date}, {table.entries.count()} players; {later} tables after it")
    measured(result_flipped(table), officer, undo_timed=False, full_s=full_s)


if __name__ == "__main__":
    main()
