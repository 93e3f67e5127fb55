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
from ratings.services.corrections.facts import PriorGradeChange
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


def prior_grade_proposal_confirm(*, proposal: PriorGradeProposal, user: Any) -> bool:
    """A rating officer confirms: the proposal becomes the player's prior grade (re-rating what it changes).

    Returns True when a re-rate was requested. Raises PermissionDenied (not a rating officer),
    ProposalConflict (answered meanwhile), ValidationError (from ``player_set_prior_grade``).
    """
    _require_rating_officer(user)
    with transaction.atomic():
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
            correction_make(user=user, reason=reason, change=change)
        except NothingToCorrect:
            return False
        return _rerate_generation() != generation


def _rerate_generation() -> int | None:
    """The pending re-rate's request count: it moves when a service asked for a re-rate."""
    return PendingRerate.objects.values_list("generation", flat=True).first()


def prior_grade_proposal_reject(*, proposal: PriorGradeProposal, user: Any, reason: str = "") -> None:
    """A rating officer rejects: the player keeps the prior grade he has (none, for a new player).

    Raises PermissionDenied (not a rating officer), ProposalConflict (answered meanwhile).
    """
    _require_rating_officer(user)
    with transaction.atomic():
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
