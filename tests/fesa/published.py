"""A reader for a published FESA result table (``tests/data/fesa/fesa-result-*.txt``), for the tests.

The table is the program's ``skriv3`` layout (see ratings/fesa_files/result_table.py) under a title line:
the name columns are as wide as the longest names, so the family-name width is found as the one width at
which every row has a blank after the family name and the longest family name fills it exactly.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ratings.engine.types import grade_of

_PROMOTION = re.compile(r"Promoting (.*) to (\d+) (Kyu|Dan)$")
_CELL = re.compile(r"(\d+)([+\-=])$")


@dataclass(frozen=True)
class PublishedRow:
    number: int
    last_name: str
    first_name: str
    nationality: str
    grade: int  # engine scale, 0 = none
    rating: int  # before the table, or the new rating when ``performance``
    performance: bool
    cells: tuple[tuple[int, str], ...]
    points: int
    change: int | None


@dataclass(frozen=True)
class PublishedTable:
    title: str
    header: str
    rows: tuple[PublishedRow, ...]
    promotions: dict[str, int]  # "Last First" -> final grade
    text: str  # the table without the source line


def _family_width(rows: list[str], both: int) -> int:
    for width in range(1, both + 1):
        if (
            all(len(r) > 3 + width and r[3 + width] == " " for r in rows)
            and max(len(r[3 : 3 + width].rstrip()) for r in rows) == width
        ):
            return width
    raise ValueError("cannot find the family-name column")


def read_published(path: Path) -> PublishedTable:
    lines = path.read_text(encoding="utf-8").split("\n")
    if lines[0].startswith("# source:"):
        lines = lines[1:]
    title, header = lines[0], lines[1]
    body = lines[2 : lines.index("")]
    both = header.index("Nat") - 5  # family width + given width
    family = _family_width(body, both)
    rows = []
    for line in body:
        at = both + 5
        level, unit = line[at + 4 : at + 6].strip(), line[at + 7 : at + 10].strip()
        tokens = line[at + 18 :].split()
        cells = tuple((int(m[1]), m[2]) for t in tokens if (m := _CELL.match(t)))
        rest = tokens[len(cells) :]
        rows.append(
            PublishedRow(
                number=int(line[:2]),
                last_name=line[3 : 3 + family].rstrip(),
                first_name=line[4 + family : 4 + both].rstrip(),
                nationality=line[at : at + 3].strip(),
                grade=grade_of(int(level), unit) if level else 0,  # type: ignore[arg-type]
                rating=int(line[at + 12 : at + 16]),
                performance=line[at + 16] == "*",
                cells=cells,
                points=int(rest[0]),
                change=int(rest[1]) if len(rest) > 1 else None,
            )
        )
    promotions = {}
    for line in lines[lines.index("") + 1 :]:
        if m := _PROMOTION.match(line):
            promotions[m[1]] = grade_of(int(m[2]), m[3])  # type: ignore[arg-type]
    return PublishedTable(title, header, tuple(rows), promotions, "\n".join(lines))
