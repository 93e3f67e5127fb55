"""A game's result code and what it scores (R4; docs/rules.md §1)."""

from __future__ import annotations

import pytest

from ratings.engine import InvalidTable
from ratings.engine.scores import (
    FIRST_SCORES,
    PAIRED_RESULTS,
    RESULT_CODES,
    STANDING_POINTS,
    UNPAIRED_RESULTS,
    first_score,
)


@pytest.mark.parametrize(("result", "score"), [("first", 1.0), ("second", 0.0), ("draw", 0.5)])
def test_first_score(result: str, score: float) -> None:
    assert first_score(result) == score


@pytest.mark.parametrize("result", PAIRED_RESULTS)
def test_a_replay_after_sennichite_or_jishogi_is_a_draw_whatever_its_outcome(result: str) -> None:
    assert first_score(result, replay_draw=True) == 0.5


@pytest.mark.parametrize("result", [*UNPAIRED_RESULTS, "won"])
def test_a_game_without_an_opponent_is_not_rated(result: str) -> None:
    with pytest.raises(InvalidTable, match="not rated"):
        first_score(result)


def test_every_paired_result_shares_out_one_point() -> None:
    assert all(0.0 <= s <= 1.0 for s in FIRST_SCORES.values())
    assert sorted(FIRST_SCORES.values()) == [0.0, 0.5, 1.0]


def test_standing_points_of_unpaired_results() -> None:
    assert STANDING_POINTS == {"bye": 1.0, "half_bye": 0.5, "absent": 0.0, "no_show": 0.0}


def test_result_codes_are_paired_then_unpaired_without_overlap() -> None:
    assert RESULT_CODES == PAIRED_RESULTS + UNPAIRED_RESULTS
    assert not set(PAIRED_RESULTS) & set(UNPAIRED_RESULTS)
