"""The filters of the grade officers' queue: status (what waits for a decision first), grade, country, waiting
time, flag. ratings/admin/grades.py puts them on the queue."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import Q, QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django_countries import countries

from ratings.admin.filters import OpensOnChoice
from ratings.engine import grade_label
from ratings.engine.grades import DAN_GRADES, FIRST_DAN
from ratings.models import Promotion, PromotionStatus
from ratings.selectors.grades import TO_DECIDE, waiting_between


class StatusFilter(OpensOnChoice):
    """Opens on "to decide"; any status, or all of them, on request. Choosing a flag shows every status."""

    title = _("status")
    parameter_name = "status"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [("decide", _("to decide")), *PromotionStatus.choices, ("all", _("all"))]

    def value(self) -> str:
        chosen = super().value()
        if chosen is not None:
            return str(chosen)
        return "all" if FlagFilter.parameter_name in self.request.GET else "decide"

    def queryset(self, request: HttpRequest, queryset: QuerySet[Promotion]) -> QuerySet[Promotion]:
        value = self.value()
        if value == "decide":
            return queryset.filter(TO_DECIDE)
        if value in PromotionStatus.values:
            return queryset.filter(status=value)
        return queryset


class GradeFilter(admin.SimpleListFilter):
    title = _("grade")
    parameter_name = "grade"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [(str(g), grade_label(g)) for g in DAN_GRADES] + [("kyu", str(_("Kyu grades")))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Promotion]) -> QuerySet[Promotion]:
        value = self.value()
        if value == "kyu":
            return queryset.filter(grade__lt=FIRST_DAN)
        if value and value.isdigit():
            return queryset.filter(grade=int(value))
        return queryset


class CountryFilter(admin.SimpleListFilter):
    """The player's nationality; only countries that have promotions are offered."""

    title = _("country")
    parameter_name = "country"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        codes = (
            Promotion.objects.exclude(player__nationality="")
            .order_by()
            .values_list("player__nationality", flat=True)
            .distinct()
        )
        return sorted(((code, str(countries.name(code)) or code) for code in codes), key=lambda c: c[1])

    def queryset(self, request: HttpRequest, queryset: QuerySet[Promotion]) -> QuerySet[Promotion]:
        value = self.value()
        return queryset.filter(player__nationality=value) if value else queryset


WAITING_BANDS: dict[str, tuple[int, int | None]] = {
    "week": (0, 7),
    "month": (7, 30),
    "quarter": (30, 91),
    "older": (91, None),
}
"""Waiting time in whole days since the table that earned the promotion: [from, to)."""


class WaitingFilter(admin.SimpleListFilter):
    title = _("waiting time")
    parameter_name = "waiting"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [
            ("week", _("less than a week")),
            ("month", _("1 week to 1 month")),
            ("quarter", _("1 to 3 months")),
            ("older", _("more than 3 months")),
        ]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Promotion]) -> QuerySet[Promotion]:
        band = WAITING_BANDS.get(self.value() or "")
        if band is None:
            return queryset
        return queryset.filter(waiting_between(*band))


class FlagFilter(admin.SimpleListFilter):
    """Approved grades a correction left unsupported, and what the grade officer made of them."""

    title = _("flag")
    parameter_name = "flag"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [
            ("open", _("flagged, to decide")),
            ("kept", _("flagged, kept")),
            ("revoked", _("revoked")),
            ("supported", _("supported by the history")),
            ("unsupported", _("not supported by the history")),
        ]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Promotion]) -> QuerySet[Promotion]:
        value = self.value()
        flagged = Q(status=PromotionStatus.APPROVED, supported=False)
        if value == "open":
            return queryset.filter(flagged, reviewed_at__isnull=True)
        if value == "kept":
            return queryset.filter(flagged, reviewed_at__isnull=False)
        if value == "revoked":
            return queryset.filter(status=PromotionStatus.REVOKED)
        if value in ("supported", "unsupported"):
            return queryset.filter(supported=value == "supported")
        return queryset
