"""Where a player stands in the rules: unrated, provisional or established (R3; docs/rules.md §6 and §7).

A player with a result list is rated by performance ("unrated"); once he has a game count he is provisional
until his game count reaches ``ESTABLISHED_FROM``, and established from then on. The same two numbers decide
which promotion test a game faces (§7): from game 9 the provisional test, from game 18 the established one.
"""

from __future__ import annotations

from typing import Final

from .literals import Category
from .types import PlayerState

UNRATED: Final = "unrated"
PROVISIONAL: Final = "provisional"
ESTABLISHED: Final = "established"
CATEGORIES: Final[tuple[Category, ...]] = (UNRATED, PROVISIONAL, ESTABLISHED)

PROVISIONAL_FROM: Final = 9
"""With fewer games (this table's included) a player stays rated by performance, and no game is tested."""
ESTABLISHED_FROM: Final = 18
"""The game number from which a player is established and his games face the established test."""


RANKED_CATEGORIES: Final[tuple[Category, ...]] = (PROVISIONAL, ESTABLISHED)
"""The categories the public list ranks: a rating that rests on enough games (docs/rules.md §8). A player still
rated by performance is listed without a rank; FESA's own files (all.txt) number every line as the program does."""
TOP_CATEGORIES: Final[tuple[Category, ...]] = (ESTABLISHED,)
"""The categories the top lists and the federation's statistics count."""


def is_ranked(category: str) -> bool:
    """Whether a player of ``category`` takes a rank on the public list."""
    return category in RANKED_CATEGORIES


def category_of_games(games: int, *, on_result_list: bool) -> Category:
    """The category of a player with ``games`` games, still rated by performance or not."""
    if on_result_list:
        return UNRATED
    return ESTABLISHED if games >= ESTABLISHED_FROM else PROVISIONAL


def category_of(state: PlayerState) -> Category:
    """The category ``state`` puts the player in, as the lists show it."""
    return category_of_games(state.games, on_result_list=state.result_list is not None)
