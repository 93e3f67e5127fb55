"""What the published Championnat de France 2025 result table determines, checked with the engine.

The table (tests/data/fesa/fesa-result-CdF-2025.txt) gives every player's rating before the event and his
official change, or for a player rated by performance his new rating (``*``), and the promotions. It does
not give the hidden state: bonus counts, game counts, promotion runs. So:

- ratings: the weak-player bonus only depends on how many of a player's 6 games still get it, i.e. on
  ``100 - bonus_count`` between 0 and 6. The test looks for such counts (one player at a time, keeping
  the best, until nothing improves) under which the engine gives exactly every published change, and
  every ``*`` rating when the ``*`` players are new players without a prior grade (which the numbers
  bear out). Players who stay above 1800 never get the bonus, so nothing is assumed for them.
- promotions: for each player, some game count and some run he may have carried in must give exactly
  the grade the table shows (promoted or not). That cannot prove a promotion, but it fails when the
  rating path makes the published grade impossible (not reached, or passed without promotion).
"""

from __future__ import annotations

import datetime as dt
from functools import cache

from ratings.engine import rate_table
from ratings.engine.types import PlayerOutcome, PlayerState
from ratings.fesa_files.turnering import Cell, TablePlayer, Turnering, engine_table

from .data import fesa_data
from .published import PublishedTable, read_published

BONUS_CANDIDATES = range(94, 101)  # 100 - b bonus games out of 6 (none at 100)


@cache
def published() -> PublishedTable:
    return read_published(fesa_data() / "fesa-result-CdF-2025.txt")


def table() -> Turnering:
    rows = published().rows
    players = tuple(
        TablePlayer(r.number, r.last_name, r.first_name, tuple(Cell(o, s) for o, s in r.cells))  # type: ignore[arg-type]
        for r in rows
    )
    return Turnering("CdF Nantes 2025", dt.date(2025, 4, 20), "2025-04-19/20", players, 6)


def states(
    bonus: dict[int, int], games: int = 100, runs: tuple[int, bool, int] = (0, False, 0)
) -> dict[int, PlayerState]:
    lb_run, lb_mp_seen, mp_run = runs
    out = {}
    for r in published().rows:
        if r.performance:
            out[r.number] = PlayerState()  # a new player: no rating, no games, no prior grade
        else:
            out[r.number] = PlayerState(
                rating=r.rating, result_list=None, game_count=games, bonus_count=bonus[r.number], grade=r.grade,
                lb_run=lb_run, lb_mp_seen=lb_mp_seen, mp_run=mp_run,
            )  # fmt: skip
    return out


def rate(bonus: dict[int, int], **hypothesis: object) -> dict[object, PlayerOutcome]:
    return rate_table(engine_table(table(), states(bonus, **hypothesis)).table).by_key()  # type: ignore[arg-type]


def misses(outcomes: dict[object, PlayerOutcome]) -> dict[int, int]:
    """Engine minus published, per player: the change, or the new rating of a ``*`` player."""
    out = {}
    for r in published().rows:
        o = outcomes[r.number]
        out[r.number] = o.after.rating - r.rating if r.performance else (o.change or 0) - (r.change or 0)
    return out


@cache
def bonus_counts() -> dict[int, int]:
    """Bonus counts under which the engine comes closest to the published numbers."""
    bonus = {r.number: 100 for r in published().rows}
    for _ in range(5):
        improved = False
        for r in published().rows:
            if r.performance:
                continue
            current = abs(misses(rate(bonus))[r.number])
            for candidate in BONUS_CANDIDATES:
                trial = {**bonus, r.number: candidate}
                miss = abs(misses(rate(trial))[r.number])
                if miss < current:
                    bonus, current, improved = trial, miss, True
        if not improved:
            break
    return bonus


def test_published_cdf_2025_every_change_and_new_rating_from_the_engine() -> None:
    outcomes = rate(bonus_counts())
    assert {n: m for n, m in misses(outcomes).items() if m} == {}
    starred = [r.number for r in published().rows if r.performance]
    assert [outcomes[n].method for n in starred] == ["performance"] * 3


def test_published_cdf_2025_every_grade_is_reachable() -> None:
    bonus = bonus_counts()
    hypotheses = [
        {"games": games, "runs": runs}
        for games in [*range(3, 21), 60]
        for runs in [(0, False, 0)] + [(n, True, n) for n in range(1, 10)] + [(n, False, 0) for n in range(1, 16)]
    ]
    reachable: dict[int, set[int]] = {r.number: set() for r in published().rows}
    for hypothesis in hypotheses:
        for number, outcome in rate(bonus, **hypothesis).items():
            reachable[number].add(outcome.after.grade)  # type: ignore[index]
    impossible = {}
    for r in published().rows:
        shown = published().promotions.get(f"{r.last_name} {r.first_name}", r.grade)
        if shown not in reachable[r.number]:
            impossible[f"{r.last_name} {r.first_name}"] = (shown, sorted(reachable[r.number]))
    assert impossible == {}


def test_published_cdf_2025_parses_32_players_and_7_promotions() -> None:
    rows = published().rows
    assert [r.number for r in rows] == list(range(1, 33))
    assert (rows[0].last_name, rows[0].rating, rows[0].change) == ("Pucher", 1887, -14)
    assert (rows[26].last_name, rows[26].rating, rows[26].performance) == ("Dinet", 1145, True)
    assert published().promotions["Goix Théo"] == 18  # 3 Kyu: one line with the final grade
    assert len(published().promotions) == 7
