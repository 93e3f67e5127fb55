"""What ``manage.py fesa_compare`` needs from the site besides its state list: the rated tables, each player's
state before the first of them and his name, for the model of the program's list
(ratings/fesa_files/program_model.py)."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from typing import NamedTuple

from ratings import engine
from ratings.engine.scores import first_score
from ratings.models import Game, Player, Table, TableEntry, TableStatus
from ratings.selectors.states import starting_states


class RatedSpan(NamedTuple):
    """The rated tables up to a date as the engine takes them (players by id, in table order, every entry
    included), the players' states before the first table, and their names (family, given)."""

    tables: list[engine.TableInput]
    start: dict[int, engine.PlayerState]
    names: dict[int, tuple[str, str]]


def rated_span(*, as_of: dt.date | None = None) -> RatedSpan:
    """The rated tables of ``as_of`` or before (all without it), in rating order; a few queries, whatever the
    span."""
    tables = Table.objects.filter(status=TableStatus.RATED)
    if as_of is not None:
        tables = tables.filter(date__lte=as_of)
    rows = list(tables.order_by("date", "sequence").values_list("pk", "tournament__name", "name", "date"))
    ids = [pk for pk, *_ in rows]
    entries: dict[int, list[int]] = defaultdict(list)
    for table_id, player_id in (
        TableEntry.objects.filter(table__in=ids).order_by("table_id", "seat").values_list("table_id", "player_id")
    ):
        entries[table_id].append(player_id)
    games: dict[int, list[engine.Game]] = defaultdict(list)
    columns = ("table_id", "round", "first_id", "second_id", "result", "handicap", "handicap_giver", "replay_draw")
    rated = Game.objects.filter(table__in=ids, second__isnull=False, played=True).order_by("table_id", "round", "id")
    for table_id, rnd, first, second, result, code, giver, replay in rated.values_list(*columns):
        handicap = None if not code else engine.Handicap(code, first if giver == "first" else second)
        games[table_id].append(engine.Game(rnd, first, second, first_score(result, replay_draw=replay), handicap))
    players = {p for pk in ids for p in entries[pk]}
    names = dict(
        (pk, (family, given))
        for pk, family, given in Player.objects.filter(pk__in=players).values_list("pk", "family_name", "given_name")
    )
    span = [
        engine.TableInput(
            name=f"{Table.label_of(tournament, name)} ({date})",
            date=date,
            players=entries[pk],
            states={},
            games=games[pk],
        )
        for pk, tournament, name, date in rows
    ]
    return RatedSpan(tables=span, start=starting_states(players), names=names)
