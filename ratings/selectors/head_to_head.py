"""Two players' games against each other: the score, each game with its table and date, and the expected score
from their ratings at the time (the explanation's own expectation for a game rated normally: the running rating
against the opponent's rating the rules use, after the table and adjusted for a handicap; else the two ratings
before the table)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db.models import Q

from ratings.engine.expectation import expected_score
from ratings.engine.scores import first_score
from ratings.models import Game, Player, RatingRow, Table
from ratings.selectors.lists import PUBLIC_TABLE_STATUSES


@dataclass(frozen=True)
class Meeting:
    """One game between ``a`` and ``b``, from ``a``'s side."""

    table: Table
    date: dt.date
    round: int
    score: float | None  # None: not played (a forfeit), not rated
    handicap: str
    rating_a: int | None  # before the table
    rating_b: int | None
    expected: float | None


@dataclass(frozen=True)
class HeadToHead:
    a: Player
    b: Player
    games: list[Meeting]

    @property
    def rated(self) -> list[Meeting]:
        return [g for g in self.games if g.score is not None]

    @property
    def score_a(self) -> float:
        return sum(g.score or 0.0 for g in self.rated)

    @property
    def score_b(self) -> float:
        return len(self.rated) - self.score_a

    @property
    def expected_a(self) -> float | None:
        expected = [g.expected for g in self.rated if g.expected is not None]
        return sum(expected) if expected else None

    @property
    def wins(self) -> int:
        return sum(1 for g in self.rated if g.score == 1.0)

    @property
    def draws(self) -> int:
        return sum(1 for g in self.rated if g.score == 0.5)

    @property
    def losses(self) -> int:
        return sum(1 for g in self.rated if g.score == 0.0)


def head_to_head(a: Player, b: Player) -> HeadToHead:
    """Every game of the public tables between ``a`` and ``b``, oldest first. Two queries."""
    games = list(
        Game.objects.filter(Q(first=a, second=b) | Q(first=b, second=a), table__status__in=PUBLIC_TABLE_STATUSES)
        .select_related("table__tournament")
        .order_by("table__date", "table__sequence", "round", "pk")
    )
    rows = {
        (row.player_id, row.table_id): row
        for row in RatingRow.objects.filter(player__in=[a, b], table__in={g.table_id for g in games}).only(
            "player_id", "table_id", "rating_before", "detail"
        )
    }
    meetings = []
    for game in games:
        a_first = game.first_id == a.pk
        row_a, row_b = rows.get((a.pk, game.table_id)), rows.get((b.pk, game.table_id))
        score = None
        if game.played:
            first = first_score(game.result, replay_draw=game.replay_draw)
            score = first if a_first else 1.0 - first
        meetings.append(
            Meeting(
                table=game.table,
                date=game.table.date,
                round=game.round,
                score=score,
                handicap=game.handicap,
                rating_a=row_a.rating_before if row_a else None,
                rating_b=row_b.rating_before if row_b else None,
                expected=_expected(game, b.pk, row_a, row_b) if score is not None else None,
            )
        )
    return HeadToHead(a, b, meetings)


def _expected(game: Game, b_id: int, row_a: RatingRow | None, row_b: RatingRow | None) -> float | None:
    if row_a is not None:
        for detail in row_a.detail:
            if (
                detail.get("round") == game.round
                and detail.get("opponent") == b_id
                and detail.get("expected") is not None
            ):
                return float(detail["expected"])
    if row_a is None or row_b is None or min(row_a.rating_before, row_b.rating_before) <= 0:
        return None  # a newcomer before his first table has no rating to expect a score from
    return expected_score(row_a.rating_before, row_b.rating_before)


@dataclass(frozen=True)
class Opponent:
    """A player met, with the score between them: ``points`` the player's, ``against`` the opponent's."""

    player: Player
    games: int
    points: float
    against: float


def opponents_of(player: Player) -> list[Opponent]:
    """The players ``player`` met in a public table, by name, each with the score of their games played: the way
    to each head-to-head. Two queries."""
    scores: dict[int, list[float]] = {}
    played = Game.objects.filter(Q(first=player) | Q(second=player), second__isnull=False, played=True).filter(
        table__status__in=PUBLIC_TABLE_STATUSES
    )
    for first_id, second_id, result, replay_draw in played.values_list(
        "first_id", "second_id", "result", "replay_draw"
    ):
        first = first_score(result, replay_draw=replay_draw)
        other, mine = (second_id, first) if first_id == player.pk else (first_id, 1.0 - first)
        scores.setdefault(other, []).append(mine)
    met = Player.objects.filter(pk__in=scores, merged_into__isnull=True).order_by("search_name", "pk")
    return [Opponent(p, len(scores[p.pk]), sum(scores[p.pk]), len(scores[p.pk]) - sum(scores[p.pk])) for p in met]
