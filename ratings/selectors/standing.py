"""A player's standing today for his page: his ranks on today's rating list and the way to his next grade."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from ratings import engine
from ratings.engine.categories import PROVISIONAL_FROM
from ratings.engine.outlook import NextGrade, next_grade
from ratings.models import ListEntry, Player, StoredList
from ratings.selectors.lists import player_entry
from ratings.selectors.states import states_before


@dataclass(frozen=True)
class Standing:
    rank: int | None  # on today's list; None when the list does not rank him (not active, or still unrated)
    country_rank: int | None
    # The share of today's ranked players rated below him, in percent, in the federation and in his country.
    percentile: float | None
    country_percentile: float | None
    next_grade: NextGrade | None  # None at the top awarded grade
    state: engine.PlayerState

    @property
    def games_to_rank(self) -> int:
        """Games still to play before he is rated game by game and ranked (0 once he is)."""
        return max(0, PROVISIONAL_FROM - self.state.games)

    @property
    def one_sided(self) -> bool:
        """Whether a performance-rated player's results are all wins or all losses: whatever his game count, his
        next table rates him by performance again (docs/rules.md §6), and only the table after one that mixes
        his results rates him game by game."""
        results = {score for _, score in self.state.result_list or ()}
        return results in ({0}, {1})


def player_standing(player: Player, stored: StoredList) -> Standing:
    """His public ranks and percentiles on ``stored``, today's list (ratings/services/lists.py ``list_stored``: the
    list the list's pages read), and, from his state after his latest table, what his next grade takes."""
    entry = player_entry(stored, player) or ListEntry()
    state = states_before(date=dt.date.max, sequence=1, player_ids=[player.pk])[player.pk]
    return Standing(
        entry.rank, entry.country_rank, entry.percentile, entry.country_percentile, next_grade(state), state
    )
