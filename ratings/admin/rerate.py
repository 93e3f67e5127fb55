"""Re-rating, as the rating officers watch it: what is pending, and a log line per run. Read-only.

The one thing an officer can do here is run the pending re-rate at once (``rerate_pending``), for when the
task queue is down or slow; the service takes the same lock as the task, so the two never overlap.
"""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from ratings import access
from ratings.models import PendingRerate, RerateRun
from ratings.services.rerate import RerateBusy, rerate_pending

from .read_only import ReadOnlyAdmin


@admin.register(PendingRerate)
class PendingRerateAdmin(ReadOnlyAdmin):
    list_display = ("__str__", "from_date", "from_sequence", "requested_at", "generation")
    actions = ("run_now",)

    def has_rerate_permission(self, request: HttpRequest) -> bool:
        return access.is_rating_officer(request.user)

    @admin.action(description=gettext_lazy("Re-rate now"), permissions=("rerate",))
    def run_now(self, request: HttpRequest, queryset: QuerySet[PendingRerate]) -> None:
        try:
            outcome = rerate_pending(lock_timeout=5)
        except RerateBusy:
            messages.warning(request, _("A re-rate is running already; what is pending will be done after it."))
            return
        if outcome is None:
            messages.info(request, _("Nothing was pending."))
            return
        messages.success(
            request,
            ngettext(
                "Re-rated: %(rated)s table rated, %(unchanged)s unchanged.",
                "Re-rated: %(rated)s tables rated, %(unchanged)s unchanged.",
                outcome.tables_rated,
            )
            % {"rated": outcome.tables_rated, "unchanged": outcome.tables_unchanged},
        )
        for table_id, error in outcome.errors.items():
            messages.error(request, _("Table %(id)s could not be rated: %(error)s") % {"id": table_id, "error": error})


@admin.register(RerateRun)
class RerateRunAdmin(ReadOnlyAdmin):
    list_display = (
        "started_at",
        "finished_at",
        "from_date",
        "from_sequence",
        "tables_rated",
        "tables_unchanged",
        "outcome",
    )
    list_filter = ("outcome", ("started_at", admin.DateFieldListFilter))
    date_hierarchy = "started_at"
    ordering = ("-started_at",)
