"""Saving a table with its entries and games: the one way every path writes them, after the same checks.

The admin's table form, the FESA upload (ratings/services/fesa/tables.py) and the tests save tables here.
:func:`table_check` finds every reason a table could not be saved as given (its date, its sequence, its
entries, its games), each named by its field, round and players, and raises :class:`TableRefused`;
:func:`table_save` makes the same check inside its transaction, then writes the table, its entries and its
games, and asks for a re-rate in that same transaction when a submitted or rated table changed.

Swaps: two players trading numbers, or games trading players or rounds, pass through states that the unique
constraints (one number per player, one game per player per round) refuse whatever the order of the writes,
although the table before and after is valid. The rows that move are first *parked* on numbers far above
any real one, then written with their final values.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _
from simple_history.models import HistoricalRecords
from simple_history.utils import bulk_create_with_history

from ratings.db import advisory_xact_lock
from ratings.models import Game, RatingRow, Table, TableEntry, TableStatus, Tournament
from ratings.selectors.players import player_names
from ratings.selectors.states import states_before
from ratings.services.tables.dates import table_date_problems
from ratings.services.tables.submit import (
    GameFacts,
    TableInvalid,
    engine_games,
    missing_rounds,
    table_changed,
    table_problems,
)
from ratings.services.tables.twins import twin_problems

# Far above any real number or round, within a PostgreSQL smallint and the "1 or more" constraints.
PARKING_FROM = 32000

TABLE_FIELDS = ("tournament_id", "name", "date", "sequence")


class TableRefused(TableInvalid):
    """A table that cannot be saved as given; ``by_field`` groups the problems by what they are about:
    ``"date"``, ``"sequence"``, ``"entries"`` or ``"games"``."""

    def __init__(self, by_field: Mapping[str, Sequence[str]]) -> None:
        self.by_field = {name: list(messages) for name, messages in by_field.items() if messages}
        super().__init__([message for messages in self.by_field.values() for message in messages])


@dataclass(frozen=True)
class EntryFacts:
    """A player entered in the table; ``seat`` None: the next number after the highest one given."""

    player_id: int
    seat: int | None = None


@dataclass(frozen=True)
class GameEdit:
    """A game as it is to be saved; ``id`` is the saved game of this table it replaces (its history goes on),
    None for a new game. The table's saved games that no edit names are deleted."""

    facts: GameFacts
    id: int | None = None


@dataclass
class RowChanges:
    """What a save did to one kind of row, as the admin's change message lists it."""

    new: list[Any] = field(default_factory=list)
    changed: list[tuple[Any, list[str]]] = field(default_factory=list)
    deleted: list[Any] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.new or self.changed or self.deleted)


@dataclass
class TableSaved:
    table: Table
    entries: RowChanges
    games: RowChanges
    rerate_requested: bool


TABLE_DATE_LOCK = 0x5E5A_0002
"""The class of the advisory locks that hold one date's sequences (the other half of the key: the date)."""


def table_date_lock(*, date: dt.date) -> None:
    """Hold ``date``'s sequences until the transaction ends: a second save of a table on that date waits here,
    then sees the first's table, so two new tables never both take the next free number.

    PostgreSQL only (a transaction-level advisory lock); SQLite lets one transaction write at a time anyway.
    Must run inside ``transaction.atomic`` (else it would be released at once).
    """
    advisory_xact_lock(TABLE_DATE_LOCK, date.toordinal())


def next_free_sequence(*, date: dt.date, exclude_table: int | None = None) -> int:
    """The number after the highest sequence of the tables of ``date`` (1 for the first table of a day)."""
    tables = Table.objects.filter(date=date)
    if exclude_table is not None:
        tables = tables.exclude(pk=exclude_table)
    highest = tables.aggregate(m=Max("sequence"))["m"]
    return (highest or 0) + 1


def table_seats(entries: Sequence[EntryFacts]) -> list[EntryFacts]:
    """The entries with every missing number filled, in order, after the highest number given."""
    following = max((e.seat for e in entries if e.seat is not None), default=0) + 1
    seated = []
    for entry in entries:
        if entry.seat is None:
            entry = EntryFacts(player_id=entry.player_id, seat=following)
            following += 1
        seated.append(entry)
    return seated


def entry_problems(*, entries: Sequence[EntryFacts], names: Mapping[int, str]) -> list[str]:
    """A number below 1, a player entered twice, a number given twice; ``entries`` have their numbers."""
    problems: list[str] = []
    seat_of: dict[int, int] = {}
    player_at: dict[int, int] = {}
    for entry in entries:
        player, seat = names.get(entry.player_id, f"#{entry.player_id}"), entry.seat or 0
        if seat < 1:
            problems.append(_("%(player)s: numbers start at 1, not %(seat)s.") % {"player": player, "seat": seat})
        if entry.player_id in seat_of:
            problems.append(
                _("%(player)s is entered twice (numbers %(a)s and %(b)s).")
                % {"player": player, "a": seat_of[entry.player_id], "b": seat}
            )
        elif seat in player_at:
            problems.append(
                _("Number %(seat)s is given to both %(a)s and %(b)s.")
                % {"seat": seat, "a": names.get(player_at[seat], f"#{player_at[seat]}"), "b": player}
            )
        seat_of.setdefault(entry.player_id, seat)
        player_at.setdefault(seat, entry.player_id)
    return problems


@dataclass(frozen=True)
class _Saved:
    """The table as it is in the database before this save."""

    tournament_id: int
    name: str
    date: dt.date
    sequence: int
    status: str


def _saved(table: Table | None, *, lock: bool = False) -> _Saved | None:
    if table is None or table.pk is None:
        return None
    rows = Table.objects.select_for_update() if lock else Table.objects.all()
    return _Saved(**rows.values(*TABLE_FIELDS, "status").get(pk=table.pk))


def table_check(
    *,
    table: Table | None,
    tournament: Tournament | None,
    date: dt.date,
    sequence: int | None,
    entries: Sequence[EntryFacts] | None,
    games: Sequence[GameFacts],
    strict_dates: bool,
) -> int:
    """Raise TableRefused with every problem of ``table`` (None: a new one) saved with these values; else
    return the sequence it takes. See :func:`table_save` for the arguments (``tournament`` None: not chosen
    yet, only the date's other rules are checked)."""
    return _checked(
        table_id=table.pk if table is not None else None,
        saved=_saved(table),
        tournament=tournament,
        date=date,
        sequence=sequence,
        entries=table_seats(_entries_or_saved(table, entries)),
        games=games,
        strict_dates=strict_dates,
    )


def _checked(
    *,
    table_id: int | None,
    saved: _Saved | None,
    tournament: Tournament | None,
    date: dt.date,
    sequence: int | None,
    entries: Sequence[EntryFacts],
    games: Sequence[GameFacts],
    strict_dates: bool,
) -> int:
    if sequence is None:
        # A table keeps its place on its day; a new or moved one comes after the day's other tables.
        if saved is not None and saved.date == date:
            sequence = saved.sequence
        else:
            sequence = next_free_sequence(date=date, exclude_table=table_id)
    problems: dict[str, list[str]] = {"date": [], "sequence": [], "entries": [], "games": []}
    problems["date"] = table_date_problems(date=date, tournament=tournament)
    if sequence < 1:
        problems["sequence"].append(_("The sequence must be 1 or more."))
    elif Table.objects.filter(date=date, sequence=sequence).exclude(pk=table_id or 0).exists():  # 0: no table's
        problems["sequence"].append(
            _("Another table of %(date)s has the number %(sequence)s; leave it empty to take the next free one.")
            % {"date": date.isoformat(), "sequence": sequence}
        )
    player_ids = [e.player_id for e in entries]
    names = player_names([*player_ids, *(pid for g in games for pid in (g.first_id, g.second_id) if pid)])
    problems["entries"] = entry_problems(entries=entries, names=names)
    status = saved.status if saved is not None else TableStatus.DRAFT
    problems["games"] = _game_problems(
        table_id=table_id,
        date=date,
        sequence=sequence,
        player_ids=player_ids,
        games=games,
        names=names,
        strict_dates=strict_dates,
        draft=status == TableStatus.DRAFT,
    )
    problems["games"] += twin_problems(date=date, games=games, exclude_table=table_id)
    if any(problems.values()):
        raise TableRefused(problems)
    return sequence


def _game_problems(
    *,
    table_id: int | None,
    date: dt.date,
    sequence: int,
    player_ids: list[int],
    games: Sequence[GameFacts],
    names: Mapping[int, str],
    strict_dates: bool,
    draft: bool,
) -> list[str]:
    """The table's rules (``table_problems``) on these games, the date against the players' last rated tables,
    and, for a table already submitted (saving it re-rates it), at least one player and one rated game.

    ``strict_dates``: the date may not come before any of the players' last rated table anywhere in the
    history (directors), rather than only before the tables that precede it (rating officers, who insert late
    tables into the past on purpose and whose edits re-rate what follows).
    """
    states = states_before(date=date, sequence=sequence, player_ids=player_ids)
    lenient = {pid: state.last_played for pid, state in states.items()}
    last = dict(lenient)
    if strict_dates and player_ids:
        elsewhere = (
            RatingRow.objects.filter(player_id__in=player_ids)
            .exclude(table_id=table_id or 0)  # a new table: 0, no table's id
            .values("player_id")
            .annotate(last=Max("date"))
            .values_list("player_id", "last")
        )
        for pid, when in elsewhere:
            last[pid] = max(when, last.get(pid) or when)
    problems = table_problems(table_date=date, entry_player_ids=player_ids, games=games, names=names, last_played=last)
    playing = {g.first_id for g in games} | {g.second_id for g in games if g.second_id is not None}
    if problems and any(_after(last.get(p), date) and not _after(lenient.get(p), date) for p in playing):
        problems.append(
            _(
                "Only a rating officer can enter a table dated before one of its players' last rated table, "
                "since it changes ratings published since: check the date, or ask a rating officer."
            )
        )
    problems += missing_rounds(entry_player_ids=player_ids, games=games, names=names)
    if not draft:
        if not player_ids:
            problems.append(_("The table has no players."))
        elif not engine_games(games):
            problems.append(_("The table has no rated game."))
    return problems


def _entries_or_saved(table: Table | None, entries: Sequence[EntryFacts] | None) -> Sequence[EntryFacts]:
    if entries is not None or table is None or table.pk is None:
        return entries or []
    return [EntryFacts(player_id=e.player_id, seat=e.seat) for e in TableEntry.objects.filter(table=table)]


def _games_or_saved(table: Table, games: Sequence[GameEdit] | None) -> Sequence[GameEdit]:
    if games is not None or table.pk is None:
        return games or []
    return [GameEdit(facts=GameFacts.of(g), id=g.pk) for g in Game.objects.filter(table=table)]


def _after(when: dt.date | None, date: dt.date) -> bool:
    return when is not None and when > date


def table_save(
    *,
    table: Table | None,
    tournament: Tournament,
    name: str,
    date: dt.date,
    sequence: int | None = None,
    entries: Sequence[EntryFacts] | None,
    games: Sequence[GameEdit] | None,
    strict_dates: bool,
) -> TableSaved:
    """Create (``table`` None or unsaved) or change a table with exactly these entries and games, in one
    transaction; raise TableRefused, writing nothing, when :func:`table_check` would.

    ``entries`` or ``games`` None keeps the saved ones. ``sequence`` None keeps the table's place on its day,
    and gives a new or moved table the next free number of its date. ``strict_dates`` is the directors' date
    rule (see ``_game_problems``). A table object given is updated in place. A change to a submitted or rated
    table asks for a re-rate from it (from its old place if it moved earlier or later) in the same transaction.
    """
    table = table if table is not None else Table()
    with transaction.atomic():
        table_date_lock(date=date)
        saved = _saved(table, lock=True)
        seated = table_seats(_entries_or_saved(table, entries))
        games = _games_or_saved(table, games)
        table.sequence = _checked(
            table_id=table.pk,
            saved=saved,
            tournament=tournament,
            date=date,
            sequence=sequence,
            entries=seated,
            games=[g.facts for g in games],
            strict_dates=strict_dates,
        )
        if saved is not None:
            table.status = saved.status  # the status is the submission's and the re-rate's to change
        table.tournament, table.name, table.date = tournament, name, date
        fields_changed = saved is None or any(getattr(table, f) != getattr(saved, f) for f in TABLE_FIELDS)
        if fields_changed:
            table.save()
        entry_changes = _write_entries(table, seated)
        game_changes = _write_games(table, games)
        rerate = saved is not None and saved.status != TableStatus.DRAFT
        rerate = rerate and (fields_changed or bool(entry_changes) or bool(game_changes))
        if rerate:
            assert saved is not None
            table_changed(table=table, old_position=(saved.date, saved.sequence))
    return TableSaved(table=table, entries=entry_changes, games=game_changes, rerate_requested=rerate)


def _park(model: type[TableEntry] | type[Game], name: str, pks: Sequence[int]) -> None:
    """Move rows to unused numbers, without a history record: the next write gives them their real value."""
    for offset, pk in enumerate(pks):
        model.objects.filter(pk=pk).update(**{name: PARKING_FROM + offset})


def _write_entries(table: Table, entries: Sequence[EntryFacts]) -> RowChanges:
    """Match the saved entries by player: a player keeps his row (and its history) when his number moves, so
    "the players of rows 1 and 2 swapped" is two number changes, not two players leaving and coming back."""
    changes = RowChanges()
    existing = {e.player_id: e for e in TableEntry.objects.filter(table=table).select_related("player")}
    wanted = {e.player_id for e in entries}
    for player_id, entry in existing.items():
        if player_id not in wanted:
            entry.delete()
            changes.deleted.append(entry)
    staying = [(existing[e.player_id], e.seat) for e in entries if e.player_id in existing]
    _park(TableEntry, "seat", [entry.pk for entry, seat in staying if entry.seat != seat])
    new: list[TableEntry] = []
    for facts in entries:
        seat = facts.seat
        assert seat is not None, "table_seats numbered every entry"
        found = existing.get(facts.player_id)
        if found is None:
            new.append(TableEntry(table=table, player_id=facts.player_id, seat=seat))
        elif found.seat != seat:
            found.seat = seat
            found.save(update_fields=["seat"])
            changes.changed.append((found, ["seat"]))
    changes.new = _created(TableEntry, new)
    return changes


def _created(model: type[TableEntry] | type[Game], rows: list[Any]) -> list[Any]:
    """Insert new rows with their history at once, recorded as the user of the request, as ``save()`` would
    record them: a table uploaded whole has a thousand entries and thousands of games."""
    if not rows:
        return []
    request = getattr(HistoricalRecords.context, "request", None)
    user = getattr(request, "user", None)
    user = user if getattr(user, "is_authenticated", False) else None
    return bulk_create_with_history(rows, model, batch_size=500, default_user=user)


def _game_fields(facts: GameFacts) -> dict[str, Any]:
    return {
        "round": facts.round,
        "first_id": facts.first_id,
        "second_id": facts.second_id,
        "result": facts.result,
        "handicap": facts.handicap,
        "handicap_giver": facts.handicap_giver,
        "played": facts.played,
        "replay_draw": facts.replay_draw,
    }


def _write_games(table: Table, games: Sequence[GameEdit]) -> RowChanges:
    """Delete the games no edit names, park the rounds of those that change, then write every change."""
    changes = RowChanges()
    existing = {g.pk: g for g in Game.objects.filter(table=table)}
    named = [g.id for g in games if g.id is not None]
    if len(set(named)) != len(named) or not set(named) <= existing.keys():
        raise ValueError(f"game ids {named} are not distinct saved games of table {table.pk}")
    for pk, game in existing.items():
        if pk not in named:
            game.delete()
            changes.deleted.append(game)
    changing = [
        (existing[g.id], g.facts) for g in games if g.id is not None and GameFacts.of(existing[g.id]) != g.facts
    ]
    _park(Game, "round", [game.pk for game, _facts in changing])
    for game, facts in changing:
        fields = _game_fields(facts)
        differ = [name for name, value in fields.items() if getattr(game, name) != value]
        for name, value in fields.items():
            setattr(game, name, value)
        game.save()  # every field: the parked round is not in ``differ`` but must be written back
        changes.changed.append((game, [name.removesuffix("_id") for name in differ]))
    changes.new = _created(Game, [Game(table=table, **_game_fields(edit.facts)) for edit in games if edit.id is None])
    return changes
