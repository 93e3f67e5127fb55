"""The records of the FESA state list: a player's names, his nationality list and his engine state.

Named tuples, as the engine's values are (ratings/engine/types.py).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import NamedTuple

from ratings.engine.types import PlayerState

from .lisp import Struct
from .values import same_fields


class Home(NamedTuple):
    """One entry of a player's nationality list: which list (``E`` European, ``A`` American), the
    nationality and residence codes, and the date he last played on that list. ``source``, the structure it
    was read from, is not compared."""

    list: str
    nationality: str
    residens: str
    last: dt.date | None = None
    source: Struct | None = None

    def __eq__(self, other: object) -> bool:
        return same_fields(self, other, 4)

    def __ne__(self, other: object) -> bool:
        return not same_fields(self, other, 4)

    def __hash__(self) -> int:
        return hash(self[:4])


class ListRecord(NamedTuple):
    """A player of the list. ``line`` and ``file`` say where he was read (for messages); ``source`` is the
    structure he was read from, used to write unchanged slots back as they were; ``text``, the line he was
    read from when it is in the program's spelling (ratings/fesa_files/spelling.py), written back as it
    is while the record is unchanged: a changed record must not keep it (``played`` drops it; pass
    ``text=None`` to ``_replace``). Only the names, homes and state are compared."""

    last_name: str
    first_name: str
    homes: tuple[Home, ...]
    state: PlayerState
    line: int | None = None
    file: str | None = None
    source: Struct | None = None
    text: str | None = None

    def __eq__(self, other: object) -> bool:
        return same_fields(self, other, 4)

    def __ne__(self, other: object) -> bool:
        return not same_fields(self, other, 4)

    def __hash__(self) -> int:
        return hash(self[:4])

    @property
    def name(self) -> tuple[str, str]:
        """The key a table's lines are matched by: (family name, given name), exactly."""
        return self.last_name, self.first_name

    def home_nationality(self) -> str:
        """The nationality of the first HOME (what the program prints in a result table), or ``NIL``."""
        return self.homes[0].nationality if self.homes else "NIL"

    def list_nationality(self) -> str:
        """The nationality of the public list (all.txt): the American-list HOME's if there is one, else the
        European-list HOME's, else empty."""
        for code in ("A", "E"):
            for home in self.homes:
                if home.list == code:
                    return home.nationality
        return ""

    def played(self, date: dt.date, origin: str = "E", state: PlayerState | None = None) -> ListRecord:
        """The record after a table of list ``origin`` on ``date`` (with ``state``, his state after it, if
        given): the HOME of that list gets ``date`` as its last date; a player without one gets a copy of
        his first HOME for that list, put in front (as the program does when a European player first plays
        an American table). Built by the constructors, not ``replace``: a run does it for every player."""
        homes = list(self.homes)
        for i, home in enumerate(homes):
            if home.list == origin:
                homes[i] = Home(home.list, home.nationality, home.residens, date, home.source)
                break
        else:
            model = homes[0] if homes else Home(origin, "", "")
            homes.insert(0, Home(origin, model.nationality, model.residens, date))
        return ListRecord(
            self.last_name,
            self.first_name,
            tuple(homes),
            self.state if state is None else state,
            self.line,
            self.file,
            self.source,
        )


def table_origin(records: Iterable[ListRecord]) -> str:
    """The list a table belongs to: ``A`` when more of its players have an American-list HOME than a
    European one, else ``E`` (the program's rule)."""
    eu = us = 0
    for record in records:
        codes = {h.list for h in record.homes}
        eu += "E" in codes
        us += "A" in codes
    return "A" if us > eu else "E"
