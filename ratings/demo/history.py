"""The demo federation as the engine's input: opening states and tables, with no database in between.

Exactly what the site's re-rating service would hand the engine for the same federation built in the database
(``build.demo_build``): the submitted tables in date and sequence order, each with its players in seat order
and its rated games (played pairings; a sennichite replay counts as a draw, docs/rules.md §1), the opening list's
states, and a newcomer's prior grade as his first state. Draft tables are left out, as the site does. Players
are keyed by their index in ``World.players``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ratings.engine import Game, PlayerState, TableInput
from ratings.engine.types import Score, handicap_read, prior_grade_read

from .play import table_games
from .sim import SimGame, SimPlayer, World

SCORES: dict[str, Score] = {"first": 1.0, "second": 0.0, "draw": 0.5}
"""The first player's score by the result of a played game, as the re-rating service reads it."""


@dataclass(frozen=True, slots=True)
class EngineHistory:
    opening: dict[int, PlayerState]  # the players on the list the site started from
    tables: list[TableInput]  # in the order they are rated

    @property
    def games(self) -> int:
        return sum(len(t.games) for t in self.tables)


def engine_history(world: World) -> EngineHistory:
    """The world's submitted tables and opening states in the engine's terms (``rate_history`` takes them)."""
    opening = {p.index: p.opening for p in world.players if p.opening is not None}
    tables: list[TableInput] = []
    for table in world.tables:
        if table.draft:
            continue
        tournament = world.tournaments[table.tournament]
        label = f"{tournament.name}, {table.name}" if table.name else tournament.name
        tables.append(
            TableInput(
                name=f"{label} ({table.date})",
                date=table.date,
                players=list(table.players),
                states={i: first_state(world.players[i]) for i in table.players if i not in opening},
                games=[engine_game(g) for g in table_games(world, table) if g.second is not None and g.played],
            )
        )
    return EngineHistory(opening, tables)


def first_state(player: SimPlayer) -> PlayerState:
    """A newcomer's state before his first table: nothing but his prior grade, if he has one."""
    if player.prior is None:
        return PlayerState()
    return PlayerState(prior_grade=prior_grade_read(player.prior[0], player.prior[1]))


def engine_game(game: SimGame) -> Game:
    """A played pairing as the engine's game; the handicap belongs to the player who gives it."""
    assert game.second is not None
    handicap = None
    if game.handicap:
        handicap = handicap_read(game.handicap, game.first if game.giver == "first" else game.second)
    score = 0.5 if game.replay_draw else SCORES[game.result]
    return Game(game.round, game.first, game.second, score, handicap)
