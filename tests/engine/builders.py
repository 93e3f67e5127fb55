"""Small ``make_*`` helpers for engine tests: player states, games and tables in one line each."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence

from ratings.engine import (
    Game,
    Handicap,
    PlayerOutcome,
    PlayerState,
    PriorGrade,
    TableInput,
    rate_table,
)
from ratings.engine.literals import HandicapCode, PriorGradeKind
from ratings.engine.types import ResultPair

DAY = dt.date(2024, 5, 1)


def state_of(**fields: object) -> PlayerState:
    """``PlayerState`` with only the fields given, the rest at their defaults: the target for ``st.builds``,
    which would draw every field of a named tuple itself."""
    return PlayerState(**fields)  # type: ignore[arg-type]


def make_established(
    rating: int,
    *,
    games: int = 50,
    bonus: int = 100,
    grade: int = 0,
    lb_run: int = 0,
    lb_mp_seen: bool = False,
    mp_run: int = 0,
) -> PlayerState:
    """A player rated normally (a game count), by default past his 100 bonus games."""
    return PlayerState(
        rating=rating, result_list=None, game_count=games, bonus_count=bonus, grade=grade, lb_run=lb_run,
        lb_mp_seen=lb_mp_seen, mp_run=mp_run, last_played=DAY - dt.timedelta(days=30),
    )  # fmt: skip


def make_newcomer(prior: tuple[PriorGradeKind, int] | None = None) -> PlayerState:
    return PlayerState(prior_grade=None if prior is None else PriorGrade(*prior))


def make_unrated(rating: int, pairs: Sequence[ResultPair], *, grade: int = 0) -> PlayerState:
    """A player still rated by performance, with his stored result list (in file order)."""
    return PlayerState(rating=rating, result_list=tuple(pairs), grade=grade, last_played=DAY - dt.timedelta(days=30))


def make_game(
    rnd: int, first: str, second: str, score: float, handicap: HandicapCode | None = None, giver: str | None = None
) -> Game:
    return Game(
        round=rnd, first=first, second=second, score=score,
        handicap=None if handicap is None else Handicap(code=handicap, giver=giver or first),
    )  # fmt: skip


def make_table(
    states: Mapping[str, PlayerState],
    games: Sequence[Game],
    *,
    players: Sequence[str] | None = None,
    name: str = "Test table",
    date: dt.date = DAY,
) -> TableInput:
    return TableInput(name=name, date=date, players=list(players or states), states=states, games=games)


def rate(
    states: Mapping[str, PlayerState], games: Sequence[Game], **table_kwargs: object
) -> dict[object, PlayerOutcome]:
    """The outcomes of the table by player key."""
    return rate_table(make_table(states, games, **table_kwargs)).by_key()  # type: ignore[arg-type]
