"""Who did something, shown by name: Django's admin links a read-only user field to the user's page, which only
those who may see users open; for everybody else that link answers 403. ``UserNamesAsText`` shows such a field
as the plain name to a user without that permission."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.conf import settings
from django.http import HttpRequest

from ratings import access

SUFFIX = "_name_shown"


class UserNamesAsText:
    """A ModelAdmin mixin: its read-only user fields (``made_by``, ``submitted_by``...) become plain names."""

    model: Any

    def _user_fields(self) -> set[str]:
        return {
            f.name
            for f in self.model._meta.get_fields()
            if getattr(f, "many_to_one", False) and f.related_model is not None
            and f.related_model._meta.label == settings.AUTH_USER_MODEL
        }  # fmt: skip

    def user_names_shown(self, request: HttpRequest, names: Sequence[Any]) -> list[Any]:
        """``names`` (fields, or rows of fields) with each user field in its name-shown form, unless the user may
        see users (every user field of this project is read-only: who made, submitted, decided)."""
        if access.can_view_users(request.user):
            return list(names)
        users = self._user_fields()
        return [
            tuple(self.user_names_shown(request, n)) if isinstance(n, (list, tuple)) else
            f"{n}{SUFFIX}" if isinstance(n, str) and n in users else n
            for n in names
        ]  # fmt: skip

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Sequence[Any]:
        return self.user_names_shown(request, super().get_readonly_fields(request, obj))  # type: ignore[misc]

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> list[tuple[Any, dict[str, Any]]]:
        return [
            (title, {**options, "fields": self.user_names_shown(request, options.get("fields", ()))})
            for title, options in super().get_fieldsets(request, obj)  # type: ignore[misc]
        ]

    def __getattr__(self, name: str) -> Callable[[Any], str]:
        if not name.endswith(SUFFIX):
            raise AttributeError(name)
        field = self.model._meta.get_field(name.removesuffix(SUFFIX))

        def shown(obj: Any) -> str:
            user = getattr(obj, field.name, None)
            return user.get_username() if user is not None else "–"

        shown.short_description = field.verbose_name  # type: ignore[attr-defined]
        return shown
