"""A player's climb through several Dan grades, decided on one page: each pending step with the table, the game
and the rating that earned it, and one approval up to the grade the officer chooses (lower ones first; the
NSR's consent for 5 and 6 Dan). The service (ratings/services/grades/climb.py) approves them all or none."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Count, IntegerField, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ratings.access import can_decide
from ratings.engine import grade_label
from ratings.engine.grades import FIRST_DAN, needs_nsr_consent
from ratings.models import Player, Promotion, PromotionStatus
from ratings.services.fingerprints import ChangedMeanwhile
from ratings.services.grades.climb import climb_pending, climb_versions, promotion_climb_approve
from ratings.services.grades.promotions import PromotionConflict, PromotionInvalid

NSR_FIELDS = ("nsr_consent", "nsr_consent_date", "nsr_reference")
"""The fields of the NSR's consent, asked for 5 and 6 Dan only (and left out of the forms and pages below)."""

VERSION_PREFIX = "_version_"


def not_in_the_future(date: dt.date) -> None:
    """A consent is dated on or before today: a date typed day first into a month-first box (15/11 read as
    11 December) is refused, not recorded."""
    if date > timezone.localdate():
        raise forms.ValidationError(_("The NSR's consent cannot be dated in the future."))


class ClimbForm(forms.Form):
    up_to = forms.TypedChoiceField(label=gettext_lazy("Approve up to"), coerce=int)
    reason = forms.CharField(
        label=gettext_lazy("Reason"), required=False, widget=forms.Textarea(attrs={"rows": 3, "cols": 60})
    )
    nsr_consent = forms.BooleanField(
        label=gettext_lazy("The Japan Shogi Association (NSR) has consented"), required=False
    )
    nsr_consent_date = forms.DateField(
        label=gettext_lazy("Date of the NSR's consent"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        validators=[not_in_the_future],
    )
    nsr_reference = forms.CharField(label=gettext_lazy("NSR reference"), max_length=100, required=False)

    def __init__(self, *args: Any, steps: list[Promotion], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        up_to = self.fields["up_to"]
        assert isinstance(up_to, forms.ChoiceField)
        up_to.choices = [(p.grade, grade_label(p.grade)) for p in steps]
        self.fields["up_to"].initial = steps[-1].grade if steps else None
        if not any(needs_nsr_consent(p.grade) for p in steps):
            for name in NSR_FIELDS:
                del self.fields[name]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if needs_nsr_consent(data.get("up_to") or 0):
            if not data.get("nsr_consent"):
                self.add_error(
                    "nsr_consent", _("A 5 or 6 Dan is approved only once the NSR has consented: tick the box.")
                )
            if not data.get("nsr_consent_date"):
                self.add_error("nsr_consent_date", _("Give the date of the NSR's consent (as on its letter)."))
        return data


def with_climb_steps(queryset: QuerySet[Promotion]) -> QuerySet[Promotion]:
    """Each promotion with ``climb_steps``: how many Dan promotions of its player wait for a decision."""
    pending = (
        Promotion.objects.filter(player=OuterRef("player"), status=PromotionStatus.PENDING, grade__gte=FIRST_DAN)
        .order_by()
        .values("player")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return queryset.annotate(climb_steps=Coalesce(Subquery(pending, output_field=IntegerField()), 0))


class ClimbAdminMixin(admin.ModelAdmin):
    """Mixed into PromotionAdmin: the climb's page."""

    def get_urls(self) -> list[URLPattern]:
        own = [
            path(
                "climb/<int:player_id>/",
                self.admin_site.admin_view(self.climb_view),
                name="ratings_promotion_climb",
            )
        ]
        return own + super().get_urls()

    def climb_url(self, player_id: int) -> str:
        return reverse(f"{self.admin_site.name}:ratings_promotion_climb", args=[player_id])

    def climb_view(self, request: HttpRequest, player_id: int) -> HttpResponse:
        if not can_decide(request.user):
            raise PermissionDenied
        player = get_object_or_404(Player, pk=player_id)
        steps = climb_pending(player)
        changelist = reverse(f"{self.admin_site.name}:ratings_promotion_changelist")
        if not steps:
            self.message_user(request, _("No Dan promotion of %(player)s waits for a decision.") % {"player": player})
            return HttpResponseRedirect(changelist)
        form = ClimbForm(request.POST or None, steps=steps)
        if request.method == "POST":
            versions = {p.pk: request.POST.get(f"{VERSION_PREFIX}{p.pk}", "") or "" for p in steps}
        else:
            versions = climb_versions(steps)
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            try:
                approved = promotion_climb_approve(
                    promotions=steps,
                    up_to=data["up_to"],
                    user=request.user,
                    reason=data.get("reason", ""),
                    nsr_consent=bool(data.get("nsr_consent")),
                    nsr_consent_date=data.get("nsr_consent_date"),
                    nsr_reference=data.get("nsr_reference", ""),
                    expected=versions,
                )
            except (PromotionConflict, ChangedMeanwhile) as exc:
                self.message_user(request, str(exc), messages.ERROR)
                return HttpResponseRedirect(self.climb_url(player.pk))
            except PromotionInvalid as exc:
                form.add_error(None, str(exc))
            else:
                grades = ", ".join(grade_label(p.grade) for p in approved)
                self.message_user(
                    request,
                    _("Approved for %(player)s: %(grades)s.") % {"player": player, "grades": grades},
                    messages.SUCCESS,
                )
                return HttpResponseRedirect(changelist)
        context = {
            **self.admin_site.each_context(request),
            "opts": Promotion._meta,
            "title": _("The climb of %(player)s: %(first)s to %(last)s")
            % {"player": player, "first": grade_label(steps[0].grade), "last": grade_label(steps[-1].grade)},
            "player": player,
            "steps": [(p, versions.get(p.pk, "")) for p in steps],
            "form": form,
            "version_prefix": VERSION_PREFIX,
            "changelist": changelist,
        }
        return TemplateResponse(request, "admin/ratings/promotion/climb.html", context)
