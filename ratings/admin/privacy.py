"""A player's personal data in the admin: a rating officer exports it, or erases it, one player at a time.

Both are actions of the players' list, each confirmed on a page of its own; the work is done by
ratings/services/privacy.py. ``PrivacyActionAdmin`` lists what was done, for rating officers only.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ratings import access
from ratings.models import Player, PrivacyAction
from ratings.services.privacy import player_erase, player_export

from .read_only import ReadOnlyAdmin


def _one_player(model_admin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet[Player]) -> Player | None:
    players = list(queryset[:2])
    if len(players) != 1:
        model_admin.message_user(request, _("Choose exactly one player."), messages.WARNING)
        return None
    return players[0]


def _confirm(
    model_admin: admin.ModelAdmin,
    request: HttpRequest,
    player: Player,
    *,
    action: str,
    title: str,
    explanation: str,
    confirm_label: str,
) -> TemplateResponse:
    context = {
        **model_admin.admin_site.each_context(request),
        "opts": model_admin.model._meta,
        "title": title,
        "player": player,
        "action": action,
        "action_checkbox_name": ACTION_CHECKBOX_NAME,
        "explanation": explanation,
        "confirm_label": confirm_label,
    }
    return TemplateResponse(request, "admin/ratings/player/privacy_confirm.html", context)


@admin.action(description=gettext_lazy("Export the personal data of the player"), permissions=["personal_data"])
def export_personal_data(
    model_admin: admin.ModelAdmin,
    request: HttpRequest,
    queryset: QuerySet[Player],
) -> HttpResponse | None:
    player = _one_player(model_admin, request, queryset)
    if player is None:
        return None
    if request.POST.get("confirmed") != "yes":
        return _confirm(
            model_admin,
            request,
            player,
            action="export_personal_data",
            title=_("Export personal data"),
            explanation=_(
                "A JSON file of everything the site holds about this player: his identity, the history of its "
                "changes, his tables, games, ratings and promotions. The export is recorded."
            ),
            confirm_label=_("Download the export"),
        )
    response = HttpResponse(player_export(player=player, user=request.user), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="personal-data-{player.federation_id}.json"'
    return response


@admin.action(description=gettext_lazy("Erase the personal data of the player"), permissions=["personal_data"])
def erase_personal_data(
    model_admin: admin.ModelAdmin,
    request: HttpRequest,
    queryset: QuerySet[Player],
) -> HttpResponse | None:
    player = _one_player(model_admin, request, queryset)
    if player is None:
        return None
    if request.POST.get("confirmed") != "yes":
        return _confirm(
            model_admin,
            request,
            player,
            action="erase_personal_data",
            title=_("Erase personal data"),
            explanation=_(
                "His name becomes a pseudonym, and his date of birth, country of residence and prior grade note are "
                "cleared, in every recorded version too. His tables, games, ratings and grades stay. This cannot "
                "be undone."
            ),
            confirm_label=_("Erase"),
        )
    player_erase(player=player, user=request.user)
    model_admin.message_user(request, _("The personal data of player %(id)s was erased.") % {"id": player.pk})
    return None


@admin.register(PrivacyAction)
class PrivacyActionAdmin(ReadOnlyAdmin):
    list_display = ("done_at", "kind", "player", "done_by")
    list_filter = ("kind",)
    list_select_related = ("player", "done_by")

    def has_module_permission(self, request: HttpRequest) -> bool:
        return access.can_handle_personal_data(request.user)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return access.can_handle_personal_data(request.user)
