"""A table's "Preview rating" page, its "Submit for rating" confirmation and the list's submit action.

The base class of ratings.admin.tables.TableAdmin. The preview reads only (``table_preview``); submitting calls
``table_submit`` and says whether the table is rated already (the re-rate ran in-process on commit, as
without REDIS_URL) or will be shortly (a worker will do it). A table that cannot be rated shows its
problems instead, each naming its round and players.
"""

from __future__ import annotations

from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from ratings import access
from ratings.admin.preview import preview_lines
from ratings.models import Table, TableStatus
from ratings.services.tables.submit import TableInvalid, table_preview, table_submit


class TableRatingViews(admin.ModelAdmin):
    """Preview and submission views of the tables' admin (its permissions and object lookup decide who)."""

    def has_submit_permission(self, request: HttpRequest) -> bool:
        return self.has_change_permission(request)

    def get_urls(self) -> list[URLPattern]:
        info = self.opts.app_label, self.opts.model_name
        return [
            path(
                "<path:object_id>/preview/",
                self.admin_site.admin_view(self.preview_view),
                name="{}_{}_preview".format(*info),
            ),
            path(
                "<path:object_id>/submit/",
                self.admin_site.admin_view(self.submit_view),
                name="{}_{}_submit".format(*info),
            ),
            *super().get_urls(),
        ]

    def _visible_table(self, request: HttpRequest, object_id: str) -> Table:
        table = self.get_object(request, unquote(object_id))
        if table is None:
            raise Http404(_("No such table."))
        if not self.has_view_or_change_permission(request, table):
            raise PermissionDenied
        return table

    def preview_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """What rating the table would do now; reads only, whatever the table's status."""
        table = self._visible_table(request, object_id)
        return self._render_preview(request, table, confirm=False)

    def submit_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """GET: the preview with a confirmation button; POST: submit (table_submit) and say what happened."""
        table = self._visible_table(request, object_id)
        if not (self.has_change_permission(request, table) and access.can_submit_table(request.user, table)):
            raise PermissionDenied
        if request.method != "POST":
            return self._render_preview(request, table, confirm=True)
        try:
            table_submit(table=table, user=request.user)
        except TableInvalid as exc:
            for problem in exc.problems:
                messages.error(request, problem)
            return HttpResponseRedirect(self._url("preview", table))
        self._report_submitted(request, [table])
        return HttpResponseRedirect(self._url("change", table))

    @admin.action(description=gettext_lazy("Submit the selected tables for rating"), permissions=("submit",))
    def submit_for_rating(self, request: HttpRequest, queryset: QuerySet[Table]) -> None:
        submitted: list[Table] = []
        for table in queryset.select_related("tournament").order_by("date", "sequence"):
            if not access.can_submit_table(request.user, table):
                messages.warning(
                    request, _("%(table)s is not a draft you may submit; left as it is.") % {"table": table}
                )
                continue
            try:
                table_submit(table=table, user=request.user)
            except TableInvalid as exc:
                messages.error(
                    request,
                    _("%(table)s was not submitted: %(problems)s")
                    % {"table": table, "problems": " ".join(exc.problems)},
                )
                continue
            submitted.append(table)
        self._report_submitted(request, submitted)

    def _report_submitted(self, request: HttpRequest, tables: list[Table]) -> None:
        if not tables:
            return
        rated = [t for t in tables if t.status == TableStatus.RATED]
        waiting = [t for t in tables if t.status != TableStatus.RATED]
        if rated:
            messages.success(
                request,
                ngettext(
                    "%(tables)s was submitted and is rated already.",
                    "%(tables)s were submitted and are rated already.",
                    len(rated),
                )
                % {"tables": ", ".join(map(str, rated))},
            )
        if waiting:
            messages.success(
                request,
                ngettext(
                    "%(tables)s was submitted; it will be rated shortly.",
                    "%(tables)s were submitted; they will be rated shortly.",
                    len(waiting),
                )
                % {"tables": ", ".join(map(str, waiting))},
            )

    def _url(self, view: str, table: Table) -> str:
        return reverse(f"admin:{self.opts.app_label}_{self.opts.model_name}_{view}", args=[table.pk])

    def _render_preview(self, request: HttpRequest, table: Table, *, confirm: bool) -> TemplateResponse:
        try:
            preview, problems = preview_lines(table, table_preview(table)), []
        except TableInvalid as exc:
            preview, problems = None, exc.problems
        can_submit = self.has_change_permission(request, table) and access.can_submit_table(request.user, table)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "app_label": self.opts.app_label,
            "original": table,
            "table": table,
            "title": _("Submit for rating") if confirm else _("Preview rating"),
            "subtitle": str(table),
            "preview": preview,
            "problems": problems,
            "confirm": confirm,
            "can_submit": can_submit and not problems,
            "submit_url": self._url("submit", table),
            "change_url": self._url("change", table),
        }
        return TemplateResponse(request, "admin/ratings/table/preview.html", context)
