"""What-ifs for the rating commission, on the rating officers' desk: the form that asks one (FESA's rules with
other constants), the list of those asked, and each one's page, its figures beside FESA's stored ones and the
players it would move. The service (ratings/services/whatif.py) does the work in a task; nothing here, nor
there, writes the federation's ratings."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ratings import access
from ratings.engine.rules import RuleConstants
from ratings.engine.systems.compare import ALL, FESA
from ratings.models import WhatIfReport
from ratings.selectors.versions import data_version
from ratings.selectors.whatif import whatif_calibration, whatif_players, whatif_rows, whatif_years
from ratings.services.whatif import whatif_request

from .forms.whatif import WhatIfForm
from .read_only import RatingOfficersOnly


def changes_text(rules: dict[str, Any]) -> str:
    """What a what-if changes of FESA's constants, in a line: "k: [16, ...] → [32, ...]"."""
    differences = RuleConstants.from_json(rules).differences()
    if not differences:
        return _("FESA's own constants")
    return "; ".join(f"{name}: {fesa} → {mine}" for name, (fesa, mine) in differences.items())


def calibration_charts(result: dict[str, Any]) -> list[dict[str, Any]]:
    """The stored ratings' calibration and the what-if's, each named and titled as on the public comparison, for
    the template's ``calibration_chart`` tag (ratings/templatetags/ratings_charts.py)."""
    names = {"actual": _("FESA, the stored ratings"), "whatif": _("FESA with these constants")}
    return [
        {
            "name": name,
            "bins": result[side]["figures"][FESA][ALL]["even"]["calibration"],
            "title": _("Calibration of %(system)s, even games") % {"system": name},
            "id": f"calibration-{side}",
        }
        for side, name in names.items()
    ]


@admin.register(WhatIfReport)
class WhatIfReportAdmin(RatingOfficersOnly):
    list_display = ("requested_at", "changes", "status", "progress", "version", "requested_by")
    list_filter = ("status",)
    list_select_related = ("requested_by",)
    ordering = ("-requested_at", "-id")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return access.is_rating_officer(request.user)

    @admin.display(description=gettext_lazy("changes"))
    def changes(self, report: WhatIfReport) -> str:
        return changes_text(report.rules)

    @admin.display(description=gettext_lazy("progress"))
    def progress(self, report: WhatIfReport) -> str:
        return f"{report.percent_done} %"

    def add_view(self, request: HttpRequest, form_url: str = "", extra_context: dict[str, Any] | None = None) -> Any:
        """The form; a valid one queues the what-if (or finds it asked already on this data) and opens its page."""
        if not self.has_add_permission(request):
            raise PermissionDenied
        form = WhatIfForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            report = whatif_request(rules=form.rules, user=request.user)
            messages.info(request, _("The what-if is computed in the background; this page shows how far it has come."))
            return HttpResponseRedirect(reverse("admin:ratings_whatifreport_change", args=[report.pk]))
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": _("A what-if of FESA's rules"),
            "form": form,
        }
        return TemplateResponse(request, "admin/ratings/whatifreport/add.html", context)

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        """The what-if's page: its state while it runs, then its figures beside FESA's and the players it moves."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        report = get_object_or_404(WhatIfReport, pk=object_id) if object_id.isdigit() else None
        if report is None:
            raise PermissionDenied
        context: dict[str, Any] = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": _("What-if: %(changes)s") % {"changes": changes_text(report.rules)},
            "report": report,
            "stale": report.version != data_version().key,
        }
        result = report.result
        if report.status == WhatIfReport.Status.DONE and result:
            moved, graded = whatif_players(report)
            context.update(
                result=result,
                even=whatif_rows(result, "even"),
                handicap=whatif_rows(result, "handicap"),
                years=whatif_years(result),
                calibration=whatif_calibration(result),
                charts=calibration_charts(result),
                moved=moved,
                graded=graded,
            )
        return TemplateResponse(request, "admin/ratings/whatifreport/report.html", context)
