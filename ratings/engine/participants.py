"""A table's input checked and laid out for the solution (docs/rules.md §6: who takes part, who is rated by
performance).

One pass over the games, in round order, checks each game and files it under both its players; then the players
with a rated game are put in table order and classified. The result is a set of parallel lists indexed by the
participant's position, the layout the sweeps and the outcomes read fastest.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from operator import attrgetter
from typing import NamedTuple

from .categories import PROVISIONAL_FROM
from .constants import HANDICAPS
from .errors import InvalidTable
from .literals import HandicapCode
from .prior_grades import prior_grade_rating
from .types import Game, PlayerKey, PlayerState, ResultPair, Score, TableInput

OPPONENT_FLOOR = 400

# Which side of a handicap game a player is on.
RECEIVED = 1
GAVE = 2

SideHandicap = tuple[int, float, "HandicapCode"]
"""(RECEIVED or GAVE, the handicap in grades, its code)."""

_SCORES = frozenset((0.0, 0.5, 1.0))
_round_of = attrgetter("round")

_Sides = tuple[list[int], list[PlayerKey], list[Score], list[SideHandicap | None]]
"""One player's sides of his games, by column: the rounds, the opponents, his scores, his sides of the handicaps."""


class Participants(NamedTuple):
    """The players with a rated game, in table order; entry ``i`` of every list is about player ``i``.

    Games are in round order; ``opponents`` holds participant positions. ``handicaps[i]`` is None when player
    ``i`` has no handicap game. ``fixed[i]`` is None for a player rated normally; for one rated by performance
    it is the fixed part of his pairs (stored list with the 400 floor, prior-grade pairs), in file order.
    """

    keys: list[PlayerKey]
    states: list[PlayerState]
    rounds: list[tuple[int, ...]]
    opponents: list[tuple[int, ...]]
    scores: list[tuple[Score, ...]]
    handicaps: list[tuple[SideHandicap | None, ...] | None]
    fixed: list[list[ResultPair] | None]


def read_participants(table: TableInput, handicap_values: Mapping[HandicapCode, float] = HANDICAPS) -> Participants:
    """Validate ``table`` (InvalidTable naming it) and lay out the players with a rated game (§6).

    Errors are raised in a fixed order: a player listed twice, then the games in round order (a game against
    oneself, the score, the handicap, then each player: not of the table, or playing twice in the round), then
    the players in table order (a date before their last table). ``handicap_values``: each code's value in grades
    (rules.py; FESA's by default).
    """
    order: dict[PlayerKey, int] = {}
    for key in table.players:
        if key in order:
            raise InvalidTable(f"table {table.name!r}: player {key!r} is listed twice")
        order[key] = len(order)

    def invalid(game: Game, problem: str) -> InvalidTable:
        return InvalidTable(f"table {table.name!r}, round {game.round}, {game.first!r} v {game.second!r}: {problem}")

    states = table.states
    # Filed by column as they come, so that each player's columns need no transposing after.
    sides: dict[PlayerKey, _Sides] = {}
    for game in sorted(table.games, key=_round_of):
        rnd, first, second, score, handicap = game  # a Game's fields in order: unpacked at once, not by name
        if first == second:
            raise invalid(game, "a game against oneself")
        if score not in _SCORES:
            raise invalid(game, f"score {score!r} is not 0, 1/2 or 1")
        if handicap is None:
            mine = theirs = None
        else:
            code = handicap.code
            if code not in handicap_values:
                raise invalid(game, f"unknown handicap {code!r}")
            giver = handicap.giver
            if giver not in (first, second):
                raise invalid(game, f"the handicap giver {giver!r} is not in the game")
            value = handicap_values[code]
            mine = (GAVE if giver == first else RECEIVED, value, code)
            theirs = (GAVE if giver == second else RECEIVED, value, code)
        # Both sides written out, not looped over: this runs for every game of every table.
        own = sides.get(first)
        if own is None:
            if first not in order or first not in states:
                raise invalid(game, f"{first!r} is not a player of the table")
            own = sides[first] = ([], [], [], [])
        elif own[0][-1] == rnd:  # the games come sorted by round
            raise invalid(game, f"{first!r} plays twice in round {rnd}")
        rounds, others, scores, handicaps = own
        rounds.append(rnd)
        others.append(second)
        scores.append(float(score))
        handicaps.append(mine)
        own = sides.get(second)
        if own is None:
            if second not in order or second not in states:
                raise invalid(game, f"{second!r} is not a player of the table")
            own = sides[second] = ([], [], [], [])
        elif own[0][-1] == rnd:
            raise invalid(game, f"{second!r} plays twice in round {rnd}")
        rounds, others, scores, handicaps = own
        rounds.append(rnd)
        others.append(first)
        scores.append(1.0 - score)
        handicaps.append(theirs)

    # The keys as the games name them (a dict keeps the first key object it was given), in table order.
    keys = sorted(sides, key=order.__getitem__)
    index = {key: i for i, key in enumerate(keys)}
    at: Callable[[PlayerKey], int] = index.__getitem__
    layout = Participants(keys=keys, states=[], rounds=[], opponents=[], scores=[], handicaps=[], fixed=[])
    date = table.date
    # The lists' appends bound once: this runs for every player of every table.
    add_state, add_rounds, add_opponents = layout.states.append, layout.rounds.append, layout.opponents.append
    add_scores, add_handicaps, add_fixed = layout.scores.append, layout.handicaps.append, layout.fixed.append
    for key in keys:
        rounds, others, scores, handicaps = sides[key]
        state = states[key]
        last_played = state.last_played
        if last_played is not None and date < last_played:
            raise InvalidTable(f"table {table.name!r} of {date} is dated before {key!r}'s last table of {last_played}")
        add_state(state)
        add_rounds(tuple(rounds))
        add_opponents(tuple(map(at, others)))
        add_scores(tuple(scores))
        add_handicaps(tuple(handicaps) if any(handicaps) else None)
        # A game count of one game or more: rated normally (fixed_pairs' first answer, the common one).
        add_fixed(None if state.result_list is None and state.game_count > 0 else fixed_pairs(state, len(scores)))
    return layout


def fixed_pairs(state: PlayerState, games: int) -> list[ResultPair] | None:
    """None if the player is rated normally this table (§6); else the fixed part of his pairs, in file order.

    ``games`` is his number of rated games in the table. ``n = 0`` counts as a first table whichever form the
    empty history takes (an empty list or a count of 0). The file order: the stored list reversed (with the 400
    floor), then a newcomer's prior-grade pairs ``(p, 0), (p, 1)``.
    """
    n = state.games
    stored = state.result_list or ()
    if n > 0:
        if state.result_list is None:
            return None  # a game count: rated normally
        if state.rating != 0 and n + games >= PROVISIONAL_FROM:
            results = {s for _, s in stored}
            if results != {0} and results != {1}:
                return None  # the move from the result list to a count
    pairs = [(o if o >= OPPONENT_FLOOR else OPPONENT_FLOOR, s) for o, s in reversed(stored)]
    if n == 0 and state.prior_grade is not None:
        p = max(OPPONENT_FLOOR, prior_grade_rating(state.prior_grade))
        pairs += [(p, 0.0), (p, 1.0)]
    return pairs
