"""The state list the FESA program should write after a span of tables, given its documented divergences from
the rules (docs/rules.md §5, §9; ratings/engine/program.py), and which divergence each of its differences from
the site's list comes from.

The span is replayed from the states before it with the program's documented behaviour:

* ``BYES_ONLY``: every player listed in a table without a rated game, whom the program rates with none;
* ``HALF_ROOT``: a performance-rated player whose root lies within the program's reach of a half, rounded to
  the other side. Which of those the program rounded otherwise its list alone tells: each is tried in turn and
  kept when the replay then agrees with the program's list on more fields.

Then that replay and the site's run side by side, a table at a time, tell which divergence each player who
ends up apart comes from: his own in a table, or one that reached him through an opponent (an opponent's
rating in his result list, his rating, counters, grade, in that table or any later one), which he carries into
his later tables. ``ratings/fesa_files/compare.py`` explains a difference from the program's list by the model
only where the model holds the program's very value. Two replays and two more for each half root, whatever
the number of players with only byes.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, TypeVar

from ratings.engine.program import near_half, rate_table_as_program, rated_without_games
from ratings.engine.types import PlayerState, TableInput, grade_label

from .ratingliste import ListRecord, read_nye_spillere, read_ratingliste
from .run import NYE_SPILLERE, RATINGLISTE_PRE, TURNERING, match_players
from .turnering import engine_table, read_turnering

Name = tuple[str, str]
Key = TypeVar("Key", bound=Hashable)

BYES_ONLY = "docs/rules.md §9: a player with only byes takes no part (the program rates and dates him)"
HALF_ROOT = "docs/rules.md §5: an exact half performance root (the program may round it to either side)"


def _history(s: PlayerState) -> str:
    if s.result_list is None:
        return f"{s.game_count} games"
    return "(" + " ".join(f"({rating} {score:g})" for rating, score in s.result_list) + ")"


def _prior(s: PlayerState) -> str:
    p = s.prior_grade
    return "none" if p is None else f"{p.level} {p.kind}"


STATE_FIELDS: tuple[tuple[str, Callable[[PlayerState], str]], ...] = (
    ("rating", lambda s: str(s.rating)),
    ("history", _history),
    ("bonus count", lambda s: str(s.bonus_count)),
    ("FESA grade", lambda s: grade_label(s.grade) or "none"),
    ("prior grade", _prior),
    ("LB run", lambda s: f"{s.lb_run}{' (MP seen)' if s.lb_mp_seen else ''}"),
    ("MP run", lambda s: str(s.mp_run)),
    ("last played", lambda s: str(s.last_played or "never")),
)
"""A player's fields as the comparison shows them, by name."""


class Divergence(NamedTuple):
    """One documented divergence: ``kind`` (BYES_ONLY or HALF_ROOT) for ``player`` in the span's table number
    ``position``, named ``table``."""

    position: int
    table: str
    player: Any  # a key of the span's tables
    kind: str


@dataclass(frozen=True, slots=True)
class ProgramModel:
    """The program's expected state of each player of the span, by name, and for each field the divergences
    changed, ``(name, field)``, the divergence it comes from (a field of ``STATE_FIELDS``)."""

    states: Mapping[Name, PlayerState]
    causes: Mapping[tuple[Name, str], str]


def players_without_games(tables: Sequence[TableInput]) -> list[Divergence]:
    """The BYES_ONLY divergences of the span: each table's players without a rated game, in table order."""
    out = []
    for position, table in enumerate(tables):
        playing = {p for game in table.games for p in (game.first, game.second)}
        out += [Divergence(position, table.name, p, BYES_ONLY) for p in table.players if p not in playing]
    return out


def _rate(
    states: dict[Any, PlayerState], position: int, table: TableInput, chosen: set[tuple[int, Any, str]]
) -> list[Divergence]:
    """Rate the span's table number ``position`` into ``states`` with the ``chosen`` divergences (position,
    player, kind); the half roots met: the performance-rated players whose final root lies within the program's
    reach of a half."""
    given = table._replace(states={p: states.get(p, PlayerState()) for p in table.players})
    flipped = {p for p in table.players if (position, p, HALF_ROOT) in chosen}
    result = rate_table_as_program(given, flipped=flipped)
    halves = []
    for outcome in result.outcomes:
        states[outcome.key] = outcome.after
        if outcome.method == "performance" and near_half(outcome.performance):
            halves.append(Divergence(position, table.name, outcome.key, HALF_ROOT))
    playing = {outcome.key for outcome in result.outcomes}
    for p in table.players:
        if p not in playing and (position, p, BYES_ONLY) in chosen:
            states[p] = rated_without_games(given.states[p], table.date)
    return halves


def _chosen(divergences: Sequence[Divergence]) -> set[tuple[int, Any, str]]:
    return {(d.position, d.player, d.kind) for d in divergences}


def replay(
    start: Mapping[Key, PlayerState], tables: Sequence[TableInput], divergences: Sequence[Divergence]
) -> tuple[dict[Key, PlayerState], list[Divergence]]:
    """Every player's state after the span with these divergences, and the half roots met on the way."""
    states: dict[Any, PlayerState] = dict(start)
    chosen = _chosen(divergences)
    halves: list[Divergence] = []
    for position, table in enumerate(tables):
        halves += _rate(states, position, table, chosen)
    return states, halves


def origins(
    start: Mapping[Key, PlayerState], tables: Sequence[TableInput], divergences: Sequence[Divergence]
) -> tuple[dict[Key, PlayerState], dict[Key, PlayerState], dict[Key, Divergence]]:
    """The span replayed as the site rates it and with the divergences, side by side, one table at a time; and
    for each player who ends up apart, the divergence he is apart by: his own in a table, else the one he
    entered the table apart by, else one of his opponents' in it (an opponent apart is what moved him)."""
    base: dict[Any, PlayerState] = dict(start)
    model: dict[Any, PlayerState] = dict(start)
    chosen = _chosen(divergences)
    own = {(d.position, d.player): d for d in divergences}
    origin: dict[Any, Divergence] = {}
    for position, table in enumerate(tables):
        for p in table.players:
            if base.get(p) == model.get(p):
                origin.pop(p, None)
        _rate(base, position, table, set())
        _rate(model, position, table, chosen)
        met: dict[Any, list[Any]] = {p: [] for p in table.players}
        for game in table.games:
            met[game.first].append(game.second)
            met[game.second].append(game.first)
        apart = [p for p in table.players if base.get(p) != model.get(p)]
        for p in apart:
            if (position, p) in own:
                origin[p] = own[position, p]
        while True:  # through the table's games, from the players apart by a divergence to their opponents
            found = {
                p: next(origin[o] for o in met[p] if o in origin)
                for p in apart
                if p not in origin and any(o in origin for o in met[p])
            }
            if not found:
                break
            origin.update(found)
    return base, model, origin


def _who(name: Name) -> str:
    return " ".join(part for part in name if part)


def program_model(
    start: Mapping[Key, PlayerState],
    tables: Sequence[TableInput],
    program: Mapping[Name, PlayerState],
    name_of: Mapping[Key, Name],
) -> ProgramModel:
    """The model of the program's list after ``tables`` from the ``start`` states (keyed as the tables key
    their players; ``name_of`` names them), its half roots chosen to agree with ``program``, the states read
    from the program's list."""

    def missed(states: Mapping[Key, PlayerState]) -> int:
        count = 0
        for key, state in states.items():
            theirs = program.get(name_of[key])
            if theirs is not None:
                count += sum(show(state) != show(theirs) for _, show in STATE_FIELDS)
        return count

    chosen = players_without_games(tables)
    current, halves = replay(start, tables, chosen)
    misses = missed(current)
    tried: set[Divergence] = set()
    while untried := [d for d in halves if d not in tried]:
        half = untried[0]
        tried.add(half)
        trial, trial_halves = replay(start, tables, [*chosen, half])
        trial_misses = missed(trial)
        if trial_misses < misses:
            chosen.append(half)
            current, halves, misses = trial, trial_halves, trial_misses

    base, current, origin = origins(start, tables, chosen)
    causes: dict[tuple[Name, str], str] = {}
    for key, divergence in origin.items():
        consequence = "" if key == divergence.player else f", a consequence of {_who(name_of[divergence.player])}'s"
        before = base.get(key, PlayerState())
        for field, show in STATE_FIELDS:
            if show(current[key]) != show(before):
                causes[name_of[key], field] = f"{divergence.kind} ({divergence.table}){consequence}"
    return ProgramModel(states={name_of[key]: state for key, state in current.items()}, causes=causes)


def files_span(
    turnering: bytes, ratingliste: bytes, nye_spillere: bytes | None = None
) -> tuple[dict[Name, PlayerState], list[TableInput]]:
    """The span of a standalone run (ratings/fesa_files/run.py): every player of the list and the new players by
    name with his state, and the table with its players by name; errors as the run's."""
    table = read_turnering(turnering, TURNERING)
    listed = read_ratingliste(ratingliste, RATINGLISTE_PRE)
    newcomers = read_nye_spillere(nye_spillere, NYE_SPILLERE) if nye_spillere is not None else ()
    by_name: dict[Name, ListRecord] = {}
    for record in [*newcomers, *listed]:  # the first record of a name is the one the program finds
        by_name.setdefault(record.name, record)
    matched = match_players(table, by_name)
    given = engine_table(table, {number: record.state for number, record in matched.items()}).table
    name: dict[Hashable, Name] = {number: record.name for number, record in matched.items()}
    games = tuple(
        game._replace(
            first=name[game.first],
            second=name[game.second],
            handicap=None if game.handicap is None else game.handicap._replace(giver=name[game.handicap.giver]),
        )
        for game in given.games
    )
    players = tuple(name[p] for p in given.players)
    return {key: record.state for key, record in by_name.items()}, [
        given._replace(players=players, states={}, games=games)
    ]
