"""A player's standing today for his page: his ranks on today's rating list and the way to his next grade."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.utils import timezone

from ratings import engine
from ratings.engine.categories import PROVISIONAL_FROM
from ratings.engine.outlook import NextGrade, next_grade
from ratings.models import Player
from ratings.selectors.lists import list_order
from ratings.selectors.states import states_before
from ratings.selectors.versions import DataVersion


@dataclass(frozen=True)
class Standing:
    rank: int | None  # on today's list; None when the list does not rank him (not active, or still unrated)
    country_rank: int | None
    next_grade: NextGrade | None  # None at the top awarded grade
    state: engine.PlayerState

    @property
    def games_to_rank(self) -> int:
        """Games still to play before he is rated game by game and ranked (0 once he is)."""
        return max(0, PROVISIONAL_FROM - self.state.games)


def player_standing(player: Player, version: DataVersion | None = None) -> Standing:
    """His public ranks on today's list (the list's order is shared with the list's pages) and, from his state
    after his latest table, what his next grade takes."""
    order = list_order(timezone.localdate(), True, version)
    rank, country_rank = order.public_ranks_of(player.pk)
    state = states_before(date=dt.date.max, sequence=1, player_ids=[player.pk])[player.pk]
    return Standing(rank, country_rank, next_grade(state), state)
