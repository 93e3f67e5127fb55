"""Corrections tests use the grades tests' way of rating one-game tables (``play``), and a rated table."""

from __future__ import annotations

import datetime as dt

import pytest

from ratings.models import Player, Table
from tests.corrections.helpers import DAY, rerate_and_check
from tests.factories import add_game, make_player, make_table
from tests.grades.conftest import play, rate
from tests.pipeline.histories import submit

__all__ = ["play", "rate"]


@pytest.fixture
def rated() -> tuple[list[Player], Table]:
    """Four players in a rated table on ``DAY`` (two games), two of them again a week later: rated, checked."""
    players = [make_player("Abe"), make_player("Berg"), make_player("Cruz"), make_player("Dahl")]
    a, b, c, d = players
    table = make_table(players, date=DAY)
    add_game(table, 1, a, b)
    add_game(table, 1, c, d)
    submit(table)
    later = make_table([a, c], date=DAY + dt.timedelta(days=7))
    add_game(later, 1, a, c)
    submit(later)
    rerate_and_check()
    return players, table
