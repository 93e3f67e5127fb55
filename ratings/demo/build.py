"""The demo federation: a made-up, realistic federation written to the database and rated by the real engine.

``demo_build`` writes what ``world.world_build`` and ``play.table_games`` invent — players, directors,
tournaments, tables, entries and games — with ``bulk_create`` (large batches, no per-row saves, so a federation
of 20,000 players and half a million games takes minutes, not hours), the tables already *submitted*, then
re-rates the whole history once with ``rerate_from()``: the same path a correction takes in production, so the
rating rows, grades and promotions are exactly what the site computes (``rerate_check`` finds nothing). The
facts go in by bulk inserts rather than through the table services (one table at a time, with validation and
audit history), which would take hours for the benchmarks' half a million games; every result the site
derives is recorded by its services. Rows written in bulk get no audit history; the demo's facts simply start
without one.

The site starts from an opening FESA list (``OpeningState``) of the players who played before; newcomers join
during the period. Afterwards the grade officer's work is half done: older Dan promotions are approved through
``promotion_approve`` (with the NSR's consent for 5 and 6 Dan), the recent ones stay pending (all of them with
``Knobs(dan_approvals=False)``). The latest two tables stay drafts (the very last one without its last round),
so the admin shows work in progress.

Deterministic: the same arguments (seed, sizes and ``until``) give the same federation and the same ratings.
"""

from __future__ import annotations

import datetime as dt
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.db import connection, transaction
from django.db.models import Count
from django.utils import timezone

from ratings.access import GRADE_OFFICERS, RATING_OFFICERS, TOURNAMENT_DIRECTORS, ensure_roles
from ratings.models import Game, GameResult, Player, Promotion, Table, TableStatus, Tournament
from ratings.services.rerate import RerateOutcome, rerate_from

from . import write
from .sim import Knobs, World
from .world import world_build

DEMO_PASSWORD = "demo"  # noqa: S105 - the documented password of the local demo logins
DEMO_USERS: tuple[tuple[str, str | None], ...] = (
    ("admin", None),  # superuser
    ("director", TOURNAMENT_DIRECTORS),
    ("officer", RATING_OFFICERS),
    ("grades", GRADE_OFFICERS),
)
MAX_REPAIRS = 5  # rounds of replaying tables that did not settle

Progress = Callable[[str], None]


@dataclass
class DemoSummary:
    players: int = 0
    listed: int = 0  # on the opening list the site started from
    professionals: int = 0
    prior_grades: int = 0
    countries: int = 0
    tournaments: int = 0
    tables_rated: int = 0
    tables_draft: int = 0
    games: int = 0  # rated games: played pairings
    draws: int = 0
    handicap_games: int = 0
    replays: int = 0
    byes: int = 0
    absences: int = 0  # absences and no-shows
    promotions: Counter[str] = field(default_factory=Counter)  # by status
    rating_errors: int = 0
    tables_replayed: int = 0  # played again because they did not settle (their games differ from the world's)
    seconds: dict[str, float] = field(default_factory=dict)


def federation_is_empty() -> bool:
    """True when the database holds no player, tournament or table."""
    return not (Player.objects.exists() or Tournament.objects.exists() or Table.objects.exists())


def demo_flush() -> None:
    """Delete every row of the ratings app (facts, derived rows, audit history); users stay.

    Plain ``DELETE`` statements: the ORM's delete would load every row to send signals (the audit history
    listens to them). The foreign keys are deferred to the commit, so the order does not matter.
    """
    tables: list[str] = []
    for model in apps.get_app_config("ratings").get_models(include_auto_created=True):
        if not model._meta.proxy and model._meta.managed and model._meta.db_table not in tables:
            tables.append(model._meta.db_table)
    with transaction.atomic(), connection.cursor() as cursor:
        for table in tables:
            cursor.execute(f"DELETE FROM {connection.ops.quote_name(table)}")  # noqa: S608 - our own table names


def demo_users_ensure() -> list[tuple[str, str, bool]]:
    """The demo logins (password ``demo``), each with an address at example.org so that the messages the site
    sends them show in the outbox: (username, role, created). An existing user is left as it is."""
    ensure_roles(Group, Permission)
    user_model = get_user_model()
    out: list[tuple[str, str, bool]] = []
    for username, role in DEMO_USERS:
        user = user_model.objects.filter(username=username).first()
        created = user is None
        if user is None:
            user = user_model.objects.create_user(
                username=username,
                email=f"{username}@example.org",
                password=DEMO_PASSWORD,
                is_staff=True,
                is_superuser=role is None,
            )
            if role is not None:
                user.groups.add(Group.objects.get(name=role))
        out.append((username, role or "superuser", created))
    return out


def demo_build(
    *,
    players: int = 400,
    years: int = 4,
    tables_per_year: int | None = None,
    games: int | None = None,
    seed: int = 1,
    until: dt.date | None = None,
    knobs: Knobs = Knobs(),  # noqa: B008 - frozen, so one shared default is safe
    director: Any = None,
    progress: Progress | None = None,
) -> DemoSummary:
    """Build and rate the demo federation in an empty database; ``director`` (a user) directs the latest
    tournaments, drafts included. ``until`` (default: today) is the last day of the period; ``tables_per_year``,
    ``games`` and ``knobs`` as ``world.world_build`` takes them.

    A table that does not settle (docs/rules.md §6: rare, when a rounded value flips back and forth) is played again
    with other results and the history re-rated from it, so that every submitted table ends up rated.
    Raises ValueError on a database that is not empty (``demo_flush`` first) or on sizes that make no sense.
    """
    if players < 12 or years < 1:
        raise ValueError("the demo needs at least 12 players and one year")
    if not federation_is_empty():
        raise ValueError("the federation is not empty")
    say = progress or (lambda _message: None)
    summary = DemoSummary()
    clock = time.perf_counter()

    def lap(name: str) -> None:
        nonlocal clock
        now = time.perf_counter()
        summary.seconds[name] = round(now - clock, 2) + summary.seconds.get(name, 0.0)
        clock = now

    ensure_roles(Group, Permission)
    world = world_build(
        players=players,
        years=years,
        tables_per_year=tables_per_year,
        games=games,
        seed=seed,
        until=until or timezone.localdate(),
        knobs=knobs,
    )
    lap("invent")
    say(f"{len(world.players)} players and {len(world.tables)} tables invented; writing them")
    with transaction.atomic():
        player_ids = write.players_write(world)
        users = write.directors_write(world)
        tables = write.tournaments_write(world, users, director)
        write.games_write(world, tables, player_ids)
    lap("write")
    say("rating the whole history")
    outcome = _rerate(None)
    lap("rate")
    for attempt in range(1, MAX_REPAIRS + 1):
        if not outcome.errors:
            break
        say(f"{len(outcome.errors)} tables did not settle; playing them again and re-rating from the first")
        summary.tables_replayed += len(outcome.errors)
        outcome = tables_replay(world=world, table_ids=list(outcome.errors), attempt=attempt)
        lap("rate")
    summary.rating_errors = len(outcome.errors)
    if knobs.dan_approvals:
        write.promotions_decide(world)
    lap("promotions")
    _summarize(summary)
    summary.seconds["total"] = round(sum(summary.seconds.values()), 2)
    return summary


def tables_replay(*, world: World, table_ids: Sequence[int], attempt: int) -> RerateOutcome:
    """Play the demo's tables ``table_ids`` again (the ``attempt``-th other random stream) and re-rate the
    history from the earliest of them; the re-rate's outcome."""
    sims = {(t.date, t.sequence): t for t in world.tables}
    ids = dict(Player.objects.values_list("federation_id", "pk"))
    player_ids = [ids[p.federation_id] for p in world.players]
    tables = sorted(Table.objects.filter(pk__in=table_ids), key=lambda t: (t.date, t.sequence))
    with transaction.atomic():
        for table in tables:
            write.games_replace(world, sims[(table.date, table.sequence)], table.pk, player_ids, attempt)
    return _rerate(tables[0])


def _rerate(start: Table | None) -> RerateOutcome:
    if start is None:
        return rerate_from(date=None)
    return rerate_from(date=start.date, sequence=start.sequence)


def _summarize(summary: DemoSummary) -> None:
    """Count what was built, from the database (replayed tables included)."""
    summary.players = Player.objects.count()
    summary.professionals = Player.objects.filter(is_professional=True).count()
    summary.prior_grades = Player.objects.exclude(prior_grade_kind="").count()
    summary.listed = Player.objects.filter(opening_state__isnull=False).count()
    summary.countries = Player.objects.values("nationality").distinct().count()
    summary.tournaments = Tournament.objects.count()
    summary.tables_draft = Table.objects.filter(status=TableStatus.DRAFT).count()
    summary.tables_rated = Table.objects.filter(status=TableStatus.RATED).count()
    rated = Game.objects.filter(second__isnull=False, played=True)
    summary.games = rated.count()
    summary.draws = rated.filter(result=GameResult.DRAW).count()
    summary.handicap_games = rated.exclude(handicap="").count()
    summary.replays = rated.filter(replay_draw=True).count()
    summary.byes = Game.objects.filter(result__in=[GameResult.BYE, GameResult.HALF_BYE]).count()
    summary.absences = Game.objects.filter(result__in=[GameResult.ABSENT, GameResult.NO_SHOW]).count()
    for status, count in Promotion.objects.values("status").annotate(n=Count("id")).values_list("status", "n"):
        summary.promotions[status] = count
