"""``all.txt``, the public rating list, laid out exactly as the FESA program writes it.

::

    Elo list for 2016-01-07
    <blank>
        Name                               Grades       Elo #games Nationality
      1 Ishikawa          Musashi                 1 Dan 1787   8     FR

Rank (3 wide, right), family name (17, left), given name (15, left), FESA grade (6, right), prior grade
(6, right), rating (4, right), games (3, right), five spaces, nationality; fields are separated by one
space and longer values push the rest to the right. The file has no newline after the last row (as every
golden all.txt shows).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from ratings.engine.types import grade_label

from .encoding import encode_text, latin1_text
from .ratingliste import ListRecord

HEADER = "    Name                               Grades       Elo #games Nationality"


def is_active(record: ListRecord, date: dt.date) -> bool:
    """On the list of ``date``: played a rated table on or after the same day two years earlier, and not a
    professional (docs/rules.md §8).

    As the program does, the day two years earlier is compared as text (``2022-02-29`` for a list of
    2024-02-29, so 28 February is out) and a later last date still counts. A player who never played is
    not on the list (the program dates him 2000-01-01, which is the same for any list after 2002).
    """
    state = record.state
    if state.prior_grade is not None and state.prior_grade.kind == "pro":
        return False
    last = state.last_played
    if last is None:
        return False
    return (last.year, last.month, last.day) >= (date.year - 2, date.month, date.day)


def _prior_label(record: ListRecord) -> str:
    prior = record.state.prior_grade
    return "" if prior is None else f"{prior.level} {prior.kind.capitalize()}"


def all_txt_text(records: Iterable[ListRecord], date: dt.date) -> str:
    """The list of ``date`` from ``records`` in the given order (the order of ``ratingliste.post``)."""
    rows: list[str] = []
    for record in records:
        if not is_active(record, date):
            continue
        rows.append(
            f"{len(rows) + 1:>3} {latin1_text(record.last_name):<17} {latin1_text(record.first_name):<15} "
            f"{grade_label(record.state.grade):>6} {_prior_label(record):>6} "
            f"{record.state.rating:>4} {record.state.games:>3}     {record.list_nationality()}"
        )
    return f"Elo list for {date.isoformat()}\n\n{HEADER}" + "".join("\n" + row for row in rows)


def write_all_txt(records: Iterable[ListRecord], date: dt.date, file: str = "all.txt") -> bytes:
    """:func:`all_txt_text` in ISO-8859-1."""
    return encode_text(all_txt_text(records, date), file)
