"""Grades: the engine's promotions as records, the grade officers' decisions, and the grade the public sees.

The engine computes promotions with its own grade, whatever anyone decides (docs/rules.md §8); the records here say
what the public sees:

* a Kyu promotion is ``effective`` at once; a Dan promotion is ``pending`` until a grade officer approves or
  rejects it (5 and 6 Dan only with the Japan Shogi Association's (NSR) consent);
* re-rating calls ``promotions_sync`` with what the engine found in the tables it redid. Records are matched by
  (player, grade), so a correction that only moves a promotion to another table keeps its decision. One the
  corrected history no longer produces is ``withdrawn`` if it was pending or effective (``flag_reason`` says
  why); an approved one is never taken away by a machine: it is flagged (``supported`` off) and the grade
  officer keeps it (``promotion_confirm_flagged``) or takes it away (``promotion_revoke``);
* a withdrawn or revoked record stays as history; if the history later produces the grade again, a new
  record appears (pending, for a Dan grade).

Every decision is a compare-and-set update that must touch exactly one row in the state it expects, so two grade
officers, or a grade officer and a re-rate, can never both win: the loser gets ``PromotionConflict``. Each
decision also writes the audit history row that ``update()`` alone would skip, then refreshes the player's
public grade.

A decision taken can be changed later, with a reason: ratings/services/grades/revisions.py.

The queue's "age" is the waiting time: days since the date of the table that earned the promotion, not since
the record was written (a late table or a re-rate writes it long after the games; ``waiting_days``,
ratings/selectors/grades.py). A player's age from his date of birth is
private (it only tells namesakes apart) and the rules give it no part in grades, so the queue does not filter
on it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from simple_history.utils import bulk_create_with_history

from ratings import engine
from ratings.access import can_decide
from ratings.db import id_batches, rows_update
from ratings.engine.grades import FIRST_DAN, needs_nsr_consent
from ratings.models import LIVE_PROMOTION_STATUSES, Promotion, PromotionStatus, Table
from ratings.services.grades.fingerprints import promotion_lock_check
from ratings.services.players import players_refresh
from ratings.services.season.subscriptions import promotion_subscribers_notify


class PromotionConflict(Exception):
    """The promotion is no longer in the state the decision expects (decided already, withdrawn, re-flagged)."""


class PromotionInvalid(ValueError):
    """The decision misses what the rules require (a reason, the NSR's consent) or comes in the wrong order."""


@dataclass
class SyncSummary:
    """What ``promotions_sync`` did, for the re-rate log."""

    created: int = 0
    updated: int = 0
    withdrawn: int = 0
    flagged: int = 0


# --- Re-rating ----------------------------------------------------------------------------------------------


def promotions_sync(*, tables: Sequence[int], found: Sequence[tuple[int, int, engine.Promotion]]) -> SyncSummary:
    """Make the promotion records of the redone ``tables`` match what the engine ``found`` in them.

    ``found`` holds (player id, table id, promotion) for every promotion of every redone table. Records of
    tables that were not redone are left alone: their tables produced the same outcome as before. Call
    inside the re-rate's transaction; the live records it may change are locked (PostgreSQL) and read again
    under the lock, so a grade officer's decision either lands before and is seen, or waits and then finds the
    new state.
    """
    redone = set(tables)
    wanted: dict[tuple[int, int], tuple[int, engine.Promotion]] = {
        (pid, p.grade): (table_id, p) for pid, table_id, p in found
    }
    summary = SyncSummary()
    with transaction.atomic():
        players = {pid for pid, _grade in wanted}
        for batch in id_batches(sorted(redone)):
            players.update(Promotion.objects.filter(table_id__in=batch).values_list("player_id", flat=True))
        # Only the records the sync may change (of a grade found again, or of a redone table) are read whole
        # and locked: a merge of a long career reaches thousands of players, whose other records, ten times
        # as many, it leaves alone.
        live = Promotion.objects.filter(status__in=LIVE_PROMOTION_STATUSES)
        ids, concerned = sorted(players), []
        for batch in id_batches(ids):
            records = live.filter(player_id__in=batch)
            for pk, pid, grade, table_id in records.values_list("pk", "player_id", "grade", "table_id"):
                if (pid, grade) in wanted or table_id in redone:
                    concerned.append(pk)
        existing: dict[tuple[int, int], Promotion] = {}
        record: Promotion | None
        for batch in id_batches(concerned):
            for record in live.select_for_update(of=("self",)).select_related("table").filter(pk__in=batch):
                existing[(record.player_id, record.grade)] = record

        new: list[Promotion] = []
        moved: list[Promotion] = []
        audited: list[Promotion] = []
        for (pid, grade), (table_id, p) in wanted.items():
            record = existing.get((pid, grade))
            if record is None:
                status = PromotionStatus.EFFECTIVE if grade < FIRST_DAN else PromotionStatus.PENDING
                new.append(
                    Promotion(
                        player_id=pid,
                        grade=grade,
                        table_id=table_id,
                        round=p.round,
                        game_number=p.game_number,
                        route=p.route,
                        rating=p.rating,
                        status=status,
                    )
                )
            else:
                changed = _record_found(record, table_id, p)
                if changed:
                    moved.append(record)
                    if set(changed) != {"rating"}:
                        audited.append(record)
        if moved:
            # Set-based, not one save (or one CASE WHEN) per record: a correction moves the interpolated
            # rating of nearly every promotion downstream of it. A record whose rating alone moved gets no
            # audit row: that is the history's arithmetic, not a change anyone needs to review, and a merge of
            # a long career wrote 10^4 of them. A record moved to another game or table, or supported again,
            # does, all in one bulk insert.
            attname = {field.name: field.attname for field in Promotion._meta.concrete_fields}
            attributes = [attname[name] for name in FOUND_FIELDS]
            rows_update(Promotion, FOUND_FIELDS, [(r.pk, *(getattr(r, a) for a in attributes)) for r in moved])
            if audited:
                Promotion.history.bulk_history_create(
                    audited, batch_size=1000, update=True, default_change_reason="moved by re-rating"
                )
            summary.updated = len(moved)
        if new:
            bulk_create_with_history(new, Promotion, batch_size=1000, default_change_reason="found by re-rating")
            summary.created = len(new)

        for key, record in existing.items():
            if key in wanted or record.table_id not in redone:
                continue
            outcome = _record_lost(record, _lost_reason(record))
            if outcome == PromotionStatus.WITHDRAWN:
                summary.withdrawn += 1
            elif outcome == PromotionStatus.APPROVED:
                summary.flagged += 1
    return summary


FOUND_FIELDS = (
    "table", "round", "game_number", "route", "rating", "supported", "flag_reason", "reviewed_by", "reviewed_at",
    "review_reason",
)  # fmt: skip
"""The fields ``_record_found`` may change."""


def _record_found(record: Promotion, table_id: int, p: engine.Promotion) -> list[str]:
    """Bring a matched record (in memory) up to date with where the engine now finds it.

    Returns the names of the fields that changed, for the caller to save in bulk; empty if none did.
    """
    values: dict[str, Any] = {
        "table_id": table_id,
        "round": p.round,
        "game_number": p.game_number,
        "route": p.route,
        "rating": p.rating,
        "supported": True,
        "flag_reason": "",
    }
    if not record.supported:
        # The flag is gone, and with it any decision about the flag; the audit history keeps that decision.
        values.update(reviewed_by_id=None, reviewed_at=None, review_reason="")
    changed = [name for name, value in values.items() if getattr(record, name) != value]
    for name in changed:
        setattr(record, name, values[name])
    return [name.removesuffix("_id") for name in changed]


def _record_lost(record: Promotion, reason: str) -> str | None:
    """A record the corrected history no longer produces: withdraw it, or flag an approved grade.

    Returns the record's status when something changed, else None.
    """
    if record.status in (PromotionStatus.PENDING, PromotionStatus.EFFECTIVE):
        record.status = PromotionStatus.WITHDRAWN
    elif not record.supported:
        return None  # flagged already (approved) or moot (rejected): the officer's view is unchanged
    elif record.status == PromotionStatus.APPROVED:
        record.reviewed_by, record.reviewed_at, record.review_reason = None, None, ""
    record.supported, record.flag_reason = False, reason[:300]
    record._change_reason = "lost by re-rating"  # type: ignore[attr-defined]
    record.save()
    return record.status


def _lost_reason(record: Promotion) -> str:
    where = f"game {record.game_number}"
    if record.table is not None:
        where += f" of the table of {record.table.date:%Y-%m-%d}"
    return (
        f"Re-rated on {timezone.localdate():%Y-%m-%d}: the corrected history no longer reaches "
        f"{engine.grade_label(record.grade)} (it was found at {where})."
    )


def promotions_table_deleted(*, table: Table) -> None:
    """Call before deleting a table (inside the same transaction): keep its promotions' decisions.

    The table's records lose their table (the foreign key empties on delete). Pending and effective ones are
    withdrawn, an approved one is flagged for the grade officer. Re-rating then matches any grade the history
    still reaches elsewhere by (player, grade): a flagged approved grade is supported again, a withdrawn one
    comes back as a new record.
    """
    reason = (
        f"Its table ({table}) was deleted on {timezone.localdate():%Y-%m-%d}; "
        "re-rating restores it if the history still reaches this grade."
    )
    with transaction.atomic():
        for record in Promotion.objects.select_for_update().filter(table=table, status__in=LIVE_PROMOTION_STATUSES):
            _record_lost(record, reason)


# --- The grade officers' decisions ----------------------------------------------------------------------------


def promotion_approve(
    *,
    promotion: Promotion,
    user: Any,
    reason: str = "",
    nsr_consent: bool = False,
    nsr_consent_date: dt.date | None = None,
    nsr_reference: str = "",
    expected: str | None,
) -> Promotion:
    """Approve a pending Dan promotion; the player's public grade rises to it.

    5 and 6 Dan need the NSR's consent and its date (the reference is optional); below 5 Dan NSR fields are
    refused rather than stored. A lower Dan promotion of the same player still pending must be decided
    first, so the public never sees 2 Dan next to "1 Dan pending". The reason is optional.
    ``expected``: the version its page showed (ratings/services/grades/fingerprints.py), as for every decision.
    Raises PermissionDenied, PromotionInvalid, PromotionConflict (not pending any more), ChangedMeanwhile.
    """
    require_officer(user)
    check_nsr_consent(promotion, nsr_consent=nsr_consent, nsr_consent_date=nsr_consent_date, reference=nsr_reference)
    with transaction.atomic():
        promotion_lock_check(promotion, expected)
        check_no_lower_pending(promotion)
        compare_and_set(
            promotion,
            Q(status=PromotionStatus.PENDING),
            {
                "status": PromotionStatus.APPROVED,
                "nsr_consent": nsr_consent,
                "nsr_consent_date": nsr_consent_date,
                "nsr_reference": nsr_reference.strip(),
                "decided_by": user,
                "decided_at": timezone.now(),
                "decision_reason": reason.strip(),
            },
            user=user,
            label="approved",
        )
        promotion_subscribers_notify(promotion=promotion)  # queued with the decision, sent once it commits
    return promotion


def promotion_reject(*, promotion: Promotion, user: Any, reason: str, expected: str | None) -> Promotion:
    """Reject a pending Dan promotion (reason required); the player keeps the grade he had.

    The engine goes on computing with the grade (docs/rules.md §8); a later Dan promotion waits on its own.
    Raises PermissionDenied, PromotionInvalid (no reason), PromotionConflict (not pending any more).
    """
    require_officer(user)
    reason = required_reason(reason)
    changes = {"status": PromotionStatus.REJECTED, "decided_by": user, "decided_at": timezone.now()}
    return _decide(
        promotion, user, expected, Q(status=PromotionStatus.PENDING), changes | {"decision_reason": reason}, "rejected"
    )


def promotion_confirm_flagged(*, promotion: Promotion, user: Any, reason: str, expected: str | None) -> Promotion:
    """Keep an approved grade that a correction left unsupported (reason required); it stays approved.

    Only a flagged grade not decided yet; if a later correction flags it again, it needs a new decision.
    Raises PermissionDenied, PromotionInvalid (no reason), PromotionConflict.
    """
    require_officer(user)
    reason = required_reason(reason)
    flagged = Q(status=PromotionStatus.APPROVED, supported=False, reviewed_at__isnull=True)
    changes = {"reviewed_by": user, "reviewed_at": timezone.now(), "review_reason": reason}
    return _decide(promotion, user, expected, flagged, changes, "flag: kept")


def promotion_revoke(*, promotion: Promotion, user: Any, reason: str, expected: str | None) -> Promotion:
    """Take away an approved grade that a correction left unsupported (reason required).

    Also possible after the grade was kept once. The approval's who/when/why stay on the record; if the
    history reaches the grade again later, a new pending promotion appears.
    Raises PermissionDenied, PromotionInvalid (no reason), PromotionConflict (not a flagged approved grade).
    """
    require_officer(user)
    reason = required_reason(reason)
    changes = {"status": PromotionStatus.REVOKED, "reviewed_by": user, "reviewed_at": timezone.now()}
    flagged = Q(status=PromotionStatus.APPROVED, supported=False)
    return _decide(promotion, user, expected, flagged, changes | {"review_reason": reason}, "revoked")


def _decide(
    promotion: Promotion, user: Any, expected: str | None, condition: Q, changes: dict[str, Any], label: str
) -> Promotion:
    """Write a decision onto exactly the record the page showed (``expected``) and in the state it needs."""
    with transaction.atomic():
        promotion_lock_check(promotion, expected)
        compare_and_set(promotion, condition, changes, user=user, label=label)
    return promotion


def check_nsr_consent(
    promotion: Promotion, *, nsr_consent: bool, nsr_consent_date: dt.date | None, reference: str
) -> None:
    """5 and 6 Dan are approved only with the NSR's consent and its date; below, NSR fields are refused."""
    if needs_nsr_consent(promotion.grade):
        if not nsr_consent or nsr_consent_date is None:
            raise PromotionInvalid(
                _("%(grade)s needs the NSR's consent and its date before approval.")
                % {"grade": engine.grade_label(promotion.grade)}
            )
        if nsr_consent_date > timezone.localdate():
            raise PromotionInvalid(_("The NSR's consent cannot be dated in the future."))
    elif nsr_consent or nsr_consent_date is not None or reference:
        raise PromotionInvalid(_("The NSR's consent is recorded only for 5 and 6 Dan."))


def check_no_lower_pending(promotion: Promotion) -> None:
    """The public must never see 2 Dan next to "1 Dan pending": a lower pending Dan grade is decided first."""
    lower = (
        Promotion.objects.filter(
            player_id=promotion.player_id, status=PromotionStatus.PENDING, grade__lt=promotion.grade
        )
        .order_by("grade")
        .first()
    )
    if lower is not None:
        raise PromotionInvalid(
            _("Decide the pending %(grade)s promotion first.") % {"grade": engine.grade_label(lower.grade)}
        )


def require_officer(user: Any) -> None:
    if not can_decide(user):
        raise PermissionDenied(_("Only grade officers decide promotions."))


def required_reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise PromotionInvalid(_("Give a reason."))
    return reason


def compare_and_set(promotion: Promotion, expected: Q, values: dict[str, Any], *, user: Any, label: str) -> None:
    """Update the promotion only if it is still in the ``expected`` state; exactly one row or PromotionConflict.

    Then reload it, write the audit history row (``update()`` sends no signal) and refresh the player.
    """
    touched = Promotion.objects.filter(expected, pk=promotion.pk).update(**values)
    if touched != 1:
        current = Promotion.objects.filter(pk=promotion.pk).values_list("status", flat=True).first()
        raise PromotionConflict(
            _("The promotion changed meanwhile (now %(status)s); reload it and decide again.")
            % {"status": current or _("deleted")}
        )
    promotion.refresh_from_db()
    Promotion.history.bulk_history_create([promotion], update=True, default_user=user, default_change_reason=label)
    players_refresh([promotion.player_id])
