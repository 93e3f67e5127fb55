"""The rules' constants as a value (rules.py): FESA's by default, the general form equal to FESA's written-out
one on FESA's constants, and other constants changing what they should."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings

from ratings.engine import TableInput, rate_table
from ratings.engine.constants import HANDICAPS, k_factor
from ratings.engine.errors import InvalidRules
from ratings.engine.normal import final_rating, final_rating_by
from ratings.engine.rules import FESA_RULES, RuleConstants

from .builders import make_established, make_game, make_table
from .test_properties import any_player, tables


def _rate(table: TableInput, rules: RuleConstants) -> object:
    try:
        return rate_table(table, rules=rules)
    except Exception as exc:  # the same refusal either way counts as the same result
        return type(exc), str(exc)


@settings(deadline=None, max_examples=200)
@given(tables(any_player))
def test_fesa_constants_in_the_general_form_rate_every_table_as_fesas_own(table: TableInput) -> None:
    """A value equal to FESA_RULES but not it takes the general form: every number must be the same, to the
    last bit (repr tells every float apart)."""
    copy = RuleConstants()
    assert copy == FESA_RULES and copy is not FESA_RULES
    assert repr(_rate(table, copy)) == repr(_rate(table, FESA_RULES))


def test_the_default_is_fesas_written_out_form() -> None:
    assert final_rating_by(FESA_RULES) is final_rating
    assert final_rating_by(RuleConstants()) is not final_rating


@pytest.mark.parametrize("r", [-50.0, 0.0, 719.9, 720.0, 1039.5, 1040.0, 1279.0, 1280.0, 1560.0, 1920.0, 2240.0])
def test_the_general_k_table_is_fesas(r: float) -> None:
    assert RuleConstants().k_factor(r) == k_factor(r)


def test_a_larger_k_moves_an_established_player_further() -> None:
    table = make_table({"A": make_established(1500), "B": make_established(1500)}, [make_game(1, "A", "B", 1.0)])
    fesa = rate_table(table).by_key()["A"]
    double = RuleConstants(k=tuple(2 * k for k in FESA_RULES.k))
    doubled = rate_table(table, rules=double).by_key()["A"]
    assert (fesa.games[0].k, doubled.games[0].k) == (28, 56)
    # Against the loser's rating after the table (1487, 1474), a little below the winner's: a bit less than K/2.
    assert (fesa.change, doubled.change) == (13, 26)


def test_the_bonus_is_the_constants() -> None:
    young = make_established(1000, bonus=0)
    table = make_table({"A": young, "B": make_established(1000)}, [make_game(1, "A", "B", 0.5)])
    assert rate_table(table).by_key()["A"].change == 4  # (1800 - 1000) / 200
    no_bonus = rate_table(table, rules=RuleConstants(bonus_divisor=0.0)).by_key()["A"]
    assert no_bonus.change == 0 and no_bonus.games[0].bonus == 0.0
    half = rate_table(table, rules=RuleConstants(bonus_divisor=400.0)).by_key()["A"]
    assert half.change == 2
    assert rate_table(table, rules=RuleConstants(bonus_games=0)).by_key()["A"].after.bonus_count == 0


def test_the_handicaps_are_the_constants() -> None:
    table = make_table(
        {"A": make_established(1500), "B": make_established(1500)}, [make_game(1, "A", "B", 1.0, "B", "A")]
    )
    fesa = rate_table(table).by_key()["B"].games[0].effective_rating
    heavier = dict(HANDICAPS, B=3.0)
    rules = RuleConstants(handicaps=tuple(heavier.items()))
    other = rate_table(table, rules=rules).by_key()["B"].games[0].effective_rating
    assert other < fesa < 1500  # the receiver sees the giver lowered by the handicap, more for a larger one


@pytest.mark.parametrize(
    "change",
    [
        {"k": (16, 20, 24, 28, 32, 36, 0)},
        {"k": (16, 20, 24, 28, 32, 36, -4)},
        {"k": (16, 20, 24)},
        {"k_from": (2240, 2240, 1560, 1280, 1040, 720)},
        {"bonus_divisor": -1.0},
        {"bonus_ceiling": float("inf")},
        {"bonus_games": -1},
        {"handicaps": (("S", 0.2),)},
        {"handicaps": tuple(dict(HANDICAPS, L=-1.0).items())},
    ],
)
def test_constants_the_rules_cannot_use_are_refused(change: dict[str, object]) -> None:
    with pytest.raises(InvalidRules):
        dataclasses.replace(FESA_RULES, **change)  # type: ignore[arg-type]


def test_the_constants_read_back_and_key_by_value() -> None:
    rules = RuleConstants(k=(10, 20, 24, 28, 32, 36, 40), bonus_divisor=300.0)
    again = RuleConstants.from_json(rules.as_json())
    assert again == rules and again.key == rules.key
    assert rules.key != FESA_RULES.key
    assert RuleConstants.from_json({}) == FESA_RULES
    assert rules.differences() == {"k": ([16, 20, 24, 28, 32, 36, 40], [10, 20, 24, 28, 32, 36, 40]),
                                   "bonus_divisor": (200.0, 300.0)}  # fmt: skip
    with pytest.raises(InvalidRules):
        RuleConstants.from_json({"k": "16 x"})


def test_every_problem_is_named_where_it_is() -> None:
    with pytest.raises(InvalidRules) as refused:
        dataclasses.replace(
            FESA_RULES,
            k=(16, 0, 24, 28, 32, -1, 40),
            k_from=(2240, 2300, 1560, 1280, 1280, 720),
            handicaps=tuple(dict(HANDICAPS, L=-1.0).items()),
        )
    assert [(problem.name, problem.at) for problem in refused.value.problems] == [
        ("k", 1), ("k", 5), ("k_from", 1), ("k_from", 4), ("handicaps", "L"),
    ]  # fmt: skip
    assert str(refused.value) == refused.value.problems[0].message
