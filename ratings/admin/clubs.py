"""Clubs in the admin: rating officers keep the clubs and who is in which from what date, import clubs in bulk
from a CSV file (previewed: what is matched, what is new; nothing saved before the officer confirms), and keep
the women's list, each player on it with the date of the consent.

A club's page and a women's list entry's carry the version of what they showed (``VERSION_FIELD``): an edit
saves only onto that (ratings/services/clubs/edits.py); a stale or version-less post is refused, nothing saved,
and the page shown again as it is now."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypedDict

from django import forms
from django.contrib import admin, messages
from django.core import signing
from django.core.exceptions import PermissionDenied
from django.db.models import Count, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from ratings.admin.corrections import changed_meanwhile
from ratings.admin.filters import VisibleCountryFilter
from ratings.models import Club, ClubMembership, Player, WomensListEntry
from ratings.services.clubs.edits import club_edit_check, club_version, womens_list_set, womens_list_version
from ratings.services.clubs.imports import ClubImportRejected, clubs_import
from ratings.services.fingerprints import VERSION_FIELD, ChangedMeanwhile

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations

SALT = "ratings.clubs.import"
MAX_CSV_BYTES = 1_000_000


class MembershipCount(TypedDict):
    membership_count: int  # the list's annotation (ClubAdmin.get_queryset)


class ClubMembershipInline(admin.TabularInline):
    model = ClubMembership
    fields = ("player", "since")
    autocomplete_fields = ("player",)
    extra = 0
    ordering = ("-since",)


class ClubImportForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("CSV file"),
        help_text=gettext_lazy(
            "A header line naming the columns name and country (two letters), optionally city and website; "
            "one club per line. A club already here (same name, case and accents aside, same country) is updated."
        ),
    )

    def clean_file(self) -> str:
        upload = self.cleaned_data["file"]
        if upload.size > MAX_CSV_BYTES:
            raise forms.ValidationError(_("The file is too large."))
        data = upload.read()
        try:
            return str(data.decode("utf-8-sig"))
        except UnicodeDecodeError:
            return str(data.decode("latin-1"))


class ClubForm(forms.ModelForm):
    website = forms.URLField(label=capfirst(gettext_lazy("web site")), required=False, assume_scheme="https")
    _version = forms.CharField(widget=forms.HiddenInput, required=False)  # VERSION_FIELD

    class Meta:
        model = Club
        fields = ["name", "country", "city", "website"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The club and its members as this page shows them: an edit made meanwhile is never overwritten.
        self.fields[VERSION_FIELD].initial = club_version(self.instance) if self.instance.pk else ""


class RefusesStaleEdits(admin.ModelAdmin):
    """A change refused because its page was stale or carried no version shows only the refusal, over the object
    as it is now: Django's change view neither says it was changed nor logs a change, and keeps nothing."""

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: Any = None
    ) -> HttpResponse:
        try:
            return super().change_view(request, object_id, form_url, extra_context)
        except ChangedMeanwhile as exc:
            return changed_meanwhile(request, exc, request.path)


@admin.register(Club)
class ClubAdmin(RefusesStaleEdits):
    form = ClubForm
    list_display = ("name", "country", "city", "membership_count")
    list_filter = (("country", VisibleCountryFilter),)  # only the countries that have a club
    search_fields = ("name", "city")
    fields = ("name", "country", "city", "website", VERSION_FIELD)
    inlines = (ClubMembershipInline,)
    change_list_template = "admin/ratings/club/change_list.html"

    def get_queryset(self, request: HttpRequest) -> QuerySet[Club]:
        return super().get_queryset(request).annotate(membership_count=Count("memberships"))

    def save_model(self, request: HttpRequest, obj: Club, form: Any, change: bool) -> None:
        # Checked before the club and then its memberships are saved, in the change view's transaction: the
        # club's row stays locked until both are.
        if change:
            club_edit_check(club=obj, expected=request.POST.get(VERSION_FIELD, ""))
        super().save_model(request, obj, form, change)

    @admin.display(description=gettext_lazy("memberships"), ordering="membership_count")
    def membership_count(self, club: WithAnnotations[Club, MembershipCount]) -> int:
        return club.membership_count

    def get_urls(self) -> list[URLPattern]:
        view = self.admin_site.admin_view(self.import_view)
        return [path("import/", view, name="ratings_club_import"), *super().get_urls()]

    def import_view(self, request: HttpRequest) -> HttpResponse:
        """Upload, preview (matched and new clubs, or every problem with its line), confirm."""
        if not (self.has_add_permission(request) and self.has_change_permission(request)):
            raise PermissionDenied
        context: dict[str, Any] = {**self.admin_site.each_context(request), "opts": self.model._meta}
        context["title"] = _("Import clubs from a CSV file")
        form = ClubImportForm()
        if request.method == "POST" and request.POST.get("payload"):
            try:
                text = signing.loads(request.POST["payload"], salt=SALT, max_age=24 * 3600)
                result = clubs_import(text=text, commit=True)
            except signing.BadSignature:
                messages.error(request, _("The preview has expired: upload the file again."))
            except ClubImportRejected as rejected:
                context["problems"] = rejected.problems
            else:
                created = ngettext("%(count)d club created.", "%(count)d clubs created.", result.created)
                updated = ngettext("%(count)d club updated.", "%(count)d clubs updated.", result.updated)
                messages.success(
                    request, f"{created % {'count': result.created}} {updated % {'count': result.updated}}"
                )
                return HttpResponseRedirect(reverse("admin:ratings_club_changelist"))
        elif request.method == "POST":
            form = ClubImportForm(request.POST, request.FILES)
            if form.is_valid():
                text = form.cleaned_data["file"]
                try:
                    context["preview"] = clubs_import(text=text, commit=False)
                    context["payload"] = signing.dumps(text, salt=SALT, compress=True)
                except ClubImportRejected as rejected:
                    context["problems"] = rejected.problems
        context["form"] = form
        return TemplateResponse(request, "admin/ratings/club/import.html", context)


@admin.register(ClubMembership)
class ClubMembershipAdmin(admin.ModelAdmin):
    list_display = ("player", "club", "since")
    list_filter = ("club",)
    list_select_related = ("player", "club")
    search_fields = ("player__family_name", "player__given_name", "player__federation_id", "club__name")
    autocomplete_fields = ("player", "club")
    date_hierarchy = "since"


class WomensListForm(forms.ModelForm):
    _version = forms.CharField(widget=forms.HiddenInput, required=False)  # VERSION_FIELD

    class Meta:
        model = WomensListEntry
        fields = ["on_womens_list", "womens_list_consent"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields[VERSION_FIELD].initial = womens_list_version(self.instance) if self.instance.pk else ""

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if data.get("on_womens_list") and not data.get("womens_list_consent"):
            self.add_error(
                "womens_list_consent", _("Give the date the player consented: nobody is put on the list without it.")
            )
        if data.get("womens_list_consent") and data["womens_list_consent"] > timezone.localdate():
            self.add_error("womens_list_consent", _("The consent cannot be given in the future."))
        return data


@admin.register(WomensListEntry)
class WomensListAdmin(RefusesStaleEdits):
    """Every player, the women's list's on top; an officer ticks a player on with the date of the consent."""

    form = WomensListForm
    list_display = ("__str__", "nationality", "on_womens_list", "womens_list_consent")
    list_filter = ("on_womens_list",)
    search_fields = ("family_name", "given_name", "federation_id")
    fields = ("on_womens_list", "womens_list_consent", VERSION_FIELD)
    ordering = ("-on_womens_list", "family_name", "given_name")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: Player, form: Any, change: bool) -> None:
        data = form.cleaned_data
        womens_list_set(
            player=obj,
            on_list=data["on_womens_list"],
            consent=data["womens_list_consent"],
            expected=request.POST.get(VERSION_FIELD, ""),
        )
