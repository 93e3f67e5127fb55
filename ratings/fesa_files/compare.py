"""Two state lists side by side: every difference between the site's list and one the program wrote, by
player and field, for a federation that runs both after each table during its trial season.

A player is told by name. Fields are compared by value, as the program means them (``:LAST-PLAYED NIL`` and
``""`` are the same date, a result list is compared in its order); the spelling of an unchanged slot is
not a difference. Positions are compared last, once both lists hold the same players: among equal ratings
the program's order is a fact of its own (ratings/fesa_files/list_order.py).

A difference that a documented divergence from the program explains (docs/rules.md §5, §9, §10) is named with
it, apart from the unexplained ones a federation must look into:

* ``BYES_ONLY``: a player whose table rows held no rated game takes no part on the site, where the program
  gives a newcomer the rating 1 and dates him (his last played date and his home's). Which players those are
  the caller knows from the tables (``byes_only``); the lists alone cannot tell.
* ``HALF_ROOT``: a performance-rated player one point apart whose final calculation (the result list he now
  holds) has its root at a half, within the program's solver's reach of it: the site rounds the exact root, the
  program may land on either side.

Positions that differ only because of explained differences (every other player in the same order) are
explained by the same divergences.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from ratings.engine.performance import performance
from ratings.engine.types import grade_label

from .records import ListRecord

BYES_ONLY = "docs/rules.md §9: a player with only byes takes no part (the program rates and dates him)"
HALF_ROOT = "docs/rules.md §5: an exact half performance root (the program may round it to either side)"
HALF_ROOT_REACH = 0.0015
"""How far from the root the program's own solver stops (docs/rules.md §5): a root this close to a half may be
rounded to either side by the program."""

BYES_ONLY_FIELDS = frozenset({"rating", "history", "last played", "nationality list"})


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


def half_root_apart(mine: ListRecord, theirs: ListRecord) -> bool:
    """The two ratings are the two sides of a half that the player's final calculation has as its root."""
    pairs = mine.state.result_list
    if pairs is None or pairs != theirs.state.result_list or abs(mine.state.rating - theirs.state.rating) != 1:
        return False
    root = performance(pairs)
    if root is None:
        return False
    half = min(mine.state.rating, theirs.state.rating) + 0.5
    return math.isfinite(root) and abs(root - half) <= HALF_ROOT_REACH


def explanation(field: str, mine: ListRecord, theirs: ListRecord, byes_only: Collection[tuple[str, str]]) -> str:
    """The documented divergence that accounts for this field's difference, or ""."""
    # The program rates such a newcomer 1; a rated player it only dates.
    newcomer_rated = (mine.state.rating, theirs.state.rating) == (0, 1)
    if mine.name in byes_only and field in BYES_ONLY_FIELDS and (field != "rating" or newcomer_rated):
        return BYES_ONLY
    if field == "rating" and half_root_apart(mine, theirs):
        return HALF_ROOT
    return ""


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
    site: Sequence[ListRecord], program: Sequence[ListRecord], *, byes_only: Collection[tuple[str, str]] = ()
) -> list[ListDifference]:
    """Every difference, in the program's list order (players only on the site last), each with the documented
    divergence that explains it if one does. ``byes_only``: the names of the players who had only byes in a
    table of the compared span."""
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
                why = explanation(field, mine, record, byes_only)
                differences.append(ListDifference(record.name, field, show(mine), show(record), why))
    differences += [ListDifference(r.name, "player", "listed", "missing") for r in site if r.name not in theirs]
    if not unexplained(differences):
        differences += _positions(site, program, differences)
    return differences


def unexplained(differences: Sequence[ListDifference]) -> list[ListDifference]:
    return [d for d in differences if not d.explained]
