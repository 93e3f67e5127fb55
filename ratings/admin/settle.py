"""The rating officer's queue of tables that did not settle, and the record of every resolution (§10).

Each table shows its players' ratings in every state of the cycle side by side, with the rule's rating; the
one thing to do is "Resolve by the rule" (``table_resolve``), for rating officers only. The rule, the states
and who decided stay in ``TableResolution`` and its history.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ratings import access
from ratings.models import Table, TableResolution, UnsettledTable
from ratings.selectors.settle import cycle_rows, live_resolution_ids
from ratings.services.tables.settle import CannotResolve, table_resolve

from .read_only import ReadOnlyAdmin
from .tables import table_name


@admin.register(UnsettledTable)
class UnsettledTableAdmin(ReadOnlyAdmin):
    list_display = (table_name, "date", "decision", "states")
    list_select_related = ("tournament",)
    ordering = ("date", "sequence")
    actions = ("resolve_by_rule",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Table]:
        return super().get_queryset(request).filter(cycle_states__isnull=False)

    def get_changelist_instance(self, request: HttpRequest) -> Any:
        """Load the page's player names and resolutions once, not once per row."""
        changelist = super().get_changelist_instance(request)
        page = list(changelist.result_list)
        self._rows = cycle_rows({t.pk: t.cycle_states for t in page})
        self._live = live_resolution_ids(t.pk for t in page)
        return changelist

    @admin.display(description=gettext_lazy("decision"))
    def decision(self, table: Table) -> str:
        live = getattr(self, "_live", {}).get(table.pk)
        if live is not None:
            return _("resolved by the rule %(rule)s by %(user)s on %(date)s") % {
                "rule": live.rule,
                "user": live.resolved_by or "?",
                "date": f"{live.resolved_at:%Y-%m-%d %H:%M}",
            }
        if not (table.cycle_states or {}).get("states"):
            return _("no repeating cycle found: players pass through unchanged; correct the table")
        return _("waiting for the rating officer: players pass through unchanged")

    @admin.display(description=gettext_lazy("ratings in the alternating states"))
    def states(self, table: Table) -> SafeString:
        cycle = table.cycle_states or {}
        rows = getattr(self, "_rows", {}).get(table.pk) or cycle_rows({table.pk: cycle})[table.pk]
        count = len(cycle.get("states") or [])
        return render_to_string(
            "admin/ratings/unsettledtable/states.html", {"rows": rows, "count": range(1, count + 1)}
        )

    def has_resolve_permission(self, request: HttpRequest) -> bool:
        return access.is_rating_officer(request.user)

    @admin.action(description=gettext_lazy("Resolve by the rule"), permissions=("resolve",))
    def resolve_by_rule(self, request: HttpRequest, queryset: QuerySet[Table]) -> None:
        for table in queryset:
            try:
                resolution = table_resolve(table_id=table.pk, user=request.user)
            except CannotResolve as exc:
                messages.error(request, str(exc))
                continue
            messages.success(
                request, _("%(table)s resolved by the rule %(rule)s.") % {"table": table, "rule": resolution.rule}
            )


@admin.register(TableResolution)
class TableResolutionAdmin(ReadOnlyAdmin):
    list_display = ("table", "rule", "resolved_by", "resolved_at", "cleared_at", "result")
    list_select_related = ("table__tournament", "resolved_by")
    list_filter = ("rule", ("cleared_at", admin.EmptyFieldListFilter))
