"""docs/rules.md §6: who is rated by performance, the simultaneous solution, the state update; input validation."""

from __future__ import annotations

import datetime as dt

import pytest

from ratings.engine import (
    Game,
    Handicap,
    InvalidTable,
    PlayerState,
    TableDidNotSettle,
    TableInput,
    rate_table,
)
from ratings.engine.participants import read_participants
from ratings.engine.performance import performance, performance_rating
from ratings.engine.solver import CYCLE_CHECK_FROM, Solver

from .builders import DAY, make_established, make_game, make_newcomer, make_table, make_unrated, rate
from .oracle import solve_plainly

MIXED = [(1500, 1.0), (1600, 0.0), (1450, 1.0), (1700, 0.0), (1550, 0.5), (1380, 1.0)]


def three_games_against(opponent: str, player: str, scores: tuple[float, float, float]) -> list[Game]:
    return [make_game(r, player, opponent, s) for r, s in enumerate(scores, start=1)]


# --- who is rated by performance ------------------------------------------------------------------------


def test_a_newcomer_is_rated_by_performance() -> None:
    out = rate({"N": make_newcomer(), "E": make_established(1500)}, [make_game(1, "N", "E", 1.0)])
    n, e = out["N"], out["E"].rating_after
    assert n.method == "performance" and n.change is None
    assert n.after.result_list == ((e, 1.0),)
    assert n.rating_after == performance_rating([(e, 1), (e, 0.5)])  # with the temporary draw
    assert n.after.bonus_count == 0


@pytest.mark.parametrize(
    ("prior", "p"),
    [(("kyu", 3), 1410), (("kyu", 20), 400), (("dan", 2), 1860), (("dan", 7), 2760), (("dan", 8), 3000),
     (("pro", 4), 2630)],
)  # fmt: skip
def test_prior_grade_pairs_open_a_newcomers_list(prior: tuple[str, int], p: int) -> None:
    """(p, 0) and (p, 1) with p = max(400, rating of the prior grade), in the program's order, before the games."""
    out = rate(
        {"N": make_newcomer(prior), "E": make_established(1500)},  # type: ignore[arg-type]
        [make_game(1, "N", "E", 1.0), make_game(2, "E", "N", 1.0)],
    )
    n, e = out["N"], out["E"].rating_after
    assert n.after.result_list == ((p, 0.0), (p, 1.0), (e, 1.0), (e, 0.0))
    assert n.rating_after == performance_rating(n.after.result_list or ())
    assert n.after.prior_grade == n.before.prior_grade


def test_prior_grade_pairs_only_in_the_first_table() -> None:
    state = make_unrated(1500, [(1400, 1.0)])._replace(prior_grade=make_newcomer(("dan", 1)).prior_grade)
    out = rate({"U": state, "E": make_established(1500)}, [make_game(1, "U", "E", 0.0)])
    assert out["U"].after.result_list == ((1400, 1.0), (out["E"].rating_after, 0.0))


def test_a_count_of_zero_is_a_first_table_too() -> None:
    state = PlayerState(result_list=None, game_count=0)
    out = rate({"N": state, "E": make_established(1500)}, [make_game(1, "N", "E", 0.5)])
    assert out["N"].method == "performance"
    assert out["N"].after.result_list == ((1500, 0.5),)


def test_result_list_moves_to_a_count_at_nine_games_with_mixed_results() -> None:
    """6 stored + 3 games = 9: rated normally from the stored rating; history becomes the count 9."""
    out = rate({"U": make_unrated(1520, MIXED), "E": make_established(1500)}, three_games_against("E", "U", (1, 0, 1)))
    u = out["U"]
    assert u.method == "normal"
    assert u.after.result_list is None and u.after.game_count == 9
    assert u.after.bonus_count == 3
    assert u.games[0].rating_before_game == 1520


def test_fewer_than_nine_games_stay_on_the_list() -> None:
    out = rate(
        {"U": make_unrated(1520, MIXED[:5]), "E": make_established(1500)}, three_games_against("E", "U", (1, 0, 1))
    )
    assert out["U"].method == "performance"
    assert len(out["U"].after.result_list or ()) == 8


@pytest.mark.parametrize("result", [0.0, 1.0])
def test_only_wins_or_only_losses_stay_performance_rated_past_nine_games(result: float) -> None:
    stored = [(1500 + 10 * i, result) for i in range(10)]
    out = rate({"U": make_unrated(1900 if result else 1, stored), "E": make_established(1500)},
               three_games_against("E", "U", (1, 0, 0.5)))  # fmt: skip
    assert out["U"].method == "performance"
    assert len(out["U"].after.result_list or ()) == 13


def test_a_rating_of_zero_stays_performance_rated() -> None:
    out = rate({"U": make_unrated(0, MIXED), "E": make_established(1500)}, three_games_against("E", "U", (1, 0, 1)))
    assert out["U"].method == "performance"


def test_a_game_count_is_rated_normally_even_below_nine() -> None:
    out = rate({"A": make_established(1500, games=3), "B": make_established(1500)}, [make_game(1, "A", "B", 1.0)])
    assert out["A"].method == "normal" and out["A"].after.game_count == 4


# --- the result list in the program's order -----------------------------------------------------------------


def test_new_list_is_the_stored_list_reversed_then_the_games_in_round_order() -> None:
    stored = [(1300, 1.0), (1700, 0.0), (900, 1.0)]
    games = [make_game(3, "U", "A", 0.0), make_game(1, "U", "B", 1.0), make_game(2, "A", "U", 0.5)]
    out = rate({"U": make_unrated(1200, stored), "A": make_established(1600), "B": make_established(1100)}, games)
    a, b = out["A"].rating_after, out["B"].rating_after
    assert out["U"].after.result_list == ((900, 1.0), (1700, 0.0), (1300, 1.0), (b, 1.0), (a, 0.5), (a, 0.0))
    assert [g.round for g in out["U"].games] == [1, 2, 3]


def test_stored_ratings_below_400_come_back_floored() -> None:
    out = rate({"U": make_unrated(600, [(200, 0.0), (200, 1.0)]), "E": make_established(800)},
               [make_game(1, "U", "E", 1.0)])  # fmt: skip
    assert out["U"].after.result_list == ((400, 1.0), (400, 0.0), (out["E"].rating_after, 1.0))


def test_all_lost_gets_1_and_all_won_keeps_no_temporary_draw() -> None:
    out = rate({"L": make_newcomer(), "W": make_newcomer(), "E": make_established(1500)},
               [make_game(1, "W", "E", 1.0), make_game(2, "L", "E", 0.0)])  # fmt: skip
    assert out["L"].rating_after == 1 and out["L"].performance is None
    assert out["W"].after.result_list == ((out["E"].rating_after, 1.0),)
    assert out["W"].performance == performance([(out["E"].rating_after, 1.0)])
    assert out["W"].rating_after == round(out["W"].performance or 0)


# --- solving ---------------------------------------------------------------------------------------------------


def test_a_later_player_sees_a_value_stored_earlier_in_the_same_sweep() -> None:
    """E (first in table order) draws newcomer N. In sweep 1, E meets N at the floor 400 and drops to 1486; N then
    meets E's new 1486, not 1500."""
    table = make_table({"E": make_established(1500), "N": make_newcomer()}, [make_game(1, "E", "N", 0.5)])
    solver = Solver(read_participants(table))
    assert solver.solve(1) is None
    assert solver.post == [1486, 1486]
    result = rate_table(table)
    assert solve_plainly(table) == ({o.key: o.rating_after for o in result.outcomes}, result.sweeps)
    assert result.sweeps == 4  # 1486/1486, 1501/1501, 1500/1500, then no change


def test_table_did_not_settle_names_the_table() -> None:
    """A at 1580 ends his third game at a running 1560.04 (K 24) or, when B's value is one point higher, just
    below 1560 (K 28): A flips between 1568 and 1570, B between 1451 and 1452, for ever."""
    states = {"A": make_established(1580), "B": make_established(1433)}
    games = [make_game(1, "B", "A", 1.0), make_game(2, "B", "A", 0.5), make_game(3, "B", "A", 0.0)]
    with pytest.raises(TableDidNotSettle, match=r"'Cup of Bad Luck'.*1000 sweeps"):
        rate_table(make_table(states, games, name="Cup of Bad Luck"))
    assert solve_plainly(make_table(states, games)) is None


def test_a_table_that_cycles_is_given_up_once_its_state_repeats() -> None:
    """The Cup of Bad Luck flips with period 2: from sweep 50 on, the state of two sweeps before comes back."""
    states = {"A": make_established(1580), "B": make_established(1433)}
    games = [make_game(1, "B", "A", 1.0), make_game(2, "B", "A", 0.5), make_game(3, "B", "A", 0.0)]
    solver = Solver(read_participants(make_table(states, games)))
    assert solver.solve(1_000_000) is None
    assert solver.sweeps == CYCLE_CHECK_FROM + 2


def test_a_table_that_settles_after_many_sweeps_is_not_taken_for_a_cycle() -> None:
    """Cut down from a table of the benchmark's history: two newcomers whose only result against each other is
    a loss each push each other's estimate up a little every sweep, for hundreds of sweeps, until it settles."""
    states = {"E": make_established(2315), "M": make_newcomer(), "N": make_newcomer()}
    games = [make_game(1, "N", "M", 0.0), make_game(2, "N", "E", 1.0), make_game(3, "M", "N", 0.0)]
    result = rate_table(make_table(states, games))
    assert result.sweeps > CYCLE_CHECK_FROM
    assert solve_plainly(make_table(states, games)) == ({o.key: o.rating_after for o in result.outcomes}, result.sweeps)


def test_values_moving_below_the_floor_settle_as_in_the_plain_reading() -> None:
    """Every value stays below 400, so an opponent sees 400 whatever it does: only the performance-rated players
    are evaluated again (their solver starts from their last root), and the sweeps are those of the plain reading.
    """
    states = {"A": make_established(300), "B": make_established(350), "N": make_newcomer(), "M": make_newcomer()}
    games = [
        make_game(1, "N", "A", 0.0), make_game(1, "B", "M", 1.0), make_game(2, "N", "B", 0.5),
        make_game(2, "A", "M", 0.5), make_game(3, "A", "N", 1.0), make_game(3, "M", "B", 0.5),
    ]  # fmt: skip
    result = rate_table(make_table(states, games))
    assert all(o.rating_before < 400 and o.rating_after < 400 for o in result.outcomes)
    assert any(o.rating_after != o.rating_before for o in result.outcomes if o.method == "normal")
    assert solve_plainly(make_table(states, games)) == ({o.key: o.rating_after for o in result.outcomes}, result.sweeps)


def test_sweeps_counts_the_final_sweep_without_change() -> None:
    result = rate_table(make_table({"A": make_established(1500), "B": make_established(1500)},
                                   [make_game(1, "A", "B", 0.5)]))  # fmt: skip
    assert result.sweeps == 1  # a draw between equals changes nothing
    with pytest.raises(TableDidNotSettle):
        rate_table(make_table({"A": make_established(1500), "B": make_established(1500)},
                              [make_game(1, "A", "B", 1.0)]), max_sweeps=1)  # fmt: skip


def test_players_without_a_rated_game_take_no_part() -> None:
    table = TableInput(
        name="T", date=DAY, players=["A", "idle", "B", "ghost"],
        states={"A": make_established(1500), "B": make_established(1400), "idle": make_newcomer()},
        games=[make_game(1, "B", "A", 1.0)],
    )  # fmt: skip
    result = rate_table(table)
    assert [o.key for o in result.outcomes] == ["A", "B"]


def test_outcomes_come_in_table_order_and_everyone_gets_the_date() -> None:
    states = {k: make_established(1500 + 10 * i) for i, k in enumerate("DCBA")}
    games = [make_game(1, "A", "B", 1.0), make_game(1, "C", "D", 0.0), make_game(2, "A", "D", 0.5)]
    result = rate_table(make_table(states, games, date=dt.date(2025, 1, 5)))
    assert [o.key for o in result.outcomes] == list("DCBA")
    assert {o.after.last_played for o in result.outcomes} == {dt.date(2025, 1, 5)}


def test_the_same_date_as_the_last_table_is_allowed() -> None:
    state = make_established(1500)._replace(last_played=DAY)
    assert rate({"A": state, "B": make_established(1500)}, [make_game(1, "A", "B", 1.0)])


# --- game details -------------------------------------------------------------------------------------------------


def test_game_detail_of_a_normal_game() -> None:
    out = rate({"A": make_established(1500, bonus=10), "B": make_established(1700)}, [make_game(1, "A", "B", 1.0)])
    d = out["A"].games[0]
    b = out["B"].rating_after
    assert (d.round, d.opponent, d.score, d.opponent_rating, d.effective_rating) == (1, "B", 1.0, b, b)
    assert (d.rating_before_game, d.k, d.upset) == (1500.0, 28, True)
    assert d.change == pytest.approx(28 * (b - 1500) / 160)
    assert d.bonus == pytest.approx(1.5)
    assert d.expected == pytest.approx(1 / (1 + 10 ** ((b - 1500) / 400)))
    assert out["A"].score == 1.0 and out["B"].score == 0.0


def test_game_detail_of_a_performance_rated_player_has_no_elo_parts() -> None:
    d = rate({"N": make_newcomer(), "E": make_established(1500)}, [make_game(1, "N", "E", 0.5)])["N"].games[0]
    assert (d.rating_before_game, d.expected, d.k, d.change, d.bonus, d.upset) == (None, None, None, None, None, False)


# --- invalid tables ------------------------------------------------------------------------------------------------


def invalid_table(**change: object) -> TableInput:
    base = {
        "name": "Open", "date": DAY, "players": ["A", "B", "C"],
        "states": {"A": make_established(1500), "B": make_established(1400), "C": make_established(1300)},
        "games": [make_game(1, "A", "B", 1.0)],
    }  # fmt: skip
    return TableInput(**{**base, **change})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("table", "message"),
    [
        (invalid_table(games=[make_game(2, "A", "Z", 1.0)]), "round 2, 'A' v 'Z': 'Z' is not a player"),
        (invalid_table(players=["A", "B"], games=[make_game(1, "A", "C", 1.0)]), "'C' is not a player"),
        (invalid_table(states={"A": make_established(1500)}), "'B' is not a player"),
        (invalid_table(games=[make_game(4, "A", "A", 1.0)]), "round 4, 'A' v 'A': a game against oneself"),
        (invalid_table(games=[make_game(1, "A", "B", 1.0), make_game(1, "C", "A", 0.0)]), "'A' plays twice in round 1"),
        (invalid_table(games=[make_game(1, "A", "B", 0.25)]), "round 1, 'A' v 'B': score 0.25"),
        (invalid_table(games=[Game(1, "A", "B", 1.0, Handicap("R", "C"))]), "giver 'C' is not in the game"),
        (invalid_table(games=[Game(1, "A", "B", 1.0, Handicap("Q", "A"))]), "unknown handicap 'Q'"),  # type: ignore[arg-type]
        (invalid_table(players=["A", "B", "A"]), "'A' is listed twice"),
        (invalid_table(date=dt.date(2024, 3, 1)), "dated before 'A'"),
    ],
)  # fmt: skip
def test_invalid_table(table: TableInput, message: str) -> None:
    with pytest.raises(InvalidTable, match=message.replace("(", r"\(")) as raised:
        rate_table(table)
    assert "'Open'" in str(raised.value)
