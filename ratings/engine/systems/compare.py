"""How well each rating system predicts: every system predicts each game from the tables before it, and the
predictions are scored against the results.

The walk (``compare``): for each table in the history's order, each system is told the date, asked the
expected score of every game of the table, then shown the table's games (base.py). The stored FESA
predictions come with the games (``HistoryGame.stored``): the site's own ratings before the table, read by
the caller.

The figures, for each system, each year and the whole history, even and handicap games apart:

- **games**: how many games the figures rest on: the games whose two players both played a rated game before
  (``HistoryGame.counted``): a first game has no rating behind it in any system, FESA's included.
- **hits**: the share of the decisive games that the player the system favoured won; a game the system called
  even (50 %) counts as half.
- **Brier score**: the mean of ``(expected − actual)²``; 0 is perfect, 0.25 is what "always 50 %" scores.
- **log loss**: the mean of ``−(s·ln E + (1 − s)·ln(1 − E))``, E held within 0.001 and 0.999 so that a system
  that says 0 % (seed 003's Elo rounds to whole percents) is punished and not infinite; ln 2 ≈ 0.693 is
  "always 50 %".
- **calibration**: the games in bins of the favourite's expected score (50–55 %, ..., 95–100 %), each with the
  mean expected and the mean actual score of the favourite.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from .base import PairGame, PlayerKey, RatingSystem

FESA = "fesa"
ALL = "all"
EVEN = "even"
HANDICAP = "handicap"
KINDS = (EVEN, HANDICAP)
CLIP = 0.001
BINS = 10  # of 5 % each, from 50 % to 100 %


class HistoryGame(NamedTuple):
    game: PairGame
    counted: bool  # both players had played a rated game before this table
    stored: float | None  # FESA's expectation for ``first`` from the stored ratings before the table


class HistoryTable(NamedTuple):
    date: dt.date
    games: Sequence[HistoryGame]


class Tally:
    """The running sums of one system's predictions over a set of games."""

    __slots__ = ("bins", "brier", "decisive", "games", "hits", "log_loss")

    def __init__(self) -> None:
        self.games = 0
        self.decisive = 0
        self.hits = 0.0
        self.brier = 0.0
        self.log_loss = 0.0
        self.bins = [[0, 0.0, 0.0] for _ in range(BINS)]  # games, expected, actual

    def add(self, expected: float, score: float) -> None:
        self.games += 1
        if score != 0.5:
            self.decisive += 1
            if expected == 0.5:
                self.hits += 0.5
            elif (expected > 0.5) == (score == 1.0):
                self.hits += 1.0
        self.brier += (expected - score) ** 2
        e = min(1.0 - CLIP, max(CLIP, expected))
        self.log_loss -= score * math.log(e) + (1.0 - score) * math.log(1.0 - e)
        favourite, actual = (expected, score) if expected >= 0.5 else (1.0 - expected, 1.0 - score)
        cell = self.bins[min(BINS - 1, int((favourite - 0.5) * 2 * BINS))]
        cell[0] += 1
        cell[1] += favourite
        cell[2] += actual

    def figures(self) -> dict[str, Any]:
        """The figures as plain values (JSON), means rather than sums; None where no game counts."""
        n = self.games
        return {
            "games": n,
            "decisive": self.decisive,
            "hits": self.hits / self.decisive if self.decisive else None,
            "brier": self.brier / n if n else None,
            "log_loss": self.log_loss / n if n else None,
            "calibration": [
                {"games": g, "expected": e / g, "actual": a / g}
                if g
                else {"games": 0, "expected": None, "actual": None}
                for g, e, a in self.bins
            ],
        }


def compare(
    tables: Iterable[HistoryTable],
    systems: Sequence[RatingSystem],
    *,
    progress: Callable[[int], object] | None = None,
    every: int = 1000,
    predictions: Callable[[dt.date, PairGame, Mapping[str, float]], object] | None = None,
    openings: Mapping[PlayerKey, float] | None = None,
) -> dict[str, Any]:
    """Walk the history once with every system and score their predictions (module docstring).

    ``progress`` is called with the number of tables done every ``every`` tables and at the end;
    ``predictions`` sees every counted game's predictions (the tests check them); ``openings`` are the ratings
    of the opening balance, given to every system before the first table (base.py). The answer is plain values:
    ``{"systems": [...], "years": [...], "games": n, "figures": {system: {year or "all": {kind: figures}}}}``.
    """
    keys = [FESA, *(s.key for s in systems)]
    tallies: dict[tuple[str, str, str], Tally] = {}
    years: set[str] = set()
    done = 0
    total_games = 0
    for player, rating in (openings or {}).items():
        for system in systems:
            system.start(player, rating)
    for table in tables:
        year = str(table.date.year)
        for system in systems:
            system.begin(table.date)
        for item in table.games:
            if not item.counted or item.stored is None:
                continue
            game = item.game
            said = {FESA: item.stored}
            for system in systems:
                said[system.key] = system.expected(game.first, game.second)
            if predictions is not None:
                predictions(table.date, game, said)
            kind = HANDICAP if game.handicap else EVEN
            years.add(year)
            total_games += 1
            for key, expected in said.items():
                for period in (year, ALL):
                    tally = tallies.get((key, period, kind))
                    if tally is None:
                        tally = tallies[key, period, kind] = Tally()
                    tally.add(expected, game.score)
        plain = [item.game for item in table.games]
        for system in systems:
            system.rate(plain)
        done += 1
        if progress is not None and done % every == 0:
            progress(done)
    if progress is not None:
        progress(done)
    periods = [*sorted(years), ALL]
    return {
        "systems": keys,
        "years": sorted(years),
        "games": total_games,
        "tables": done,
        "figures": {
            key: {
                period: {kind: (tallies.get((key, period, kind)) or Tally()).figures() for kind in KINDS}
                for period in periods
            }
            for key in keys
        },
    }


COLUMNS = ("system", "period", "kind", "games", "decisive", "hits", "brier", "log_loss")


def report_rows(result: Mapping[str, Any]) -> list[tuple[Any, ...]]:
    """The figures of a ``compare`` answer as rows of ``COLUMNS``: each system, the whole history first, then
    each year, even games before handicap games."""
    rows = []
    for key in result["systems"]:
        by_period = result["figures"][key]
        for period in (ALL, *result["years"]):
            for kind in KINDS:
                f = by_period[period][kind]
                rows.append((key, period, kind, f["games"], f["decisive"], f["hits"], f["brier"], f["log_loss"]))
    return rows
