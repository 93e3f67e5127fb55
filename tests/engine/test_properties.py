"""Properties that hold for any valid table (docs/rules.md §3-§7), checked on random ones."""

from __future__ import annotations

import datetime as dt
import math
from typing import get_args

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ratings.engine import (
    Game,
    Handicap,
    PlayerState,
    PriorGrade,
    RatingOffScale,
    TableDidNotSettle,
    TableInput,
    TableResult,
    rate_table,
)
from ratings.engine.errors import BeyondRankScale
from ratings.engine.literals import HandicapCode

from .builders import state_of
from .oracle import solve_plainly

DATE = dt.date(2024, 5, 1)
SCORES = st.sampled_from([0.0, 0.5, 1.0])
CODES: tuple[HandicapCode, ...] = get_args(HandicapCode)

priors = st.one_of(
    st.none(),
    st.builds(PriorGrade, st.just("kyu"), st.integers(1, 20)),
    st.builds(PriorGrade, st.just("dan"), st.integers(1, 8)),
    st.builds(PriorGrade, st.just("pro"), st.integers(1, 9)),
)
last_played = st.one_of(st.none(), st.dates(dt.date(2000, 1, 1), DATE))
newcomers = priors.map(lambda prior: PlayerState(prior_grade=prior))
unrated = st.builds(
    state_of,
    rating=st.integers(0, 2800),
    result_list=st.lists(st.tuples(st.integers(0, 3000), SCORES), min_size=1, max_size=12).map(tuple),
    grade=st.integers(0, 26),
    prior_grade=priors,
    last_played=last_played,
)
established = st.builds(
    state_of,
    rating=st.integers(-20, 2900),
    result_list=st.none(),
    game_count=st.integers(1, 300),
    bonus_count=st.integers(0, 100),
    grade=st.integers(0, 26),
    lb_run=st.integers(0, 20),
    lb_mp_seen=st.booleans(),
    mp_run=st.integers(0, 10),
    last_played=last_played,
)


@st.composite
def tables(draw: st.DrawFn, states: st.SearchStrategy[PlayerState], handicaps: bool = True) -> TableInput:
    count = draw(st.integers(2, 7))
    keys = [f"P{i}" for i in range(count)]
    games: list[Game] = []
    for rnd in range(1, draw(st.integers(1, 5)) + 1):
        order = draw(st.permutations(keys))
        for a, b in list(zip(order[::2], order[1::2], strict=False))[: draw(st.integers(1, count // 2))]:
            handicap = None
            if handicaps and draw(st.integers(0, 4)) == 0:
                handicap = Handicap(draw(st.sampled_from(CODES)), draw(st.sampled_from([a, b])))
            games.append(Game(rnd, a, b, draw(SCORES), handicap))
    players = [*keys, "idle"] if draw(st.booleans()) else keys
    return TableInput(
        name="Random",
        date=DATE,
        players=players,
        states={k: draw(states) for k in keys},
        games=draw(st.permutations(games)),
    )


any_player = st.one_of(newcomers, unrated, established)


def rate_or_none(table: TableInput) -> TableResult | None:
    """The table's result, or None when the engine refuses it: it does not settle, or a rating runs off the
    handicap scale (docs/rules.md §3)."""
    try:
        return rate_table(table)
    except (TableDidNotSettle, RatingOffScale):
        return None


@settings(deadline=None, max_examples=150)
@given(tables(any_player))
def test_the_engine_agrees_with_the_plain_solution(table: TableInput) -> None:
    """Same values and same number of sweeps as recomputing everyone every sweep, or both do not settle, or
    both run off the handicap scale."""
    try:
        plain = solve_plainly(table)
    except BeyondRankScale:
        with pytest.raises(RatingOffScale):
            rate_table(table)
        return
    result = rate_or_none(table)
    if result is None:
        assert plain is None
    else:
        assert plain == ({o.key: o.rating_after for o in result.outcomes}, result.sweeps)


@settings(deadline=None)
@given(tables(any_player))
def test_same_input_same_output_in_any_mapping_order(table: TableInput) -> None:
    result = rate_or_none(table)
    assume(result is not None)
    assert rate_table(table) == result
    shuffled = TableInput(table.name, table.date, table.players, dict(reversed(table.states.items())), table.games)
    assert rate_table(shuffled) == result


@settings(deadline=None)
@given(tables(any_player))
def test_state_update(table: TableInput) -> None:
    result = rate_or_none(table)
    assume(result is not None)
    assert result is not None
    playing = [k for k in table.players if any(k in (g.first, g.second) for g in table.games)]
    assert [o.key for o in result.outcomes] == playing
    for o in result.outcomes:
        g = len(o.games)
        before, after = o.before, o.after
        assert after.last_played == DATE
        assert after.prior_grade == before.prior_grade
        assert before.grade <= after.grade <= 26
        assert after.grade - before.grade == len(o.promotions)
        assert [p.grade for p in o.promotions] == list(range(before.grade + 1, after.grade + 1))
        assert [d.round for d in o.games] == sorted(d.round for d in o.games)
        if o.method == "normal":
            assert after.result_list is None
            assert after.game_count == before.games + g
            assert after.bonus_count == min(100, before.bonus_count + g)
            assert after.rating == before.rating + (o.change or 0)
        else:
            assert after.result_list is not None and after.bonus_count == 0
            stored = len(before.result_list or ())
            prior = 2 if before.games == 0 and before.prior_grade is not None else 0
            assert len(after.result_list) == stored + prior + g
            assert after.result_list[stored + prior :] == tuple((d.effective_rating, d.score) for d in o.games)
            if o.performance is None:
                assert after.rating == 1 and {s for _, s in after.result_list} == {0}
            else:
                assert after.rating == max(1, round(o.performance)) or abs(o.performance % 1 - 0.5) < 1e-6


@settings(deadline=None)
@given(
    tables(
        st.builds(
            state_of,
            rating=st.integers(1600, 1880),
            result_list=st.none(),
            game_count=st.integers(20, 300),
            bonus_count=st.just(100),
        ),
        handicaps=False,
    )
)
def test_changes_of_an_established_table_without_bonus_or_upset_sum_to_about_zero(table: TableInput) -> None:
    """With one K for everybody and no upset gain or bonus, a game's two changes are K(E(r_a − p_b) − E(p_a − r_b))
    (r: running rating before the game, p: post-table rating), at most K·ln10/1600·(|r_a − p_a| + |r_b − p_b|) apart
    from zero; the table adds at most 1/2 of rounding per player."""
    result = rate_or_none(table)
    assume(result is not None)
    assert result is not None
    details = [(o.rating_after, d) for o in result.outcomes for d in o.games]
    assume(all(d.k == 24 and not d.upset for _, d in details))
    bound = sum(24 * math.log(10) / 1600 * abs(d.rating_before_game - post) for post, d in details)  # type: ignore[operator]
    bound += 0.5 * len(result.outcomes)
    assert abs(sum(o.change or 0 for o in result.outcomes)) <= bound
