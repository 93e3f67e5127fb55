"""The fingerprints of what corrections start from (ratings/services/fingerprints.py): a table, a player, a
merged pair.

A table's version is its snapshot (place, entries, games: ``table_snapshot``), a player's his identity, prior
grade and merge mark, a merge's both players' and the rows the merge would move (``merge_facts``). An undo
starts from what the correction it undoes changed. ``correction_lock_check`` locks the rows and compares,
inside the saving transaction; what changed meanwhile is told from the corrections and the audit history.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from django.db.models import Q
from django.utils.translation import gettext as _

from ratings.models import Correction, Game, Player, Table, TableEntry
from ratings.services.corrections.facts import (
    Change,
    TableChange,
    identity_snapshot,
    prior_grade_snapshot,
    table_snapshot,
)
from ratings.services.corrections.words import correction_text
from ratings.services.fingerprints import by, history_lines, version_check, version_of, when
from ratings.services.merge.moves import MergeChange, merge_facts


def _player_facts(player: Player) -> dict[str, Any]:
    return {
        "identity": identity_snapshot(player),
        "prior_grade": prior_grade_snapshot(player),
        "merged_into": player.merged_into_id,
    }


def _targets(change: Change | MergeChange) -> tuple[int | None, list[int]]:
    """The table and the players a change starts from."""
    if isinstance(change, TableChange):
        return change.table.pk, []
    if isinstance(change, MergeChange):
        return None, [change.duplicate.pk, change.kept.pk]
    return None, [change.player.pk]


def _undo_targets(correction: Correction) -> tuple[int | None, list[int]]:
    if correction.kind == Correction.Kind.TABLE:
        return correction.table_id, []
    if correction.kind == Correction.Kind.MERGE:
        return None, [correction.before["duplicate"], correction.before["kept"]]
    return None, [correction.player_id] if correction.player_id else []


def _facts(table_id: int | None, player_ids: Sequence[int], *, lock: bool) -> dict[str, Any]:
    """The facts of the table and players, read fresh (locked for the rest of the transaction if ``lock``)."""
    out: dict[str, Any] = {}
    if table_id is not None:
        tables = Table.objects.select_for_update() if lock else Table.objects
        table = tables.filter(pk=table_id).first()
        out["table"] = table_snapshot(table) if table is not None else None
    if player_ids:
        players = (Player.objects.select_for_update() if lock else Player.objects).in_bulk(list(player_ids))
        out["players"] = [_player_facts(players[pid]) if pid in players else None for pid in player_ids]
        if len(player_ids) == 2 and len(players) == 2:
            out["merge"] = merge_facts(players[player_ids[0]], players[player_ids[1]])[0]
    return out


def loaded_version(*, table: Table | None = None, players: Sequence[Player] = ()) -> str:
    """The version of a table or of players (one, or a merge's duplicate and kept player, in that order) as
    they are now, for the page that shows them to carry."""
    return version_of(_facts(table.pk if table is not None else None, [p.pk for p in players], lock=False))


def change_version(change: Change | MergeChange) -> str:
    """The version of what ``change`` starts from, as a page that shows it carries it."""
    table_id, player_ids = _targets(change)
    return version_of(_facts(table_id, player_ids, lock=False))


def undo_version(correction: Correction) -> str:
    """The version of what undoing ``correction`` starts from."""
    table_id, player_ids = _undo_targets(correction)
    return version_of(_facts(table_id, player_ids, lock=False))


def change_lock_check(change: Change | MergeChange, expected: str | None, *, lock: bool = True) -> None:
    """Lock what ``change`` starts from and raise ChangedMeanwhile unless it is as ``expected`` says."""
    table_id, player_ids = _targets(change)
    _check(table_id, player_ids, expected, lock=lock)


def undo_lock_check(correction: Correction, expected: str | None, *, lock: bool = True) -> None:
    table_id, player_ids = _undo_targets(correction)
    _check(table_id, player_ids, expected, lock=lock)


def _check(table_id: int | None, player_ids: Sequence[int], expected: str | None, *, lock: bool) -> None:
    if expected is None:
        return
    facts = _facts(table_id, player_ids, lock=lock)
    version_check(expected, facts, changes=lambda since: changes_since(since, table_id, player_ids))


def changes_since(since: dt.datetime | None, table_id: int | None, player_ids: Sequence[int]) -> list[str]:
    """What the corrections, or else the audit history, recorded on the table or players since ``since``."""
    corrections = Q()
    if table_id is not None:
        corrections |= Q(table_id=table_id)
    for pid in player_ids:
        corrections |= Q(player_id=pid) | Q(kind=Correction.Kind.MERGE, after__kept=pid)
    found = Correction.objects.filter(corrections).select_related("made_by").order_by("made_at")
    if since is not None:
        found = found.filter(made_at__gte=since)
    lines = [f"{when(c.made_at)}, {by(c.made_by)}: {correction_text(c)}" for c in found[:10]]
    return lines or _history_since(since, table_id, player_ids)


def _history_since(since: dt.datetime | None, table_id: int | None, player_ids: Sequence[int]) -> list[str]:
    """Changes made without a correction (a director's edit, an import): who and when, from the audit history."""
    after = Q(history_date__gte=since) if since is not None else Q()
    records: list[Any] = []
    if table_id is not None:
        for model, key in ((Table, "id"), (TableEntry, "table_id"), (Game, "table_id")):
            records += model.history.filter(after, **{key: table_id}).select_related("history_user")
    if player_ids:
        records += Player.history.filter(after, id__in=list(player_ids)).select_related("history_user")
    records.sort(key=lambda r: r.history_date)
    return history_lines(records[-10:], what=_what)


def _what(record: Any) -> str:
    kind = {"+": _("added"), "~": _("changed"), "-": _("deleted")}.get(record.history_type, record.history_type)
    return f"{record.instance_type._meta.verbose_name} {kind}"
