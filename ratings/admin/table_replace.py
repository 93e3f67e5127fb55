"""The table admin's "Replace a player in this table…": a wrong person entered, corrected by a rating officer.

The screen asks for the wrong player and the right one (by federation id), shows the correction's preview
(ratings/admin/corrections.py) and saves it with a reason; it is a table correction like any other, undone
from the corrections' list.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ratings.access import can_correct
from ratings.admin.corrections import CONFIRM, REASON, changed_meanwhile, posted_version, preview_page
from ratings.models import Player, Table
from ratings.services.corrections.apply import NothingToCorrect, correction_make, correction_preview
from ratings.services.corrections.facts import describe, table_change_snapshot, table_snapshot
from ratings.services.corrections.fingerprints import loaded_version
from ratings.services.fingerprints import VERSION_FIELD, ChangedMeanwhile
from ratings.services.tables.replace import ReplaceRefused, table_replace_change
from ratings.services.tables.save import TableRefused


class TableReplaceViews(admin.ModelAdmin):
    def get_actions(self, request: HttpRequest) -> dict[str, tuple[Callable[..., str], str, str] | None]:
        actions = super().get_actions(request)
        if can_correct(request.user):
            actions["replace_player"] = self.get_action(replace_player)
        return actions

    def get_urls(self) -> list[URLPattern]:
        view = self.admin_site.admin_view(replace_view)
        return [path("<int:pk>/replace-player/", view, name="ratings_table_replace_player"), *super().get_urls()]


@admin.action(description=gettext_lazy("Replace a player in this table…"))
def replace_player(modeladmin: Any, request: HttpRequest, queryset: QuerySet[Table]) -> HttpResponse | None:
    if queryset.count() != 1:
        messages.error(request, _("Choose the one table to correct."))
        return None
    return HttpResponseRedirect(reverse("admin:ratings_table_replace_player", args=[queryset.get().pk]))


def _player(request: HttpRequest, name: str) -> Player | None:
    value = (request.POST.get(name) or request.GET.get(name) or "").strip().upper()
    return Player.objects.filter(federation_id=value).first() if value else None


def replace_view(request: HttpRequest, pk: int) -> HttpResponse:
    if not can_correct(request.user):
        raise PermissionDenied
    table = get_object_or_404(Table.objects.select_related("tournament"), pk=pk)
    back = reverse("admin:ratings_table_replace_player", args=[pk])
    wrong, right = _player(request, "wrong"), _player(request, "right")
    if wrong is None or right is None:
        return TemplateResponse(
            request,
            "admin/ratings/table/replace_player.html",
            {
                **admin.site.each_context(request),
                "title": _("Replace a player in %(table)s") % {"table": table},
                "table": table,
                "entries": table.entries.select_related("player").order_by("seat"),
                "asked": bool(request.GET.get("right") or request.POST.get("right")),
            },
        )
    version = posted_version(request) or loaded_version(table=table)  # shown again: as first shown
    try:
        change = table_replace_change(table=table, wrong=wrong, right=right)
        if request.method == "POST" and request.POST.get(CONFIRM) == "yes":
            correction_make(
                user=request.user, reason=request.POST.get(REASON, ""), change=change, expected=posted_version(request)
            )
            messages.info(request, _("The correction is recorded; the table and those after it will be re-rated."))
            return HttpResponseRedirect(reverse("admin:ratings_table_change", args=[pk]))
        preview, error = correction_preview(change), ""
    except (ReplaceRefused, TableRefused, NothingToCorrect) as exc:
        messages.error(request, str(exc))
        return HttpResponseRedirect(back)
    except ChangedMeanwhile as exc:  # the preview shown is not what would be saved: show the new one
        query = f"?wrong={wrong.federation_id}&right={right.federation_id}"
        return changed_meanwhile(request, exc, back + query)
    except ValidationError:
        preview, error = correction_preview(change), _("Say why the correction is made.")
    after = table_change_snapshot(change, sequence=table.sequence)
    return preview_page(
        request,
        title=_("Replace %(wrong)s with %(right)s in %(table)s") % {"wrong": wrong, "right": right, "table": table},
        lines=describe("table", table_snapshot(table), after),
        preview=preview,
        carried=[("wrong", wrong.federation_id), ("right", right.federation_id), (VERSION_FIELD, version)],
        error=error,
        reason=request.POST.get(REASON, ""),
        cancel_url=back,
    )
