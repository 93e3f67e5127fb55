"""Official lists in the admin: a rating officer publishes the list of a date, after a confirmation that says
how many players will be on it; published lists are read-only for everyone (ratings/services/official_lists.py).
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from ratings.access import can_publish
from ratings.admin.forms.official import PublishListForm
from ratings.admin.user_names import UserNamesAsText
from ratings.models import ListEntry, OfficialList, StoredList
from ratings.services.fingerprints import VERSION_FIELD, ChangedMeanwhile
from ratings.services.lists import list_stored
from ratings.services.official_lists import (
    ListRefused,
    official_list_check,
    official_list_publish,
    official_list_version,
)

from .read_only import ReadOnlyAdmin


@admin.register(OfficialList)
class OfficialListAdmin(UserNamesAsText, admin.ModelAdmin):
    list_display = ("date", "title", "player_count", "country_count", "published_at", "published_by", "public_page")
    list_select_related = ("published_by",)
    date_hierarchy = "date"
    fields = ("date", "title", "note", "player_count", "country_count", "published_at", "published_by", "public_page")
    readonly_fields = fields
    ordering = ("-date",)

    def get_queryset(self, request: HttpRequest) -> Any:
        return super().get_queryset(request).defer("all_txt")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return can_publish(request.user)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # a published list stays published: the public archive and its links depend on it

    @admin.display(description=gettext_lazy("public page"))
    def public_page(self, obj: OfficialList) -> SafeString:
        url = reverse("ratings:official_list", args=[obj.date.isoformat()])
        return format_html('<a href="{}">{}</a>', url, url)

    def add_view(self, request: HttpRequest, form_url: str = "", extra_context: Any = None) -> HttpResponse:
        """Publish: the form, then a confirmation with the number of players, then the list."""
        if not self.has_add_permission(request):
            return super().add_view(request, form_url, extra_context)  # the admin's own 403
        form = PublishListForm(request.POST or None)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": _("Publish an official list"),
            "form": form,
        }
        if request.method == "POST" and form.is_valid():
            date, title, note = (form.cleaned_data[k] for k in ("date", "title", "note"))
            try:
                if request.POST.get("confirmed") == "yes":
                    expected = request.POST.get(VERSION_FIELD, "")  # none posted: refused
                    official = official_list_publish(
                        date=date, user=request.user, title=title, note=note, expected=expected
                    )
                    self.message_user(
                        request,
                        ngettext(
                            "The list of %(date)s is published, with %(count)s player.",
                            "The list of %(date)s is published, with %(count)s players.",
                            official.player_count,
                        )
                        % {"date": date.isoformat(), "count": official.player_count},
                    )
                    return HttpResponseRedirect(reverse("admin:ratings_officiallist_change", args=[official.pk]))
                official_list_check(date=date)
            except (ListRefused, ChangedMeanwhile) as exc:  # changed: shown again as it stands now
                form.add_error("date", str(exc))
            else:
                context["confirm"] = {"date": date, "count": list_stored(date, active=True).player_count}
                context["version_field"] = VERSION_FIELD
                context["version"] = official_list_version(date=date)
        return TemplateResponse(request, "admin/ratings/officiallist/publish.html", context)


class OfficialListFilter(admin.SimpleListFilter):
    """The entries of one published list."""

    title = gettext_lazy("official list")
    parameter_name = "official_list"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [(str(o.pk), str(o)) for o in OfficialList.objects.defer("all_txt", "note").order_by("-date")]

    def queryset(self, request: HttpRequest, queryset: Any) -> Any:
        return queryset.filter(stored_list__official_id=self.value()) if self.value() else queryset


@admin.register(ListEntry)
class OfficialListEntryAdmin(ReadOnlyAdmin):
    """The lines of the published lists, as published (the computed lists' rows are the site's own working
    copies, made again at will: not shown). Seen by those who may see the official lists."""

    list_display = (
        "official_list",
        "position",
        "country_position",
        "family_name",
        "given_name",
        "nationality",
        "rating",
    )
    list_display_links = None
    list_filter = (OfficialListFilter,)
    list_select_related = ("stored_list__official",)
    search_fields = ("federation_id", "family_name", "given_name")
    ordering = ("-stored_list__date", "position")

    def get_queryset(self, request: HttpRequest) -> Any:
        return (
            super()
            .get_queryset(request)
            .filter(stored_list__kind=StoredList.Kind.OFFICIAL)
            .defer("stored_list__official__all_txt", "stored_list__official__note")
        )

    def has_module_permission(self, request: HttpRequest) -> bool:
        return False  # reached from the lists; not a menu entry of its own

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.user.has_perm("ratings.view_officiallist")

    @admin.display(description=gettext_lazy("official list"), ordering="stored_list__date")
    def official_list(self, entry: ListEntry) -> OfficialList | None:
        return entry.stored_list.official
