"""Game Courier Ratings, as seed 004 (shared/seeds/004_…, Fergus Duniho, "Game Courier Ratings for Shogi") states
them: an order-independent method that rates a whole set of games at once.

The seed's algorithm: a table of pairwise results (a win 1, a draw 0.5 each); everyone starts at 1500; the
players sorted by games (most first), ties by games won, then by number of opponents; every pair of players
who met, in a zig-zag order, moves both ratings by ``400 × (actual − expected) × n/(n+10) × (1 − p/(p+800))``,
``n`` the games the two played together, ``p`` each player's own count of games seen so far in the pass,
``expected`` the share ``(difference/8 + 50) %`` bounded by 0 and 100 %; a forward and a reverse pass, the two
sets of ratings averaged.

What the seed leaves open, and what is done here (tests/engine/systems/test_game_courier.py holds each, with a
four-player example worked by hand):

- **The zig-zag order.** With the players numbered 0..m−1 in the sorted order, the pairs are taken diagonal by
  diagonal: first the neighbours (0,1), (1,2), ..., then the pairs two apart, and so on; the odd diagonals
  (1, 3, ...) run forwards and the even ones backwards. So each player's pairs are spread over the whole pass,
  the strongest-played pairs coming first. The reverse pass takes the same list from its end.
- **A tie that all three keys leave** (same games, wins, opponents) is broken by the order in which the players
  first appear in the history, so the order is the same on every run.
- **The expected share** is ``difference/8 + 50`` percent, held within 0 and 100 (a difference of 400 or more);
  the prediction of a game is that share of the current ratings, as the seed's "Meaning" says.
- **Nothing is rounded** inside the passes; the seed shows whole numbers, as does the page.
- **When it is rated again.** The method rates everything at once, so a table is predicted from the ratings of
  every game before it: the ratings are rated afresh at the start of a table when games came in since they
  were last rated, or, with ``refresh="month"``, at the first table of a calendar month (everything before the
  month, still never the table itself), which a history of hundreds of thousands of games needs to finish in
  minutes (bench/README.md).
- **Handicap games are counted** like even ones: the seed reads every finished game.
- **The opening balance is not used**: the method rates the whole set from 1500 for everyone, by design.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Literal

from .base import START_RATING, PairGame, PlayerKey

Refresh = Literal["table", "month"]


def expected_share(difference: float) -> float:
    """The share of the games the player ``difference`` points above is expected to win, 0 to 1."""
    return min(1.0, max(0.0, (difference / 8.0 + 50.0) / 100.0))


def zigzag_pairs(count: int) -> list[tuple[int, int]]:
    """The pairs of ``count`` players (by position in the sorted order) in the zig-zag order (docstring)."""
    pairs: list[tuple[int, int]] = []
    for distance in range(1, count):
        diagonal = [(i, i + distance) for i in range(count - distance)]
        pairs.extend(diagonal if distance % 2 else reversed(diagonal))
    return pairs


class Tally:
    """The pairwise results: games and points between each pair, and each player's totals."""

    def __init__(self) -> None:
        self.pairs: dict[tuple[PlayerKey, PlayerKey], list[float]] = {}  # (a, b) → [games, a's points]
        self.games: dict[PlayerKey, float] = {}
        self.wins: dict[PlayerKey, float] = {}
        self.opponents: dict[PlayerKey, set[PlayerKey]] = {}
        self.first_seen: dict[PlayerKey, int] = {}

    def add(self, first: PlayerKey, second: PlayerKey, score: float) -> None:
        for player in (first, second):
            self.first_seen.setdefault(player, len(self.first_seen))
        if (second, first) in self.pairs:
            first, second, score = second, first, 1.0 - score
        cell = self.pairs.setdefault((first, second), [0.0, 0.0])
        cell[0] += 1
        cell[1] += score
        for me, other, points in ((first, second, score), (second, first, 1.0 - score)):
            self.games[me] = self.games.get(me, 0.0) + 1
            self.wins[me] = self.wins.get(me, 0.0) + points
            self.opponents.setdefault(me, set()).add(other)

    def order(self) -> list[PlayerKey]:
        """The players by games, then wins, then opponents, most first; then by first appearance."""
        return sorted(
            self.games,
            key=lambda p: (-self.games[p], -self.wins[p], -len(self.opponents[p]), self.first_seen[p]),
        )


def _pass(
    pairs: Sequence[tuple[PlayerKey, PlayerKey, float, float]], players: Sequence[PlayerKey]
) -> dict[PlayerKey, float]:
    ratings = dict.fromkeys(players, START_RATING)
    past = dict.fromkeys(players, 0.0)
    for p1, p2, n, points in pairs:
        actual = points / n
        expected = expected_share(ratings[p1] - ratings[p2])
        amount = 400.0 * (actual - expected) * n / (n + 10.0)
        ratings[p1] += amount * (1.0 - past[p1] / (past[p1] + 800.0))
        ratings[p2] -= amount * (1.0 - past[p2] / (past[p2] + 800.0))
        past[p1] += n
        past[p2] += n
    return ratings


def game_courier_ratings(tally: Tally) -> dict[PlayerKey, float]:
    """The ratings of everyone in ``tally``: the forward and reverse passes averaged."""
    players = tally.order()
    cells = tally.pairs
    ordered: list[tuple[PlayerKey, PlayerKey, float, float]] = []
    for i, j in zigzag_pairs(len(players)):
        p1, p2 = players[i], players[j]
        cell = cells.get((p1, p2))
        if cell is not None:
            ordered.append((p1, p2, cell[0], cell[1]))
            continue
        cell = cells.get((p2, p1))
        if cell is not None:
            ordered.append((p1, p2, cell[0], cell[0] - cell[1]))
    forward = _pass(ordered, players)
    reverse = _pass(ordered[::-1], players)
    return {p: (forward[p] + reverse[p]) / 2.0 for p in players}


def game_courier_from_games(games: Sequence[tuple[PlayerKey, PlayerKey, float]]) -> dict[PlayerKey, float]:
    """The ratings of a set of games ``(first, second, first's score)``."""
    tally = Tally()
    for first, second, score in games:
        tally.add(first, second, score)
    return game_courier_ratings(tally)


class GameCourier:
    """Game Courier Ratings over a history, rated afresh on everything before each table (module docstring).

    Rating afresh places only the pairs that met in the zig-zag order (``game_courier_ratings_sparse``): the
    order of all pairs of a federation of 20,000 players would be 200 million.
    """

    key = "game_courier"

    def __init__(self, refresh: Refresh = "table") -> None:
        self.refresh = refresh
        self.tally = Tally()
        self.ratings: Mapping[PlayerKey, float] = {}
        self.stale = False
        self.month: tuple[int, int] | None = None

    def start(self, player: PlayerKey, rating: float) -> None:
        return None

    def begin(self, date: dt.date) -> None:
        month = (date.year, date.month)
        due = self.refresh == "table" or month != self.month
        self.month = month
        if due and self.stale:
            self.ratings = game_courier_ratings_sparse(self.tally)
            self.stale = False

    def rating(self, player: PlayerKey) -> float:
        return self.ratings.get(player, START_RATING)

    def expected(self, first: PlayerKey, second: PlayerKey) -> float:
        return expected_share(self.rating(first) - self.rating(second))

    def rate(self, games: Sequence[PairGame]) -> None:
        for game in games:
            self.tally.add(game.first, game.second, game.score)
        self.stale = self.stale or bool(games)


def game_courier_ratings_sparse(tally: Tally) -> dict[PlayerKey, float]:
    """``game_courier_ratings`` without visiting the pairs that never met: each pair that met is placed by its
    position in the zig-zag order (its diagonal, then its place on it), which is the same order. The passes
    work on the players' positions in lists, the expectation written out: this is the comparison's hot path."""
    players = tally.order()
    position = {p: i for i, p in enumerate(players)}
    keyed: list[tuple[int, int, int, int, float, float]] = []
    for (a, b), (n, points) in tally.pairs.items():
        i, j = position[a], position[b]
        if i > j:
            i, j, points = j, i, n - points
        distance = j - i
        keyed.append((distance, i if distance % 2 else -i, i, j, n, points))
    keyed.sort()  # (diagonal, place) is unique: the comparison never reaches the rest
    count = len(players)
    forward = _indexed_pass(keyed, count)
    keyed.reverse()
    reverse = _indexed_pass(keyed, count)
    return {p: (forward[i] + reverse[i]) / 2.0 for i, p in enumerate(players)}


def _indexed_pass(pairs: Sequence[tuple[int, int, int, int, float, float]], count: int) -> list[float]:
    """``_pass`` over positions: the same arithmetic in the same order."""
    ratings = [START_RATING] * count
    past = [0.0] * count
    for _, _, i, j, n, points in pairs:
        expected = ((ratings[i] - ratings[j]) / 8.0 + 50.0) / 100.0
        if expected > 1.0:
            expected = 1.0
        elif expected < 0.0:
            expected = 0.0
        amount = 400.0 * (points / n - expected) * n / (n + 10.0)
        pi, pj = past[i], past[j]
        ratings[i] += amount * (1.0 - pi / (pi + 800.0))
        ratings[j] -= amount * (1.0 - pj / (pj + 800.0))
        past[i] = pi + n
        past[j] = pj + n
    return ratings
