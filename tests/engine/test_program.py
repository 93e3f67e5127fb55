"""The official program's documented behaviour where the site differs (ratings/engine/program.py), as
fesa_compare replays it."""

from __future__ import annotations

import datetime as dt

import pytest

from ratings.engine import Game, PlayerState, TableInput, grade_of, rate_table
from ratings.engine.program import near_half, other_side, rate_table_as_program, rated_without_games

DAY = dt.date(2016, 3, 5)


@pytest.mark.parametrize(
    ("root", "near"),
    [(946.5006, True), (946.4985, True), (946.5, True), (946.5016, False), (946.0, False), (None, False)],
)
def test_near_half_is_within_the_programs_reach(root: float | None, near: bool) -> None:
    assert near_half(root) is near


@pytest.mark.parametrize(("value", "root", "other"), [(947, 946.5006, 946), (946, 946.4995, 947), (2, 1.5, 1)])
def test_other_side_of_the_half(value: int, root: float, other: int) -> None:
    assert other_side(value, root) == other


def test_an_established_player_below_the_next_lower_bound_has_his_runs_stopped() -> None:
    """With no game the walk is quiet, but from the 18th game on a quiet walk stops the runs."""
    state = PlayerState(850, None, 40, 100, grade_of(10, "Kyu"), None, 3, True, 1, dt.date(2015, 1, 1))
    assert rated_without_games(state, DAY) == state._replace(lb_run=0, lb_mp_seen=False, mp_run=0, last_played=DAY)


def test_a_provisional_player_with_nine_mixed_results_turns_to_a_count_unchanged() -> None:
    pairs = tuple((1000 + 10 * i, float(i % 2)) for i in range(9))
    state = PlayerState(1020, pairs, 0, 0, last_played=dt.date(2015, 1, 1))
    after = rated_without_games(state, DAY)
    assert (after.rating, after.result_list, after.game_count, after.last_played) == (1020, None, 9, DAY)


def test_without_flips_the_program_rates_as_the_engine() -> None:
    states = {1: PlayerState(), 2: PlayerState(1003, None, 30, 100), 3: PlayerState(1000, None, 30, 100)}
    table = TableInput("T", DAY, (1, 2, 3), states, (Game(1, 1, 2, 1.0), Game(2, 1, 3, 0.0)))
    assert rate_table_as_program(table) == rate_table(table)
