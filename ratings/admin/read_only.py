"""The base of the admin pages that show a record nobody may add, change or delete there: logs (re-rates,
corrections, privacy actions), published lists, tables awaiting a decision. Each page says who may see it."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from ratings import access
from ratings.admin.user_names import UserNamesAsText


class ReadOnlyAdmin(UserNamesAsText, admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ReadOnlyInline(admin.TabularInline):
    """Rows shown inside another record's page that are computed or entered elsewhere, never edited there."""

    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class RatingOfficersOnly(ReadOnlyAdmin):
    """A read-only page that only rating officers (and superusers) see: the outbox, the e-mail subscriptions."""

    def has_module_permission(self, request: HttpRequest) -> bool:
        return access.is_rating_officer(request.user)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return access.is_rating_officer(request.user)
