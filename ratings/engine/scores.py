"""A game's result code and what it scores (R4; docs/rules.md §1).

The result codes are the ones a table's games are stored with. A paired result (a game between two players
of the table) gives the first player 1, 1/2 or 0; a game replayed after sennichite or jishogi counts as a
draw whatever the replay's outcome. An unpaired result (bye, absence) is never rated but still scores in the
tournament's standings.
"""

from __future__ import annotations

from typing import Final

from .errors import InvalidTable
from .types import Score

FIRST_WON: Final = "first"
SECOND_WON: Final = "second"
DRAW: Final = "draw"
BYE: Final = "bye"
HALF_BYE: Final = "half_bye"
ABSENT: Final = "absent"
NO_SHOW: Final = "no_show"

FIRST_SCORES: Final[dict[str, Score]] = {FIRST_WON: 1.0, SECOND_WON: 0.0, DRAW: 0.5}
"""The first player's score for each paired result; the second player scores the rest of the point."""
STANDING_POINTS: Final[dict[str, Score]] = {BYE: 1.0, HALF_BYE: 0.5, ABSENT: 0.0, NO_SHOW: 0.0}
"""What an unpaired result scores in the standings; it is never rated."""
PAIRED_RESULTS: Final[tuple[str, ...]] = tuple(FIRST_SCORES)
UNPAIRED_RESULTS: Final[tuple[str, ...]] = tuple(STANDING_POINTS)
RESULT_CODES: Final[tuple[str, ...]] = PAIRED_RESULTS + UNPAIRED_RESULTS

_REPLAY_SCORE: Final = FIRST_SCORES[DRAW]


def first_score(result: str, *, replay_draw: bool = False) -> Score:
    """The first player's score in a rated game with this result; a replay after sennichite or jishogi is a draw."""
    if result not in FIRST_SCORES:
        raise InvalidTable(f"a {result!r} game has no opponent and is not rated")
    return _REPLAY_SCORE if replay_draw else FIRST_SCORES[result]
