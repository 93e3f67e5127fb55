"""The FESA program's whole state in and out: ``ratingliste`` (+ ``nye-spillere``) as the opening balance,
and the current state written back in the same format.

**Import** (:func:`fesa_state_import`). Every record of the list becomes a player with an
:class:`~ratings.models.OpeningState` holding his engine state (rating, history, bonus count, FESA grade,
prior grade, promotion runs, last played), so the tables imported after it are rated from exactly that
state. The model has no column for what the list needs to be written back byte for byte (the HOME
records, each slot's spelling), so the opening state's JSON carries it under the key ``"fesa"``:
``{"order": position in the file, "file", "line", "record": the record's text as read, "homes": [[list,
nationality, residence, last], ...]}``; ratings/models/states.py reads only its own keys and ignores it.
The new players of ``nye-spillere`` are players too; one who brings nothing but his names, HOME and prior
grade (the usual newcomer) gets no opening state, so that his prior grade stays on the player and a
correction of it re-rates (ratings/services/players.py); one who brings a rating or history gets one.

A name already held by a player of the site is taken as that player if he has no opening state, no rated
table and no arrival from a ``nye-spillere`` yet (a player entered before the migration); otherwise the import
refuses it. Such a player keeps the prior grade the site has for him: only a rating officer changes a prior
grade, never a file (the outcome's notes name each one whose grade differs from the file's). The import is
one transaction: all or nothing. The ``nye-spillere`` that comes with a table is imported with the table
(ratings/services/fesa/newcomers.py).

**Export** (:func:`fesa_state_records`, :func:`fesa_state_export`). Every player's state after the last
table (or as of a date) as list records, in the program's order, written with ratings/fesa_files: players
from the list keep the spelling of every slot that did not change, and their HOME gets the date of their
last table, so a round trip with no table in between gives the same bytes.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter, defaultdict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Exists, F, OuterRef, QuerySet, Window
from django.db.models.functions import RowNumber
from django.utils.translation import gettext as _
from simple_history.utils import bulk_create_with_history

from ratings import engine
from ratings.engine.prior_grades import is_prior_grade, prior_grade_label
from ratings.fesa_files.errors import FesaFileError
from ratings.fesa_files.lisp import print_form
from ratings.fesa_files.list_order import OPENING, ListMember, program_order
from ratings.fesa_files.ratingliste import (
    ListRecord,
    check_unique_names,
    read_nye_spillere,
    read_ratingliste,
    table_origin,
    write_ratingliste,
)
from ratings.models import (
    HistoricalRow,
    ListArrival,
    OpeningState,
    Player,
    PriorGradeSource,
    RatingRow,
    Table,
    TableEntry,
    player_search_key,
)
from ratings.models.states import state_from_json, state_to_json
from ratings.selectors.fesa_records import FESA_KEY, player_list_record
from ratings.selectors.states import before_position, prior_grade_of
from ratings.services.players import players_refresh


@dataclass(frozen=True, slots=True)
class StateImportOutcome:
    players_created: int
    players_matched: int
    opening_states: int
    newcomers: int
    notes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class StateEntry:
    """A player and his list record (state as of the export's date)."""

    player: Player
    record: ListRecord


def _country(code: str) -> str:
    """A HOME code as the player's country: two letters, or nothing (the HOME itself keeps any code)."""
    code = code.strip().upper()
    return code if len(code) == 2 and code.isalpha() else ""


def _residence(record: ListRecord) -> str:
    for code in ("E", "A"):
        for home in record.homes:
            if home.list == code:
                return _country(home.residens)
    return ""


def _homes_json(record: ListRecord) -> list[list[Any]]:
    return [[h.list, h.nationality, h.residens, h.last.isoformat() if h.last else None] for h in record.homes]


def is_plain_newcomer(record: ListRecord) -> bool:
    """Brings only names, prior grade and one European HOME the player's own columns can hold."""
    fresh = engine.PlayerState(prior_grade=record.state.prior_grade)
    if record.state != fresh or len(record.homes) != 1:
        return False
    home = record.homes[0]
    return (
        home.list == "E"
        and home.last is None
        and home.nationality == _country(home.nationality)
        and home.residens in ("", _country(home.residens))
    )


def check_prior(record: ListRecord) -> None:
    prior = record.state.prior_grade
    if prior is not None and not is_prior_grade(prior.kind, prior.level):
        message = _("prior grade %(level)s %(kind)s is out of range") % {"level": prior.level, "kind": prior.kind}
        raise FesaFileError(record.file or "list", record.line, message)


def list_player_fields(record: ListRecord, source: str) -> dict[str, Any]:
    prior = record.state.prior_grade
    return {
        "family_name": record.last_name,
        "given_name": record.first_name,
        # Set here because bulk creation skips Player.save(), which fills it otherwise.
        "search_name": player_search_key(record.last_name, record.first_name),
        "nationality": _country(record.list_nationality()),
        "residence": _residence(record),
        "is_professional": prior is not None and prior.kind == "pro",
        "prior_grade_kind": prior.kind if prior else "",
        "prior_grade_level": prior.level if prior else None,
        "prior_grade_source": PriorGradeSource.OTHER if prior else "",
        "prior_grade_note": f"FESA list ({source})" if prior else "",
    }


def fesa_state_import(
    *, ratingliste: bytes, new_players: bytes | None = None, source: str = "ratingliste"
) -> StateImportOutcome:
    """Load the FESA program's state as the opening balance (see the module docstring).

    Raises FesaFileError naming the file and line for a bad record, a duplicate name, a prior grade the
    site cannot hold, or a name already held by a player who has a state on the site.
    """
    listed = read_ratingliste(ratingliste, source)
    newcomers = read_nye_spillere(new_players, "nye-spillere") if new_players is not None else ()
    everyone = [*listed, *newcomers]
    check_unique_names(everyone)
    for record in everyone:
        check_prior(record)
    with transaction.atomic():
        players, created, matched = _take_players(everyone, source)
        openings = []
        for order, record in enumerate(listed):
            openings.append(opening_state_of(players[record.name], record, order, source))
        for record in newcomers:
            if not is_plain_newcomer(record):
                openings.append(opening_state_of(players[record.name], record, None, "nye-spillere"))
        OpeningState.objects.bulk_create(openings, batch_size=1000)
        fesa_newcomers_arrive(table=None, players=[players[r.name] for r in newcomers])
        players_refresh(p.pk for p in players.values())
    return StateImportOutcome(
        players_created=len(created),
        players_matched=len(matched),
        opening_states=len(openings),
        newcomers=len(newcomers),
        notes=tuple(_kept_grade_notes(everyone, matched)),
    )


def prior_grade_text(kind: str, level: int | None) -> str:
    """A prior grade as people read it ("3 Kyu"), or "no prior grade"."""
    return prior_grade_label(kind, level) if kind and level is not None else _("no prior grade")


def _kept_grade_notes(records: list[ListRecord], matched: dict[tuple[str, str], Player]) -> list[str]:
    notes = []
    for record in records:
        player = matched.get(record.name)
        prior = record.state.prior_grade
        if player is None or (player.prior_grade_kind, player.prior_grade_level) == (
            (prior.kind, prior.level) if prior else ("", None)
        ):
            continue
        notes.append(
            _(
                "%(file)s, line %(line)s: %(name)s keeps his prior grade on the site (%(kept)s), "
                "not the file's (%(file_grade)s)"
            )
            % {
                "file": record.file,
                "line": record.line,
                "name": player,
                "kept": prior_grade_text(player.prior_grade_kind, player.prior_grade_level),
                "file_grade": prior_grade_text(prior.kind, prior.level) if prior else _("no prior grade"),
            }
        )
    return notes


def _take_players(
    records: list[ListRecord], source: str
) -> tuple[dict[tuple[str, str], Player], dict[tuple[str, str], Player], dict[tuple[str, str], Player]]:
    """Every record's player: one of the site with that name who has no state yet, else a new one.

    Returns (all by name, those created, those matched). Raises FesaFileError for a name held by several
    players or by one who already has a state (an opening state, a rated table, or an arrival from a
    ``nye-spillere``). A player matched keeps his prior grade: no file changes one."""
    existing = players_named({r.name for r in records})
    busy = players_with_a_state([p.pk for ps in existing.values() for p in ps])
    matched: dict[tuple[str, str], Player] = {}
    for record in records:
        found = existing.get(record.name, [])
        if len(found) > 1:
            raise FesaFileError(record.file or source, record.line, _("several players of the site have this name"))
        if found and found[0].pk in busy:
            message = _("this player already has a state on the site (imported twice?)")
            raise FesaFileError(record.file or source, record.line, message)
        if found:
            matched[record.name] = found[0]
    new = [Player(**list_player_fields(r, source)) for r in records if r.name not in matched]
    created = {(p.family_name, p.given_name): p for p in bulk_create_with_history(new, Player, batch_size=1000)}
    for record in records:
        player = matched.get(record.name)
        if player is not None:
            for key, value in list_player_fields(record, source).items():
                if not key.startswith("prior_grade_") and key != "is_professional":
                    setattr(player, key, value)
            player.save()
    return {**created, **matched}, created, matched


def players_named(names: set[tuple[str, str]]) -> dict[tuple[str, str], list[Player]]:
    """The site's players (merged ones aside) by (family name, given name), for the names given."""
    existing: dict[tuple[str, str], list[Player]] = defaultdict(list)
    for player in Player.objects.filter(family_name__in={n[0] for n in names}, merged_into__isnull=True):
        if (player.family_name, player.given_name) in names:
            existing[(player.family_name, player.given_name)].append(player)
    return existing


def players_with_a_state(player_ids: list[int]) -> set[int]:
    """Those of the players who have a state on the site already: an opening state, a rated table, or an
    arrival on the list from a ``nye-spillere``."""
    return (
        set(OpeningState.objects.filter(player_id__in=player_ids).values_list("player_id", flat=True))
        | set(RatingRow.objects.filter(player_id__in=player_ids).values_list("player_id", flat=True))
        | set(ListArrival.objects.filter(player_id__in=player_ids).values_list("player_id", flat=True))
    )


def fesa_newcomers_arrive(*, table: Table | None, players: Sequence[Player]) -> None:
    """Record that ``players`` came onto the list from the ``nye-spillere`` of ``table`` (None: of the
    opening balance), in this order: where they stand among equal ratings depends on it."""
    ListArrival.objects.bulk_create(
        [ListArrival(player=p, table=table, position=i) for i, p in enumerate(players)], batch_size=1000
    )


def opening_state_of(player: Player, record: ListRecord, order: int | None, file: str) -> OpeningState:
    state = state_to_json(record.state)
    state[FESA_KEY] = {
        "order": order,
        "file": file,
        "line": record.line,
        "record": print_form(record.source) if record.source is not None else None,
        "homes": _homes_json(record),
    }
    return OpeningState(player=player, state=state, source=f"{file}, line {record.line}"[:200])


def fesa_state_records(*, as_of: dt.date | None = None) -> list[StateEntry]:
    """Every player with his state after the last table (or after the tables of ``as_of``), in the order
    the program's list has after the same tables: by rating, highest first, equal ratings as the
    program's run after run stable sorts leave them (:func:`_in_program_order`). While no table has been
    rated the list keeps its imported order, as the program only sorts on a run.
    """
    rows = RatingRow.objects.all()
    if as_of is not None and as_of < dt.date.max:
        rows = rows.filter(before_position(as_of + dt.timedelta(days=1), 1))
    latest = {
        pid: (table_id, after)
        for pid, table_id, after in rows.annotate(
            rank=Window(RowNumber(), partition_by=[F("player_id")], order_by=[F("date").desc(), F("sequence").desc()])
        )
        .filter(rank=1)
        .values_list("player_id", "table_id", "state_after")
    }
    openings = dict(OpeningState.objects.values_list("player_id", "state"))
    players = list(_on_the_list().order_by("pk"))
    base: dict[int, ListRecord] = {}
    for player in players:
        opening = openings.get(player.pk)
        if player.pk in latest:
            state = state_from_json(latest[player.pk][1])
        elif opening is not None:
            state = state_from_json(opening)
        else:
            state = engine.PlayerState(prior_grade=prior_grade_of(player))
        base[player.pk] = player_list_record(player, opening, state)
    origins = _table_origins({table_id for table_id, _after in latest.values()}, base)
    entries: list[StateEntry] = []
    for player in players:
        record = base[player.pk]
        opening = openings.get(player.pk)
        before = state_from_json(opening).last_played if opening is not None else None
        last = record.state.last_played
        if player.pk in latest and last is not None and last != before:
            record = record.played(last, origins.get(latest[player.pk][0], "E"))
        entries.append(StateEntry(player, record))
    if not latest:
        # The program only sorts on a run: before the first table the list keeps its imported order.
        listed = sorted(
            (e for e in entries if _list_order(openings.get(e.player.pk)) is not None),
            key=lambda e: _list_order(openings.get(e.player.pk)) or 0,
        )
        return listed + [e for e in entries if _list_order(openings.get(e.player.pk)) is None]
    return _in_program_order(entries, openings, rows)


def _on_the_list() -> QuerySet[Player]:
    """Every player but those known only from historical tables (ratings/services/fesa/history.py): they
    left before the opening balance, so the program's list does not hold them."""
    historical_only = (
        Exists(HistoricalRow.objects.filter(player=OuterRef("pk")))
        & ~Exists(RatingRow.objects.filter(player=OuterRef("pk")))
        & ~Exists(OpeningState.objects.filter(player=OuterRef("pk")))
        & ~Exists(ListArrival.objects.filter(player=OuterRef("pk")))
    )
    return Player.objects.exclude(historical_only)


def _in_program_order(
    entries: list[StateEntry], openings: dict[int, dict[str, Any]], rows: QuerySet[RatingRow]
) -> list[StateEntry]:
    """The entries in the order of the program's list after the same runs (ratings/fesa_files/list_order.py).

    Every rated table is a run. Only players tied with another need their history of ratings; a player
    joined with the opening list (its order), with the ``nye-spillere`` he came in (:class:`ListArrival`),
    or else at his first rated table, after that table's players from ``nye-spillere``."""
    counts = Counter(e.record.state.rating for e in entries)
    tied = {e.player.pk for e in entries if counts[e.record.state.rating] > 1}
    positions = sorted(set(rows.values_list("date", "sequence")))
    run_of_position = {position: run for run, position in enumerate(positions)}
    run_of_table = {
        table_id: run_of_position[(date, sequence)]
        for table_id, date, sequence in rows.values_list("table_id", "date", "sequence").distinct()
    }
    changes: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for pid, date, sequence, rating in (
        rows.filter(player_id__in=tied)
        .order_by("date", "sequence")
        .values_list("player_id", "date", "sequence", "rating_after")
    ):
        changes[pid].append((run_of_position[(date, sequence)], rating))
    arrivals = {a.player_id: a for a in ListArrival.objects.filter(player_id__in=tied)}
    members = []
    for entry in entries:
        pid = entry.player.pk
        if pid not in tied:  # alone at his rating: only the rating counts
            members.append(ListMember(pid, OPENING, (), entry.record.state.rating))
            continue
        opening = openings.get(pid)
        start = state_from_json(opening).rating if opening is not None else 0
        history = tuple(changes.get(pid, ()))
        order = _list_order(opening)
        arrival = arrivals.get(pid)
        if order is not None:
            joined, position = OPENING, (0, order)
        elif arrival is not None and arrival.table_id is None:
            joined, position = 0, (0, arrival.position)  # with the opening balance: new at the first run
        elif arrival is not None and arrival.table_id is not None:
            joined, position = run_of_table.get(arrival.table_id, len(positions)), (0, arrival.position)
        else:
            joined, position = (history[0][0] if history else 0), (1, pid)
        members.append(ListMember(pid, joined, position, start, history))
    by_player: dict[Hashable, StateEntry] = {e.player.pk: e for e in entries}  # ListMember's key: any hashable
    return [by_player[m.key] for m in program_order(members)]


def _list_order(opening: dict[str, Any] | None) -> int | None:
    fesa = (opening or {}).get(FESA_KEY) or {}
    order = fesa.get("order")
    return order if isinstance(order, int) else None


def _table_origins(table_ids: set[int], records: dict[int, ListRecord]) -> dict[int, str]:
    """The list (``E``/``A``) each table belongs to, by the program's rule over its players' HOMEs."""
    players: dict[int, list[ListRecord]] = defaultdict(list)
    for table_id, player_id in TableEntry.objects.filter(table_id__in=table_ids).values_list("table_id", "player_id"):
        if player_id in records:
            players[table_id].append(records[player_id])
    return {table_id: table_origin(found) for table_id, found in players.items()}


def fesa_state_export(*, as_of: dt.date | None = None, file: str = "ratingliste") -> bytes:
    """The state list file (ISO-8859-1) of :func:`fesa_state_records`."""
    return write_ratingliste([e.record for e in fesa_state_records(as_of=as_of)], file)
