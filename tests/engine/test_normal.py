"""docs/rules.md §4: the normal rating change — Elo per game at the running rating, upset gain, weak-player bonus,
one rounding per table."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.engine.normal import final_rating

from .builders import make_established, make_game, rate
from .oracle import normal_change, run_normal


def expected(o: float, r: float) -> float:
    return 1 / (1 + 10 ** ((o - r) / 400))


def test_one_game_is_k_times_score_minus_expectation() -> None:
    assert final_rating(1500, 100, [1600], [0.5]) == pytest.approx(1500 + 28 * (0.5 - expected(1600, 1500)))


def test_k_is_taken_at_the_running_rating() -> None:
    """1565 loses twice: the first loss (K 24) drops him below 1560, so the second is at K 28."""
    r1 = 1565 + 24 * (0 - expected(1565, 1565))
    assert r1 < 1560
    r2 = r1 + 28 * (0 - expected(1565, r1))
    assert final_rating(1565, 100, [1565, 1565], [0.0, 0.0]) == pytest.approx(r2)


@pytest.mark.parametrize(
    ("rating", "k"),
    [(2240, 16), (2239, 20), (1920, 20), (1919, 24), (1560, 24), (1559, 28), (1280, 28), (1279, 32), (1040, 32),
     (1039, 36), (720, 36), (719, 40)],
)  # fmt: skip
def test_each_k_boundary_in_a_table(rating: int, k: int) -> None:
    """A loss against an equal opponent costs K/2, K by the rating the game is played at."""
    assert final_rating(rating, 100, [rating], [0.0]) == pytest.approx(rating - k / 2)
    out = rate({"A": make_established(rating), "B": make_established(2000)}, [make_game(1, "A", "B", 0.0)])
    assert out["A"].games[0].k == k


def test_upset_gain_replaces_a_smaller_normal_gain() -> None:
    """1500 beats 1700: normal 28·(1 − 0.2403) = 21.27, upset gain 28·200/160 = 35."""
    steps: list[tuple[float, float, int, float, bool, float]] = []
    assert run_normal(1500, 100, [1700], [1.0], steps) == pytest.approx(1535)
    assert steps[0][3:5] == (35.0, True)


def test_normal_gain_stays_when_it_beats_the_upset_gain() -> None:
    """1500 beats 1520: normal 28·(1 − 0.4712) = 14.8 beats 28·20/160 = 3.5."""
    steps: list[tuple[float, float, int, float, bool, float]] = []
    assert run_normal(1500, 100, [1520], [1.0], steps) == pytest.approx(1500 + 28 * (1 - expected(1520, 1500)))
    assert steps[0][4] is False


def test_no_upset_gain_for_a_draw_or_against_a_lower_opponent() -> None:
    assert final_rating(1500, 100, [1900], [0.5]) == pytest.approx(1500 + 28 * (0.5 - expected(1900, 1500)))
    assert final_rating(1500, 100, [1400], [1.0]) == pytest.approx(1500 + 28 * (1 - expected(1400, 1500)))


def test_weak_player_bonus_while_below_1800() -> None:
    r = 1500 + 28 * (0.5 - expected(1500, 1500)) + (1800 - 1500) / 200
    assert final_rating(1500, 0, [1500], [0.5]) == pytest.approx(r)


def test_no_bonus_at_1800() -> None:
    assert final_rating(1800, 0, [1800], [0.5]) == 1800
    assert final_rating(1799.5, 0, [1799.5], [0.5]) == pytest.approx(1799.5 + 0.5 / 200)


def test_the_hundredth_bonus_game_gets_it_and_the_next_does_not() -> None:
    """bonus_count 99: the first game is played at b = 99 (bonus), the second at b = 100 (none)."""
    steps: list[tuple[float, float, int, float, bool, float]] = []
    run_normal(1500, 99, [1500, 1500], [0.5, 0.5], steps)
    assert steps[0][5] == pytest.approx(1.5)
    assert steps[1][5] == 0.0


def test_bonus_count_moves_with_the_games_and_stops_at_100() -> None:
    out = rate(
        {"A": make_established(1500, bonus=99), "B": make_established(1500, bonus=40)},
        [make_game(1, "A", "B", 0.5), make_game(2, "B", "A", 0.5), make_game(3, "A", "B", 0.5)],
    )
    assert (out["A"].after.bonus_count, out["B"].after.bonus_count) == (100, 43)
    assert [g.bonus != 0.0 for g in out["A"].games] == [True, False, False]


def test_one_rounding_per_table() -> None:
    """Two draws at 2300 against 2317 gain 0.391 + 0.383: the table rounds 0.774 to 1, per game it would be 0."""
    steps: list[tuple[float, float, int, float, bool, float]] = []
    r = run_normal(2300, 100, [2317, 2317], [0.5, 0.5], steps)
    assert [round(s[3]) for s in steps] == [0, 0]
    assert r - 2300 == pytest.approx(0.774, abs=1e-3)
    assert normal_change(2300, 100, [2317, 2317], [0.5, 0.5]) == 1


def test_table_change_is_the_rounded_sum_of_the_games() -> None:
    out = rate(
        {"A": make_established(1432, bonus=20), "B": make_established(1610), "C": make_established(1288)},
        [make_game(1, "A", "B", 1.0), make_game(2, "C", "A", 0.5), make_game(3, "B", "C", 0.0)],
    )
    for outcome in out.values():
        total = sum(g.change + g.bonus for g in outcome.games)  # type: ignore[operator]
        assert outcome.change == round(total)
        assert outcome.rating_after == outcome.rating_before + outcome.change
        first = outcome.games[0]
        assert first.rating_before_game == outcome.rating_before
        assert first.expected == pytest.approx(expected(first.effective_rating, outcome.rating_before))


def test_no_floor_on_a_normally_rated_rating() -> None:
    """At 5, three losses against the 400 floor cost about 3.7 each: the rating goes below zero."""
    out = rate(
        {"A": make_established(5), "B": make_established(250)},
        [make_game(1, "A", "B", 0.0), make_game(2, "B", "A", 1.0), make_game(3, "A", "B", 0.0)],
    )
    assert out["B"].rating_after < 400
    assert out["A"].rating_after == 5 + normal_change(5, 100, [400] * 3, [0.0] * 3) < 0


# Ratings on and around the K, bonus and rank boundaries as well as anywhere; scores as the table gives them.
ratings = st.one_of(
    st.integers(-50, 3200),
    st.sampled_from([719, 720, 1039, 1040, 1279, 1280, 1559, 1560, 1799, 1800, 1919, 1920, 2239, 2240]),
    st.floats(-50, 3200, allow_nan=False),
)
results = st.lists(st.tuples(st.integers(1, 3600), st.sampled_from([0.0, 0.5, 1.0])), min_size=1, max_size=14)


@settings(max_examples=500)
@given(ratings, st.integers(0, 120), results)
def test_final_rating_is_run_normal_to_the_last_bit(rating: float, bonus_count: int, games: list) -> None:  # type: ignore[type-arg]
    """The sweeps' loop (no step record, no 0.0 bonus added past 100 bonus games) gives the same float."""
    opponents, scores = [o for o, _ in games], [s for _, s in games]
    assert (
        final_rating(rating, bonus_count, opponents, scores).hex()
        == run_normal(rating, bonus_count, opponents, scores).hex()
    )
