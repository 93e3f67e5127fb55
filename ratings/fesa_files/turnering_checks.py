"""The checks between the lines of a table read from ``turnering.txt`` (ratings/fesa_files/turnering.py):
equal numbers of rounds, and every game's two cells naming each other with results adding to one point
and the handicap on both sides."""

from __future__ import annotations

import datetime as dt

from .errors import FesaFileError, FesaFileErrors, gettext_noop, raise_collected
from .turnering_values import HALVES, MAX_ROUNDS, Cell, TablePlayer, Turnering


def checked_table(
    name: str,
    date: dt.date,
    date_text: str,
    players: list[TablePlayer],
    unread: set[int],
    file: str,
    problems: list[FesaFileError],
) -> Turnering | None:
    """The table read, after the checks between its lines, whose problems are added to ``problems``. An
    unreadable line is checked as a line of absences, and the cells naming it as absences too."""
    readable = [p for p in players if p.number not in unread]
    try:
        rounds = _rounds(readable or players, file)
    except FesaFileError as exc:
        problems.append(exc)
        return None
    checked = players
    if unread:  # copies only for a file that is refused anyway: the common path reads each player once
        absent = Cell(0, "-")
        checked = [
            p._replace(cells=(absent,) * rounds)
            if p.number in unread
            else p._replace(cells=tuple(absent if c.opponent in unread else c for c in p.cells))
            for p in players
        ]
    table = Turnering(
        name=name, date=date, date_text=date_text.strip(), players=tuple(checked), rounds=rounds, file=file
    )
    try:
        check_consistency(table)
    except FesaFileErrors as exc:
        problems.extend(exc.errors)
    except FesaFileError as exc:
        problems.append(exc)
    return table._replace(players=tuple(players)) if unread else table


def _rounds(players: list[TablePlayer], file: str) -> int:
    regular = [p for p in players if not p.simul_giver]
    if not regular:
        raise FesaFileError(file, players[0].line, gettext_noop("every player is a simultaneous giver: no results"))
    rounds = len(regular[0].cells)
    if rounds > MAX_ROUNDS:
        message = gettext_noop("a table has at most %(max)s rounds, not %(rounds)s")
        raise FesaFileError(file, regular[0].line, message, {"max": MAX_ROUNDS, "rounds": rounds})
    for p in regular[1:]:
        if len(p.cells) != rounds:
            message = gettext_noop(
                "uneven number of rounds: %(player)s has %(count)s, %(first)s (line %(line)s) has %(rounds)s"
            )
            params = {"player": _who(p), "count": len(p.cells), "first": _who(regular[0]), "line": regular[0].line}
            raise FesaFileError(file, p.line, message, {**params, "rounds": rounds})
    return rounds


def _who(p: TablePlayer) -> str:
    return f"{p.last_name} {p.first_name}".strip()


def check_consistency(table: Turnering) -> None:
    """Check that every cell naming an opponent is mirrored by the opponent's cell (same round, the
    results adding to one point, the handicap on both sides with opposite sides and the same code).
    A simultaneous giver's cells are the mirror of the others' by construction.

    Two cells naming each other are compared once, from the first of the two lines: the checks are the
    same from either side, and a pair found wrong is told once."""
    file = table.file
    players = table.players
    count = len(players)
    problems: list[FesaFileError] = []
    seen: set[tuple[int, int, int]] = set()  # (round, lower line number, higher): a pair is told once
    for p in players:
        number = p.number
        for r, cell in enumerate(p.cells, start=1):
            opponent = cell.opponent
            if not opponent:
                continue
            if opponent > count:
                message = gettext_noop(
                    "round %(round)s: %(player)s names player %(number)s, but the table has %(count)s"
                )
                params = {"round": r, "player": _who(p), "number": opponent, "count": count}
                problems.append(FesaFileError(file, p.line, message, params))
                continue
            if opponent == number:
                message = gettext_noop("round %(round)s: %(player)s is named as his own opponent")
                problems.append(FesaFileError(file, p.line, message, {"round": r, "player": _who(p)}))
                continue
            q = players[opponent - 1]
            if q.simul_giver:
                continue
            other = q.cells[r - 1]
            if other.opponent == number and opponent < number:
                continue  # compared from q's line
            pair = (r, min(number, opponent), max(number, opponent))
            if pair in seen:
                continue
            if other.opponent != number:
                message = gettext_noop(
                    "round %(round)s: %(player)s (line %(line)s) has %(cell)r, %(opponent)s (line %(other_line)s) "
                    "has %(other)r: the cells do not name each other"
                )
            elif HALVES[cell.sign] + HALVES[other.sign] != 2:  # in half points: Fractions cost here
                message = gettext_noop(
                    "round %(round)s: %(player)s (line %(line)s) has %(cell)r, %(opponent)s (line %(other_line)s) "
                    "has %(other)r: the results do not add up to one point"
                )
            elif (cell.handicap is None) != (other.handicap is None):
                message = gettext_noop(
                    "round %(round)s: %(player)s (line %(line)s) has %(cell)r, %(opponent)s (line %(other_line)s) "
                    "has %(other)r: a handicap on one side only"
                )
            elif cell.handicap is not None and other.handicap != cell.handicap.mirrored():
                message = gettext_noop(
                    "round %(round)s: %(player)s (line %(line)s) has %(cell)r, %(opponent)s (line %(other_line)s) "
                    "has %(other)r: the handicap must have the same code and opposite sides"
                )
            else:
                continue
            seen.add(pair)  # told once, from the first of the two lines
            params = {"round": r, "player": _who(p), "line": p.line, "cell": cell.text()}
            params |= {"opponent": _who(q), "other_line": q.line, "other": other.text()}
            problems.append(FesaFileError(file, p.line, message, params))
    raise_collected(problems)
