"""The comparison's walk and figures (ratings/engine/systems/compare.py): figures worked by hand, and that no
prediction rests on the table it predicts or a later one."""

from __future__ import annotations

import datetime as dt
import math
import random

import pytest

from ratings.engine.systems import all_systems
from ratings.engine.systems.base import PairGame
from ratings.engine.systems.compare import FESA, HistoryGame, HistoryTable, Tally, compare


def test_figures_worked_by_hand():
    tally = Tally()
    tally.add(0.75, 1.0)  # favourite won: (0.25)² = 0.0625; −ln 0.75 = 0.287682
    tally.add(0.5, 0.5)  # a draw called even: 0; ln 2 = 0.693147
    tally.add(0.5, 0.0)  # a decisive game called even: half a hit; 0.25; ln 2
    tally.add(0.2, 1.0)  # the underdog won: 0.64; −ln 0.2 = 1.609438
    figures = tally.figures()
    assert (figures["games"], figures["decisive"]) == (4, 3)
    assert figures["hits"] == pytest.approx(1.5 / 3)
    assert figures["brier"] == pytest.approx((0.0625 + 0 + 0.25 + 0.64) / 4)
    assert figures["log_loss"] == pytest.approx((0.287682 + 2 * 0.693147 + 1.609438) / 4, abs=1e-6)
    bins = figures["calibration"]
    assert bins[0] == {"games": 2, "expected": 0.5, "actual": 0.25}  # 50–55 %: scored 0.5 and 0
    assert bins[5] == {"games": 1, "expected": 0.75, "actual": 1.0}  # 75–80 %
    assert bins[6]["games"] == 1 and bins[6]["actual"] == 0.0  # 80 % for the loser of the upset


def test_a_zero_percent_call_is_held_at_a_thousandth():
    tally = Tally()
    tally.add(0.0, 1.0)
    assert tally.figures()["log_loss"] == pytest.approx(-math.log(0.001))


def _history(seed: int, tables: int = 60, players: int = 12) -> list[HistoryTable]:
    rng = random.Random(seed)
    out = []
    start = dt.date(2015, 1, 1)
    seen: set[int] = set()
    for t in range(tables):
        date = start + dt.timedelta(days=17 * t)
        ids = rng.sample(range(players), 6)
        games = []
        for r in range(1, 4):
            rng.shuffle(ids)
            for a, b in zip(ids[::2], ids[1::2], strict=True):
                score = rng.choice((0.0, 0.5, 1.0, 1.0))
                game = PairGame(r, a, b, score, handicap=rng.random() < 0.1)
                games.append(HistoryGame(game, counted=a in seen and b in seen, stored=rng.random()))
        seen.update(ids)
        out.append(HistoryTable(date, games))
    return out


def test_no_prediction_uses_a_game_at_or_after_the_one_it_predicts():
    """Change the results of every table from the n-th on: no system's prediction of a game before it moves."""
    history = _history(1)
    cut = 40
    changed = [
        t
        if i < cut
        else t._replace(games=[g._replace(game=g.game._replace(score=1.0 - g.game.score)) for g in t.games])
        for i, t in enumerate(history)
    ]

    def predictions(tables: list[HistoryTable]) -> list[dict[str, float]]:
        seen: list[dict[str, float]] = []
        compare(tables, all_systems(), predictions=lambda date, game, said: seen.append(dict(said)))
        return seen

    before_cut = sum(1 for t in history[:cut] for g in t.games if g.counted)
    cut_table = sum(1 for g in history[cut].games if g.counted)
    plain, flipped = predictions(history), predictions(changed)
    # Every game before the cut, and the cut table's own games, predicted alike: the cut table's results are
    # shown to the systems only after they predicted it.
    assert plain[: before_cut + cut_table] == flipped[: before_cut + cut_table]
    assert plain != flipped  # the tables after it do see the change


class _Spy:
    """A system that counts the tables begun and shown, and checks at each prediction that it was shown every
    table before the one it is asked about, and neither that one nor a later one."""

    key = "spy"

    def __init__(self) -> None:
        self.shown: list[dt.date] = []
        self.begun: list[dt.date] = []
        self.asked = 0

    def start(self, player, rating) -> None:
        assert not self.begun

    def begin(self, date: dt.date) -> None:
        assert all(d <= date for d in self.shown)
        self.begun.append(date)

    def expected(self, first, second) -> float:
        assert len(self.shown) == len(self.begun) - 1
        self.asked += 1
        return 0.5

    def rate(self, games) -> None:
        self.shown.append(self.begun[-1])

    def rating(self, player) -> float:
        return 0.0


def test_each_table_is_shown_only_after_its_predictions():
    spy = _Spy()
    history = _history(2)
    compare(history, [spy])
    assert spy.asked == sum(1 for t in history for g in t.games if g.counted)
    assert len(spy.shown) == len(history)


def test_the_report_holds_every_system_year_and_kind():
    report = compare(_history(3), all_systems(), every=10)
    assert report["systems"] == [FESA, "elo", "european1996", "game_courier", "glicko2", "openskill"]
    assert report["tables"] == 60
    whole = report["figures"]["elo"]["all"]
    assert whole["even"]["games"] + whole["handicap"]["games"] == report["games"]
    by_year = sum(report["figures"]["elo"][y]["even"]["games"] for y in report["years"])
    assert by_year == whole["even"]["games"]


def test_progress_is_told_every_so_many_tables_and_at_the_end():
    told: list[int] = []
    compare(_history(4, tables=25), [], progress=told.append, every=10)
    assert told == [10, 20, 25]


def test_the_opening_balance_is_given_to_every_system_before_the_first_table():
    systems = all_systems()
    seen: list[dict[str, float]] = []
    compare(
        [HistoryTable(dt.date(2020, 1, 5), [HistoryGame(PairGame(1, "a", "b", 1.0), counted=True, stored=0.9)])],
        systems,
        predictions=lambda date, game, said: seen.append(dict(said)),
        openings={"a": 1900.0, "b": 1500.0},
    )
    (said,) = seen
    assert said["elo"] == 0.91  # 1/(1 + 10^(-400/400)) = 0.909 → 91 %
    assert said["european1996"] == pytest.approx(1 / 1.1)
    assert said["game_courier"] == 0.5  # rates the set from 1500, by design
    assert said["glicko2"] > 0.8
    assert said["openskill"] > 0.8
