"""The rating officers' queue of prior grades proposed by directors, with confirm and reject actions.

The list opens on the proposals waiting for an answer; confirming one sets the player's prior grade through
the service (which re-rates his tables if he has played), rejecting one leaves him without it. Directors
see the proposals they made and their state, here and on the player's page; nobody edits one by hand.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from ratings import access
from ratings.admin.filters import OpensOnChoice
from ratings.admin.rerate_notice import report_rerate
from ratings.admin.user_names import UserNamesAsText
from ratings.models import Player, PriorGradeProposal, ProposalStatus
from ratings.services.fingerprints import VERSION_FIELD, ChangedMeanwhile
from ratings.services.grades.proposals import (
    ProposalConflict,
    prior_grade_proposal_confirm,
    prior_grade_proposal_reject,
    proposal_version,
)


class ProposalStatusFilter(OpensOnChoice):
    """Opens on the proposals waiting for a rating officer; any state, or all, on request."""

    title = gettext_lazy("status")
    parameter_name = "status"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [*ProposalStatus.choices, ("all", gettext_lazy("all"))]

    def value(self) -> str:
        return str(super().value() or ProposalStatus.PENDING)

    def queryset(self, request: HttpRequest, queryset: QuerySet[PriorGradeProposal]) -> QuerySet[PriorGradeProposal]:
        value = self.value()
        return queryset.filter(status=value) if value in ProposalStatus.values else queryset


def proposal_state(player: Player) -> str:
    """The player's proposals and their state, newest first, for his admin page."""
    lines = [
        f"{p.label} ({p.get_source_display()}): {p.get_status_display()}"
        + (f" {timezone.localtime(p.decided_at):%Y-%m-%d}" if p.decided_at else "")
        for p in PriorGradeProposal.objects.filter(player=player).order_by("-proposed_at")
    ]
    return "; ".join(lines) or "—"


@admin.register(PriorGradeProposal)
class PriorGradeProposalAdmin(UserNamesAsText, admin.ModelAdmin):
    list_display = ("player_column", "label", "source", "note", "status", "proposed_by", "proposed_at", "decided")
    list_filter = (ProposalStatusFilter, "source")
    list_select_related = ("player", "proposed_by", "decided_by")
    search_fields = ("player__family_name", "player__given_name", "player__federation_id")
    ordering = ("proposed_at",)  # the oldest waiting first
    actions = ("confirm_selected", "reject_selected")
    readonly_fields = (
        "player",
        "kind",
        "level",
        "source",
        "note",
        "status",
        "proposed_by",
        "proposed_at",
        "decided_by",
        "decided_at",
        "decision_reason",
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: PriorGradeProposal | None = None) -> bool:
        return False  # answered only through the actions, which call the service

    def has_delete_permission(self, request: HttpRequest, obj: PriorGradeProposal | None = None) -> bool:
        return False

    def get_queryset(self, request: HttpRequest) -> QuerySet[PriorGradeProposal]:
        queryset = super().get_queryset(request)
        if access.sees_everything(request.user):
            return queryset
        return queryset.filter(proposed_by=request.user)  # a director: his own proposals

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        if not access.can_change_prior_grade(request.user):
            return {}
        return super().get_actions(request)

    @admin.display(description=gettext_lazy("player"), ordering="player__family_name")
    def player_column(self, obj: PriorGradeProposal) -> str:
        # The version of the proposal as this list shows it, posted with an action on it (confirm, reject).
        version = format_html('<input type="hidden" name="{}" value="{}">', _version_name(obj), proposal_version(obj))
        url = reverse("admin:ratings_player_change", args=[obj.player_id])
        return format_html('<a href="{}">{}</a>{}', url, obj.player, version)

    @admin.display(description=gettext_lazy("decided"))
    def decided(self, obj: PriorGradeProposal) -> str:
        if obj.decided_at is None:
            return "—"
        return f"{timezone.localtime(obj.decided_at):%Y-%m-%d} ({obj.decided_by or '—'})"

    @admin.action(description=gettext_lazy("Confirm: make it the player's prior grade"))
    def confirm_selected(self, request: HttpRequest, queryset: QuerySet[PriorGradeProposal]) -> None:
        self._answer(request, queryset, confirm=True)

    @admin.action(description=gettext_lazy("Reject: the player's prior grade stays as it is"))
    def reject_selected(self, request: HttpRequest, queryset: QuerySet[PriorGradeProposal]) -> None:
        self._answer(request, queryset, confirm=False)

    def _answer(self, request: HttpRequest, queryset: QuerySet[PriorGradeProposal], *, confirm: bool) -> None:
        done = rerated = 0
        for proposal in queryset.select_related("player", "proposed_by"):
            expected = request.POST.get(_version_name(proposal), "")  # none posted: refused
            try:
                if confirm:
                    rerated += prior_grade_proposal_confirm(proposal=proposal, user=request.user, expected=expected)
                else:
                    prior_grade_proposal_reject(proposal=proposal, user=request.user, expected=expected)
            except (ProposalConflict, ValidationError, ChangedMeanwhile) as exc:
                self.message_user(request, f"{proposal.player}: {exc}", messages.WARNING)
            else:
                done += 1
        answered = _("Proposals confirmed: %(count)s.") if confirm else _("Proposals rejected: %(count)s.")
        self.message_user(request, answered % {"count": done}, messages.SUCCESS)
        if rerated:
            report_rerate(
                request,
                done=ngettext(
                    "The tables of %(count)s player were re-rated.",
                    "The tables of %(count)s players were re-rated.",
                    rerated,
                )
                % {"count": rerated},
                queued=ngettext(
                    "The tables of %(count)s player will be re-rated.",
                    "The tables of %(count)s players will be re-rated.",
                    rerated,
                )
                % {"count": rerated},
            )


def _version_name(proposal: PriorGradeProposal) -> str:
    return f"{VERSION_FIELD}_{proposal.pk}"
