"""A table that would convert a rating at or above the rank scale's end (9999) through a handicap is refused
(docs/rules.md §3): the rules give no grade there, and the FESA program stops on such a table."""

from __future__ import annotations

import pytest

from ratings.engine import RatingOffScale
from ratings.engine.constants import HANDICAPS, SCALE_END, handicap_shift
from ratings.engine.errors import BeyondRankScale
from tests.engine.builders import make_established, make_game, make_newcomer, make_unrated, rate


def test_a_newcomer_giving_a_rook_and_winning_runs_off_the_scale_and_is_refused() -> None:
    """The reported table: his estimate runs away through the handicap (the site once wrote 10243)."""
    with pytest.raises(RatingOffScale) as refused:
        rate(
            {"N": make_newcomer(), "G": make_established(2678)},
            [make_game(1, "N", "G", 1.0, "R", giver="N")],
            name="Runaway Cup",
        )
    assert refused.value.player == "N"
    assert refused.value.rating >= SCALE_END
    assert "'Runaway Cup'" in str(refused.value) and "player N" in str(refused.value)


@pytest.mark.parametrize(("handicap", "expected"), [("R", 2341), ("2p", 2641)])
def test_the_same_handicaps_against_a_weaker_player_stay_on_the_scale(handicap: str, expected: int) -> None:
    after = rate(
        {"N": make_newcomer(), "G": make_established(1800)}, [make_game(1, "N", "G", 1.0, handicap, giver="N")]
    )
    assert after["N"].after.rating == expected


def test_an_estimate_far_up_but_below_the_scales_end_is_still_rated() -> None:
    """A bishop against 2678 takes him to 6116: high, but the scale has a grade there."""
    after = rate({"N": make_newcomer(), "G": make_established(2678)}, [make_game(1, "N", "G", 1.0, "B", giver="N")])
    assert 3120 < after["N"].after.rating < SCALE_END


def test_a_giver_already_rated_at_the_scales_end_is_named_whoever_is_rated_first() -> None:
    with pytest.raises(RatingOffScale) as refused:
        rate(
            {"A": make_unrated(1500, [(1500, 1), (1400, 0)]), "Z": make_established(SCALE_END)},
            [make_game(1, "Z", "A", 1.0, "L", giver="Z")],
        )
    assert refused.value.player == "Z"
    assert refused.value.rating == SCALE_END


@pytest.mark.parametrize("code", sorted(HANDICAPS))
def test_the_conversion_ends_exactly_at_the_last_point_of_the_scale(code: str) -> None:
    assert handicap_shift(SCALE_END - 1, HANDICAPS[code]) < SCALE_END - 1  # type: ignore[index]
    with pytest.raises(BeyondRankScale):
        handicap_shift(SCALE_END, HANDICAPS[code])  # type: ignore[index]
