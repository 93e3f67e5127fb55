"""The grade officers' screens: the queue of promotions to decide, and the decision forms.

The list opens on what waits for a grade officer: pending Dan promotions and approved grades a correction
left unsupported (flagged). Filters: grade, country, waiting time (days since the table that earned the
promotion; ratings/services/grades/promotions.py explains why not the player's age), status, flag, route.

Everyone with the view permission reads the list and the records; nobody edits a record by hand. Grade
officers and superusers (``can_decide``) also get the decision forms: approve (with the NSR's consent for
5 and 6 Dan) or reject a pending promotion, keep or revoke a flagged grade, revise a decision taken
(approved to revoked, rejected to approved, always with a reason). The forms call the services,
which hold every rule; a decision someone else made meanwhile comes back as a message, not an error page.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import flatten_fieldsets
from django.core.exceptions import PermissionDenied
from django.db.models import Exists, OuterRef, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from ratings import access
from ratings.access import can_decide
from ratings.admin.climb import NSR_FIELDS, ClimbAdminMixin, not_in_the_future, with_climb_steps
from ratings.admin.grade_filters import CountryFilter, FlagFilter, GradeFilter, StatusFilter, WaitingFilter
from ratings.admin.user_names import UserNamesAsText
from ratings.engine import grade_label
from ratings.engine.grades import needs_nsr_consent
from ratings.models import Promotion, PromotionRevision, PromotionStatus, Tournament
from ratings.selectors.grades import waiting_days, waiting_since
from ratings.selectors.search import name_matches
from ratings.services.fingerprints import VERSION_FIELD, ChangedMeanwhile
from ratings.services.grades.fingerprints import promotion_lock_check, promotion_version
from ratings.services.grades.promotions import (
    PromotionConflict,
    PromotionInvalid,
    promotion_approve,
    promotion_confirm_flagged,
    promotion_reject,
    promotion_revoke,
)
from ratings.services.grades.revisions import promotion_revisable, promotion_revise

# --- Decision forms ---------------------------------------------------------------------------------------------


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), widget=forms.Textarea(attrs={"rows": 4, "cols": 60}))


class ApproveForm(forms.Form):
    """Approval; for 5 and 6 Dan the NSR's consent and its date are required, below that not asked."""

    reason = forms.CharField(label=_("Reason"), required=False, widget=forms.Textarea(attrs={"rows": 3, "cols": 60}))
    nsr_consent = forms.BooleanField(
        label=_("The Japan Shogi Association (NSR) has consented"),
        required=True,
        error_messages={"required": _("A 5 or 6 Dan is approved only once the NSR has consented: tick the box.")},
    )
    nsr_consent_date = forms.DateField(
        label=_("Date of the NSR's consent"),
        widget=forms.DateInput(attrs={"type": "date"}),
        error_messages={"required": _("Give the date of the NSR's consent (as on its letter).")},
        validators=[not_in_the_future],
    )
    nsr_reference = forms.CharField(label=_("NSR reference"), max_length=100, required=False)

    def __init__(self, *args: Any, promotion: Promotion, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not needs_nsr_consent(promotion.grade):
            for name in NSR_FIELDS:
                del self.fields[name]


class ReviseForm(ApproveForm):
    """A revision: the reason is required; the NSR's consent only when a rejected 5 or 6 Dan becomes approved."""

    reason = forms.CharField(label=_("Reason"), widget=forms.Textarea(attrs={"rows": 4, "cols": 60}))

    def __init__(self, *args: Any, promotion: Promotion, **kwargs: Any) -> None:
        super().__init__(*args, promotion=promotion, **kwargs)
        if promotion.status != PromotionStatus.REJECTED:
            for name in NSR_FIELDS:
                self.fields.pop(name, None)


DECISIONS: dict[str, tuple[Any, Any]] = {
    "approve": (_("Approve"), promotion_approve),
    "reject": (_("Reject"), promotion_reject),
    "keep": (_("Keep the flagged grade"), promotion_confirm_flagged),
    "revoke": (_("Revoke the flagged grade"), promotion_revoke),
    "revise": (_("Revise the decision"), promotion_revise),
}
"""Each decision's title and the service that makes it."""
DONE: dict[str, Any] = {
    "approve": _("The promotion of %(player)s to %(grade)s is approved."),
    "reject": _("The promotion of %(player)s to %(grade)s is rejected."),
    "keep": _("%(player)s keeps the flagged grade %(grade)s."),
    "revoke": _("The flagged grade %(grade)s of %(player)s is revoked."),
    "revise": _("The decision on the promotion of %(player)s to %(grade)s is revised."),
}
"""What the grade officer reads once a decision is taken."""


def decisions_open(promotion: Promotion) -> list[str]:
    """The decisions the promotion's state allows (the services check again, atomically)."""
    if promotion.status == PromotionStatus.PENDING:
        return ["approve", "reject"]
    if promotion.status == PromotionStatus.APPROVED and not promotion.supported:
        return ["revoke"] if promotion.reviewed_at else ["keep", "revoke"]
    return ["revise"] if promotion_revisable(promotion) else []


def _admin_link(url_name: str, pk: Any, text: str) -> str:
    return format_html('<a href="{}">{}</a>', reverse(url_name, args=[pk]), text)


# --- The admin --------------------------------------------------------------------------------------------------


@admin.register(Promotion)
class PromotionAdmin(ClimbAdminMixin, UserNamesAsText, admin.ModelAdmin):
    # The days waited and the route in the status's cell, the player's game number on the promotion's own page:
    # with a column each the grade officers' list was wider than a laptop leaves it beside the admin's two
    # sidebars. (The days waited sorted by the table's date, as the table's column does.)
    list_display = (
        "player_column",
        "grade_column",
        "status_column",
        "table_column",
        "rating_column",
        "decision_column",
    )
    list_display_links = ("grade_column",)  # the player column links to the player
    list_filter = (StatusFilter, GradeFilter, CountryFilter, WaitingFilter, FlagFilter, "route")
    list_select_related = ("player", "table__tournament", "decided_by", "reviewed_by")
    search_fields = ("player__family_name", "player__given_name", "player__federation_id")
    ordering = ("table__date", "created_at", "grade")  # the longest waiting first
    list_per_page = 50
    fieldsets = (
        (
            None,
            {"fields": ("player", "grade", "status", "route", "table_column", "round", "game_number", "rating_column")},
        ),
        (
            _("Waiting"),
            {"fields": ("created_at", "waiting_since_column", "waiting_column", "supported", "flag_reason")},
        ),
        (
            _("Decision"),
            {
                "fields": (
                    "decided_by",
                    "decided_at",
                    "decision_reason",
                    "nsr_consent",
                    "nsr_consent_date",
                    "nsr_reference",
                )
            },
        ),
        (_("Decision on the flag, or revocation"), {"fields": ("reviewed_by", "reviewed_at", "review_reason")}),
        (_("Revisions"), {"fields": ("revisions_column",)}),
        (_("The player's promotions"), {"fields": ("player_promotions",)}),
    )
    readonly_fields = tuple(flatten_fieldsets(fieldsets))

    def get_fieldsets(self, request: HttpRequest, obj: Promotion | None = None) -> Any:
        """Without the NSR's consent below 5 Dan: a grade officer read "NSR consent ✗" on a 3 Dan's page."""
        if obj is None or needs_nsr_consent(obj.grade):
            return self.fieldsets
        return [
            (name, {**options, "fields": tuple(f for f in options["fields"] if f not in NSR_FIELDS)})
            for name, options in self.fieldsets
        ]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Promotion]:
        # Whether the user may open the promotion's table in the admin (a director: his own tournaments' only):
        # else the table's column links its public page, not an admin page that would refuse him.
        tournament = Tournament.objects.filter(pk=OuterRef("table__tournament"))
        opens = Exists(access.tournaments_visible(request.user, tournament))
        return with_climb_steps(super().get_queryset(request)).annotate(table_in_admin=opens)

    # Records come from re-rating and change only through the decision views: read-only for everyone.
    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet[Promotion], search_term: str
    ) -> tuple[QuerySet[Promotion], bool]:
        """The fields above word by word, or the player's name as the public search finds it (accents, case and
        German spellings ignored, ratings/selectors/search.py): ``noel`` finds Noël."""
        found, may_have_duplicates = super().get_search_results(request, queryset, search_term)
        return found | name_matches(queryset, search_term, "player__"), may_have_duplicates

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Promotion | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Promotion | None = None) -> bool:
        return False

    def get_list_display(self, request: HttpRequest) -> Any:
        if can_decide(request.user):  # the decisions next to what they decide, in view on a laptop's screen
            player, grade, *rest = self.list_display
            return (player, grade, "decide_column", *rest)
        return self.list_display

    # Columns

    @admin.display(description=_("player"), ordering="player__family_name")
    def player_column(self, obj: Promotion) -> str:
        country = f" ({obj.player.nationality.code})" if obj.player.nationality else ""
        return _admin_link("admin:ratings_player_change", obj.player_id, f"{obj.player}{country}")

    @admin.display(description=_("grade"), ordering="grade")
    def grade_column(self, obj: Promotion) -> str:
        return grade_label(obj.grade)

    @admin.display(description=_("status"), ordering="status")
    def status_column(self, obj: Promotion) -> str:
        status = self._status(obj)
        if obj.status == PromotionStatus.PENDING:
            days = waiting_days(obj)
            status = format_html("{} ({})", status, ngettext("%(days)s day", "%(days)s days", days) % {"days": days})
        return format_html('{}<span class="promotion-route">{}</span>', status, obj.get_route_display())

    def _status(self, obj: Promotion) -> str:
        if obj.status == PromotionStatus.APPROVED and not obj.supported:
            flag = _("kept despite the flag") if obj.reviewed_at else _("flagged: to decide")
            return format_html('{} <strong title="{}">({})</strong>', obj.get_status_display(), obj.flag_reason, flag)
        if obj.status == PromotionStatus.WITHDRAWN and obj.flag_reason:
            return format_html('<span title="{}">{}</span>', obj.flag_reason, obj.get_status_display())
        return obj.get_status_display()

    @admin.display(description=_("table"), ordering="table__date")
    def table_column(self, obj: Promotion) -> str:
        if obj.table is None:
            return "—"
        if getattr(obj, "table_in_admin", False):
            return _admin_link("admin:ratings_table_change", obj.table_id, str(obj.table))
        return _admin_link("ratings:table", obj.table_id, str(obj.table))  # a promotion's table is rated: public

    @admin.display(description=_("rating"), ordering="rating")
    def rating_column(self, obj: Promotion) -> str:
        return f"{obj.rating:.0f}"

    @admin.display(description=_("waiting since"))
    def waiting_since_column(self, obj: Promotion) -> str:
        return f"{waiting_since(obj):%Y-%m-%d}"

    @admin.display(description=_("waiting (days)"), ordering="table__date")
    def waiting_column(self, obj: Promotion) -> str:
        if obj.status == PromotionStatus.PENDING:
            return str(waiting_days(obj))
        return "—"

    @admin.display(description=_("decided"))
    def decision_column(self, obj: Promotion) -> str:
        parts = []
        if obj.decided_at:
            verb = _("rejected") if obj.status == PromotionStatus.REJECTED else _("approved")
            who = f" ({obj.decided_by})" if obj.decided_by else ""
            parts.append(f"{verb} {timezone.localtime(obj.decided_at):%Y-%m-%d}{who}")
        if obj.reviewed_at:
            verb = _("revoked") if obj.status == PromotionStatus.REVOKED else _("kept")
            who = f" ({obj.reviewed_by})" if obj.reviewed_by else ""
            parts.append(f"{verb} {timezone.localtime(obj.reviewed_at):%Y-%m-%d}{who}")
        return "; ".join(parts) or "—"

    @admin.display(description=_("decide"))
    def decide_column(self, obj: Promotion) -> str:
        links = [(self._decide_url(obj, action), DECISIONS[action][0]) for action in decisions_open(obj)]
        decide = format_html_join(" · ", '<a href="{}">{}</a>', links)
        steps = getattr(obj, "climb_steps", 0)
        if obj.status == PromotionStatus.PENDING and steps > 1:  # on a line of its own: the column stays narrow
            climb = ngettext("Climb: %(n)s grade", "Climb: %(n)s grades", steps) % {"n": steps}
            link = '{} <a class="promotion-climb" href="{}">{}</a>'
            return format_html(link, decide, self.climb_url(obj.player_id), climb)
        return decide

    @admin.display(description=_("revisions"))
    def revisions_column(self, obj: Promotion) -> str:
        rows = PromotionRevision.objects.filter(promotion=obj).select_related("revised_by").order_by("revised_at")
        return (
            format_html(
                "<ul>{}</ul>",
                format_html_join(
                    "",
                    "<li>{}: {} → {} ({}): {}</li>",
                    (
                        (
                            f"{timezone.localtime(r.revised_at):%Y-%m-%d %H:%M}",
                            r.get_status_before_display(),
                            r.get_status_after_display(),
                            r.revised_by or "—",
                            r.reason,
                        )
                        for r in rows
                    ),
                ),
            )
            if rows
            else "—"
        )

    @admin.display(description=_("the player's promotions"))
    def player_promotions(self, obj: Promotion) -> str:
        rows = Promotion.objects.filter(player_id=obj.player_id).select_related("table").order_by("grade", "created_at")
        return format_html(
            "<ul>{}</ul>",
            format_html_join(
                "",
                "<li>{} — {} ({})</li>",
                ((grade_label(p.grade), p.get_status_display(), p.table or "—") for p in rows),
            ),
        )

    # Decision views

    def get_urls(self) -> list[URLPattern]:
        own = [
            path(
                "<path:object_id>/decide/<str:action>/",
                self.admin_site.admin_view(self.decide_view),
                name="ratings_promotion_decide",
            )
        ]
        return own + super().get_urls()

    def _decide_url(self, obj: Promotion, action: str) -> str:
        return reverse(f"{self.admin_site.name}:ratings_promotion_decide", args=[obj.pk, action])

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        context = dict(extra_context or {})
        promotion = Promotion.objects.filter(pk=object_id).first() if object_id.isdigit() else None
        if promotion is not None and can_decide(request.user):
            context["decisions"] = [
                (self._decide_url(promotion, action), DECISIONS[action][0]) for action in decisions_open(promotion)
            ]
        return super().change_view(request, object_id, form_url, extra_context=context)

    def decide_view(self, request: HttpRequest, object_id: str, action: str) -> HttpResponse:
        """One form per decision; the service decides whether it may happen, atomically."""
        if action not in DECISIONS:
            raise PermissionDenied
        if not can_decide(request.user):
            raise PermissionDenied
        promotion = get_object_or_404(
            Promotion.objects.select_related("player", "table__tournament"), pk=object_id if object_id.isdigit() else 0
        )
        change_url = reverse(f"{self.admin_site.name}:ratings_promotion_change", args=[promotion.pk])
        if action not in decisions_open(promotion):
            try:  # decided since the page was shown: say by whom and when
                promotion_lock_check(promotion, request.POST.get(VERSION_FIELD) or None, lock=False)
            except ChangedMeanwhile as exc:
                said = str(exc)
            else:
                said = _("This promotion is %(status)s now: “%(action)s” no longer applies.") % {
                    "status": promotion.get_status_display(),
                    "action": DECISIONS[action][0],
                }
            self.message_user(request, said, messages.WARNING)
            return HttpResponseRedirect(change_url)
        form_class = {"approve": ApproveForm, "revise": ReviseForm}.get(action, ReasonForm)
        kwargs: dict[str, Any] = {"promotion": promotion} if action in ("approve", "revise") else {}
        form = form_class(request.POST or None, **kwargs)
        version = request.POST.get(VERSION_FIELD, "") if request.method == "POST" else promotion_version(promotion)
        if request.method == "POST" and form.is_valid():
            try:
                self._decide(request, promotion, action, {**form.cleaned_data, "expected": version})
            except (PromotionConflict, ChangedMeanwhile) as exc:
                self.message_user(request, str(exc), messages.ERROR)
                return HttpResponseRedirect(change_url)
            except PromotionInvalid as exc:
                form.add_error(None, str(exc))
            else:
                self.message_user(
                    request,
                    DONE[action] % {"player": promotion.player, "grade": grade_label(promotion.grade)},
                    messages.SUCCESS,
                )
                return HttpResponseRedirect(reverse(f"{self.admin_site.name}:ratings_promotion_changelist"))
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": f"{DECISIONS[action][0]}: {promotion.player}, {grade_label(promotion.grade)}",
            "promotion": promotion,
            "grade": grade_label(promotion.grade),
            "waiting": waiting_days(promotion),
            "action": action,
            "decision": DECISIONS[action][0],
            "form": form,
            "change_url": change_url,
            "needs_nsr": "nsr_consent" in form.fields,
            "revision": _revision_text(promotion) if action == "revise" else "",
            "version_field": VERSION_FIELD,
            "version": version,
        }
        return TemplateResponse(request, "admin/ratings/promotion/decide.html", context)

    def _decide(self, request: HttpRequest, promotion: Promotion, action: str, data: dict[str, Any]) -> None:
        service = DECISIONS[action][1]
        if action in ("approve", "revise"):
            service(
                promotion=promotion,
                user=request.user,
                reason=data.get("reason", ""),
                nsr_consent=bool(data.get("nsr_consent")),
                nsr_consent_date=data.get("nsr_consent_date"),
                nsr_reference=data.get("nsr_reference", ""),
                expected=data["expected"],
            )
        else:
            service(promotion=promotion, user=request.user, reason=data["reason"], expected=data["expected"])


def _revision_text(promotion: Promotion) -> str:
    if promotion.status == PromotionStatus.APPROVED:
        return str(_("The approved grade will be revoked: the player's public grade falls back."))
    return str(_("The rejected grade will be approved: the player's public grade rises to it."))
