"""The players' e-mail subscriptions, for rating officers: who is told about whom, confirmed or not. Read only
but for deleting one (a person who asks by other means to be removed); nobody adds or changes one here, as only
the address's owner may, through the confirmation link (ratings/services/season/subscriptions.py)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from ratings import access
from ratings.models import Subscription
from ratings.services.season.subscriptions import subscriptions_delete

from .read_only import RatingOfficersOnly


@admin.register(Subscription)
class SubscriptionAdmin(RatingOfficersOnly):
    list_display = ("created_at", "player", "email", "language", "on_tables", "on_grades", "confirmed_at")
    list_filter = (("confirmed_at", admin.EmptyFieldListFilter), "on_tables", "on_grades", "language")
    list_select_related = ("player",)
    search_fields = ("email", "player__federation_id", "player__family_name")
    readonly_fields = list_display
    fields = readonly_fields
    date_hierarchy = "created_at"

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return access.is_rating_officer(request.user)

    def delete_model(self, request: HttpRequest, obj: Subscription) -> None:
        subscriptions_delete(ids=[obj.pk])

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Subscription]) -> None:
        subscriptions_delete(ids=list(queryset.values_list("pk", flat=True)))
