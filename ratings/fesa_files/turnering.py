"""``turnering.txt``, the table a tournament director sends (shared docs/fesa-files.md): read, check, write.

Reading follows the file description:

- ``;`` at the start of a line (after blanks) makes it a comment; comments and empty lines are skipped
  everywhere (an empty line does not end the player lines, as in the program).
- The first line holding ``[…]`` names the table, the next one holding ``[…]`` gives its date,
  ``YYYY-MM-DD`` or a span ``YYYY-MM-DD/DD`` (the published tables print ``2025-04-19/20``); a span
  is dated by its last day.
- Player lines hold ``+``, ``-``, ``=`` or ``&``. The first must start with ``1``; before it, lines that
  do not start with a digit are ignored even when they hold a sign (``[Time control: 30min + 30sec]``);
  after the first, player lines must follow each other, and a later line holding a sign is an error.
- On a player line only bracketed text is read: family name, given name, the free text between the 2nd
  ``]`` and the 3rd ``[`` (nationality, ``N``), the results, an optional MacMahon start score. Players
  are numbered by position whatever number is printed. A cell is ``<opponent><sign>[(<side><code>)]``;
  blanks are allowed before the sign, before ``(`` and inside the parentheses, as the program allows.

Then the consistency rules are checked (mirrored cells, results adding to one point, handicaps on both
cells, equal numbers of rounds); every error names the file and line, and both players and the round
where two cells disagree.

The table's values are in ``turnering_values`` and the checks between lines in ``turnering_checks``; their
public names are importable from here too.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from functools import lru_cache
from typing import NamedTuple

from ratings.engine.types import Game, Handicap, PlayerState, TableInput

from .encoding import decode_lenient, encode_text
from .errors import FesaFileError, gettext_noop, raise_collected
from .names import first_refused
from .turnering_checks import check_consistency, checked_table
from .turnering_values import (
    HANDICAP_CODES,
    MAX_PLAYERS,
    MAX_ROUNDS,
    Cell,
    HandicapMark,
    TablePlayer,
    Turnering,
)

__all__ = [
    "HANDICAP_CODES",
    "MAX_PLAYERS",
    "MAX_ROUNDS",
    "Cell",
    "EngineTable",
    "HandicapMark",
    "TablePlayer",
    "Turnering",
    "check_consistency",
    "engine_table",
    "read_cells",
    "read_turnering",
    "read_turnering_checked",
    "write_turnering",
]

# Digits are ASCII only (re.ASCII): int() would also take other scripts' digits ("١٢").
_CELL = re.compile(r"(\d+)\s*([+\-=#])(?:\s*\(([^()]*)\))?(?=\s|$)", re.ASCII)
_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})(?:/(\d{2}))?", re.ASCII)
_MACMAHON = re.compile(r"[+-]?\d{1,3}(?:\.\d{1,3})?", re.ASCII)  # a MacMahon start score
_OPPONENT_DIGITS = len(str(MAX_PLAYERS))


def _holds_sign(line: str) -> bool:
    return "+" in line or "-" in line or "=" in line or "&" in line  # four scans in C: a line has few signs


def _brackets(line: str, number: int, file: str) -> tuple[list[str], list[tuple[int, int]]]:
    """The bracketed texts of a line and their (open, close) positions."""
    texts: list[str] = []
    spans: list[tuple[int, int]] = []
    pos = 0
    while (start := line.find("[", pos)) >= 0:
        end = line.find("]", start + 1)
        if end < 0:
            message = gettext_noop("'[' at column %(column)s is not closed")
            raise FesaFileError(file, number, message, {"column": start + 1})
        texts.append(line[start + 1 : end])
        spans.append((start, end))
        pos = end + 1
    return texts, spans


def _parse_date(text: str, line: int, file: str) -> dt.date:
    m = _DATE.fullmatch(text.strip())
    if m:
        try:
            year, month, day = int(m[1]), int(m[2]), int(m[3])
            start = dt.date(year, month, day)
            if m[4] is None:
                return start
            end = dt.date(year, month, int(m[4]))
            if end >= start:
                return end
        except ValueError:
            pass
    raise FesaFileError(file, line, gettext_noop("the table's date must be YYYY-MM-DD, not %(text)r"), {"text": text})


def _parse_cells(text: str, line: int | None, file: str) -> tuple[Cell, ...]:
    """The cells of a results text. Most texts are cells separated by spaces, each matched whole by
    :data:`_CELL`: then each is the cell the scan below would find there, every cell being followed by a
    space and a digit (never by another cell's blanks, sign or ``(``). Any other text (blanks inside a
    cell, other blanks, a cell that cannot be read) is scanned."""
    text = text.rstrip()
    words = [word for word in text.split(" ") if word]
    cells = [_word_cell(word) for word in words]
    if None not in cells:
        return tuple(cells)  # type: ignore[arg-type]
    found = [_CELL.fullmatch(word) for word in words]
    if None in found:
        return _scan_cells(text, line, file)
    return tuple([_read_cell(m, r, line, file) for r, m in enumerate(found, start=1)])  # type: ignore[arg-type]


@lru_cache(maxsize=4096)
def _word_cell(word: str) -> Cell | None:
    """The cell a word is when :data:`_CELL` matches it whole and it is a valid cell, else None (for
    :func:`_read_cell` to tell where it fails). The same words come back in every table, and a cell is
    immutable: each is read once."""
    m = _CELL.fullmatch(word)
    if m is None:
        return None
    try:
        return _read_cell(m, 0, 0, "")
    except FesaFileError:
        return None


def _scan_cells(text: str, line: int | None, file: str) -> tuple[Cell, ...]:
    cells: list[Cell] = []
    pos = 0
    while True:
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if pos >= len(text):
            return tuple(cells)
        m = _CELL.match(text, pos)
        if m is None:
            bad = text[pos:].split()[0]
            message = gettext_noop("round %(round)s: cannot read the cell %(cell)r")
            raise FesaFileError(file, line, message, {"round": len(cells) + 1, "cell": bad})
        cells.append(_read_cell(m, len(cells) + 1, line, file))
        pos = m.end()


def _read_cell(m: re.Match[str], round_: int, line: int | None, file: str) -> Cell:
    digits, sign, handicap_text = m.groups()
    if len(digits) > _OPPONENT_DIGITS:
        message = gettext_noop("round %(round)s: opponent number %(number)s… is too large")
        raise FesaFileError(file, line, message, {"round": round_, "number": digits[:12]})
    opponent = int(digits)
    handicap = None
    if handicap_text is not None:
        handicap = _parse_handicap(handicap_text, round_, line, file)
    if sign == "#" and opponent != 0:
        message = gettext_noop("round %(round)s: '#' (no-show) needs opponent 0, not %(cell)r")
        raise FesaFileError(file, line, message, {"round": round_, "cell": m[0]})
    if opponent == 0 and handicap is not None:
        message = gettext_noop("round %(round)s: a handicap on a round without a game")
        raise FesaFileError(file, line, message, {"round": round_})
    return Cell(opponent, sign, handicap)  # type: ignore[arg-type]


def read_cells(text: str, line: int | None = None, file: str = "turnering.txt") -> tuple[Cell, ...]:
    """The cells of one player's results, ``12+ 7-(+2p) 0+``, read as a player line's are (the admin's
    crosstable entry and the reader of published result tables, whose cells are written the same way, read
    them here). Raises FesaFileError naming the round of the first bad cell."""
    return _parse_cells(text, line, file)


def _parse_handicap(text: str, round_: int, line: int | None, file: str) -> HandicapMark:
    compact = "".join(text.split())
    side, code = compact[:1], compact[1:].upper()
    if side not in ("+", "-"):
        message = gettext_noop("round %(round)s: a handicap must start with + or -, not (%(text)s)")
        raise FesaFileError(file, line, message, {"round": round_, "text": text})
    if code not in HANDICAP_CODES:
        message = gettext_noop("round %(round)s: unknown handicap code %(code)r")
        raise FesaFileError(file, line, message, {"round": round_, "code": compact[1:]})
    return HandicapMark(side == "+", HANDICAP_CODES[code], compact[1:])


def file_lines(text: str) -> list[str]:
    """The lines of a file as its editor shows them: ended by ``\n`` or ``\r\n`` only. ``str.splitlines`` would
    also end a line at form feeds, U+0085 and Unicode's line and paragraph separators (U+2028, U+2029), and
    every later line number in a message would then be off."""
    return [line[:-1] if line.endswith("\r") else line for line in text.split("\n")]


def _name_problems(player: TablePlayer, file: str) -> list[FesaFileError]:
    found = []
    for message, name in (
        (gettext_noop("the family name %(name)r holds %(kind)s (%(char)s)"), player.last_name),
        (gettext_noop("the given name %(name)r holds %(kind)s (%(char)s)"), player.first_name),
    ):
        refused = first_refused(name)
        if refused is not None:
            params = {"name": name, "char": refused[0], "kind": refused[1]}
            found.append(FesaFileError(file, player.line, message, params))
    return found


def _parse_player(line: str, number: int, lineno: int, file: str) -> TablePlayer:
    texts, spans = _brackets(line, lineno, file)
    if len(texts) < 3:
        raise FesaFileError(file, lineno, gettext_noop("a player line needs [family name] [given name] [results]"))
    results = texts[2].strip()
    macmahon = texts[3].strip() if len(texts) >= 4 else None  # a fifth [...] is ignored, as the program does
    if macmahon is not None and not _MACMAHON.fullmatch(macmahon):
        message = gettext_noop("the MacMahon start score must be a number such as 2 or -1.5, not %(text)r")
        raise FesaFileError(file, lineno, message, {"text": macmahon[:20]})
    giver = results == "&"
    return TablePlayer(
        number=number,
        last_name=texts[0],
        first_name=texts[1],
        cells=() if giver else _parse_cells(results, lineno, file),
        simul_giver=giver,
        free_text=line[spans[1][1] + 1 : spans[2][0]],
        macmahon=macmahon or None,
        tail=line[spans[min(3, len(spans) - 1)][1] + 1 :],
        line=lineno,
    )


def read_turnering(data: bytes | str, file: str = "turnering.txt") -> Turnering:
    """Read and check a table; bytes are decoded by :func:`~.encoding.decode_lenient`. Raises FesaFileError,
    FesaFileErrors with every problem of the file in line order: a director fixing it wants them all at once.
    A line that cannot be read is left out of the checks between lines (the cells naming it are not compared)."""
    table, problems = read_turnering_checked(data, file)
    raise_collected(problems)
    assert table is not None
    return table


def read_turnering_checked(
    data: bytes | str, file: str = "turnering.txt"
) -> tuple[Turnering | None, list[FesaFileError]]:
    """:func:`read_turnering` without raising: the table as far as it could be read, and every problem in line
    order. The table is None when the file has no name, date or player line, or more players than a table
    may have; a line that cannot be read is a player without names or cells, a date that cannot be read is
    ``date.min`` (so is a missing one), and lines of uneven rounds are kept unchecked (the checks between
    lines need the rounds).
    For the upload's preview, which checks the players and the date of a file the reader refuses, too."""
    try:
        return _read(decode_lenient(data) if isinstance(data, bytes) else data, file)
    except FesaFileError as exc:  # more players than a table may have: the reading stopped there
        return None, [exc]


def _read(text: str, file: str) -> tuple[Turnering | None, list[FesaFileError]]:
    name: tuple[int, str] | None = None
    date: tuple[int, str | None] | None = None  # None: the line could not be read
    players: list[TablePlayer] = []
    unread: set[int] = set()  # the numbers of the players whose line could not be read
    ended_at: int | None = None  # the first line after the player block
    problems: list[FesaFileError] = []
    for lineno, line in enumerate(file_lines(text), start=1):
        if not line or line.lstrip().startswith(";"):
            continue  # as in the program, an empty line does not end the player lines
        if name is None or date is None:
            if "[" in line:
                texts: list[str | None] = [None]
                try:
                    texts = list(_brackets(line, lineno, file)[0])
                except FesaFileError as exc:
                    problems.append(exc)
                if name is None:
                    name = (lineno, texts[0] or "")
                    refused = first_refused(name[1])
                    if refused is not None:
                        message = gettext_noop("the table's name %(name)r holds %(kind)s (%(char)s)")
                        params = {"name": name[1], "char": refused[0], "kind": refused[1]}
                        problems.append(FesaFileError(file, lineno, message, params))
                else:
                    date = (lineno, texts[0])
            continue
        if not _holds_sign(line):
            if players and ended_at is None:
                ended_at = lineno
            continue
        if ended_at is not None:
            message = gettext_noop("player lines must follow each other, but line %(line)s breaks them")
            problems.append(FesaFileError(file, lineno, message, {"line": ended_at}))
            continue
        if not players:
            stripped = line.lstrip()
            if not stripped[:1].isascii() or not stripped[:1].isdigit():
                continue  # a header line such as [Time control: 30min + 30sec]
            if stripped[:1] != "1" or (stripped[1:2].isascii() and stripped[1:2].isdigit()):  # 2, 10, 12…
                problems.append(FesaFileError(file, lineno, gettext_noop("the first player line must start with 1")))
        if len(players) == MAX_PLAYERS:
            raise FesaFileError(file, lineno, gettext_noop("a table has at most %(max)s players"), {"max": MAX_PLAYERS})
        try:
            players.append(_parse_player(line, len(players) + 1, lineno, file))
            problems.extend(_name_problems(players[-1], file))  # the line is still read: its cells are checked
        except FesaFileError as exc:
            # The line still holds its number, so later lines keep theirs.
            problems.append(exc)
            unread.add(len(players) + 1)
            players.append(TablePlayer(number=len(players) + 1, last_name="", first_name="", line=lineno))
    if name is None:
        problems.append(FesaFileError(file, None, gettext_noop("no [table name] line")))
    elif date is None:
        problems.append(FesaFileError(file, None, gettext_noop("no [date] line after the table's name")))
    elif not players:
        problems.append(FesaFileError(file, None, gettext_noop("no player lines")))
    table_date = dt.date.min
    if date is not None and date[1] is not None:
        try:
            table_date = _parse_date(date[1], date[0], file)
        except FesaFileError as exc:
            problems.append(exc)
    table = None
    if name is not None and players:
        date_text = (date[1] or "") if date else ""
        table = checked_table(name[1], table_date, date_text, players, unread, file, problems)
        if table is None:  # no rounds to check against: the lines as read
            rounds = max(len(p.cells) for p in players)
            table = Turnering(
                name=name[1],
                date=table_date,
                date_text=date_text.strip(),
                players=tuple(players),
                rounds=rounds,
                file=file,
            )
    problems.sort(key=lambda p: (p.line is None, p.line or 0))
    return table, problems


def write_turnering(table: Turnering) -> bytes:
    """The table as ``turnering.txt`` in ISO-8859-1: name, date, then one line per player numbered by
    position, cells in their canonical spelling (``12+(-2p)``). Header lines other than the name and
    date, comments and printed numbers that differ from the position are not kept."""
    lines = [f"[{table.name}]", f"[{table.date_text}]"]
    for p in table.players:
        results = "&" if p.simul_giver else " ".join(c.text() for c in p.cells)
        macmahon = "" if p.macmahon is None else f" [{p.macmahon}]"
        lines.append(f"{p.number} [{p.last_name}] [{p.first_name}]{p.free_text}[{results}]{macmahon}{p.tail}")
    return encode_text("\n".join(lines) + "\n", table.file)


class EngineTable(NamedTuple):
    """A table ready for the engine. Keys are player numbers (line positions). ``round_of`` maps the
    engine's round numbers back to the table's rounds."""

    table: TableInput
    round_of: Mapping[int, int]


def engine_table(table: Turnering, states: Mapping[int, PlayerState]) -> EngineTable:
    """The engine's input: every player in table order with his state, and one Game per rated game
    (byes, absences and no-shows are not games).

    The engine takes one game per player and round, but a simultaneous giver plays many games in the
    same round. His games are then given consecutive round numbers inside the round, in the table order
    of his opponents (``round * (players + 1) + opponent``), which keeps everyone's round order; without
    a giver the round numbers are the table's.
    """
    players = table.players
    count = len(players)
    spread = any(p.simul_giver for p in players)
    games: list[Game] = []
    round_of: dict[int, int] = {}
    for p in players:
        number = p.number
        for r, cell in enumerate(p.cells, start=1):
            opponent = cell.opponent
            if not opponent:
                continue  # no game
            q = players[opponent - 1]
            if not q.simul_giver and opponent < number:
                continue  # already taken from the opponent's line
            key = r * (count + 1) + (number if q.simul_giver else 0) if spread else r
            round_of[key] = r
            handicap = None
            if cell.handicap is not None:
                handicap = Handicap(cell.handicap.code, opponent if cell.handicap.received else number)
            games.append(Game(key, number, opponent, cell.score, handicap))
    return EngineTable(
        TableInput(
            name=table.name,
            date=table.date,
            players=tuple(p.number for p in table.players),
            states={number: state for number, state in states.items()},
            games=tuple(games),
        ),
        round_of,
    )
