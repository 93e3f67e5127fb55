"""What a player's page answers beyond his history: his best wins (by the opponent's rating at the time), his
peak rank (on the published lists and today's) and his longest run of months with a rated table. His percentiles
are read with his ranks, from today's stored list (selectors/standing.py)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Case, OuterRef, Q, Subquery, When

from ratings.models import Game, GameResult, ListEntry, Player, RatingRow, Table
from ratings.selectors.lists import PUBLIC_TABLE_STATUSES

BEST_WINS = 5


@dataclass(frozen=True)
class BestWin:
    opponent: Player
    rating: int  # the opponent's rating before the table
    table: Table


def best_wins(player: Player, limit: int = BEST_WINS) -> list[BestWin]:
    """His ``limit`` wins over the highest rated opponents (their rating before the table), the strongest
    first; on a tie the earlier. One query: the database picks them (a long career has hundreds of wins)."""
    won = Q(first=player, result=GameResult.FIRST_WON) | Q(second=player, result=GameResult.SECOND_WON)
    # One row a player and table (rating_row_once_per_table): no order needed.
    opponent_rating = (
        RatingRow.objects.filter(table=OuterRef("table"), player=OuterRef("opponent"))
        .order_by()
        .values("rating_before")[:1]
    )
    games = (
        Game.objects.filter(won, played=True, replay_draw=False, table__status__in=PUBLIC_TABLE_STATUSES)
        .annotate(opponent=Case(When(first=player, then="second"), default="first"))
        .annotate(opponent_rating=Subquery(opponent_rating))
        .filter(opponent_rating__isnull=False)
        .select_related("first", "second", "table__tournament")
        .order_by("-opponent_rating", "table__date", "round", "pk")[:limit]
    )
    wins = []
    for game in games:
        opponent = game.second if game.first_id == player.pk else game.first
        if opponent is not None:  # the opponent's rating row was found: he is there
            wins.append(BestWin(opponent, game.opponent_rating, game.table))
    return wins


@dataclass(frozen=True)
class PeakRank:
    rank: int
    date: dt.date
    official: bool  # on a published official list of ``date``; else today's list


def peak_rank(entries: Iterable[ListEntry], *, today_rank: int | None, today: dt.date) -> PeakRank | None:
    """His best public rank: on the published official lists (the entries the page reads already, each with its
    list) or on today's list (``today_rank``), the earliest on a tie; None if he was never ranked (still rated by
    performance on each). A player who has just climbed has his peak today, not on an older list."""
    ranks = [PeakRank(e.rank, e.stored_list.date, official=True) for e in entries if e.rank is not None]
    if today_rank is not None:
        ranks.append(PeakRank(today_rank, today, official=False))
    return min(ranks, key=lambda peak: (peak.rank, peak.date), default=None)


@dataclass(frozen=True)
class Run:
    months: int
    first: dt.date  # the first day of its first month
    last: dt.date  # the first day of its last month


def longest_run(dates: Iterable[dt.date]) -> Run | None:
    """The most consecutive calendar months in each of which he played a rated table (the latest on a tie)."""
    months = sorted({(d.year, d.month) for d in dates})
    best: Run | None = None
    start = 0
    for i, (year, month) in enumerate(months):
        if i and (year * 12 + month) - (months[i - 1][0] * 12 + months[i - 1][1]) != 1:
            start = i
        length = i - start + 1
        if best is None or length >= best.months:
            best = Run(length, dt.date(*months[start], 1), dt.date(year, month, 1))
    return best
