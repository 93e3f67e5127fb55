"""Who did something, shown by name: Django's admin links a read-only user field to the user's page, which only
those who may see users open; for everybody else that link answers 403. ``UserNamesAsText`` shows such a field
as the plain name to a user without that permission."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib import admin
from django.http import HttpRequest

from ratings import access

if TYPE_CHECKING:
    from django.contrib.admin.options import _FieldGroups
    from django.utils.datastructures import _ListOrTuple
    from django_stubs_ext import FieldsetSpec

SUFFIX = "_name_shown"


class UserNamesAsText(admin.ModelAdmin):
    """A ModelAdmin mixin: its read-only user fields (``made_by``, ``submitted_by``...) become plain names."""

    def _user_fields(self) -> set[str]:
        return {
            f.name
            for f in self.model._meta.get_fields()
            if getattr(f, "many_to_one", False) and f.related_model is not None
            and f.related_model._meta.label == settings.AUTH_USER_MODEL
        }  # fmt: skip

    def user_names_shown(self, request: HttpRequest, names: Iterable[str]) -> list[str]:
        """``names`` with each user field in its name-shown form, unless the user may see users (every user field
        of this project is read-only: who made, submitted, decided)."""
        if access.can_view_users(request.user):
            return list(names)
        users = self._user_fields()
        return [f"{n}{SUFFIX}" if n in users else n for n in names]

    def _field_groups_shown(self, request: HttpRequest, groups: _FieldGroups) -> _FieldGroups:
        """A fieldset's fields, some grouped on one line, with the user fields as ``user_names_shown`` gives them."""
        return [
            tuple(self.user_names_shown(request, g)) if isinstance(g, (list, tuple)) else
            self.user_names_shown(request, [g])[0]
            for g in groups
        ]  # fmt: skip

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> _ListOrTuple[str]:
        return self.user_names_shown(request, super().get_readonly_fields(request, obj))

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> FieldsetSpec:
        return [
            (title, {**options, "fields": self._field_groups_shown(request, options["fields"])})
            for title, options in super().get_fieldsets(request, obj)
        ]

    def __getattr__(self, name: str) -> Callable[[Any], str]:
        if not name.endswith(SUFFIX):
            raise AttributeError(name)
        field = self.model._meta.get_field(name.removesuffix(SUFFIX))

        def shown(obj: Any) -> str:
            user = getattr(obj, field.name, None)
            return user.get_username() if user is not None else "–"

        return admin.display(shown, description=field.verbose_name)
