"""Reads for the comparison of rating systems: the rated history as the engine's comparison walks it
(ratings/engine/systems/compare.py), FESA's own predictions from the ratings the site stored, and the stored
reports.

FESA's prediction of a game is the Elo expectation of the two players' stored ratings before the table
(``RatingRow.rating_before``), the handicap giver's rating shifted by his handicap as the rules shift it
(docs/rules.md §3, ``handicap_shift``): the same figure a player's rating change starts from, but from the
ratings before the table, as every other system is asked (the rules themselves rate against the opponent's
rating after the table, which knows the table's results). A game counts when both players had a stored
rated game before the table (``games_before``): a newcomer's first table has no FESA rating to predict from.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from itertools import groupby

from ratings.engine.constants import HANDICAPS, handicap_shift
from ratings.engine.errors import BeyondRankScale
from ratings.engine.literals import HandicapCode
from ratings.engine.scores import first_score
from ratings.engine.systems.base import PairGame, logistic
from ratings.engine.systems.compare import HistoryGame, HistoryTable
from ratings.models import Game, OpeningState, PredictionReport, RatingRow, Table, TableStatus

CHUNK = 5000


def fesa_expected(
    first: int,
    second: int,
    *,
    handicap: str = "",
    giver_is_first: bool = False,
    handicaps: Mapping[HandicapCode, float] = HANDICAPS,
) -> float:
    """``first``'s expected score against ``second`` from their ratings, the giver's rating shifted (§3) by
    the handicap's value in ``handicaps`` (FESA's, or a what-if's)."""
    if handicap:
        try:
            if giver_is_first:
                first = handicap_shift(first, handicaps[handicap])  # type: ignore[index]
            else:
                second = handicap_shift(second, handicaps[handicap])  # type: ignore[index]
        except BeyondRankScale:  # a rating past the scale's end: the even expectation
            pass
    return logistic(first - second)


def prediction_openings() -> dict[int, float]:
    """The players' ratings on the opening balance (the FESA list migrated before the site's first table), for
    those who had games there: what every system may know before the first table."""
    return dict(OpeningState.objects.filter(games__gt=0).values_list("player_id", "rating"))


def prediction_tables_count() -> int:
    return Table.objects.filter(status=TableStatus.RATED).count()


def prediction_history(chunk: int = CHUNK) -> Iterator[HistoryTable]:
    """The rated tables in rating order, each with its rated games and FESA's predictions of them.

    Two streams read side by side, both in the tables' order (date, sequence, id): the games and the stored
    rating rows, so that memory holds one table at a time whatever the history's length.
    """
    games = (
        Game.objects.filter(table__status=TableStatus.RATED, second__isnull=False, played=True)
        .order_by("table__date", "table__sequence", "table_id", "round", "id")
        .values_list(
            "table__date", "table__sequence", "table_id", "round", "first_id", "second_id", "result",
            "replay_draw", "handicap", "handicap_giver",
        )
        .iterator(chunk_size=chunk)
    )  # fmt: skip
    rows = groupby(
        RatingRow.objects.filter(table__status=TableStatus.RATED)
        .order_by("date", "sequence", "table_id")
        .values_list("date", "sequence", "table_id", "player_id", "rating_before", "games_before")
        .iterator(chunk_size=chunk),
        key=lambda row: row[:3],
    )
    row_key, row_group = next(rows, (None, iter(())))
    for key, table_games in groupby(games, key=lambda game: game[:3]):
        # Skip the rows of tables without games here (a table whose games were all forfeits).
        while row_key is not None and row_key < key:
            row_key, row_group = next(rows, (None, iter(())))
        stored = {}
        if row_key == key:
            stored = {player: (rating, played) for *_, player, rating, played in row_group}
        out = []
        for *_, rnd, first, second, result, replay, handicap, giver in table_games:
            game = PairGame(rnd, first, second, first_score(result, replay_draw=replay), handicap=bool(handicap))
            a, b = stored.get(first), stored.get(second)
            if a is None or b is None:
                out.append(HistoryGame(game, counted=False, stored=None))
                continue
            expected = fesa_expected(a[0], b[0], handicap=handicap, giver_is_first=giver == "first")
            out.append(HistoryGame(game, counted=a[1] > 0 and b[1] > 0, stored=expected))
        yield HistoryTable(key[0], out)


def prediction_reports(version: str) -> tuple[PredictionReport | None, PredictionReport | None]:
    """The report of the data ``version`` whatever its state (running, done, failed), and the newest finished
    one, whichever version it was computed for (the same when the current one is done): two queries."""
    current = PredictionReport.objects.filter(version=version).first()
    if current is not None and current.status == PredictionReport.Status.DONE:
        return current, current
    latest = (
        PredictionReport.objects.filter(status=PredictionReport.Status.DONE).order_by("-finished_at", "-id").first()
    )
    return current, latest
