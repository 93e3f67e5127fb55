"""Two state lists side by side: every difference between the site's list and one the program wrote, by
player and field, for a federation that runs both after each table during its trial season.

A player is told by name. Fields are compared by value, as the program means them (``:LAST-PLAYED NIL`` and
``""`` are the same date, a result list is compared in its order); the spelling of an unchanged slot is
not a difference. Positions are compared last, once both lists hold the same players: among equal ratings
the program's order is a fact of its own (ratings/fesa_files/list_order.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ratings.engine.types import grade_label

from .records import ListRecord


@dataclass(frozen=True, slots=True)
class ListDifference:
    """One difference: ``field`` of player ``name`` (family, given) is ``site`` here and ``program`` there."""

    name: tuple[str, str]
    field: str
    site: str
    program: str

    def __str__(self) -> str:
        who = " ".join(part for part in self.name if part)
        return f"{who}: {self.field}: site {self.site}, program {self.program}"


def _history(r: ListRecord) -> str:
    s = r.state
    if s.result_list is None:
        return f"{s.game_count} games"
    return "(" + " ".join(f"({rating} {score:g})" for rating, score in s.result_list) + ")"


def _homes(r: ListRecord) -> str:
    return " ".join(f"{h.list}:{h.nationality}/{h.residens}@{h.last or '-'}" for h in r.homes) or "none"


def _prior(r: ListRecord) -> str:
    p = r.state.prior_grade
    return "none" if p is None else f"{p.level} {p.kind}"


FIELDS: tuple[tuple[str, Callable[[ListRecord], str]], ...] = (
    ("rating", lambda r: str(r.state.rating)),
    ("history", _history),
    ("bonus count", lambda r: str(r.state.bonus_count)),
    ("FESA grade", lambda r: grade_label(r.state.grade) or "none"),
    ("prior grade", _prior),
    ("LB run", lambda r: f"{r.state.lb_run}{' (MP seen)' if r.state.lb_mp_seen else ''}"),
    ("MP run", lambda r: str(r.state.mp_run)),
    ("last played", lambda r: str(r.state.last_played or "never")),
    ("nationality list", _homes),
)


def compare_lists(site: Sequence[ListRecord], program: Sequence[ListRecord]) -> list[ListDifference]:
    """Every difference, in the program's list order (players only on the site last)."""
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
                differences.append(ListDifference(record.name, field, show(mine), show(record)))
    differences += [ListDifference(r.name, "player", "listed", "missing") for r in site if r.name not in theirs]
    if not differences:
        position = {r.name: i for i, r in enumerate(site, start=1)}
        for i, record in enumerate(program, start=1):
            if position[record.name] != i:
                differences.append(ListDifference(record.name, "position", str(position[record.name]), str(i)))
    return differences
