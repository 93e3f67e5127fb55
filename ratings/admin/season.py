"""The season in the tournaments' admin: a director registers his tournament with FESA on its page (the
registration fields), a rating officer reviews it (accept, or refuse with a reason) and finds the tournaments
whose results are overdue through the "Season" filter. The rules are in ratings/services/season/."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ratings import access
from ratings.models import AnnouncementStatus, OutgoingMail, Tournament
from ratings.selectors.season import overdue_tournaments
from ratings.services.season import tournament_accept, tournament_refuse

from .read_only import RatingOfficersOnly

REGISTRATION_FIELDS = (
    "register",
    ("main_time_minutes", "increment_seconds", "byoyomi_seconds"),
    "mode",
    "contact",
    "announcement_url",
    "planned_tables",
)


class SeasonFilter(admin.SimpleListFilter):
    title = gettext_lazy("season")
    parameter_name = "season"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [
            ("review", gettext_lazy("waiting for review")),
            ("accepted", gettext_lazy("accepted")),
            ("refused", gettext_lazy("refused")),
            ("overdue", gettext_lazy("results overdue")),
        ]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> QuerySet[Tournament]:
        value = self.value()
        if value == "review":
            return queryset.filter(announcement=AnnouncementStatus.PROPOSED)
        if value in ("accepted", "refused"):
            return queryset.filter(announcement=value)
        if value == "overdue":
            overdue = overdue_tournaments(today=timezone.localdate()).values("pk")
            return queryset.filter(pk__in=overdue)
        return queryset


class ReviewForm(forms.Form):
    decision = forms.ChoiceField(
        label=gettext_lazy("Decision"),
        choices=[("accept", gettext_lazy("Accept")), ("refuse", gettext_lazy("Refuse"))],
        widget=forms.RadioSelect,
    )
    reason = forms.CharField(
        label=gettext_lazy("Reason"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=gettext_lazy("Required to refuse: the director reads it."),
    )


class SeasonAdminMixin(admin.ModelAdmin):
    """Mixed into TournamentAdmin: the review screen and its link."""

    def get_urls(self) -> list[URLPattern]:
        own = [
            path(
                "<int:object_id>/review/",
                self.admin_site.admin_view(self.review_view),
                name="ratings_tournament_review",
            )
        ]
        return own + super().get_urls()

    @admin.display(description=gettext_lazy("registration"))
    def registration(self, tournament: Tournament) -> str:
        return tournament.get_announcement_display() if tournament.announcement else "–"

    def review_view(self, request: HttpRequest, object_id: int) -> HttpResponse:
        """Accept or refuse one registered tournament; the service checks it is still waiting. Its directors
        read the registration and where its review stands, without the decision."""
        tournament = get_object_or_404(Tournament.objects.exclude(announcement=""), pk=object_id)
        officer = access.is_rating_officer(request.user)
        if not (officer or access.can_view_tournament(request.user, tournament)):
            raise PermissionDenied
        if request.method == "POST" and not officer:
            raise PermissionDenied
        site = self.admin_site.name
        change_url = reverse(f"{site}:ratings_tournament_change", args=[tournament.pk])
        form = ReviewForm(request.POST or None) if officer else None
        if form is not None and request.method == "POST" and form.is_valid():
            decide = tournament_accept if form.cleaned_data["decision"] == "accept" else tournament_refuse
            try:
                decide(tournament=tournament, user=request.user, reason=form.cleaned_data["reason"])
            except ValidationError as exc:
                form.add_error(None, exc.messages)
            else:
                self.message_user(
                    request,
                    _("%(tournament)s: %(status)s.")
                    % {"tournament": tournament, "status": tournament.get_announcement_display()},
                    messages.SUCCESS,
                )
                return HttpResponseRedirect(change_url)
        context = {
            **self.admin_site.each_context(request),
            "opts": Tournament._meta,
            "title": (
                _("Review the registration of %(tournament)s") if officer else _("The registration of %(tournament)s")
            )
            % {"tournament": tournament},
            "tournament": tournament,
            "form": form,
            "change_url": change_url,
        }
        return TemplateResponse(request, "admin/ratings/tournament/review.html", context)


@admin.register(OutgoingMail)
class OutgoingMailAdmin(RatingOfficersOnly):
    """The outbox, read only, for rating officers: what was sent, what failed and why (a failed message is
    retried by its task; nothing here sends)."""

    list_display = ("created_at", "event_key", "recipient", "subject", "status", "attempts", "sent_at")
    list_filter = ("status",)
    search_fields = ("recipient", "event_key", "subject")
    readonly_fields = (*list_display, "body", "failures", "last_error")
    fields = readonly_fields
    date_hierarchy = "created_at"
