"""The rating officers' queue of mistakes reported by the public (ratings/services/reports.py): the confirmed
reports, the newest first, each with what it names; an officer sets its status, links the correction that
settled it or says why it is rejected, and the service tells the reporter. A settled report opens read-only: the
reporter was told."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import get_language_info, gettext_lazy
from django.utils.translation import gettext as _

from ratings.models import REPORT_SETTLED, Correction, MistakeReport, ReportStatus
from ratings.services.corrections.words import correction_text
from ratings.services.fingerprints import VERSION_FIELD, ChangedMeanwhile
from ratings.services.reports import report_decide, report_decision_check, report_version, settling_corrections


class DecisionRefused(Exception):
    """The service refused the decision: raised out of ``save_model`` so that Django's change view neither says
    it was changed successfully nor logs a change, and its transaction keeps nothing."""


class CorrectionChoice(forms.ModelChoiceField):
    """A correction named by its date and what it changed: not an id to look up."""

    def label_from_instance(self, obj: Correction) -> str:
        return f"{timezone.localtime(obj.made_at):%Y-%m-%d %H:%M} · {correction_text(obj)}"


class ReportForm(forms.ModelForm):
    _version = forms.CharField(widget=forms.HiddenInput, required=False)  # VERSION_FIELD, as every decision page

    class Meta:
        model = MistakeReport
        fields = ["status", "reason", "correction"]
        field_classes = {"correction": CorrectionChoice}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The version of the report as this page shows it: a decision made meanwhile is never overwritten.
        self.fields[VERSION_FIELD].initial = report_version(self.instance) if self.instance.pk else ""
        if "reason" in self.fields and self.instance.language:
            # The reason goes into the reporter's mail as typed: say in which language he reads it (named in the
            # officer's language: "German", not "Deutsch").
            self.fields["reason"].help_text = _(
                "Why it is rejected: the reporter is told it in a mail in %(language)s; write it in that language "
                "if you can."
            ) % {"language": get_language_info(self.instance.language)["name_translated"]}
        if "correction" in self.fields:  # only the corrections that may settle it
            field = self.fields["correction"]
            assert isinstance(field, CorrectionChoice)
            field.queryset = settling_corrections(self.instance)

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if "status" in data:  # the service's rules, on the report as it was loaded (the instance is not set yet)
            try:
                report_decision_check(
                    self.instance,
                    status=data["status"],
                    reason=data.get("reason") or "",
                    correction=data.get("correction"),
                )
            except ValidationError as error:
                self.add_error(None, error)
        return data


@admin.register(MistakeReport)
class MistakeReportAdmin(admin.ModelAdmin):
    form = ReportForm
    # The queue's columns kept short, so that the status and the words stay in view beside the filter.
    list_display = ("sent_at", "about", "status", "what_short", "correction_link")
    list_filter = ("status",)
    list_select_related = ("player", "table__tournament", "correction")
    search_fields = ("what", "player__family_name", "player__federation_id")
    readonly_fields = ("about", "game", "what", "language", "created_at", "confirmed_at", "decided_at", "decided_by")
    fields = (*readonly_fields[:4], "status", "reason", "correction", VERSION_FIELD, *readonly_fields[4:])

    def get_queryset(self, request: HttpRequest) -> QuerySet[MistakeReport]:
        """Only the confirmed ones: an unconfirmed report may be anyone's typing."""
        return super().get_queryset(request).filter(confirmed_at__isnull=False)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """A settled report is final (the reporter was told): it opens read-only. Judged on the report as stored:
        a form refused for a missing reason has set the instance's status to the settled one the officer chose,
        and must stay a form that says why."""
        if obj is not None and MistakeReport.objects.filter(pk=obj.pk, status__in=REPORT_SETTLED).exists():
            return False
        return super().has_change_permission(request, obj)

    @admin.display(description=gettext_lazy("about"))
    def about(self, report: MistakeReport) -> str:
        links = []
        if report.player is not None:
            links.append(
                format_html(
                    '<a href="{}">{}</a>', reverse("ratings:player", args=[report.player.federation_id]), report.player
                )
            )
        if report.table is not None:
            links.append(
                format_html('<a href="{}">{}</a>', reverse("ratings:table", args=[report.table_id]), report.table)
            )
        return format_html(", ".join(["{}"] * len(links)), *links)

    @admin.display(description=MistakeReport._meta.get_field("created_at").verbose_name, ordering="created_at")
    def sent_at(self, report: MistakeReport) -> str:
        return f"{timezone.localtime(report.created_at):%Y-%m-%d %H:%M}"

    @admin.display(description=MistakeReport._meta.get_field("correction").verbose_name)
    def correction_link(self, report: MistakeReport) -> str:
        """The correction that settled it, by its date, leading to it."""
        if report.correction is None:
            return "–"
        url = reverse("admin:ratings_correction_change", args=[report.correction_id])
        return format_html('<a href="{}">{}</a>', url, f"{timezone.localtime(report.correction.made_at):%Y-%m-%d}")

    @admin.display(description=gettext_lazy("what is wrong"))
    def what_short(self, report: MistakeReport) -> str:
        return report.what if len(report.what) <= 80 else report.what[:79] + "…"

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: Any = None
    ) -> HttpResponse:
        """A refused decision shows only its refusal, over the report as it is now."""
        try:
            return super().change_view(request, object_id, form_url, extra_context)
        except DecisionRefused as refused:
            messages.error(request, str(refused))
            return HttpResponseRedirect(request.path)

    def save_model(self, request: HttpRequest, obj: MistakeReport, form: Any, change: bool) -> None:
        data = form.cleaned_data
        try:
            report_decide(
                report=obj,
                status=data["status"],
                reason=data.get("reason") or "",
                correction=data.get("correction"),
                user=request.user,
                expected=request.POST.get(VERSION_FIELD, ""),
            )
        except ValidationError as error:
            raise DecisionRefused("; ".join(error.messages)) from error
        except ChangedMeanwhile as error:
            raise DecisionRefused(str(error)) from error
        if data["status"] in (ReportStatus.CORRECTED, ReportStatus.REJECTED) and "status" in form.changed_data:
            messages.info(request, _("The reporter is told the outcome by e-mail."))
