"""The database's JSON copy of an engine PlayerState gives the same state back, and the columns kept beside it
its values."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ratings.engine import PlayerState, PriorGrade
from ratings.models import OpeningState
from ratings.models.states import state_from_json, state_to_json
from tests.factories import make_player

scores = st.sampled_from([0.0, 0.5, 1.0])
pairs = st.tuples(st.integers(min_value=400, max_value=3000), scores)
priors = st.none() | st.builds(
    PriorGrade, kind=st.sampled_from(["kyu", "dan", "pro"]), level=st.integers(min_value=1, max_value=9)
)
states = st.builds(
    PlayerState,
    rating=st.integers(min_value=0, max_value=3000),
    result_list=st.none() | st.lists(pairs, max_size=20).map(tuple),
    game_count=st.integers(min_value=0, max_value=500),
    bonus_count=st.integers(min_value=0, max_value=100),
    grade=st.integers(min_value=0, max_value=26),
    prior_grade=priors,
    lb_run=st.integers(min_value=0, max_value=20),
    lb_mp_seen=st.booleans(),
    mp_run=st.integers(min_value=0, max_value=10),
    last_played=st.none() | st.dates(min_value=dt.date(1990, 1, 1), max_value=dt.date(2100, 1, 1)),
)


@given(states)
def test_state_json_round_trip_is_identity(state: PlayerState) -> None:
    # Through real JSON text, as the database stores it.
    assert state_from_json(json.loads(json.dumps(state_to_json(state)))) == state


@pytest.mark.django_db
@pytest.mark.parametrize(
    "state",
    [
        PlayerState(rating=1745, result_list=None, game_count=284, grade=21, last_played=dt.date(2018, 11, 15)),
        PlayerState(rating=912, result_list=((1200, 1.0), (850, 0.5), (990, 0.0)), last_played=dt.date(2024, 2, 29)),
        PlayerState(rating=0, result_list=(), grade=0, last_played=None),
    ],
    ids=["normal", "performance", "new"],
)
def test_opening_state_columns_are_the_states_values(state: PlayerState) -> None:
    """What a past date's list reads of an opening state as columns, the database keeps equal to the state."""
    opening = OpeningState.objects.create(player=make_player(), state=state_to_json(state), source="test")
    opening.refresh_from_db()
    assert (opening.rating, opening.games, opening.grade, opening.last_played) == (
        state.rating,
        state.games,
        state.grade,
        state.last_played,
    )
    assert opening.rated_by_performance == (state.result_list is not None)
