"""The rating calculator: what a table of planned games would do to a player, rated by the engine.

The planned games become one hypothetical table, dated today, rated with ``engine.rate_table`` exactly as a
real table is: the player against each opponent, every game in its own round. An opponent picked from the
players starts from his own current state; one given by a rating alone is an established player with that
rating (who gets no weak-player bonus), so his value after the table moves as a real opponent's would, and
that is the value the player's game uses (docs/rules.md §3).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils import timezone

from ratings import engine
from ratings.engine.categories import ESTABLISHED_FROM
from ratings.engine.normal import BONUS_GAMES
from ratings.engine.outlook import NextGrade, next_grade
from ratings.engine.types import handicap_read
from ratings.models import Player
from ratings.selectors.states import states_before

YOU = "you"
"""The key of the calculating player in the hypothetical table."""


@dataclass(frozen=True)
class PlannedGame:
    """One game of the plan: against a player or a bare rating, its result and handicap."""

    score: float  # 1 win, 0.5 draw, 0 loss
    opponent: Player | None = None
    opponent_rating: int | None = None
    handicap: str = ""
    handicap_given: bool = False  # the calculating player gives the handicap


@dataclass(frozen=True)
class Calculation:
    start: engine.PlayerState
    outcome: engine.PlayerOutcome
    games: list[tuple[PlannedGame, engine.GameDetail]]

    @property
    def new_rating(self) -> int:
        return self.outcome.rating_after

    @property
    def next_grade(self) -> NextGrade | None:
        """What the grade after the one he would hold takes, from the state the table would leave."""
        return next_grade(self.outcome.after)


def players_by_federation_id(ids: Sequence[str]) -> dict[str, Player]:
    """The players with these federation ids, in one query; unknown ids are left out."""
    wanted = {i for i in ids if i}
    return {p.federation_id: p for p in Player.objects.filter(federation_id__in=wanted)} if wanted else {}


def current_states(players: Sequence[Player]) -> dict[int, engine.PlayerState]:
    """Each player's state after his latest rated table (or his opening or new player's state)."""
    if not players:
        return {}
    return states_before(date=dt.date.max, sequence=1, player_ids=[p.pk for p in players])


def state_of_rating(rating: int, games: int) -> engine.PlayerState:
    """A player known only by a rating and a game count: rated normally with them (no game: a newcomer).

    The weak-player bonus (docs/rules.md §4) is taken as counted for every game, up to its limit; the player's own
    state, picked from the players, has the exact count.
    """
    if games == 0:
        return engine.PlayerState()
    return engine.PlayerState(rating=rating, result_list=None, game_count=games, bonus_count=min(BONUS_GAMES, games))


def _opponent_state(rating: int) -> engine.PlayerState:
    # Established and past his bonus games, so that his own change is the plain K·(S − E) of §4.
    count = max(ESTABLISHED_FROM, BONUS_GAMES)
    return engine.PlayerState(rating=rating, result_list=None, game_count=count, bonus_count=BONUS_GAMES)


def calculate(
    *, start: engine.PlayerState, games: Sequence[PlannedGame], opponents: dict[int, engine.PlayerState]
) -> Calculation:
    """Rate the plan; ``opponents`` holds the current states of the opponents picked from the players.

    Raises engine.EngineError for a plan the engine cannot rate (for instance a date before a state's last
    table, which cannot happen with today's states).
    """
    keys: list[object] = [YOU]
    states: dict[object, engine.PlayerState] = {YOU: start}
    table_games = []
    for number, planned in enumerate(games, 1):
        if planned.opponent is not None:
            key: object = planned.opponent.pk
            states[key] = opponents[planned.opponent.pk]
        else:
            key = f"rating-{number}"
            states[key] = _opponent_state(planned.opponent_rating or 0)
        if key not in keys:
            keys.append(key)
        handicap = None
        if planned.handicap:
            giver = YOU if planned.handicap_given else key
            handicap = handicap_read(planned.handicap, giver)
        table_games.append(engine.Game(round=number, first=YOU, second=key, score=planned.score, handicap=handicap))
    played = [s.last_played for s in states.values() if s.last_played is not None]
    date = max([timezone.localdate(), *played])
    result = engine.rate_table(
        engine.TableInput(name="calculator", date=date, players=keys, states=states, games=table_games)
    )
    outcome = result.by_key()[YOU]
    return Calculation(start=start, outcome=outcome, games=list(zip(games, outcome.games, strict=True)))
