"""Writing the invented federation to the database, fast: ``bulk_create`` for the thousands of players,
tournaments and tables; for the hundreds of thousands of entries and games, plain rows (integers, strings and
booleans, so nothing needs the ORM's conversions) through COPY on PostgreSQL and executemany on SQLite, each
several times faster than ``bulk_create`` (which Django holds to 999 parameters a statement on SQLite). None
of it writes audit history: the demo's facts start without one.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.utils import timezone

from ratings.access import GRADE_OFFICERS, TOURNAMENT_DIRECTORS
from ratings.db import rows_delete, rows_insert
from ratings.engine.grades import FIRST_DAN, NSR_CONSENT_FROM
from ratings.models import (
    Game,
    OpeningState,
    Player,
    Promotion,
    PromotionStatus,
    Table,
    TableEntry,
    TableStatus,
    Tournament,
    player_search_key,
)
from ratings.models.states import state_to_json
from ratings.services.grades.promotions import promotion_approve

from .play import table_games
from .sim import SimTable, World

BATCH = 5000
CHUNK_TABLES = 500  # tables whose games are generated and written together (bounds the memory used)
GAME_COLUMNS = ("table", "round", "first", "second", "result", "handicap", "handicap_giver", "played", "replay_draw")
OPENING_SOURCE = "the FESA rating list the site started from"
GRADE_OFFICER_USERNAME = "grade.officer"  # the (not loggable) officer who decided the demo's older promotions
APPROVAL_DELAY = dt.timedelta(days=240)  # Dan promotions found more recently than this before ``until`` wait
MAX_APPROVALS = 400  # each approval refreshes its player: a large demo keeps the rest in the officers' queue


def players_write(world: World) -> list[int]:
    """The players and the opening states of those already listed; their ids in the world's order."""
    rows = []
    for p in world.players:
        row = Player(
            federation_id=p.federation_id,
            family_name=p.family_name,
            given_name=p.given_name,
            search_name=player_search_key(p.family_name, p.given_name),
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
    ids = [row.pk for row in rows]
    OpeningState.objects.bulk_create(
        (
            OpeningState(player_id=ids[p.index], state=state_to_json(p.opening), source=OPENING_SOURCE)
            for p in world.players
            if p.opening is not None
        ),
        batch_size=BATCH,
    )
    return ids


def directors_write(world: World) -> list[Any]:
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


def _aware(day: dt.date, hour: int) -> dt.datetime:
    moment = timezone.make_aware(dt.datetime.combine(day, dt.time(hour)))
    return min(moment, timezone.now())


def tournaments_write(world: World, users: list[Any], director: Any) -> list[Table]:
    """Tournaments with their directors (``director`` too for the latest ones), and their tables."""
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
    links = [(row.pk, users[t.director].pk) for t, row in zip(world.tournaments, rows, strict=True)]
    if director is not None:
        latest = {table.tournament for table in world.tables[-4:]}
        links += [(rows[i].pk, director.pk) for i in sorted(latest)]
    rows_insert(through, ("tournament", "user"), links)

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
    return tables


def games_write(world: World, tables: list[Table], player_ids: list[int]) -> None:
    """Entries and games, generated and written a chunk of tables at a time."""
    for start in range(0, len(world.tables), CHUNK_TABLES):
        entries: list[tuple[int, int, int]] = []
        games: list[tuple[Any, ...]] = []
        for sim in world.tables[start : start + CHUNK_TABLES]:
            table_id = tables[sim.index].pk
            entries += [(table_id, player_ids[p], seat) for seat, p in enumerate(sim.players, 1)]
            games += game_rows(world, sim, table_id, player_ids)
        rows_insert(TableEntry, ("table", "player", "seat"), entries)
        rows_insert(Game, GAME_COLUMNS, games)


def game_rows(
    world: World, sim: SimTable, table_id: int, player_ids: list[int], *, attempt: int = 0
) -> list[tuple[Any, ...]]:
    """The table's games as rows in the order of GAME_COLUMNS."""
    return [
        (
            table_id,
            g.round,
            player_ids[g.first],
            None if g.second is None else player_ids[g.second],
            g.result,
            g.handicap,
            g.giver,
            g.played,
            g.replay_draw,
        )
        for g in table_games(world, sim, attempt=attempt)
    ]


def games_replace(world: World, sim: SimTable, table_id: int, player_ids: list[int], attempt: int) -> None:
    """Play a table again (another random stream) and put its new games in place of the old ones."""
    rows_delete(Game, "table", [table_id])
    rows_insert(Game, GAME_COLUMNS, game_rows(world, sim, table_id, player_ids, attempt=attempt))


def promotions_decide(world: World) -> None:
    """Approve most Dan promotions found long enough before ``until``, as a grade officer would have.

    In grade order per player (the service refuses a higher grade while a lower one waits); the first one left
    pending leaves the player's higher ones pending too. 5 and 6 Dan come with the NSR's consent. At most
    MAX_APPROVALS: each goes through the grades service, which refreshes the player.
    """
    officer = _grade_officer()
    rng = random.Random(f"{world.seed}/promotions")
    deadline = world.until - APPROVAL_DELAY
    waiting: set[int] = set()
    approved = 0
    pending = (
        Promotion.objects.filter(status=PromotionStatus.PENDING, grade__gte=FIRST_DAN)
        .select_related("table")
        .order_by("table__date", "player_id", "grade")
    )
    for promotion in pending:
        if approved >= MAX_APPROVALS:
            break
        if (
            promotion.table is None
            or promotion.player_id in waiting
            or promotion.table.date > deadline
            or rng.random() < 0.25
        ):
            waiting.add(promotion.player_id)
            continue
        consent: dict[str, Any] = {}
        if promotion.grade >= NSR_CONSENT_FROM:
            consent_date = min(world.until, promotion.table.date + dt.timedelta(days=rng.randint(20, 50)))
            reference = f"NSR-{consent_date.year}-{rng.randint(1, 400):03d}"
            consent = {"nsr_consent": True, "nsr_consent_date": consent_date, "nsr_reference": reference}
        promotion_approve(promotion=promotion, user=officer, reason="", expected=None, **consent)
        approved += 1


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
