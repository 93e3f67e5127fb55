"""Small ``make_*`` helpers that build federation data for tests (no mocks: real rows, real services)."""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import Sequence

from django.contrib.auth.models import Group, User

from ratings import engine
from ratings.access import GRADE_OFFICERS, RATING_OFFICERS, TOURNAMENT_DIRECTORS
from ratings.models import (
    Game,
    GameResult,
    OpeningState,
    Player,
    Promotion,
    PromotionRoute,
    PromotionStatus,
    Table,
    TableEntry,
    TableStatus,
    Tournament,
)
from ratings.models.states import state_to_json
from ratings.services.players import players_refresh

_counter = itertools.count(1)


def make_user(role: str | None = None, *, username: str | None = None, superuser: bool = False) -> User:
    """A staff user in ``role`` (one of ratings.access' group names), or a plain user for None."""
    name = username or f"user{next(_counter)}"
    user = User.objects.create_user(
        username=name, password="pw", is_staff=role is not None or superuser, is_superuser=superuser
    )
    if role is not None:
        user.groups.add(Group.objects.get(name=role))
    return user


def make_director(**kwargs: object) -> User:
    return make_user(TOURNAMENT_DIRECTORS, **kwargs)  # type: ignore[arg-type]


def make_rating_officer(**kwargs: object) -> User:
    return make_user(RATING_OFFICERS, **kwargs)  # type: ignore[arg-type]


def make_grade_officer(**kwargs: object) -> User:
    return make_user(GRADE_OFFICERS, **kwargs)  # type: ignore[arg-type]


def make_player(
    family_name: str | None = None,
    given_name: str = "",
    *,
    nationality: str = "FR",
    prior: tuple[str, int] | None = None,
    **fields: object,
) -> Player:
    """A player; ``prior=("dan", 1)`` gives him a prior grade of 1 Dan."""
    player = Player(
        family_name=family_name or f"Player{next(_counter)}",
        given_name=given_name,
        nationality=nationality,
        **fields,
    )
    if prior is not None:
        player.prior_grade_kind, player.prior_grade_level = prior
        player.prior_grade_source = "national"
    player.save()
    return player


def with_opening_state(player: Player, state: engine.PlayerState) -> Player:
    """``player`` given ``state`` as his opening state (as if migrated from FESA), his columns read from it."""
    OpeningState.objects.create(player=player, state=state_to_json(state), source="test")
    players_refresh([player.pk])
    player.refresh_from_db()
    return player


def make_tournament(
    name: str | None = None,
    *,
    date: dt.date = dt.date(2024, 5, 12),
    until: dt.date | None = None,
    directors: Sequence[User] = (),
) -> Tournament:
    """A tournament from ``date`` to ``until`` (None: a one-day tournament)."""
    tournament = Tournament.objects.create(
        name=name or f"Tournament {next(_counter)}",
        city="Paris",
        country="FR",
        start_date=date,
        end_date=until or date,
    )
    tournament.directors.set(directors)
    return tournament


def make_table(
    players: Sequence[Player],
    *,
    tournament: Tournament | None = None,
    date: dt.date = dt.date(2024, 5, 12),
    sequence: int = 1,
    status: str = TableStatus.DRAFT,
) -> Table:
    """A table with the players entered in the given order (seats 1, 2, ...), no games yet. A ``tournament``
    whose dates do not hold ``date`` is widened to hold it, as a table's date must lie within them."""
    tournament = tournament or make_tournament(date=date)
    if not tournament.start_date <= date <= tournament.end_date:
        tournament.start_date, tournament.end_date = min(tournament.start_date, date), max(tournament.end_date, date)
        tournament.save(update_fields=["start_date", "end_date"])
    table = Table.objects.create(tournament=tournament, date=date, sequence=sequence, status=status)
    TableEntry.objects.bulk_create(TableEntry(table=table, player=p, seat=i) for i, p in enumerate(players, 1))
    return table


def add_game(
    table: Table,
    round: int,
    first: Player,
    second: Player | None,
    result: str = GameResult.FIRST_WON,
    *,
    handicap: str = "",
    giver: str = "",
    played: bool = True,
    replay_draw: bool = False,
) -> Game:
    return Game.objects.create(
        table=table,
        round=round,
        first=first,
        second=second,
        result=result,
        handicap=handicap,
        handicap_giver=giver,
        played=played,
        replay_draw=replay_draw,
    )


def round_robin(table: Table, players: Sequence[Player], *, winner_first: bool = True) -> None:
    """Every pair plays once; the earlier-seated player wins (or loses), one round per pair."""
    for r, (a, b) in enumerate(itertools.combinations(players, 2), 1):
        add_game(table, r, a, b, GameResult.FIRST_WON if winner_first else GameResult.SECOND_WON)


def make_pending_promotion(player: Player, table: Table, *, grade: int = 21, rating: float = 1860) -> Promotion:
    """A Dan promotion found in ``table``, waiting for a grade officer (made directly: no rating behind it)."""
    return Promotion.objects.create(
        player=player,
        grade=grade,
        table=table,
        route=PromotionRoute.UPPER_BOUND,
        status=PromotionStatus.PENDING,
        game_number=1,
        rating=rating,
    )
