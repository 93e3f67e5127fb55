"""docs/rules.md §3: the opponent rating a game uses, with the 400 floor and handicaps from both sides.

The expected values come from a separate float32 reference (``array('f')`` instead of the engine's struct
rounding), written from the rule's text.
"""

from __future__ import annotations

import itertools
import math
from array import array
from typing import get_args

import pytest

from ratings.engine.literals import HandicapCode

from .builders import make_established, make_game, make_newcomer, rate

POINTS = [
    (0, -5), (80, -4), (160, -3), (240, -2), (320, -1), (400, 0), (480, 1), (560, 2), (640, 3), (720, 4), (800, 5),
    (880, 6), (960, 7), (1040, 8), (1120, 9), (1200, 10), (1280, 11), (1360, 12), (1460, 13), (1560, 14),
    (1680, 15), (1800, 16), (1920, 17), (2080, 18), (2240, 19), (2440, 20), (2640, 21), (2880, 22), (3120, 23),
    (9999, 24),
]  # fmt: skip
VALUES = {"S": 0.2, "M": 0.2, "L": 0.6, "B": 1.5, "R": 2.1, "RL": 2.7, "2p": 3.6, "4p": 5.0, "5p": 6.5, "6p": 8.0}
CODES: tuple[HandicapCode, ...] = get_args(HandicapCode)


def f32(x: float) -> float:
    return array("f", [x])[0]


def reference_rank(rating: float) -> float:
    if rating <= 0:
        return 0.0
    for (r0, k0), (r1, _) in itertools.pairwise(POINTS):
        if r0 <= rating < r1:
            return f32(k0 + (rating - r0) / (r1 - r0))
    raise AssertionError("off the scale")


def reference_rating(rank: float) -> int:
    if rank < -5:
        return 1
    k0 = math.floor(rank)
    (r0, _), (r1, _) = POINTS[k0 + 5], POINTS[k0 + 6]
    p = f32(rank - k0)
    return round(f32(r0 + f32(p * (r1 - r0))))


def shifted(rating: float, code: str) -> int:
    return reference_rating(f32(reference_rank(rating) - f32(VALUES[code])))


def test_every_code_of_the_rules_is_known() -> None:
    assert set(CODES) == set(VALUES)


@pytest.mark.parametrize("giver_first", [True, False], ids=["giver-first", "giver-second"])
@pytest.mark.parametrize("code", CODES)
def test_handicap_seen_from_both_sides(code: HandicapCode, giver_first: bool) -> None:
    states = {"G": make_established(1750), "R": make_established(1200)}
    game = make_game(1, "G", "R", 0.0, code, "G") if giver_first else make_game(1, "R", "G", 1.0, code, "G")
    out = rate(states, [game])
    giver, receiver = out["G"].games[0], out["R"].games[0]
    post_g, post_r = out["G"].rating_after, out["R"].rating_after
    # The receiver meets the giver's rating moved down the rank scale by the handicap.
    assert (receiver.opponent_rating, receiver.effective_rating) == (post_g, shifted(post_g, code))
    # The giver meets the receiver's rating plus what the handicap costs himself at his own pre-table rating.
    assert (giver.opponent_rating, giver.effective_rating) == (post_r, post_r + 1750 - shifted(1750, code))
    assert (giver.handicap, giver.handicap_given) == (code, True)
    assert (receiver.handicap, receiver.handicap_given) == (code, False)


def test_handicap_effect_of_the_worked_example_in_a_table() -> None:
    """A 1 Dan at 1750 giving a rook: 1750 − 1508 = 242 points added to his opponent's rating."""
    out = rate({"G": make_established(1750), "R": make_established(1500)}, [make_game(1, "G", "R", 1.0, "R")])
    assert out["G"].games[0].effective_rating == out["R"].rating_after + 242


def test_the_400_floor_comes_before_the_handicap() -> None:
    """A receiver whose giver ends at 1 (all lost) meets rating_of(rank_of(400) − h), below 400: no second floor."""
    out = rate({"G": make_newcomer(), "R": make_established(1200)}, [make_game(1, "G", "R", 0.0, "R")])
    assert out["G"].rating_after == 1
    assert out["R"].games[0].effective_rating == shifted(400, "R") == 232


def test_opponent_rating_is_floored_at_400_without_handicap() -> None:
    out = rate({"N": make_newcomer(), "E": make_established(1200)}, [make_game(1, "N", "E", 0.0)])
    detail = out["E"].games[0]
    assert (detail.opponent_rating, detail.effective_rating) == (1, 400)


def test_a_performance_rated_giver_uses_his_own_estimate() -> None:
    out = rate(
        {"N": make_newcomer(), "A": make_established(1500), "B": make_established(1300)},
        [make_game(1, "N", "A", 1.0, "B"), make_game(2, "N", "B", 0.0)],
    )
    estimate = out["N"].rating_after
    detail = out["N"].games[0]
    assert detail.effective_rating == out["A"].rating_after + estimate - shifted(estimate, "B")
    assert out["N"].after.result_list == ((detail.effective_rating, 1.0), (out["B"].rating_after, 0.0))
