"""Two state lists side by side: every difference between the site's list and one the program wrote, by
player and field, for a federation that runs both after each table during its trial season.

A player is told by name. Fields are compared by value, as the program means them (``:LAST-PLAYED NIL`` and
``""`` are the same date, a result list is compared in its order); the spelling of an unchanged slot is
not a difference. Positions are compared last, once both lists hold the same players: among equal ratings
the program's order is a fact of its own (ratings/fesa_files/list_order.py).

A difference is explained when a documented divergence from the program (docs/rules.md §5, §9) accounts for
it: the model of the program's list (ratings/fesa_files/program_model.py: the same tables replayed with the
program's behaviour for players with only byes and for half performance roots) holds the program's very value,
and one of those divergences, or a consequence of it, is what moved the field away from the site's. Everything
else is unexplained, for a federation to look into. A player's nationality list is explained when it differs
only by the dates the model gives his last table.

Positions that differ only because of explained differences (every other player in the same order) are
explained by the same divergences.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .program_model import BYES_ONLY, HALF_ROOT, STATE_FIELDS, ProgramModel
from .records import Home, ListRecord

__all__ = ["BYES_ONLY", "HALF_ROOT", "ListDifference", "compare_lists", "unexplained"]


@dataclass(frozen=True, slots=True)
class ListDifference:
    """One difference: ``field`` of player ``name`` (family, given) is ``site`` here and ``program`` there;
    ``explained`` names the documented divergence that accounts for it, empty when none does."""

    name: tuple[str, str]
    field: str
    site: str
    program: str
    explained: str = ""

    def __str__(self) -> str:
        who = " ".join(part for part in self.name if part)
        line = f"{who}: {self.field}: site {self.site}, program {self.program}"
        return f"{line} (explained: {self.explained})" if self.explained else line


def _homes(r: ListRecord) -> str:
    return " ".join(f"{h.list}:{h.nationality}/{h.residens}@{h.last or '-'}" for h in r.homes) or "none"


FIELDS: tuple[tuple[str, Callable[[ListRecord], str]], ...] = (
    *((field, lambda r, show=show: show(r.state)) for field, show in STATE_FIELDS),
    ("nationality list", _homes),
)


def _dated_only(mine: tuple[Home, ...], theirs: tuple[Home, ...], last: object) -> bool:
    """The program's HOME entries are the site's, but for dates that are the model's last table."""
    return len(mine) == len(theirs) and all(
        (m.list, m.nationality, m.residens) == (t.list, t.nationality, t.residens)
        and (m.last == t.last or t.last == last)
        for m, t in zip(mine, theirs, strict=True)
    )


def explanation(field: str, mine: ListRecord, theirs: ListRecord, model: ProgramModel | None) -> str:
    """The documented divergence that accounts for this field's difference, or ""."""
    expected = None if model is None else model.states.get(mine.name)
    if model is None or expected is None:
        return ""
    if field == "nationality list":
        cause = model.causes.get((mine.name, "last played"), "")
        return cause if cause and _dated_only(mine.homes, theirs.homes, expected.last_played) else ""
    cause = model.causes.get((mine.name, field), "")
    show = dict(STATE_FIELDS)[field]
    return cause if cause and show(expected) == show(theirs.state) else ""


def _positions(
    site: Sequence[ListRecord], program: Sequence[ListRecord], explained: Sequence[ListDifference]
) -> list[ListDifference]:
    """The positions that differ, explained by the explained differences when every player without one is in
    the same order on both lists (the positions that moved moved because of those players)."""
    position = {r.name: i for i, r in enumerate(site, start=1)}
    apart = {d.name for d in explained}
    others_agree = [r.name for r in site if r.name not in apart] == [r.name for r in program if r.name not in apart]
    because = "; ".join(sorted({d.explained for d in explained})) if others_agree else ""
    return [
        ListDifference(record.name, "position", str(position[record.name]), str(i), because)
        for i, record in enumerate(program, start=1)
        if position[record.name] != i
    ]


def compare_lists(
    site: Sequence[ListRecord], program: Sequence[ListRecord], *, model: ProgramModel | None = None
) -> list[ListDifference]:
    """Every difference, in the program's list order (players only on the site last), each with the documented
    divergence that explains it if one does. ``model``: the program's list as the compared span's tables and
    the documented divergences make it (ratings/fesa_files/program_model.py); without one, nothing is
    explained."""
    ours = {r.name: r for r in site}
    theirs = {r.name: r for r in program}
    differences: list[ListDifference] = []
    for record in program:
        mine = ours.get(record.name)
        if mine is None:
            differences.append(ListDifference(record.name, "player", "missing", "listed"))
            continue
        for field, show in FIELDS:
            if show(mine) != show(record):
                why = explanation(field, mine, record, model)
                differences.append(ListDifference(record.name, field, show(mine), show(record), why))
    differences += [ListDifference(r.name, "player", "listed", "missing") for r in site if r.name not in theirs]
    if not unexplained(differences):
        differences += _positions(site, program, differences)
    return differences


def unexplained(differences: Sequence[ListDifference]) -> list[ListDifference]:
    return [d for d in differences if not d.explained]
