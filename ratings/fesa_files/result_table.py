"""The result table FESA publishes for a table, laid out as the FESA program prints it.

As in ``tests/data/fesa/fesa-result-CdF-2025.txt``::

    CdF Nantes 2025 : 2025-04-19/20
    Nr Name                       Nat  Grade  ELO    1   2   3   4   5   6  Pts   +/-
     1 Pucher          Olivier    FR   2 Dan  1887  16+  9- 13+  6+  5- 10+   4   -14
    26 Coirier         Catherine  FR             1* 18- 30- 32- 29- 28- 24-   0
    <blank>
    Promoting Weimann Célestin to 1 Dan

The name columns are as wide as the longest family and given names of the table; the nationality is that
of the player's first HOME (3 wide); the grade is the FESA grade before the table; the rating column holds
the rating before the table, or for a player rated by performance his new rating followed by ``*`` (and
no change). When any game of the table has a handicap every cell gets five more characters, ``(-R )`` or
blanks; when any player has a positive MacMahon start score an ``MMS`` column comes before the points.
Points are printed as Lisp prints numbers: ``5/2`` for two and a half (as in the program's HTML tables).
A simultaneous giver's row has no cells. One promotion line per promoted player, with his final grade,
in table order, after a blank line.

A player with no rated game takes no part (docs/rules.md §6), so his rating does not change: shown with
``+0`` when he has a game count, with his unchanged rating and ``*`` while he still has a result list.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from ratings.engine.types import PlayerOutcome, TableResult, grade_label, grade_parts

from .encoding import encode_text, latin1_text
from .lisp import print_form
from .ratingliste import ListRecord
from .turnering import Cell, TablePlayer, Turnering


def lisp_number(value: Fraction | int) -> str:
    """A rational as Lisp prints it: ``3`` or ``5/2``."""
    if isinstance(value, int):
        return str(value)
    return print_form(Fraction(value))


def _cell(cell: Cell, handicap_columns: bool) -> str:
    text = f"{cell.opponent:>2}{cell.sign}"
    if handicap_columns:
        mark = cell.handicap
        text += "     " if mark is None else f"({'+' if mark.received else '-'}{mark.spelling or mark.code:<2})"
    return text + " "


def _points(table: Turnering, player: TablePlayer) -> str:
    """``lisp_number(table.points(number))``; without a start score printed from the half points, ``5/2`` or
    ``3`` (no Fraction made: they were a third of the result table's time)."""
    if player.macmahon:
        return lisp_number(table.points(player.number))
    halves = table.half_points(player.number)
    return f"{halves}/2" if halves % 2 else str(halves // 2)


def _start_scores(players: tuple[TablePlayer, ...]) -> dict[int, Fraction | int]:
    """Each player's MacMahon start score, 0 without one."""
    if not any(p.macmahon for p in players):
        return {p.number: 0 for p in players}
    return {p.number: Fraction(p.macmahon) if p.macmahon else 0 for p in players}


def _header(table: Turnering, last_width: int, first_width: int, handicap: bool, macmahon: bool) -> str:
    head = "Nr Name "
    column = last_width + first_width + 5
    # Lisp's ~vT: move to the column, or one space on when already there or beyond.
    head += " " * (column - len(head) if len(head) < column else 1)
    head += "Nat  Grade  ELO  "
    head += "".join(f" {r:>2} " + ("     " if handicap else "") for r in range(1, table.rounds + 1))
    return head + ("MMS" if macmahon else "") + " Pts   +/-"


def _rating_columns(record: ListRecord, outcome: PlayerOutcome | None) -> tuple[str, str]:
    """(rating with ``*`` or a space, the change or nothing)."""
    if outcome is None:  # no rated game: unchanged
        if record.state.result_list is not None:
            return f"{record.state.rating:>4}*", ""
        return f"{record.state.rating:>4} ", f"{0:>+4}"
    if outcome.method == "performance":
        return f"{outcome.after.rating:>4}*", ""
    return f"{outcome.before.rating:>4} ", f"{outcome.change or 0:>+4}"


def result_table_text(table: Turnering, records: Mapping[int, ListRecord], result: TableResult) -> str:
    """The table's result table. ``records`` holds every player's list record before the table, by player
    number; ``result`` the engine's outcomes (players without a rated game have none)."""
    outcomes = result.by_key()
    players = table.players
    names = {p.number: (latin1_text(p.last_name), latin1_text(p.first_name)) for p in players}
    last_width = max(len(last) for last, _ in names.values())
    first_width = max(len(first) for _, first in names.values())
    handicap = any([c.handicap is not None for p in players for c in p.cells])
    starts = _start_scores(players)
    macmahon = any(s > 0 for s in starts.values())
    lines = [f"{table.name} : {table.date_text}", _header(table, last_width, first_width, handicap, macmahon)]
    promotions = []
    for p in players:
        last, first = names[p.number]
        record = records[p.number]
        outcome = outcomes.get(p.number)
        grade = grade_parts(record.state.grade)
        rating, change = _rating_columns(record, outcome)
        cells = "" if p.simul_giver else "".join([_cell(c, handicap) for c in p.cells])
        level, unit = ("  ", "") if grade is None else (f"{grade[0]:>2}", grade[1])
        start = f"{lisp_number(starts[p.number]):>2}" if macmahon else ""
        lines.append(
            f"{p.number:>2} {last:<{last_width}} {first:<{first_width}} "
            f"{record.home_nationality():<3} {level} {unit:<3}  {rating} {cells}{start}"
            f" {_points(table, p):>2}  {change}"
        )
        if outcome is not None and outcome.promotions:
            promotions.append(f"Promoting {last} {first} to {grade_label(outcome.after.grade)}")
    text = "\n".join(lines) + "\n"
    if promotions:
        text += "\n" + "".join(line + "\n" for line in promotions)
    return text


def write_result_table(
    table: Turnering, records: Mapping[int, ListRecord], result: TableResult, file: str = "result.txt"
) -> bytes:
    """:func:`result_table_text` in ISO-8859-1."""
    return encode_text(result_table_text(table, records, result), file)
