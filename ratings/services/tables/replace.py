"""Replacing a player entered in a table by mistake with the right one: a table correction like any other.

``table_replace_change`` builds the ``TableChange`` (the table's entries and games with the right player in the
wrong one's seat and games) that ``correction_make`` saves through ``table_save`` and ``correction_preview``
replays, so the re-rate, the record and the undo are the table correction's own.
"""

from __future__ import annotations

from dataclasses import replace

from django.utils.translation import gettext as _

from ratings.models import Player, Table, TableStatus
from ratings.services.corrections.facts import TableChange
from ratings.services.tables.save import EntryFacts, GameEdit
from ratings.services.tables.submit import GameFacts


class ReplaceRefused(ValueError):
    """The replacement cannot be made as asked; the message says why, with names."""


def table_replace_change(*, table: Table, wrong: Player, right: Player) -> TableChange:
    """The table as it is to become with ``right`` instead of ``wrong``; raise ReplaceRefused when ``wrong`` is
    not in it, ``right`` is in it already, or the table is a draft (edited as usual, no correction)."""
    names = {"wrong": wrong, "right": right, "table": table}
    if table.status not in (TableStatus.SUBMITTED, TableStatus.RATED):
        raise ReplaceRefused(_("%(table)s is a draft: change its players in the table itself.") % names)
    entries = list(table.entries.order_by("seat"))
    if not any(e.player_id == wrong.pk for e in entries):
        raise ReplaceRefused(_("%(wrong)s is not in %(table)s.") % names)
    if any(e.player_id == right.pk for e in entries):
        raise ReplaceRefused(_("%(right)s is in %(table)s already: he cannot take another seat.") % names)
    if right.merged_into_id:
        raise ReplaceRefused(_("%(right)s is merged into another player; choose that one.") % names)

    def swap(pid: int) -> int:
        return right.pk if pid == wrong.pk else pid

    games = []
    for g in table.games.order_by("round", "id"):
        facts = GameFacts.of(g)
        second = None if facts.second_id is None else swap(facts.second_id)  # None: no opponent
        facts = replace(facts, first_id=swap(facts.first_id), second_id=second)
        games.append(GameEdit(facts=facts, id=g.pk))
    moved = [EntryFacts(player_id=swap(e.player_id), seat=e.seat) for e in entries]
    return TableChange.in_place(table, moved, games)
