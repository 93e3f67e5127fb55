from __future__ import annotations

import pytest

from ratings.engine.literals import is_handicap_code, is_method, is_prior_grade_kind, is_promotion_route


@pytest.mark.parametrize(
    ("check", "words"),
    [
        (is_prior_grade_kind, ["kyu", "dan", "pro"]),
        (is_handicap_code, ["S", "M", "L", "B", "R", "RL", "2p", "4p", "5p", "6p"]),
        (is_method, ["normal", "performance"]),
        (is_promotion_route, ["upper_bound", "midpoint_run", "lower_bound_run", "provisional", "bound_to_get_it"]),
    ],
)
def test_literal_checks_accept_each_word_of_their_set(check, words):
    assert all(check(word) for word in words)


@pytest.mark.parametrize("check", [is_prior_grade_kind, is_handicap_code, is_method, is_promotion_route])
@pytest.mark.parametrize("word", ["", "Dan", "s", "rl", "2P", "established", "normal ", "upper-bound"])
def test_literal_checks_refuse_words_outside_their_set(check, word):
    assert not check(word)
