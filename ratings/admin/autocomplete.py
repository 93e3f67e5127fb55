"""The admin's autocomplete answers, labelled by the model admin when it says how.

Django labels each choice with the object's ``__str__``; a model admin with an ``autocomplete_label(obj)``
method gives a longer label instead (players: nationality, id and last table, to tell namesakes apart)
without changing the name every other text shows.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.admin.views.autocomplete import AutocompleteJsonView
from django.http import HttpRequest, HttpResponse

from ratings.models import Player


class LabelledAutocompleteView(AutocompleteJsonView):
    def get_queryset(self) -> Any:
        """A player merged into another is never offered: his record is kept only for the undo."""
        queryset = super().get_queryset()
        if self.model_admin.model is Player:
            queryset = queryset.filter(merged_into__isnull=True)
        return queryset

    def serialize_result(self, obj: Any, to_field_name: str) -> dict[str, str]:
        result: dict[str, str] = super().serialize_result(obj, to_field_name)
        label = getattr(self.model_admin, "autocomplete_label", None)
        if label is not None:
            result["text"] = label(obj)
        return result


def autocomplete_view(request: HttpRequest) -> HttpResponse:
    """The admin site's autocomplete view (``admin:autocomplete``), with the model admins' labels."""
    return LabelledAutocompleteView.as_view(admin_site=admin.site)(request)
