"""The engine builds its frozen results from drafts (ratings/engine/build.py) and a normal player's game details
in one loop with his Elo steps (outcomes.py): both must give exactly what the plain ways give."""

from __future__ import annotations

import copy
import dataclasses
import datetime as dt
import pickle
from typing import Any

import pytest
from hypothesis import assume, given, settings

from ratings.engine import (
    GameDetail,
    PlayerOutcome,
    PlayerState,
    PriorGrade,
    Promotion,
    TableInput,
)
from ratings.engine.build import (
    draft_class,
    new_game_detail,
    new_player_outcome,
    new_player_state,
    new_promotion,
)

from .builders import make_established, make_game, make_newcomer, rate
from .oracle import NormalStep, run_normal
from .test_properties import any_player, rate_or_none, tables


def rebuilt(value: Any) -> Any:
    """The same value through its class's own constructor."""
    return type(value)(**{f.name: getattr(value, f.name) for f in dataclasses.fields(value)})


def fields_of(value: Any) -> list[object]:
    return [getattr(value, f.name) for f in dataclasses.fields(value)]


def test_new_game_detail_is_the_dataclass() -> None:
    values = (3, "B", 0.5, 1234, 1300, "R", True, 1500.5, 0.25, 28, -3.5, False, 1.25)
    made = new_game_detail(*values)
    assert type(made) is GameDetail
    assert made == GameDetail(*values) and hash(made) == hash(GameDetail(*values))
    assert fields_of(made) == list(values)
    assert new_game_detail(*values[:7]) == GameDetail(*values[:7])
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.round = 4  # type: ignore[misc]


def test_new_player_state_is_the_dataclass() -> None:
    values = (1500, ((1400, 1.0), (1600, 0.5)), 0, 0, 12, PriorGrade("dan", 2), 3, True, 1, dt.date(2024, 5, 1))
    made = new_player_state(*values)  # type: ignore[arg-type]
    assert type(made) is PlayerState
    assert made == PlayerState(*values) and hash(made) == hash(PlayerState(*values))  # type: ignore[arg-type]
    assert fields_of(made) == list(values)
    assert made.games == 2
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.rating = 1  # type: ignore[misc]


def test_new_player_outcome_and_promotion_are_the_dataclasses() -> None:
    promotion = new_promotion(5, "provisional", 12, 730.5, 3)
    assert type(promotion) is Promotion and promotion == Promotion(5, "provisional", 12, 730.5, 3)
    state = PlayerState()
    values = (
        "K",
        "normal",
        state,
        state,
        4,
        None,
        (new_game_detail(1, "O", 1.0, 1500, 1500, None, False),),
        (promotion,),
    )
    made = new_player_outcome(*values)  # type: ignore[arg-type]
    assert type(made) is PlayerOutcome
    assert made == PlayerOutcome(*values) and hash(made) == hash(PlayerOutcome(*values))  # type: ignore[arg-type]
    assert fields_of(made) == list(values)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.change = 5  # type: ignore[misc]


def test_a_draft_cannot_become_a_class_of_another_layout() -> None:
    """CPython checks the layout when a draft takes on its class: a draft of one value cannot pose as another."""
    draft = draft_class(Promotion)()
    with pytest.raises(TypeError):
        draft.__class__ = GameDetail


def test_built_values_pickle_and_copy_like_constructed_ones() -> None:
    """Results travel through task queues and caches: a built value must survive pickling and copying."""
    games = [make_game(r, "A", "N", 0.5) for r in range(1, 10)]
    outcome = rate({"A": make_established(1500), "N": make_newcomer(("kyu", 1))}, games)["N"]
    assert outcome.promotions  # the newcomer's first nine games promote him: every kind of value is here
    for copied in (pickle.loads(pickle.dumps(outcome)), copy.copy(outcome), copy.deepcopy(outcome)):
        assert copied == outcome and type(copied) is PlayerOutcome
    assert dataclasses.replace(outcome, change=3).change == 3
    assert dataclasses.asdict(outcome)["games"][0]["opponent"] == "A"


@settings(deadline=None, max_examples=150)
@given(tables(any_player))
def test_every_value_of_a_rated_table_is_what_its_constructor_builds(table: TableInput) -> None:
    result = rate_or_none(table)
    assume(result is not None)
    assert result is not None
    for outcome in result.outcomes:
        values = [outcome, outcome.after, *outcome.games, *outcome.promotions]
        for value in values:
            assert value == rebuilt(value)
            assert repr(value) == repr(rebuilt(value))
        assert type(outcome.after) is PlayerState
        assert all(type(d) is GameDetail for d in outcome.games)
        assert all(type(p) is Promotion for p in outcome.promotions)


@settings(deadline=None, max_examples=150)
@given(tables(any_player))
def test_a_normal_players_details_are_run_normals_steps_to_the_last_bit(table: TableInput) -> None:
    """The outcome's own Elo loop against normal.run_normal on the same effective ratings: every step's number
    and the table's change. Compared by repr, which tells apart every float (and 0.0 from -0.0)."""
    result = rate_or_none(table)
    assume(result is not None)
    assert result is not None
    for outcome in result.outcomes:
        if outcome.method != "normal":
            continue
        before = outcome.before
        steps: list[NormalStep] = []
        r = run_normal(
            before.rating,
            before.bonus_count,
            [d.effective_rating for d in outcome.games],
            [d.score for d in outcome.games],
            steps,
        )
        details = [(d.rating_before_game, d.expected, d.k, d.change, d.upset, d.bonus) for d in outcome.games]
        assert repr(details) == repr(steps)
        assert outcome.change == round(r - before.rating)
