from __future__ import annotations

import pytest
from django.core.exceptions import FieldDoesNotExist

from ratings.engine.types import handicap_read as handicap
from ratings.engine.types import prior_grade_read as prior_grade
from ratings.models import Game, Player, RatingRow, db_column


def test_db_column_names_the_column_of_a_field_or_its_attname():
    assert db_column(RatingRow, "player") == db_column(RatingRow, "player_id") == "player_id"
    assert db_column(Game, "round") == "round"


def test_db_column_refuses_a_relation_without_a_column():
    with pytest.raises(FieldDoesNotExist):
        db_column(Player, "rating_rows")


def test_prior_grade_and_handicap_refuse_a_word_outside_their_sets():
    assert prior_grade("dan", 2).kind == "dan"
    assert prior_grade("", 2) is None
    with pytest.raises(ValueError, match="prior grade"):
        prior_grade("Dan", 2)
    assert handicap("RL", 7).code == "RL"
    with pytest.raises(ValueError, match="handicap"):
        handicap("rl", 7)
