"""A reader for FESA's published result tables: the text tables of the season result pages.

The layout is the program's result table (ratings/fesa_files/result_table.py writes it)::

    CdF Nantes 2025 : 2025-04-19/20
    Nr Name                       Nat  Grade  ELO    1   2   3  Pts   +/-
     1 Pucher          Olivier    FR   2 Dan  1887  16+  9- 13+   2   -14
    26 Coirier         Catherine  FR             1* 18- 30- 32-   0
    <blank>
    Promoting Weimann Célestin to 1 Dan

The name columns are as wide as the table's longest names: the header's ``Nat`` says where the names end,
and the family name's width is the one at which every row has a blank after it and the longest family
name fills it. Rows numbered past 99 are one character wider (the number is printed ``~2D``), so each row
is read after its number. What follows the grade is read by tokens, not columns: the rating with ``*`` for
a new rating by performance, the cells (with handicaps, ``12+(-R )``), an MMS start score when the header
has the column, the points (``5/2`` or ``2.5``) and the change, blank after a ``*``.

Real pages hold more than the program wrote: a source line or page text before the title, blank lines,
trailing blanks, Windows line ends, tabs and non-breaking spaces, UTF-8 or ISO-8859-1, text after the
promotions. Those are passed over; anything else that does not read is a FesaFileError with its line.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from fractions import Fraction

from ratings.engine.literals import is_grade_unit
from ratings.engine.types import grade_of

from .encoding import decode_lenient
from .errors import FesaFileError
from .turnering import Cell, TablePlayer, Turnering, check_consistency, file_lines, read_cells

# Digits are ASCII only (re.ASCII) and numbers short: int() takes other scripts' digits, and refuses (or
# the database overflows on) thousands of digits. No number of a result table has more than a few.
_TITLE = re.compile(r"^(?P<name>.*\S)\s+:\s+(?P<date>\d{4}-\d{2}-\d{2}(?:/\d{1,2}(?:-\d{1,2})?)?)\s*$", re.ASCII)
_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})(?:/(?:(\d{1,2})-)?(\d{1,2}))?", re.ASCII)
_ROW = re.compile(r"^\s*(\d{1,4}) (.*)$", re.ASCII)
_AFTER_NAMES = re.compile(
    r"^\s*(?:(?P<level>\d{1,2})\s+(?P<unit>Kyu|Dan)\s+)?(?P<rating>-?\d{1,6})(?P<star>\*?)(?P<rest>(?:\s.*)?)$",
    re.ASCII,
)
_NUMBER = re.compile(r"^[+-]?\d{1,6}(?:\.\d{1,6}|/[1-9]\d{0,5})?$", re.ASCII)
_CHANGE = re.compile(r"^[+-]\d{1,6}$", re.ASCII)
_PROMOTION = re.compile(r"^Promoting (.+) to (\d{1,2}) (Kyu|Dan)$", re.ASCII)
_CELL_START = re.compile(r"\d+[+\-=#]", re.ASCII)
_ROUND = re.compile(r"\b\d+\b", re.ASCII)


@dataclass(frozen=True, slots=True)
class PublishedRow:
    """A player's row: ``rating`` is the rating before the table, or his new rating when ``performance``
    (the ``*``), and ``change`` is then None. ``grade`` is his FESA grade before the table (engine scale,
    0 = none)."""

    number: int
    last_name: str
    first_name: str
    nationality: str
    grade: int
    rating: int
    performance: bool
    cells: tuple[Cell, ...]
    macmahon: Fraction | None
    points: Fraction
    change: int | None
    line: int

    @property
    def rating_after(self) -> int:
        return self.rating if self.performance else self.rating + (self.change or 0)


@dataclass(frozen=True, slots=True)
class PublishedTable:
    """A published table; ``promotions`` maps a row number to the grade he was promoted to."""

    name: str
    date: dt.date
    date_text: str
    rounds: int
    rows: tuple[PublishedRow, ...]
    promotions: dict[int, int]
    file: str

    def turnering(self) -> Turnering:
        """The table as a ``turnering.txt`` would hold it (its games), checked for consistency."""
        players = tuple(
            TablePlayer(
                number=r.number,
                last_name=r.last_name,
                first_name=r.first_name,
                cells=r.cells,
                simul_giver=not r.cells and self.rounds > 0,
                free_text=f" {r.nationality} " if r.nationality else " ",
                line=r.line,
            )
            for r in self.rows
        )
        table = Turnering(self.name, self.date, self.date_text, players, self.rounds, self.file)
        check_consistency(table)
        return table


def _clean(text: str) -> list[str]:
    return [line.replace("\xa0", " ").expandtabs().rstrip() for line in file_lines(text)]


def _date(text: str, line: int, file: str) -> dt.date:
    m = _DATE.fullmatch(text)
    try:
        if m is not None:
            year, month, day = int(m[1]), int(m[2]), int(m[5] or m[3])
            return dt.date(year, int(m[4] or month), day)  # the last day: "2025-04-19/20", "2025-04-30/05-01"
    except ValueError:
        pass
    raise FesaFileError(file, line, f"the title's date must be YYYY-MM-DD[/DD], not {text!r}")


def _grade(level: str, unit: str, line: int, file: str) -> int:
    if is_grade_unit(unit):
        try:
            return grade_of(int(level), unit)
        except ValueError:
            pass
    raise FesaFileError(file, line, f"no such grade: {level} {unit}")


def _family_width(rests: list[tuple[int, str]], both: int, file: str) -> int:
    for width in range(1, both + 1):
        if (
            all(len(r) > width and r[width] == " " for _n, r in rests)
            and max(len(r[:width].rstrip()) for _n, r in rests) == width
        ):
            return width
    raise FesaFileError(file, rests[0][0], "cannot tell the family names from the given names")


def _row(
    number: int, rest: str, lineno: int, family: int, both: int, rounds: int, mms: bool, file: str
) -> PublishedRow:
    after = _AFTER_NAMES.match(rest[both + 6 :])
    if after is None:
        raise FesaFileError(file, lineno, "cannot read the grade and rating")
    tokens = after["rest"].split()
    cells_text: list[str] = []
    while tokens and len(cells_text) < rounds and _CELL_START.match(tokens[0]):
        cells_text.append(tokens.pop(0))
        while tokens and cells_text[-1].count("(") > cells_text[-1].count(")"):
            cells_text[-1] += tokens.pop(0)  # a handicap written with a blank inside: "(-R )"
    if cells_text and len(cells_text) != rounds:
        raise FesaFileError(file, lineno, f"{len(cells_text)} cells, but the table has {rounds} rounds")
    numbers = [t for t in tokens if _NUMBER.match(t) and not _CHANGE.match(t)]
    change = [t for t in tokens if _CHANGE.match(t)]
    if len(numbers) != (2 if mms else 1) or len(change) > 1 or len(tokens) != len(numbers) + len(change):
        raise FesaFileError(file, lineno, f"cannot read the points and change in {after['rest'].strip()!r}")
    level, unit = after["level"], after["unit"]
    grade = _grade(level, unit, lineno, file) if level else 0
    return PublishedRow(
        number=number,
        last_name=rest[:family].rstrip(),
        first_name=rest[family + 1 : both + 1].strip(),
        nationality=rest[both + 2 : both + 5].strip(),
        grade=grade,
        rating=int(after["rating"]),
        performance=after["star"] == "*",
        cells=read_cells(" ".join(cells_text), lineno, file),
        macmahon=Fraction(numbers[0]) if mms else None,
        points=Fraction(numbers[-1]),
        change=int(change[0]) if change else None,
        line=lineno,
    )


def read_published_table(data: bytes | str, file: str = "result.txt") -> PublishedTable:
    """Read a published result table (see the module docstring). Raises FesaFileError naming the line."""
    lines = _clean(decode_lenient(data) if isinstance(data, bytes) else data)
    start = next((i for i, line in enumerate(lines) if _TITLE.match(line)), None)
    if start is None or start + 1 >= len(lines) or not lines[start + 1].lstrip().startswith("Nr"):
        raise FesaFileError(file, None, "no title 'Name : YYYY-MM-DD' followed by the 'Nr Name … Nat' header")
    title = _TITLE.match(lines[start])
    assert title is not None
    header = lines[start + 1]
    if "Nat" not in header or "ELO" not in header:
        raise FesaFileError(file, start + 2, "the header must name the columns Nat and ELO")
    both = header.index("Nat") - 5 - (len(header) - len(header.lstrip()))
    mms = "MMS" in header.split()
    rounds = len(_ROUND.findall(header[header.index("ELO") :]))
    rests: list[tuple[int, str]] = []
    end = start + 2
    while end < len(lines) and (m := _ROW.match(lines[end])):
        rests.append((end + 1, m[2]))
        if int(m[1]) != len(rests):
            raise FesaFileError(file, end + 1, f"row {m[1]} where row {len(rests)} was expected")
        end += 1
    if not rests:
        raise FesaFileError(file, start + 3, "the table has no rows")
    family = _family_width(rests, both, file)
    rows = tuple(
        _row(n, rest, lineno, family, both, rounds, mms, file) for n, (lineno, rest) in enumerate(rests, start=1)
    )
    # Names as the promotion lines print them: "Last First", blanks collapsed (an empty given name leaves two).
    by_name = {" ".join(f"{r.last_name} {r.first_name}".split()): r.number for r in rows}
    promotions: dict[int, int] = {}
    for lineno, line in enumerate(lines[end:], start=end + 1):
        if (m := _PROMOTION.match(line.strip())) is None:
            continue  # blank lines and page text after the table
        who = " ".join(m[1].split())
        if who not in by_name:
            raise FesaFileError(file, lineno, f"promotion of {who!r}, who is not in the table")
        promotions[by_name[who]] = _grade(m[2], m[3], lineno, file)
    name, date_text = title["name"], title["date"]
    return PublishedTable(name, _date(date_text, start + 1, file), date_text, rounds, rows, promotions, file)
