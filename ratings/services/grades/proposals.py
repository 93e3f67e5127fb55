"""Prior grades a tournament director proposes for a new player, and a rating officer's answer.

A prior grade decides a newcomer's first rating (docs/rules.md §6), so only rating officers set one
(ratings/services/grades/prior.py). A director who adds a player, in the admin or with an uploaded table,
may say what grade he brings: that is stored as a ``PriorGradeProposal`` and counts for nothing until a
rating officer confirms it, which sets the prior grade through ``player_set_prior_grade`` (and so re-rates
the tables the player played meanwhile; once he has played, as a correction, ratings/services/corrections/apply.py),
or rejects it. Each answer is a compare-and-set update of a pending proposal, so two officers never both
answer; the loser gets ``ProposalConflict``.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ratings import access
from ratings.engine.prior_grades import is_prior_grade
from ratings.models import PendingRerate, Player, PriorGradeProposal, PriorGradeSource, ProposalStatus
from ratings.selectors.corrections import player_has_played
from ratings.services.corrections.apply import NothingToCorrect, correction_make
from ratings.services.corrections.facts import PriorGradeChange, prior_grade_snapshot
from ratings.services.corrections.fingerprints import changes_since
from ratings.services.fingerprints import by, version_check, version_of, when
from ratings.services.grades.prior import player_set_prior_grade


class ProposalConflict(Exception):
    """The proposal was answered meanwhile (or the player has another one open)."""


def prior_grade_propose(
    *, player: Player, kind: str, level: int | None, source: str, note: str = "", user: Any
) -> PriorGradeProposal:
    """Record a director's proposed prior grade for ``player``; the player's prior grade is left as it is.

    Raises ValidationError for a grade that does not exist or an unknown source, ProposalConflict when the
    player already has a proposal waiting.
    """
    if level is None or not is_prior_grade(kind, level):
        raise ValidationError({"prior_grade_level": _("No such prior grade.")})
    if source not in PriorGradeSource.values:
        raise ValidationError({"prior_grade_source": _("Say where the prior grade comes from.")})
    with transaction.atomic():
        if PriorGradeProposal.objects.filter(player=player, status=ProposalStatus.PENDING).exists():
            raise ProposalConflict(_("%(player)s has a prior grade proposal waiting already.") % {"player": player})
        proposal = PriorGradeProposal(
            player=player, kind=kind, level=level, source=source, note=note[:200], proposed_by=_staff(user)
        )
        proposal._history_user = _staff(user)  # type: ignore[attr-defined]
        proposal.save()
    return proposal


PROPOSAL_FIELDS = ("player_id", "status", "kind", "level", "source", "note")


def proposal_version(proposal: PriorGradeProposal) -> str:
    """The version of the proposal and of its player's prior grade as loaded (``proposal.player`` with it, as
    a list page loads them: no query), for the page showing them to carry."""
    facts = {name: getattr(proposal, name) for name in PROPOSAL_FIELDS}
    return version_of({"proposal": facts, "player": prior_grade_snapshot(proposal.player)})


def _facts(proposal: PriorGradeProposal) -> dict[str, Any]:
    """The proposal and its player's prior grade, read fresh and locked for the rest of the transaction."""
    facts = PriorGradeProposal.objects.select_for_update().filter(pk=proposal.pk).values(*PROPOSAL_FIELDS).first()
    player = Player.objects.select_for_update().filter(pk=facts["player_id"]).first() if facts else None
    return {"proposal": facts, "player": prior_grade_snapshot(player) if player is not None else None}


def _lock_check(proposal: PriorGradeProposal, expected: str | None) -> None:
    """Lock the proposal and its player; raise ChangedMeanwhile unless they are as ``expected`` says."""
    if expected is None:
        return
    version_check(expected, _facts(proposal), changes=lambda since: _changes_since(proposal, since))


def _changes_since(proposal: PriorGradeProposal, since: dt.datetime | None) -> list[str]:
    record = PriorGradeProposal.objects.filter(pk=proposal.pk).select_related("decided_by").first()
    lines = []
    if record is not None and record.decided_at is not None and (since is None or record.decided_at >= since):
        lines.append(f"{when(record.decided_at)}, {by(record.decided_by)}: {record.get_status_display()}")
    player_id = record.player_id if record is not None else proposal.player_id
    return lines + changes_since(since, None, [player_id])


def prior_grade_proposal_confirm(*, proposal: PriorGradeProposal, user: Any, expected: str | None) -> bool:
    """A rating officer confirms: the proposal becomes the player's prior grade (re-rating what it changes).

    ``expected``: the version the officer's page showed (``proposal_version``).
    Returns True when a re-rate was requested. Raises PermissionDenied (not a rating officer),
    ProposalConflict (answered meanwhile), ChangedMeanwhile (the proposal or the player's prior grade is not
    as ``expected``), ValidationError (from ``player_set_prior_grade``).
    """
    _require_rating_officer(user)
    with transaction.atomic():
        _lock_check(proposal, expected)
        _answer(proposal, ProposalStatus.CONFIRMED, user=user, reason="")
        player = Player.objects.select_for_update().get(pk=proposal.player_id)
        note = proposal.note or f"proposed by {proposal.proposed_by or 'a director'}"
        if not player_has_played(player):
            return player_set_prior_grade(
                player=player, kind=proposal.kind, level=proposal.level, source=proposal.source, note=note, user=user
            )
        # He has played meanwhile: the change reaches the record, so it is a correction (logged, undoable),
        # whose reason is the proposal (the proposer is not named: the reason is public).
        change = PriorGradeChange(
            player=player, kind=proposal.kind, level=proposal.level, source=proposal.source, note=note
        )
        generation = _rerate_generation()
        reason = _("Prior grade proposed by the tournament director on %(date)s, confirmed.") % {
            "date": f"{timezone.localtime(proposal.proposed_at):%Y-%m-%d}"
        }
        try:
            correction_make(user=user, reason=reason, change=change, expected=None)  # checked by _lock_check
        except NothingToCorrect:
            return False
        return _rerate_generation() != generation


def _rerate_generation() -> int | None:
    """The pending re-rate's request count: it moves when a service asked for a re-rate."""
    return PendingRerate.objects.values_list("generation", flat=True).first()


def prior_grade_proposal_reject(
    *, proposal: PriorGradeProposal, user: Any, reason: str = "", expected: str | None
) -> None:
    """A rating officer rejects: the player keeps the prior grade he has (none, for a new player).

    Raises PermissionDenied (not a rating officer), ProposalConflict (answered meanwhile), ChangedMeanwhile.
    """
    _require_rating_officer(user)
    with transaction.atomic():
        _lock_check(proposal, expected)
        _answer(proposal, ProposalStatus.REJECTED, user=user, reason=reason.strip())


def _answer(proposal: PriorGradeProposal, status: str, *, user: Any, reason: str) -> None:
    touched = PriorGradeProposal.objects.filter(pk=proposal.pk, status=ProposalStatus.PENDING).update(
        status=status, decided_by=user, decided_at=timezone.now(), decision_reason=reason
    )
    if touched != 1:
        raise ProposalConflict(_("The proposal was answered meanwhile; reload it."))
    proposal.refresh_from_db()
    proposal._history_user = user  # type: ignore[attr-defined]  # not the proposer's, if this object was his
    # update() sends no signal: write the audit history row it skips.
    PriorGradeProposal.history.bulk_history_create(
        [proposal], update=True, default_user=user, default_change_reason=status
    )


def _require_rating_officer(user: Any) -> None:
    if not access.can_change_prior_grade(user):
        raise PermissionDenied(_("Only rating officers confirm or reject prior grades."))


def _staff(user: Any) -> Any:
    return user if getattr(user, "pk", None) else None
