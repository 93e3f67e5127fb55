"""Corrections: a rating officer's change to the past, made, recorded and undone in one transaction each.

``correction_make`` applies a change through the service that owns it — ``table_save`` for a submitted or rated
table, ``player_set_prior_grade`` for a prior grade, a plain save for a player's identity — and records a
``Correction`` with the reason, the officer, the facts before and after and the change in people's words. The
re-rate the change needs is requested by that service, in the same transaction. ``correction_undo`` is a
correction too: it hands the earlier facts back to the same services. ``correction_preview`` (in
ratings/services/corrections/preview.py) shows beforehand what either would change.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from ratings.access import can_correct
from ratings.models import Correction, Player, Table, TableStatus
from ratings.services.corrections.facts import (
    IDENTITY_FIELDS,
    Change,
    PriorGradeChange,
    TableChange,
    identity_snapshot,
    prior_grade_snapshot,
    snapshot_change,
    table_snapshot,
)
from ratings.services.corrections.fingerprints import change_lock_check, undo_lock_check
from ratings.services.corrections.preview import CorrectionPreview
from ratings.services.corrections.preview import correction_preview as _table_or_grade_preview
from ratings.services.corrections.words import facts_lines
from ratings.services.grades.prior import player_set_prior_grade
from ratings.services.merge.moves import (
    MergeChange,
    MergeRefused,
    merge_apply,
    merge_facts,
    merge_refusal,
    merge_still_holds,
)
from ratings.services.merge.preview import merge_preview
from ratings.services.tables.save import table_save

__all__ = [
    "CorrectionPreview",
    "MergeChange",
    "MergeRefused",
    "correction_make",
    "correction_preview",
    "correction_undo",
    "correction_undo_change",
]


class NothingToCorrect(ValueError):
    """The change leaves every fact as it is, or its target is not one corrections are for."""


class UndoRefused(ValueError):
    """The correction cannot be undone as it stands (a later one changed the same facts)."""


def correction_preview(change: Change | MergeChange) -> CorrectionPreview:
    """What saving ``change`` would change, computed in memory (ratings/services/corrections/preview.py)."""
    if isinstance(change, MergeChange):
        return merge_preview(change)
    return _table_or_grade_preview(change)


def _required(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": _("Say why the correction is made.")})
    return reason


def correction_make(
    *,
    user: Any,
    reason: str,
    change: Change | MergeChange,
    undoes: Correction | None = None,
    expected: str | None,
) -> Correction:
    """Apply ``change`` and record it, in one transaction; return the correction.

    ``expected``: the version of the table or players the page showed (``change_version``); the change is
    saved only onto exactly that state (ratings/services/fingerprints.py).
    Raises PermissionDenied for a user who is not a rating officer, ValidationError without a reason,
    ChangedMeanwhile when what the change starts from is no longer ``expected``, NothingToCorrect when
    nothing would change or the table is a draft (no correction: it rates nothing yet), and whatever the
    owning service raises (TableRefused, ValidationError), writing nothing.
    """
    if not can_correct(user):
        raise PermissionDenied(_("Only rating officers make corrections."))
    reason = _required(reason)
    with transaction.atomic():
        change_lock_check(change, expected)
        kind, target, before, after = _apply(change, user)
        if before == after:
            raise NothingToCorrect(_("The correction changes nothing."))
        lines = facts_lines(kind, before, after)
        return Correction.objects.create(
            kind=kind,
            table=target if isinstance(target, Table) else None,
            player=target if isinstance(target, Player) else None,
            reason=reason,
            made_by=user,
            before=before,
            after=after,
            summary="\n".join(lines),
            undoes=undoes,
        )


def _apply_merge(change: MergeChange) -> tuple[str, Player, dict[str, Any], dict[str, Any]]:
    """Merge the two records, or (an undo) move back what a merge moved; the duplicate is the target."""
    players = Player.objects.select_for_update().in_bulk([change.duplicate.pk, change.kept.pk])
    duplicate, kept = players[change.duplicate.pk], players[change.kept.pk]
    if change.facts is None:
        refusal = merge_refusal(duplicate, kept)
        if refusal:
            raise MergeRefused(refusal)
        before, after = merge_facts(duplicate, kept)
    else:
        before = {**dict(change.facts), "owner": change.kept.pk, "merged_into": duplicate.merged_into_id}
        after = dict(change.facts)
    merge_apply(after)
    duplicate.refresh_from_db()
    change.duplicate.refresh_from_db()
    change.kept.refresh_from_db()
    return Correction.Kind.MERGE, duplicate, before, after


def _apply(change: Change | MergeChange, user: Any) -> tuple[str, Table | Player, dict[str, Any], dict[str, Any]]:
    if isinstance(change, MergeChange):
        return _apply_merge(change)
    if isinstance(change, TableChange):
        table = Table.objects.select_for_update().get(pk=change.table.pk)
        if table.status not in (TableStatus.SUBMITTED, TableStatus.RATED):
            raise NothingToCorrect(_("Only a submitted or rated table is corrected; a draft is simply edited."))
        before = table_snapshot(table)
        table_save(
            table=change.table,
            tournament=change.tournament,
            name=change.name,
            date=change.date,
            sequence=change.sequence,
            entries=change.entries,
            games=change.games,
            strict_dates=False,
        )
        return Correction.Kind.TABLE, change.table, before, table_snapshot(change.table)
    player = Player.objects.select_for_update().get(pk=change.player.pk)
    if isinstance(change, PriorGradeChange):
        before = prior_grade_snapshot(player)
        player_set_prior_grade(
            player=player,
            kind=change.kind,
            level=change.level,
            source=change.source,
            note=change.note,
            date=change.date,
            user=user,
        )
        change.player.refresh_from_db()
        return Correction.Kind.PRIOR_GRADE, player, before, prior_grade_snapshot(player)
    before = identity_snapshot(player)
    for name, value in identity_snapshot(player, change.values).items():
        setattr(player, name, value)
    # Only the identity fields: an unrelated field of an old record must not block this correction.
    player.clean_fields(exclude=[f.name for f in Player._meta.fields if f.name not in IDENTITY_FIELDS])
    player._history_user = user  # type: ignore[attr-defined]
    player.save()
    change.player.refresh_from_db()
    return Correction.Kind.IDENTITY, player, before, identity_snapshot(player)


def _target(correction: Correction) -> Table | Player:
    target = correction.table if correction.kind == Correction.Kind.TABLE else correction.player
    if target is None:
        raise UndoRefused(_("What it corrected no longer exists."))
    return target


def _current(correction: Correction, target: Table | Player) -> dict[str, Any]:
    if isinstance(target, Table):
        return table_snapshot(target)
    if correction.kind == Correction.Kind.MERGE:
        return correction.after if merge_still_holds(correction.after) else {}
    if correction.kind == Correction.Kind.PRIOR_GRADE:
        return prior_grade_snapshot(target)
    return identity_snapshot(target)


def correction_undo_change(correction: Correction) -> Change | MergeChange:
    """The change that restores what ``correction`` changed, for previewing and saving the undo.

    Raises UndoRefused when the facts are no longer what the correction left (a later correction or edit
    changed them since): undo that one first, so no later change is lost unseen.
    """
    target = _target(correction)
    if _current(correction, target) != correction.after:
        raise UndoRefused(_("These facts changed since the correction; undo the later change first."))
    if correction.kind == Correction.Kind.MERGE:
        assert isinstance(target, Player)
        kept = Player.objects.get(pk=correction.before["kept"])
        return MergeChange(duplicate=target, kept=kept, facts=correction.before)
    return snapshot_change(correction.kind, correction.before, target=target)


def correction_undo(*, correction: Correction, user: Any, reason: str, expected: str | None) -> Correction:
    """Record and apply a new correction that restores the facts as they were before ``correction``;
    ``expected``: the version the undo's page showed (``undo_version``), else ChangedMeanwhile."""
    with transaction.atomic():
        undo_lock_check(correction, expected)
        change = correction_undo_change(correction)
        # Checked just above, with the rows locked for this transaction.
        return correction_make(user=user, reason=reason, change=change, undoes=correction, expected=None)
