"""The FESA rules' tables of constants and the rank scale (docs/rules.md §2 and §3).

K by rating, the grade table (LB, MP, UB, #LB, #MP) on the engine's grade scale (grades.py: 0 = no grade,
1 = 20 Kyu .. 20 = 1 Kyu, 21 = 1 Dan .. 26 = 6 Dan, 27 = 7 Dan for the tests only), the handicap values, and
the piecewise linear rating <-> rank conversion used for handicaps, computed in IEEE single precision
exactly as the official program does, because its float32 rounding shows in its results.
"""

from __future__ import annotations

import math
import struct
from typing import Final

from .errors import BeyondRankScale
from .grades import SEVEN_DAN
from .literals import HandicapCode

# --- K (R1) -----------------------------------------------------------------------------------------------


def k_factor(r: float) -> int:
    """K for the (running, unrounded) rating ``r`` (docs/rules.md §2)."""
    if r >= 2240:
        return 16
    if r >= 1920:
        return 20
    if r >= 1560:
        return 24
    if r >= 1280:
        return 28
    if r >= 1040:
        return 32
    if r >= 720:
        return 36
    return 40


# --- Grades (R2) ------------------------------------------------------------------------------------------

# Index = grade on the engine's scale; index 0 (no grade) is unused.
_LB: Final = (
    None,
    0, 80, 160, 240, 320, 400, 480, 560, 640,  # 20 .. 12 Kyu
    720, 800, 880, 960,  # 11 .. 8 Kyu
    1040, 1120, 1200,  # 7 .. 5 Kyu
    1280, 1360, 1460,  # 4 .. 2 Kyu
    1560,  # 1 Kyu
    1680, 1800, 1920, 2080, 2240, 2440,  # 1 .. 6 Dan
    2640,  # 7 Dan
)  # fmt: skip
_MP: Final = (
    None,
    40, 120, 200, 280, 360, 440, 520, 600, 680,
    760, 840, 920, 1000,
    1080, 1160, 1240,
    1320, 1410, 1510,
    1620,
    1740, 1860, 2000, 2160, 2340, 2540,
    2760,
)  # fmt: skip
_UB_OF_7_DAN: Final = 2880

# Run lengths; None = the route does not exist ("—"), math.inf = counted but never reached (7 Dan).
_RUNS: Final[tuple[tuple[float | None, float | None], ...]] = (
    (None, None),
    *([(6, 3)] * 9),  # 20 .. 12 Kyu
    *([(8, 4)] * 4),  # 11 .. 8 Kyu
    *([(10, 5)] * 3),  # 7 .. 5 Kyu
    *([(12, 6)] * 3),  # 4 .. 2 Kyu
    *([(14, 7)] * 3),  # 1 Kyu, 1 Dan, 2 Dan
    *([(16, 8)] * 2),  # 3, 4 Dan
    (None, 10),  # 5 Dan
    (None, None),  # 6 Dan
    (math.inf, math.inf),  # 7 Dan
)


def lower_bound(grade: int) -> int:
    return _LB[grade]  # type: ignore[return-value]


def midpoint(grade: int) -> int:
    return _MP[grade]  # type: ignore[return-value]


def upper_bound(grade: int) -> int:
    """UB(g) = LB of the next grade; 2880 for 7 Dan."""
    return _UB_OF_7_DAN if grade == SEVEN_DAN else _LB[grade + 1]  # type: ignore[return-value]


def lb_run_length(grade: int) -> float | None:
    """#LB of ``grade``: None if the route does not exist, inf for 7 Dan."""
    return _RUNS[grade][0]


def mp_run_length(grade: int) -> float | None:
    """#MP of ``grade``: None if the route does not exist, inf for 7 Dan."""
    return _RUNS[grade][1]


# --- Handicaps (R12) --------------------------------------------------------------------------------------

HANDICAPS: Final[dict[HandicapCode, float]] = {
    "S": 0.2,
    "M": 0.2,
    "L": 0.6,
    "B": 1.5,
    "R": 2.1,
    "RL": 2.7,
    "2p": 3.6,
    "4p": 5.0,
    "5p": 6.5,
    "6p": 8.0,
}
"""The handicaps, in grades (R12); its keys are every handicap code a game may carry."""
HANDICAP_CODES: Final[tuple[HandicapCode, ...]] = tuple(HANDICAPS)

# --- The rank scale (§3) ----------------------------------------------------------------------------------

_RANK_RATINGS: Final = (
    0, 80, 160, 240, 320, 400, 480, 560, 640, 720, 800, 880, 960, 1040, 1120, 1200, 1280, 1360, 1460,
    1560, 1680, 1800, 1920, 2080, 2240, 2440, 2640, 2880, 3120, 9999,
)  # fmt: skip
_FIRST_RANK: Final = -5  # the rank of _RANK_RATINGS[0]; rank k sits at index k + 5
_LAST_INDEX: Final = len(_RANK_RATINGS) - 1

_F32: Final = struct.Struct("f")


def f32(x: float) -> float:
    """``x`` rounded to the nearest IEEE single-precision value."""
    return float(_F32.unpack(_F32.pack(x))[0])


def rank_of(rating: float) -> float:
    """The fractional rank of ``rating``, rounded to float32. A rating <= 0 maps to rank 0, as in the program."""
    if rating <= 0:
        return 0.0
    i = 0
    while i < _LAST_INDEX - 1 and rating >= _RANK_RATINGS[i + 1]:
        i += 1
    r0, r1 = _RANK_RATINGS[i], _RANK_RATINGS[i + 1]
    return f32(i + _FIRST_RANK + (rating - r0) / (r1 - r0))


def rating_of(rank: float) -> int:
    """The rounded rating of a (float32) rank, interpolated in float32 steps; a rank below -5 gives 1."""
    if rank < _FIRST_RANK:
        return 1
    k0 = math.floor(rank)
    i = min(k0 - _FIRST_RANK, _LAST_INDEX - 1)
    r0, r1 = _RANK_RATINGS[i], _RANK_RATINGS[i + 1]
    p = f32(rank - (i + _FIRST_RANK))
    q = f32(p * (r1 - r0))
    return round(f32(r0 + q))


SCALE_END: Final = _RANK_RATINGS[-1]
"""The last point of the rank scale: a rating at or above it has no grade to convert a handicap from."""


def handicap_shift(rating: float, handicap: float) -> int:
    """``rating_of(rank_of(rating) - h)`` with the subtraction in float32 (§3).

    Raises BeyondRankScale for a rating at or above ``SCALE_END``: the program's scale ends there and it stops
    on such a table (a performance-rated giver's estimate can run away through the handicap, 10243 and more).
    """
    if rating >= SCALE_END:
        raise BeyondRankScale(rating)
    return rating_of(f32(rank_of(rating) - f32(handicap)))
