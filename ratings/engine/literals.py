"""The engine's closed sets of words, as ``Literal`` types: handicap codes, prior-grade kinds, rating methods,
promotion routes, categories and grade units.

The engine's modules annotate with them; code that reads a set at run time uses ``typing.get_args``. The
values themselves are defined where the rules use them (constants.py ``HANDICAP_CODES``, categories.py
``CATEGORIES``); tests/engine/test_constants.py holds the two to the same words.
"""

from typing import Literal, TypeGuard, get_args

PriorGradeKind = Literal["kyu", "dan", "pro"]
HandicapCode = Literal["S", "M", "L", "B", "R", "RL", "2p", "4p", "5p", "6p"]
Method = Literal["normal", "performance"]
PromotionRoute = Literal[
    "upper_bound",  # established test: rating reached UB of the next grade
    "midpoint_run",  # established test: #MP ratings in a row at or above MP
    "lower_bound_run",  # established test: #LB ratings in a row at or above LB, one of them above MP
    "provisional",  # provisional test: rating reached UB of the grade after the next
    "bound_to_get_it",  # 20 imaginary lost games would still promote
]
Category = Literal["unrated", "provisional", "established"]
GradeUnit = Literal["Kyu", "Dan"]


# A word read from the database or a file is one of these sets only once checked: these checks let the type
# checker see it.
def is_prior_grade_kind(word: str) -> TypeGuard[PriorGradeKind]:
    return word in get_args(PriorGradeKind)


def is_handicap_code(word: str) -> TypeGuard[HandicapCode]:
    return word in get_args(HandicapCode)


def is_method(word: str) -> TypeGuard[Method]:
    return word in get_args(Method)


def is_promotion_route(word: str) -> TypeGuard[PromotionRoute]:
    return word in get_args(PromotionRoute)


def is_grade_unit(word: str) -> TypeGuard[GradeUnit]:
    return word in get_args(GradeUnit)
