"""The database's JSON copy of an engine PlayerState gives the same state back."""

from __future__ import annotations

import datetime as dt
import json

from hypothesis import given
from hypothesis import strategies as st

from ratings.engine import PlayerState, PriorGrade
from ratings.models.states import state_from_json, state_to_json

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
