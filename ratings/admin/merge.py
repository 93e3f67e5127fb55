"""Duplicate players in the admin: the add form's warning, the "Merge into…" screen and the staff's report.

``DuplicatesAdmin`` is mixed into the player admin: a new player whose name matches existing ones is created
only once the director ticked "create anyway" (ratings/admin/forms/duplicates.py); the action "Merge into another
player…" leads a rating officer to the merge screen, which previews what the merge changes
(ratings/services/merge/preview.py) and saves it with a reason as a correction, undone from the corrections'
list. The report lists every likely pair of the federation, with a link to merge them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ratings import access
from ratings.admin.corrections import CONFIRM, REASON, changed_meanwhile, posted_version, preview_page
from ratings.admin.forms.duplicates import CREATE_ANYWAY, duplicate_checked
from ratings.models import Player
from ratings.selectors.duplicates import duplicate_pairs, duplicates_of
from ratings.selectors.players import player_label, player_labels
from ratings.services.corrections.fingerprints import loaded_version
from ratings.services.fingerprints import VERSION_FIELD, ChangedMeanwhile
from ratings.services.merge.apply import MergeRefused, player_merge, player_merge_preview
from ratings.services.merge.moves import describe_merge, merge_facts

if TYPE_CHECKING:
    from django_stubs_ext import FieldsetSpec

REPORT_LIMIT = 500  # pairs shown at once: the first by name; merging them brings the next ones up


class DuplicatesAdmin(admin.ModelAdmin):
    """The player admin's duplicate checks, merge screen and report."""

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any) -> Any:
        if obj is None:
            kwargs["form"] = duplicate_checked(kwargs.get("form", self.form))
        return super().get_form(request, obj, change, **kwargs)

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> FieldsetSpec:
        fieldsets = list(super().get_fieldsets(request, obj))
        if obj is None:
            fieldsets.append((gettext_lazy("Players with a like name"), {"fields": (CREATE_ANYWAY,)}))
        return fieldsets

    def get_actions(self, request: HttpRequest) -> dict[str, tuple[Callable[..., str], str, str] | None]:
        actions = super().get_actions(request)
        if access.can_correct(request.user):
            actions["merge_into"] = self.get_action(merge_into)
        return actions

    def get_urls(self) -> list[URLPattern]:
        own = [
            path("<int:pk>/merge/", self.admin_site.admin_view(merge_view), name="ratings_player_merge"),
            path("duplicates/", self.admin_site.admin_view(duplicates_report), name="ratings_player_duplicates"),
        ]
        return [*own, *super().get_urls()]


@admin.action(description=gettext_lazy("Merge into another player…"))
def merge_into(modeladmin: Any, request: HttpRequest, queryset: QuerySet[Player]) -> HttpResponse | None:
    """Go to the merge screen of the one player chosen; of two chosen, the merge of the one who played less
    (then the later record) into the other, as the duplicates report pairs them, previewed before anything
    is saved."""
    chosen = list(queryset.order_by("-games", "pk")[:3])
    if len(chosen) == 1:
        return HttpResponseRedirect(reverse("admin:ratings_player_merge", args=[chosen[0].pk]))
    if len(chosen) == 2:
        kept, duplicate = chosen
        url = reverse("admin:ratings_player_merge", args=[duplicate.pk])
        return HttpResponseRedirect(f"{url}?kept={kept.federation_id}")
    messages.error(request, _("Choose the one player to merge into another, or the two players to merge."))
    return None


def _kept(request: HttpRequest) -> Player | None:
    value = (request.POST.get("kept") or request.GET.get("kept") or "").strip()
    if not value:
        return None
    found = Player.objects.filter(federation_id=value.upper()).first()
    if found is None and value.isdigit():
        found = Player.objects.filter(pk=int(value)).first()
    return found


def merge_view(request: HttpRequest, pk: int) -> HttpResponse:
    """Choose the player to keep, see what merging changes, give the reason, save."""
    if not access.can_correct(request.user):
        raise PermissionDenied
    duplicate = get_object_or_404(Player, pk=pk)
    back = reverse("admin:ratings_player_merge", args=[pk])
    kept = _kept(request)
    if kept is None:
        if request.GET.get("kept") or request.POST.get("kept"):
            messages.error(request, _("No player has that federation id."))
        return _choose_page(request, duplicate)
    version = posted_version(request) or loaded_version(players=[duplicate, kept])  # as first shown
    try:
        if request.method == "POST" and request.POST.get(CONFIRM) == "yes":
            player_merge(
                user=request.user,
                duplicate=duplicate,
                kept=kept,
                reason=request.POST.get(REASON, ""),
                expected=posted_version(request),
            )
            messages.info(
                request,
                _("%(duplicate)s is merged into %(kept)s; the tables concerned will be re-rated.")
                % {"duplicate": duplicate, "kept": kept},
            )
            return HttpResponseRedirect(reverse("admin:ratings_player_change", args=[kept.pk]))
        preview, error = player_merge_preview(duplicate=duplicate, kept=kept), ""
    except MergeRefused as exc:
        messages.error(request, str(exc))
        return HttpResponseRedirect(back)
    except ChangedMeanwhile as exc:  # the preview shown is not what would be saved: show the new one
        return changed_meanwhile(request, exc, f"{back}?kept={kept.pk}")
    except ValidationError:
        preview, error = player_merge_preview(duplicate=duplicate, kept=kept), _("Say why the players are merged.")
    before, after = merge_facts(duplicate, kept)
    return preview_page(
        request,
        title=_("Merge %(duplicate)s into %(kept)s")
        % {"duplicate": player_label(duplicate), "kept": player_label(kept)},
        lines=describe_merge(before, after, player_labels([duplicate.pk, kept.pk])),
        preview=preview,
        carried=[("kept", kept.federation_id), (VERSION_FIELD, version)],
        error=error,
        reason=request.POST.get(REASON, ""),
        cancel_url=back,
    )


def _choose_page(request: HttpRequest, duplicate: Player) -> HttpResponse:
    context = {
        **admin.site.each_context(request),
        "title": _("Merge %(player)s into…") % {"player": player_label(duplicate)},
        "duplicate": duplicate,
        "candidates": duplicates_of(
            duplicate.family_name, duplicate.given_name, str(duplicate.nationality), exclude=[duplicate.pk]
        ),
    }
    return TemplateResponse(request, "admin/ratings/player/merge_choose.html", context)


def duplicates_report(request: HttpRequest) -> HttpResponse:
    """Every likely pair of duplicates in the federation, for rating officers and staff."""
    if not access.is_staff(request.user):
        raise PermissionDenied
    pairs = duplicate_pairs()
    context = {
        **admin.site.each_context(request),
        "title": _("Likely duplicate players"),
        "pairs": pairs[:REPORT_LIMIT],
        "total": len(pairs),
        "can_merge": access.can_correct(request.user),
    }
    return TemplateResponse(request, "admin/ratings/player/duplicates.html", context)
