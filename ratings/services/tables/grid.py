"""A table entered as a crosstable: one row per player, one cell per round in FESA's cell notation.

The admin's crosstable page (ratings/admin/grid.py) sends rows of (player, cells), row *n* being the player
numbered *n*; a pasted turnering.txt gives the same rows. The cells are read by the turnering.txt reader
(``read_cells``, ``check_consistency``: mirrored cells, results adding to one point, handicaps on both
sides), turned into games as an upload's are (``table_games``), and saved by ``table_save``, whose checks
(the table's rules, a round missing for a player, the dates) are the same as for every other path.

Every problem names its row (and the round and players when a round is to blame), all of them at once.
The notation has no word for a game not played (forfeit) nor for a replayed draw: a game that stays the same
pairing in the same round keeps those marks and its row (its history goes on).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ratings.fesa_files.errors import FesaFileError, FesaFileErrors
from ratings.fesa_files.turnering import Cell, TablePlayer, Turnering, check_consistency, read_cells, read_turnering
from ratings.models import Game, GameResult, HandicapGiver, Player, Table
from ratings.selectors.fesa_records import table_turnering
from ratings.selectors.players import player_names
from ratings.services.fesa.import_plan import Problem
from ratings.services.fesa.messages import problem_text
from ratings.services.fesa.tables import table_games
from ratings.services.tables.save import EntryFacts, GameEdit, TableRefused, TableSaved, table_save
from ratings.services.tables.submit import GameFacts

_FILE = "crosstable"
_SWAPPED: dict[str, str] = {GameResult.FIRST_WON: GameResult.SECOND_WON, GameResult.SECOND_WON: GameResult.FIRST_WON}
_OTHER_SIDE: dict[str, str] = {HandicapGiver.FIRST: HandicapGiver.SECOND, HandicapGiver.SECOND: HandicapGiver.FIRST}
_PLAYER_LINE = re.compile(r"\s*\d")


@dataclass(frozen=True)
class GridRow:
    """A row of the crosstable: the player numbered by the row's position, his cells as typed."""

    player_id: int | None
    cells: str


def grid_rows(table: Table) -> list[GridRow]:
    """The saved table as crosstable rows, in seat order (a round without a row reads ``0-``)."""
    if table.pk is None:
        return []
    turnering, ids = table_turnering(table)
    return [GridRow(pid, " ".join(c.text() for c in p.cells)) for p, pid in zip(turnering.players, ids, strict=True)]


def grid_turnering(rows: Sequence[GridRow], *, name: str = "", date_text: str = "") -> tuple[Turnering, list[int]]:
    """The rows read as a turnering.txt table, and the player of each line; TableRefused naming every bad
    row. Empty rows at the end are dropped; an empty row before a filled one is an error, since the cells
    name opponents by their row."""
    while rows and rows[-1].player_id is None and not rows[-1].cells.strip():
        rows = rows[:-1]
    names = player_names([r.player_id for r in rows if r.player_id is not None])
    problems: list[str] = []
    players: list[TablePlayer] = []
    unread: set[int] = set()  # rows whose cells could not be read: their number of rounds is unknown
    for number, row in enumerate(rows, start=1):
        who = names.get(row.player_id or 0, "")
        where = _("Row %(row)s") % {"row": number} + (f" ({who})" if who else "")
        if row.player_id is None:
            problems.append(_("%(where)s: choose the player, or empty the row.") % {"where": where})
        cells: tuple[Cell, ...] = ()
        try:
            cells = read_cells(row.cells, line=number, file=_FILE)
        except FesaFileError as exc:
            problems.append(f"{where}: {problem_text(exc)}")
            unread.add(number)
        players.append(TablePlayer(number=number, last_name=who, first_name="", cells=cells, line=number))
    seen: dict[int, int] = {}
    for number, row in enumerate(rows, start=1):
        if row.player_id is not None and row.player_id in seen:
            problems.append(
                _("Row %(row)s: %(player)s is in row %(first)s already.")
                % {"row": number, "player": names.get(row.player_id, ""), "first": seen[row.player_id]}
            )
        seen.setdefault(row.player_id or 0, number)
    rounds = max((len(p.cells) for p in players), default=0)
    problems.extend(
        ngettext(
            "Row %(row)s (%(player)s): %(count)s round, the longest row has %(rounds)s.",
            "Row %(row)s (%(player)s): %(count)s rounds, the longest row has %(rounds)s.",
            len(p.cells),
        )
        % {"row": p.number, "player": p.last_name, "count": len(p.cells), "rounds": rounds}
        for p in players
        if len(p.cells) != rounds and p.number not in unread
    )
    turnering = Turnering(name=name, date=None, date_text=date_text, players=tuple(players), rounds=rounds, file=_FILE)  # type: ignore[arg-type]
    if not problems:
        try:
            check_consistency(turnering)
        except FesaFileErrors as exc:
            problems.extend(_row_message(e) for e in exc.errors)
        except FesaFileError as exc:
            problems.append(_row_message(exc))
    if problems:
        raise TableRefused({"games": problems})
    return turnering, [r.player_id for r in rows if r.player_id is not None]


def _row_message(exc: FesaFileError) -> str:
    return _("Row %(row)s, %(problem)s") % {"row": exc.line, "problem": problem_text(exc)}


def grid_games(turnering: Turnering, ids: Sequence[int], saved: Sequence[Game]) -> list[GameEdit]:
    """The games of the crosstable as edits of the saved ones: a game of the same round and players keeps
    its row, its sides as saved, and its forfeit and replay marks, which the notation cannot say."""
    by_pair = {(g.round, frozenset((g.first_id, g.second_id))): g for g in saved}
    edits = []
    for row in table_games(turnering):
        first, second = ids[row.first - 1], ids[row.second - 1] if row.second else None
        facts = GameFacts(row.round, first, second, row.result, row.handicap, row.handicap_giver)
        old = by_pair.pop((row.round, frozenset((first, second))), None)
        if old is None:
            edits.append(GameEdit(facts=facts))
            continue
        if old.first_id != first:
            facts = GameFacts(
                row.round,
                old.first_id,
                old.second_id,
                _SWAPPED.get(row.result, row.result),
                row.handicap,
                _OTHER_SIDE.get(row.handicap_giver, ""),
            )
        facts = replace(facts, played=old.played, replay_draw=old.replay_draw)
        edits.append(GameEdit(facts=facts, id=old.pk))
    return edits


def grid_edits(*, table: Table, rows: Sequence[GridRow]) -> tuple[list[EntryFacts], list[GameEdit]]:
    """The entries and games the crosstable ``rows`` give ``table`` (row *n*: number *n*), as ``table_save``
    takes them; TableRefused naming every bad row. Nothing is written: a rating officer's change to a
    submitted or rated table goes through a correction (ratings/services/corrections/apply.py) with these."""
    turnering, ids = grid_turnering(rows)
    games = grid_games(turnering, ids, list(Game.objects.filter(table=table)))
    return [EntryFacts(player_id=pid, seat=n) for n, pid in enumerate(ids, start=1)], games


def table_grid_save(
    *, table: Table, rows: Sequence[GridRow], sequence: int | None = None, strict_dates: bool
) -> TableSaved:
    """Save ``table`` with exactly the players and games of the crosstable ``rows`` (row *n*: number *n*),
    through ``table_save``; raise TableRefused, writing nothing, with every problem."""
    entries, games = grid_edits(table=table, rows=rows)
    return table_save(
        table=table,
        tournament=table.tournament,
        name=table.name,
        date=table.date,
        sequence=sequence,
        entries=entries,
        games=games,
        strict_dates=strict_dates,
    )


def pasted_rows(text: str, *, table: Table) -> list[GridRow]:
    """The rows of a crosstable pasted in turnering.txt notation (the name and date lines may be left out;
    the table keeps its own either way). Each line's player is the table's entered player of that name, else the one
    federation player of that exact name; TableRefused names every line that matches nobody or several."""
    lines = [line for line in text.splitlines() if line.strip() and not line.lstrip().startswith(";")]
    # Without its name and date lines, the table's own go before the pasted ones: a problem still names the line
    # as the officer counts his own.
    added = 2 if lines and _PLAYER_LINE.match(lines[0]) else 0
    if added:
        text = f"[{table}]\n[{table.date.isoformat()}]\n{text}"

    def pasted(line: int | None) -> int | None:
        return None if line is None else line - added

    try:
        turnering = read_turnering(text, _("pasted crosstable"))
    except FesaFileError as exc:
        errors = exc.errors if isinstance(exc, FesaFileErrors) else [exc]
        moved = [e.moved(-added) for e in errors]  # counted as the officer pasted them
        raise TableRefused({"games": [str(Problem(e.line, problem_text(e))) for e in moved]}) from exc
    if any(p.simul_giver for p in turnering.players):
        raise TableRefused({"games": [_("A simultaneous display ([&]) is entered by uploading its turnering.txt.")]})
    entered = {(e.player.family_name, e.player.given_name): e.player_id for e in table.entries.select_related("player")}
    problems, rows = [], []
    for p in turnering.players:
        pid = entered.get(p.name)
        if pid is None:
            found = list(Player.objects.filter(family_name=p.last_name, given_name=p.first_name).values_list("pk"))
            if len(found) == 1:
                pid = found[0][0]
            else:
                problems.append(
                    _("Line %(line)s: %(name)s is %(what)s; enter the player in the row yourself, or upload the file.")
                    % {
                        "line": pasted(p.line),
                        "name": f"{p.last_name} {p.first_name}".strip(),
                        "what": _("no player of the federation") if not found else _("the name of several players"),
                    }
                )
        rows.append(GridRow(pid, " ".join(c.text() for c in p.cells)))
    if problems:
        raise TableRefused({"games": problems})
    return rows
