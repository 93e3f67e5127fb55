"""Tables that do not settle: the cycle the sweeps fall into, and the project's rule (docs/rules.md §10)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.engine import (
    SETTLE_RULE,
    PlayerState,
    RatingOffScale,
    TableDidNotSettle,
    TableInput,
    TableResult,
    rate_table,
    settle_by_rule,
)

from .builders import make_established, make_game, make_table, make_unrated
from .test_properties import any_player, tables


def cup_of_bad_luck() -> TableInput:
    """A flips between 1568 and 1570, B between 1451 and 1452, across a K boundary (test_table.py)."""
    states = {"A": make_established(1580), "B": make_established(1433)}
    games = [make_game(1, "B", "A", 1.0), make_game(2, "B", "A", 0.5), make_game(3, "B", "A", 0.0)]
    return make_table(states, games, name="Cup of Bad Luck")


def three_state_table() -> TableInput:
    """Found by a search over random tables: two normally and two performance-rated players, period 3."""
    states = {
        "P0": make_established(1900, games=179, bonus=4),
        "P1": make_unrated(21, [(1261, 0.5), (2868, 1.0)]),
        "P2": make_established(2482, games=196, bonus=80),
        "P3": make_unrated(417, [(2792, 0.5), (598, 0.0), (1138, 0.0), (2217, 0.0), (1107, 0.5), (2562, 1.0),
                                 (1187, 0.0), (604, 1.0), (82, 1.0)]),
    }  # fmt: skip
    games = [
        make_game(1, "P0", "P2", 0.0), make_game(1, "P1", "P3", 0.0), make_game(2, "P3", "P1", 1.0),
        make_game(3, "P2", "P1", 0.0), make_game(4, "P0", "P1", 1.0), make_game(4, "P2", "P3", 0.5),
        make_game(5, "P3", "P0", 0.5), make_game(5, "P2", "P1", 0.5),
    ]  # fmt: skip
    return make_table(states, games, name="Three states")


def newcomer_table() -> TableInput:
    """Found by the same search: a newcomer and a performance-rated player swap 983 and 1003/1004."""
    states = {
        "P0": PlayerState(),
        "P1": make_established(1747, games=159, bonus=74),
        "P2": make_unrated(101, [(107, 1.0), (2835, 0.5), (2512, 0.0), (598, 1.0), (876, 0.5), (2448, 0.0),
                                 (2065, 0.5), (2233, 0.5), (2627, 0.0), (1063, 1.0), (1562, 1.0)]),
        "P3": make_unrated(2204, [(85, 0.0), (726, 1.0), (2325, 0.5), (2898, 1.0), (2513, 0.5), (2818, 1.0),
                                  (141, 0.0), (1702, 1.0), (41, 0.0)]),
    }  # fmt: skip
    games = [
        make_game(1, "P2", "P3", 1.0), make_game(2, "P3", "P1", 0.0), make_game(2, "P0", "P2", 0.0),
        make_game(3, "P1", "P2", 0.0), make_game(4, "P0", "P2", 0.5), make_game(4, "P3", "P1", 0.0),
        make_game(5, "P0", "P3", 0.5),
    ]  # fmt: skip
    return make_table(states, games, name="Newcomer swap")


CYCLING = [cup_of_bad_luck, three_state_table, newcomer_table]


def did_not_settle(table: TableInput) -> TableDidNotSettle:
    with pytest.raises(TableDidNotSettle) as caught:
        rate_table(table)
    return caught.value


def test_the_error_carries_the_alternating_states() -> None:
    error = did_not_settle(cup_of_bad_luck())
    assert "'Cup of Bad Luck'" in str(error)
    assert error.players == ("A", "B")
    assert sorted(error.cycle) == [(1568, 1451), (1570, 1452)]
    assert {key: sorted(values) for key, values in error.states().items()} == {"A": [1568, 1570], "B": [1451, 1452]}


def test_a_longer_period_is_found_and_reported_whole() -> None:
    error = did_not_settle(three_state_table())
    assert len(error.cycle) == 3
    assert len(set(error.cycle)) == 3  # three different states, not a period-1 or period-2 cycle in disguise
    assert sorted(error.states()["P3"]) == [968, 970, 990]


@pytest.mark.parametrize("make", CYCLING)
def test_the_cycle_is_a_cycle_of_the_plain_sweeps(make: object) -> None:
    """Sweeping on past the point the cycle was found only ever visits the reported states, in their order."""
    table = make()  # type: ignore[operator]
    error = did_not_settle(table)
    for limit in range(60, 60 + 2 * len(error.cycle)):
        with pytest.raises(TableDidNotSettle) as later:
            rate_table(table, max_sweeps=limit)
        assert set(later.value.cycle) == set(error.cycle)


def test_no_cycle_is_reported_when_the_limit_comes_before_the_check() -> None:
    with pytest.raises(TableDidNotSettle) as caught:
        rate_table(cup_of_bad_luck(), max_sweeps=10)
    assert caught.value.cycle == ()


def test_the_rule_gives_each_player_his_lowest_rating_in_the_cycle() -> None:
    result = rate_table(cup_of_bad_luck(), by_rule=True)
    outcomes = result.by_key()
    assert (outcomes["A"].rating_after, outcomes["B"].rating_after) == (1568, 1451)
    assert (outcomes["A"].change, outcomes["B"].change) == (1568 - 1580, 1451 - 1433)
    assert outcomes["A"].after.game_count == 53 and outcomes["A"].after.result_list is None
    assert SETTLE_RULE == "lowest-in-cycle"


@pytest.mark.parametrize("make", CYCLING)
def test_the_rule_on_every_fixture_stays_within_the_cycle(make: object) -> None:
    table = make()  # type: ignore[operator]
    error = did_not_settle(table)
    result = rate_table(table, by_rule=True)
    states = error.states()
    assert {o.key: o.rating_after for o in result.outcomes} == {k: min(v) for k, v in states.items()}
    for o in result.outcomes:
        if o.method == "performance":  # his new list holds this table's games at the ruled ratings
            assert o.after.result_list is not None and len(o.after.result_list) >= len(o.games)


def test_the_rule_leaves_a_table_that_settles_as_it_is() -> None:
    table = make_table({"A": make_established(1500), "B": make_established(1400)}, [make_game(1, "B", "A", 1.0)])
    assert rate_table(table, by_rule=True) == rate_table(table)


cycles = st.integers(1, 8).flatmap(
    lambda players: st.lists(st.tuples(*[st.integers(-50, 3000)] * players), min_size=1, max_size=6, unique=True)
)


@given(cycles, st.randoms(use_true_random=False), st.integers(0, 5))
def test_the_rule_ignores_the_order_of_players_and_where_the_cycle_was_entered(
    cycle: list[tuple[int, ...]], random: object, turn: int
) -> None:
    ruled = settle_by_rule(cycle)
    order = list(range(len(cycle[0])))
    random.shuffle(order)  # type: ignore[attr-defined]
    shuffled = [tuple(state[i] for i in order) for state in cycle]
    turned = shuffled[turn % len(cycle) :] + shuffled[: turn % len(cycle)]
    assert settle_by_rule(turned) == tuple(ruled[i] for i in order)
    for i, value in enumerate(ruled):
        assert value in {state[i] for state in cycle}
        assert all(value <= state[i] for state in cycle)


def test_the_rule_needs_a_state() -> None:
    with pytest.raises(ValueError, match="at least one state"):
        settle_by_rule([])


def _ruled(table: TableInput) -> tuple[TableResult, TableDidNotSettle | None]:
    try:
        return rate_table(table), None
    except TableDidNotSettle as error:
        return rate_table(table, by_rule=True), error


@settings(deadline=None, max_examples=150)
@given(tables(any_player))
def test_the_rule_on_random_tables_terminates_and_stays_in_the_cycle(table: TableInput) -> None:
    """Tables that settle are rated exactly as without the rule; one that cycles gets ratings of its cycle."""
    try:
        result, error = _ruled(table)
    except TableDidNotSettle as unresolved:  # gave up without a repeated state: the rule cannot apply
        assert unresolved.cycle == ()
        return
    except RatingOffScale:  # refused before any rule: a rating off the handicap scale (docs/rules.md §3)
        with pytest.raises(RatingOffScale):
            rate_table(table)
        return
    if error is None:
        assert rate_table(table, by_rule=True) == result
        return
    states = error.states()
    for o in result.outcomes:
        assert min(states[o.key]) == o.rating_after


@settings(deadline=None, max_examples=30)
@given(st.sampled_from(CYCLING), st.randoms(use_true_random=False))
def test_the_rule_on_the_fixtures_in_any_table_order(make: object, random: object) -> None:
    """Another table order sweeps differently: whatever cycle it falls into, the rule stays within it."""
    table = make()  # type: ignore[operator]
    players = list(table.players)
    random.shuffle(players)  # type: ignore[attr-defined]
    reordered = TableInput(name=table.name, date=table.date, players=players, states=table.states, games=table.games)
    result, error = _ruled(reordered)
    if error is not None:
        assert {o.key: o.rating_after for o in result.outcomes} == {k: min(v) for k, v in error.states().items()}
