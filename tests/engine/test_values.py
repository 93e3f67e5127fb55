"""The engine's values (types.py), and a normal player's game details, built in one loop with his Elo steps
(outcomes.py): they must be exactly what the plain reading of the rules gives."""

from __future__ import annotations

import copy
import datetime as dt
import pickle

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

from .builders import make_established, make_game, make_newcomer, rate
from .oracle import NormalStep, run_normal
from .test_properties import any_player, rate_or_none, tables


def test_values_are_immutable() -> None:
    """A value handed out (to a cache, to another table's states) cannot be changed under its holder."""
    state = PlayerState(1500, None, 30, 15, 12, PriorGrade("dan", 2), 3, True, 1, dt.date(2024, 5, 1))
    detail = GameDetail(3, "B", 0.5, 1234, 1300, "R", True, 1500.5, 0.25, 28, -3.5, False, 1.25)
    for value, name in ((state, "rating"), (detail, "round"), (state.prior_grade, "level")):
        with pytest.raises(AttributeError):
            setattr(value, name, 4)


def test_a_game_detail_of_seven_values_has_no_elo_parts() -> None:
    """The performance loop builds GameDetail from its first seven fields: the rest are the defaults."""
    detail = GameDetail(3, "B", 0.5, 1234, 1300, None, False)
    assert (detail.rating_before_game, detail.expected, detail.k, detail.change, detail.upset, detail.bonus) == (
        None,
        None,
        None,
        None,
        False,
        None,
    )


def test_rated_values_pickle_copy_and_replace() -> None:
    """Results travel through task queues and caches: a value must survive pickling and copying, and a changed
    copy is made with ``_replace``."""
    games = [make_game(r, "A", "N", 0.5) for r in range(1, 10)]
    outcome = rate({"A": make_established(1500), "N": make_newcomer(("kyu", 1))}, games)["N"]
    assert outcome.promotions  # the newcomer's first nine games promote him: every kind of value is here
    for copied in (pickle.loads(pickle.dumps(outcome)), copy.copy(outcome), copy.deepcopy(outcome)):
        assert copied == outcome and type(copied) is PlayerOutcome
        assert type(copied.after) is PlayerState and type(copied.promotions[0]) is Promotion
    assert outcome._replace(change=3).change == 3
    assert outcome._asdict()["games"][0].opponent == "A"
    assert hash(outcome.after) == hash(PlayerState(*outcome.after))


@settings(deadline=None, max_examples=150)
@given(tables(any_player))
def test_every_value_of_a_rated_table_is_what_its_constructor_builds(table: TableInput) -> None:
    """The outcome loops build GameDetail from bare tuples (outcomes._new): each must be a whole GameDetail,
    every field in its place, as the class's own constructor builds it from the field names."""
    result = rate_or_none(table)
    assume(result is not None)
    assert result is not None
    for outcome in result.outcomes:
        for value in [outcome, outcome.before, outcome.after, *outcome.games, *outcome.promotions]:
            cls = type(value)
            assert len(value) == len(cls._fields)
            rebuilt = cls(**value._asdict())
            assert value == rebuilt and repr(value) == repr(rebuilt)
        assert all(type(d) is GameDetail for d in outcome.games)
        if outcome.method == "performance":
            assert all(d.k is None and d.upset is False for d in outcome.games)


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
