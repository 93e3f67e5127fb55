"""Corrections in the admin: the preview page a correction passes through, the staff list, and undo.

Saving the change form of a submitted or rated table as a rating officer does not save at once: the form is
validated as always, then ``TableCorrectionViews`` shows what the correction would change (computed in memory,
ratings/services/corrections/preview.py) with the form's data carried along, and asks for the reason. Posting
that page saves the same data through ``correction_make``. Undoing a correction is previewed the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ratings import access
from ratings.admin.rerate_notice import report_rerate
from ratings.models import Correction, Table
from ratings.services.corrections.apply import (
    NothingToCorrect,
    UndoRefused,
    correction_make,
    correction_preview,
    correction_undo,
    correction_undo_change,
)
from ratings.services.corrections.facts import (
    Change,
    TableChange,
    describe,
    table_change_check,
    table_change_snapshot,
    table_snapshot,
)
from ratings.services.corrections.fingerprints import change_lock_check, undo_version
from ratings.services.corrections.preview import CorrectionPreview
from ratings.services.corrections.words import correction_text
from ratings.services.fingerprints import VERSION_FIELD, ChangedMeanwhile
from ratings.services.tables.save import TableRefused

from .read_only import ReadOnlyAdmin

REASON, CONFIRM = "_correction_reason", "_correction_confirm"
CARRIED_NOT = {"csrfmiddlewaretoken", REASON, CONFIRM}  # the version is carried: the confirmation checks it


class PreviewNeeded(Exception):
    """Raised inside the change form's save to show the preview page instead; nothing was written."""

    def __init__(self, change: Change, error: str = "", *more: Change) -> None:
        super().__init__("the correction is to be previewed")
        self.change, self.error = change, error
        self.changes = (change, *more)  # a player's form may change his identity and his prior grade at once


def correction_wanted(request: HttpRequest, table: Table) -> bool:
    """A change to a table that is no longer a draft, by a rating officer: a correction."""
    return table.pk is not None and table.status != "draft" and access.can_correct(request.user)


def table_correction_save(request: HttpRequest, change: TableChange) -> bool:
    """Save ``change`` as a correction once the officer confirmed it with a reason; else ask for the preview.

    Returns False, doing nothing, when the change changes no fact (a save of the form as it was shown):
    the caller saves as usual, which asks for no re-rate.
    """
    sequence = table_change_check(change)
    saved = table_snapshot(Table.objects.get(pk=change.table.pk))
    if not describe("table", saved, table_change_snapshot(change, sequence=sequence)):
        return False
    expected = posted_version(request)
    reason = request.POST.get(REASON, "").strip()
    if request.POST.get(CONFIRM) != "yes" or not reason:
        change_lock_check(change, expected, lock=False)  # a preview of a stale form would mislead too
        error = _("Say why the correction is made.") if request.POST.get(CONFIRM) == "yes" else ""
        raise PreviewNeeded(change, error)
    try:
        correction_make(user=request.user, reason=reason, change=change, expected=expected)
    except NothingToCorrect:
        messages.info(request, _("Nothing changed."))
    else:
        report_rerate(
            request,
            done=_("The correction is recorded; the table and those after it were re-rated."),
            queued=_("The correction is recorded; the table and those after it will be re-rated."),
        )
    return True


def posted_version(request: HttpRequest) -> str:
    """The version of what the posted page showed (ratings/services/fingerprints.py); empty if it carried none,
    which the services refuse (never None, which would ask them for no check)."""
    return request.POST.get(VERSION_FIELD, "")


def form_version(request: HttpRequest, loaded: Callable[[], str]) -> str:
    """The version a form page carries: the one posted with it (a form shown again with its errors still
    starts from what was first loaded), else that of what it shows now."""
    return request.POST.get(VERSION_FIELD, "") if request.method == "POST" else loaded()


def changed_meanwhile(request: HttpRequest, exc: ChangedMeanwhile, url: str) -> HttpResponse:
    """Tell who changed what since the page was loaded, and show the object again as it is now."""
    messages.error(request, str(exc))
    return HttpResponseRedirect(url)


def preview_page(
    request: HttpRequest, *, title: str, lines: list[str], preview: CorrectionPreview, **extra: Any
) -> HttpResponse:
    context = {
        **admin.site.each_context(request),
        "title": title,
        "lines": lines,
        "preview": preview,
        "reason_name": REASON,
        "confirm_name": CONFIRM,
        **extra,
    }
    return TemplateResponse(request, "admin/ratings/correction/preview.html", context)


def table_preview_response(request: HttpRequest, needed: PreviewNeeded) -> HttpResponse:
    """The preview page of a table correction, the posted form's data carried along to post back to this URL
    (the table's change form and its crosstable page alike)."""
    change = needed.change
    assert isinstance(change, TableChange)
    sequence = table_change_check(change)
    after = table_change_snapshot(change, sequence=sequence)
    carried = [(k, v) for k in request.POST for v in request.POST.getlist(k) if k not in CARRIED_NOT]
    return preview_page(
        request,
        title=_("Correct %(table)s") % {"table": change.table},
        lines=describe("table", table_snapshot(Table.objects.get(pk=change.table.pk)), after),
        preview=correction_preview(change),
        carried=carried,
        error=needed.error,
        reason=request.POST.get(REASON, ""),
        cancel_url=request.path,
    )


class TableCorrectionViews(admin.ModelAdmin):
    """The change form of a submitted or rated table goes through the correction's preview page."""

    def changeform_view(
        self, request: HttpRequest, object_id: str | None = None, form_url: str = "", extra_context: Any = None
    ) -> HttpResponse:
        try:
            return super().changeform_view(request, object_id, form_url, extra_context)
        except PreviewNeeded as needed:
            return table_preview_response(request, needed)
        except ChangedMeanwhile as exc:
            return changed_meanwhile(request, exc, request.path)


@admin.register(Correction)
class CorrectionAdmin(ReadOnlyAdmin):
    """Every correction, for staff: who, when, why and what; read only, with undo."""

    list_display = ("made_at", "kind", "summary_shown", "reason", "table", "player", "made_by", "undoes")
    list_filter = ("kind", "made_by", ("made_at", admin.DateFieldListFilter))
    list_select_related = ("table__tournament", "player", "made_by", "undoes")
    search_fields = ("reason", "summary", "table__tournament__name", "player__family_name", "player__given_name")
    date_hierarchy = "made_at"
    readonly_fields = ("kind", "table", "player", "reason", "made_by", "made_at", "summary_shown", "undoes")
    exclude = ("before", "after", "summary")  # the change is shown in the reader's words (summary_shown)

    class Media:
        css = {"all": ("css/admin.css",)}  # the change and the reason readable in the list (not a word a line)

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest | None = None) -> bool:
        # The table's and the player's pages link here filtered to them.
        return lookup in {"table__id__exact", "player__id__exact"} or super().lookup_allowed(lookup, value, request)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return access.is_staff(request.user)  # every staff member answers for the past

    def has_module_permission(self, request: HttpRequest) -> bool:
        return self.has_view_permission(request)

    @admin.display(description=gettext_lazy("change"))
    def summary_shown(self, correction: Correction) -> str:
        return correction_text(correction)

    def get_urls(self) -> list[URLPattern]:
        undo = path("<int:pk>/undo/", self.admin_site.admin_view(self.undo_view), name="ratings_correction_undo")
        return [undo, *super().get_urls()]

    def undo_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        correction = get_object_or_404(Correction, pk=pk)
        if not access.can_correct(request.user):
            raise PermissionDenied
        back = reverse("admin:ratings_correction_change", args=[pk])
        version = posted_version(request) or undo_version(correction)  # shown again: as first shown
        error = ""
        try:
            if request.method == "POST" and request.POST.get(CONFIRM) == "yes":
                try:  # the version first: who changed what since the page was shown says more than a refusal
                    correction_undo(
                        correction=correction,
                        user=request.user,
                        reason=request.POST.get(REASON, ""),
                        expected=posted_version(request),
                    )
                except ValidationError:
                    error = _("Say why the correction is undone.")
                else:
                    report_rerate(
                        request,
                        done=_("The correction is undone; what it changed was re-rated."),
                        queued=_("The correction is undone; what it changed will be re-rated."),
                    )
                    return HttpResponseRedirect(reverse("admin:ratings_correction_changelist"))
            preview = correction_preview(correction_undo_change(correction))
        except (UndoRefused, TableRefused, NothingToCorrect, ChangedMeanwhile) as exc:
            messages.error(request, str(exc))
            return HttpResponseRedirect(back)
        lines = [line for line in describe(correction.kind, correction.after, correction.before)]
        return preview_page(
            request, title=_("Undo: %(c)s") % {"c": correction}, lines=lines, preview=preview,
            carried=[(VERSION_FIELD, version)], error=error, reason="", cancel_url=back,
            submit_label=_("Undo the correction"),
        )  # fmt: skip

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: Any = None
    ) -> HttpResponse:
        extra = (
            {"undo_url": reverse("admin:ratings_correction_undo", args=[object_id])}
            if access.can_correct(request.user)
            else {}
        )
        return super().change_view(request, object_id, form_url, {**(extra_context or {}), **extra})
