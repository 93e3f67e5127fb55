"""The demo federation: a made-up, realistic federation written to the database and rated by the real engine.

``demo_build`` writes what ``world.world_build`` and ``play.table_games`` invent — players, directors,
tournaments, tables, entries and games — with ``bulk_create`` (large batches, no per-row saves, so a federation
of 20,000 players and half a million games takes minutes, not hours), the tables already *submitted*, then
re-rates the whole history once with ``rerate_from()``: the same path a correction takes in production, so the
rating rows, grades and promotions are exactly what the site computes (``rerate_check`` finds nothing). Rows
written by ``bulk_create`` get no audit history; the demo's facts simply start without one.

Afterwards the grade officer's work is half done: older Dan promotions are approved through
``promotion_approve`` (with the NSR's consent for 5 and 6 Dan), the recent ones stay pending. The latest two
tables stay drafts (the very last one without its last round), so the admin shows work in progress.

Deterministic: the same arguments (seed, sizes and ``until``) give the same federation and the same ratings.
"""

from __future__ import annotations

import datetime as dt
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.db import connection, transaction
from django.db.models import Count
from django.utils import timezone

from ratings.models import (
    FIRST_DAN,
    NSR_CONSENT_FROM,
    Game,
    Player,
    Promotion,
    PromotionStatus,
    Table,
    TableEntry,
    TableStatus,
    Tournament,
    name_search_key,
)
from ratings.roles import GRADE_OFFICERS, RATING_OFFICERS, TOURNAMENT_DIRECTORS, ensure_roles

from .play import table_games
from .world import SimTable, World, default_tables_per_year, world_build

DEMO_PASSWORD = "demo"  # noqa: S105 - the documented password of the local demo logins
DEMO_USERS: tuple[tuple[str, str | None], ...] = (
    ("admin", None),  # superuser
    ("director", TOURNAMENT_DIRECTORS),
    ("officer", RATING_OFFICERS),
    ("grades", GRADE_OFFICERS),
)
GRADE_OFFICER_USERNAME = "grade.officer"  # the (not loggable) officer who decided the demo's older promotions
APPROVAL_DELAY = dt.timedelta(days=60)  # Dan promotions found more recently than this before ``until`` wait
BATCH = 5000
CHUNK_TABLES = 400  # tables whose games are generated and written together (bounds the memory used)

Progress = Callable[[str], None]


@dataclass
class DemoSummary:
    players: int = 0
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
    """The demo logins (password ``demo``): (username, role, created). An existing user is left as it is."""
    ensure_roles(Group, Permission)
    user_model = get_user_model()
    out: list[tuple[str, str, bool]] = []
    for username, role in DEMO_USERS:
        user = user_model.objects.filter(username=username).first()
        created = user is None
        if user is None:
            user = user_model.objects.create_user(
                username=username, password=DEMO_PASSWORD, is_staff=True, is_superuser=role is None
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
    seed: int = 1,
    until: dt.date | None = None,
    director: Any = None,
    progress: Progress | None = None,
) -> DemoSummary:
    """Build and rate the demo federation in an empty database; ``director`` (a user) directs the latest
    tournaments, drafts included. ``until`` (default: today) is the last day of the period.

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
        summary.seconds[name] = round(now - clock, 2)
        clock = now

    ensure_roles(Group, Permission)
    world = world_build(
        players=players,
        years=years,
        tables_per_year=tables_per_year or default_tables_per_year(players),
        seed=seed,
        until=until or timezone.localdate(),
    )
    lap("invent")
    say(f"{len(world.players)} players, {len(world.tables)} tables invented; writing them")
    with transaction.atomic():
        player_ids = _players_write(world, summary)
        users = _directors_write(world)
        table_rows = _tournaments_write(world, users, director, summary)
        _games_write(world, table_rows, player_ids, summary)
    lap("write")
    say(f"{summary.games} games written; rating the whole history")
    outcome = _rerate()
    summary.rating_errors = len(outcome.errors)
    lap("rate")
    _promotions_decide(world)
    lap("promotions")
    for status, count in Promotion.objects.values("status").annotate(n=Count("id")).values_list("status", "n"):
        summary.promotions[status] = count
    summary.seconds["total"] = round(sum(summary.seconds.values()), 2)
    return summary


def _rerate() -> Any:
    from ratings.services.rerate import rerate_from

    return rerate_from()


def _aware(day: dt.date, hour: int) -> dt.datetime:
    moment = timezone.make_aware(dt.datetime.combine(day, dt.time(hour)))
    return min(moment, timezone.now())


def _players_write(world: World, summary: DemoSummary) -> list[int]:
    rows = []
    for p in world.players:
        row = Player(
            federation_id=p.federation_id,
            family_name=p.family_name,
            given_name=p.given_name,
            search_name=name_search_key(f"{p.family_name} {p.given_name}"),
            nationality=p.nationality,
            residence=p.residence,
            is_professional=p.professional,
            date_of_birth=p.date_of_birth,
        )
        if p.prior is not None:
            kind, level, source, note, date = p.prior
            row.prior_grade_kind, row.prior_grade_level, row.prior_grade_source = kind, level, source
            row.prior_grade_note, row.prior_grade_date = note, date
        rows.append(row)
    Player.objects.bulk_create(rows, batch_size=BATCH)
    summary.players = len(rows)
    summary.professionals = sum(p.professional for p in world.players)
    summary.prior_grades = sum(p.prior is not None for p in world.players)
    summary.countries = len({p.nationality for p in world.players})
    return [row.pk for row in rows]


def _directors_write(world: World) -> list[Any]:
    """The directors as users who cannot log in (no password): they only show who ran which tournament."""
    user_model = get_user_model()
    group = Group.objects.get(name=TOURNAMENT_DIRECTORS)
    users = []
    for d in world.directors:
        user, created = user_model.objects.get_or_create(
            username=d.username, defaults={"first_name": d.first_name, "last_name": d.last_name, "is_staff": True}
        )
        if created:
            user.set_unusable_password()
            user.save(update_fields=["password"])
            user.groups.add(group)
        users.append(user)
    return users


def _tournaments_write(world: World, users: list[Any], director: Any, summary: DemoSummary) -> list[Table]:
    rows = [
        Tournament(
            name=t.name,
            city=t.city,
            country=t.country,
            start_date=t.start,
            end_date=t.end,
            time_control=t.time_control,
            created_by=users[t.director],
        )
        for t in world.tournaments
    ]
    Tournament.objects.bulk_create(rows, batch_size=BATCH)
    through = Tournament.directors.through
    links = [
        through(tournament_id=row.pk, user_id=users[t.director].pk)
        for t, row in zip(world.tournaments, rows, strict=True)
    ]
    if director is not None:
        latest = {table.tournament for table in world.tables[-4:]}
        links += [through(tournament_id=rows[i].pk, user_id=director.pk) for i in sorted(latest)]
    through.objects.bulk_create(links, batch_size=BATCH)

    tables = []
    for t in world.tables:
        who = users[world.tournaments[t.tournament].director]
        tables.append(
            Table(
                tournament_id=rows[t.tournament].pk,
                name=t.name,
                date=t.date,
                sequence=t.sequence,
                status=TableStatus.DRAFT if t.draft else TableStatus.SUBMITTED,
                submitted_at=None if t.draft else _aware(t.date + dt.timedelta(days=1), 20),
                submitted_by=None if t.draft else who,
            )
        )
    Table.objects.bulk_create(tables, batch_size=BATCH)
    summary.tournaments = len(rows)
    summary.tables_draft = sum(t.draft for t in world.tables)
    summary.tables_rated = len(tables) - summary.tables_draft
    return tables


def _games_write(world: World, tables: list[Table], player_ids: list[int], summary: DemoSummary) -> None:
    """Entries and games, generated and written a chunk of tables at a time."""
    for start in range(0, len(world.tables), CHUNK_TABLES):
        entries: list[TableEntry] = []
        games: list[Game] = []
        for sim in world.tables[start : start + CHUNK_TABLES]:
            table_id = tables[sim.index].pk
            entries += [
                TableEntry(table_id=table_id, player_id=player_ids[p], seat=seat)
                for seat, p in enumerate(sim.players, 1)
            ]
            games += _games_of(world, sim, table_id, player_ids, summary)
        TableEntry.objects.bulk_create(entries, batch_size=BATCH)
        Game.objects.bulk_create(games, batch_size=BATCH)


def _games_of(world: World, sim: SimTable, table_id: int, player_ids: list[int], summary: DemoSummary) -> list[Game]:
    out = []
    for g in table_games(world, sim):
        out.append(
            Game(
                table_id=table_id,
                round=g.round,
                first_id=player_ids[g.first],
                second_id=None if g.second is None else player_ids[g.second],
                result=g.result,
                handicap=g.handicap,
                handicap_giver=g.giver,
                played=g.played,
                replay_draw=g.replay_draw,
            )
        )
        if g.second is None:
            summary.byes += g.result in ("bye", "half_bye")
            summary.absences += g.result in ("absent", "no_show")
        elif g.played:
            summary.games += 1
            summary.draws += g.result == "draw"
            summary.handicap_games += bool(g.handicap)
            summary.replays += g.replay_draw
    return out


def _promotions_decide(world: World) -> None:
    """Approve most Dan promotions found long enough before ``until``, as a grade officer would have.

    In grade order per player (the service refuses a higher grade while a lower one waits); the first one left
    pending leaves the player's higher ones pending too. 5 and 6 Dan come with the NSR's consent.
    """
    from ratings.services import grades

    approve = getattr(grades, "promotion_approve", None)
    if approve is None:
        return  # no decision service yet: everything stays pending
    officer = _grade_officer()
    rng = random.Random(f"{world.seed}/promotions")
    deadline = world.until - APPROVAL_DELAY
    waiting: set[int] = set()
    pending = (
        Promotion.objects.filter(status=PromotionStatus.PENDING, grade__gte=FIRST_DAN)
        .select_related("table")
        .order_by("player_id", "grade")
    )
    for promotion in pending:
        if promotion.player_id in waiting or promotion.table.date > deadline or rng.random() < 0.15:
            waiting.add(promotion.player_id)
            continue
        consent: dict[str, Any] = {}
        if promotion.grade >= NSR_CONSENT_FROM:
            consent_date = min(world.until, promotion.table.date + dt.timedelta(days=rng.randint(20, 50)))
            reference = f"NSR-{consent_date.year}-{rng.randint(1, 400):03d}"
            consent = {"nsr_consent": True, "nsr_consent_date": consent_date, "nsr_reference": reference}
        approve(promotion=promotion, user=officer, reason="", **consent)


def _grade_officer() -> Any:
    user_model = get_user_model()
    user, created = user_model.objects.get_or_create(
        username=GRADE_OFFICER_USERNAME, defaults={"first_name": "Grade", "last_name": "Officer", "is_staff": True}
    )
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
        user.groups.add(Group.objects.get(name=GRADE_OFFICERS))
    return user
