"""Corrections in the admin: the preview page a correction passes through, the staff list, and undo.

Saving the change form of a submitted or rated table as a rating officer does not save at once: before Django's
save, ``TableCorrectionViews`` validates the form and its formsets as the admin does and hands the change to
``correction_response``, which asks ``correction_submit`` (ratings/services/corrections/submit.py) for it. Until
the officer confirms with a reason, that answers with the preview (computed in memory), shown with the form's
data carried along; posting that page with the reason makes the correction, and the page goes where a save
goes. The crosstable page and a player's change form take the same path. Undoing a correction is previewed
the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.contrib import admin, messages
from django.contrib.admin.utils import flatten_fieldsets, unquote
from django.core.exceptions import PermissionDenied, ValidationError
from django.forms.formsets import all_valid
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from ratings import access
from ratings.admin.rerate_notice import report_rerate
from ratings.models import Correction, Table
from ratings.services.corrections.apply import (
    NothingToCorrect,
    UndoRefused,
    correction_preview,
    correction_undo,
    correction_undo_change,
)
from ratings.services.corrections.facts import Change, TableChange
from ratings.services.corrections.fingerprints import undo_version
from ratings.services.corrections.preview import CorrectionPreview
from ratings.services.corrections.submit import CorrectionsMade, PreviewWanted, correction_submit
from ratings.services.corrections.words import correction_text, facts_lines
from ratings.services.fingerprints import VERSION_FIELD, ChangedMeanwhile
from ratings.services.tables.save import TableRefused

from .read_only import ReadOnlyAdmin

REASON, CONFIRM = "_correction_reason", "_correction_confirm"
CARRIED_NOT = {"csrfmiddlewaretoken", REASON, CONFIRM}  # the version is carried: the confirmation checks it


def correction_wanted(request: HttpRequest, table: Table) -> bool:
    """A change to a table that is no longer a draft, by a rating officer: a correction."""
    return table.pk is not None and table.status != "draft" and access.can_correct(request.user)


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


def correction_response(
    request: HttpRequest, changes: Sequence[Change], *, title: str, made: Callable[[], HttpResponse]
) -> HttpResponse:
    """The posted ``changes`` through ``correction_submit``: its preview page, the posted form's data carried
    along to post back to this URL, until the officer confirms with a reason; then the corrections are made,
    told, and ``made()`` answers (the page to go to). A page that was stale is shown again as it is now."""
    try:
        outcome = correction_submit(
            user=request.user,
            changes=changes,
            expected=posted_version(request),
            confirmed=request.POST.get(CONFIRM) == "yes",
            reason=request.POST.get(REASON, ""),
        )
    except ChangedMeanwhile as exc:
        return changed_meanwhile(request, exc, request.path)
    if isinstance(outcome, PreviewWanted):
        carried = [(k, v) for k in request.POST for v in request.POST.getlist(k) if k not in CARRIED_NOT]
        return preview_page(
            request,
            title=title,
            lines=outcome.lines,
            preview=outcome.preview,
            rates_nothing=outcome.rates_nothing,
            carried=carried,
            error=outcome.error,
            reason=request.POST.get(REASON, ""),
            cancel_url=request.path,
        )
    _tell_made(request, outcome, changes)
    return made()


def _tell_made(request: HttpRequest, outcome: CorrectionsMade, changes: Sequence[Change]) -> None:
    if not outcome.corrections:
        messages.info(request, _("Nothing changed."))
    elif isinstance(changes[0], TableChange):
        report_rerate(
            request,
            done=_("The correction is recorded; the table and those after it were re-rated."),
            queued=_("The correction is recorded; the table and those after it will be re-rated."),
        )
    elif outcome.rerates:
        messages.info(request, _("The correction is recorded; the player's tables will be re-rated."))
    else:
        messages.info(request, _("The correction is recorded."))


def validated_change_form(model_admin: Any, request: HttpRequest, obj: Any) -> tuple[Any, list[Any]] | None:
    """The posted change form of ``obj`` and its inlines' formsets, built and validated as Django's change view
    does (``obj`` takes the form's values, unsaved); None if any is invalid, for that view to show the errors."""
    fieldsets = model_admin.get_fieldsets(request, obj)
    form = model_admin.get_form(request, obj, change=True, fields=flatten_fieldsets(fieldsets))(
        request.POST, request.FILES, instance=obj
    )
    formsets, _inlines = model_admin._create_formsets(request, form.instance, change=True)
    form_valid = form.is_valid()
    if form_valid:
        model_admin.save_form(request, form, change=True)
    if not (all_valid(formsets) and form_valid):
        return None
    return form, formsets


def made_response(model_admin: Any, request: HttpRequest, obj: Any, form: Any, formsets: list[Any]) -> HttpResponse:
    """After a change form's correction: the admin's log says "changed" (the correction records what changed)
    and the page goes where a save of the form goes."""
    for formset in formsets:
        formset.new_objects, formset.changed_objects, formset.deleted_objects = [], [], []
    model_admin.log_change(request, obj, model_admin.construct_change_message(request, form, formsets, False))
    return model_admin.response_change(request, obj)


class CorrectionViews(admin.ModelAdmin):
    """A rating officer's change to something the ratings rest on is a correction: before Django's save, the
    posted change form is validated and, if it changes a fact, goes through ``correction_response``. The model's
    admin says when a change is a correction, what it changes and how its preview is titled."""

    def correction_wanted_for(self, request: HttpRequest, obj: Any) -> bool:
        raise NotImplementedError

    def correction_changes(self, request: HttpRequest, obj: Any, form: Any, formsets: list[Any]) -> list[Change]:
        """The changes of facts the validated form and formsets ask for (none: a plain save)."""
        raise NotImplementedError

    def correction_title(self, obj: Any) -> str:
        raise NotImplementedError

    def correction_answer(self, request: HttpRequest, object_id: str) -> HttpResponse | None:
        """The correction's page or redirect; None when the post is no correction (Django saves it as usual, or
        shows the form's errors)."""
        obj = self.get_object(request, unquote(object_id))
        if obj is None or not self.has_change_permission(request, obj) or not self.correction_wanted_for(request, obj):
            return None
        validated = validated_change_form(self, request, obj)
        if validated is None:
            return None
        form, formsets = validated
        changes = self.correction_changes(request, obj, form, formsets)
        if not changes:
            return None
        return correction_response(
            request,
            changes,
            title=self.correction_title(obj),
            made=lambda: made_response(self, request, obj, form, formsets),
        )


class TableCorrectionViews(CorrectionViews):
    """A submitted or rated table's change form, as a rating officer posts it, is a correction (the table's admin
    reads the change from its inlines: ``correction_changes``)."""

    def correction_wanted_for(self, request: HttpRequest, obj: Any) -> bool:
        return correction_wanted(request, obj)

    def correction_title(self, obj: Any) -> str:
        return _("Correct %(table)s") % {"table": obj}

    def changeform_view(
        self, request: HttpRequest, object_id: str | None = None, form_url: str = "", extra_context: Any = None
    ) -> HttpResponse:
        if request.method == "POST" and object_id is not None and "_saveasnew" not in request.POST:
            answer = self.correction_answer(request, object_id)
            if answer is not None:
                return answer
        return super().changeform_view(request, object_id, form_url, extra_context)


@admin.register(Correction)
class CorrectionAdmin(ReadOnlyAdmin):
    """Every correction, for staff: who, when, why and what; read only, with undo."""

    list_display = ("made_on", "kind", "summary_shown", "reason", "table", "player", "made_by", "undoes")
    # Those who made a correction, not every account of the site (each director among them).
    list_filter = ("kind", ("made_by", admin.RelatedOnlyFieldListFilter), ("made_at", admin.DateFieldListFilter))
    list_select_related = ("table__tournament", "player", "made_by", "undoes")
    search_fields = ("reason", "summary", "table__tournament__name", "player__family_name", "player__given_name")
    date_hierarchy = "made_at"
    readonly_fields = ("kind", "table", "player", "reason", "made_by", "made_at", "summary_shown", "undoes")
    # Each once, in this order (the model's own fields would add "Made by" at the top again); the change is shown
    # in the reader's words (summary_shown), not as its stored facts.
    fields = readonly_fields

    class Media:
        css = {"all": ("css/admin.css",)}  # the change and the reason readable in the list (not a word a line)

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest) -> bool:
        # The table's and the player's pages link here filtered to them.
        return lookup in {"table__id__exact", "player__id__exact"} or super().lookup_allowed(lookup, value, request)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return access.is_staff(request.user)  # every staff member answers for the past

    def has_module_permission(self, request: HttpRequest) -> bool:
        return self.has_view_permission(request)

    @admin.display(description=Correction._meta.get_field("made_at").verbose_name, ordering="made_at")
    def made_on(self, correction: Correction) -> str:
        """ISO, as the reports' queue: "lunedì 30 novembre 2026 10:41" took a third of the list's width."""
        return f"{timezone.localtime(correction.made_at):%Y-%m-%d %H:%M}"

    @admin.display(description=pgettext_lazy("what a correction changed", "change"))
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
        # The undo's own facts, as the correction it makes will tell them (a merge's in its words, with the ids).
        lines = facts_lines(correction.kind, correction.after, correction.before)
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
