"""Row-level permissions for ModelAdmins, from the plain rules of ratings/access.py."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest


class RowPermissionsMixin(admin.ModelAdmin):
    r"""The model permissions of a ModelAdmin, narrowed to the rows ratings/access.py allows the user.

    Subclasses name the three row rules as ``staticmethod``\ s of ``(user, obj)``; with no object, the model
    permission alone decides, as for the change list (whose rows ``get_queryset`` narrows).
    """

    row_can_view: Any
    row_can_change: Any
    row_can_delete: Any

    def get_object(self, request: HttpRequest, object_id: str, from_field: str | None = None) -> Any:
        """The row, if the user may see it. A row that exists but is not the user's (another director's
        tournament) is refused as such, with the 403 page that says why, rather than called missing ("does not
        exist. Perhaps it was deleted?") as Django does for a row its narrowed queryset leaves out."""
        obj = super().get_object(request, object_id, from_field)
        if obj is None and from_field is None:
            try:
                pk = self.model._meta.pk.to_python(object_id)
            except ValidationError:
                return None
            if self.model._default_manager.filter(pk=pk).exists():
                raise PermissionDenied
        return obj

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return super().has_view_permission(request, obj) and (obj is None or self.row_can_view(request.user, obj))

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return super().has_change_permission(request, obj) and (obj is None or self.row_can_change(request.user, obj))

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return super().has_delete_permission(request, obj) and (obj is None or self.row_can_delete(request.user, obj))
