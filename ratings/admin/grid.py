"""A table's crosstable page: the whole table entered or corrected as directors write it, one row per player.

Each row is a player (chosen by autocomplete) and his rounds in FESA's cell notation in one text box; a
turnering.txt crosstable may be pasted instead. The page posts one form of about two fields per player, so
a 500-game table stays far below the 1,000 fields a request may carry (the change page's inlines take about
eleven per game). The rows are read and saved by ``ratings.services.tables.grid`` through ``table_save``:
the same rules, and every problem named by its row, round and players. "Save and preview" then shows the
existing rating preview. A rating officer's change to a submitted or rated table is a correction, as on the
table's change form (ratings/admin/corrections.py): the page shows what it would change and asks for the
reason before anything is saved.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.contrib.admin.widgets import AutocompleteSelect
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from ratings import access
from ratings.admin.corrections import correction_response, correction_wanted, form_version
from ratings.admin.forms.tables import GridPasteForm, GridRowFormSet
from ratings.admin.rerate_notice import report_rerate
from ratings.models import Table, TableEntry
from ratings.services.corrections.facts import TableChange
from ratings.services.corrections.fingerprints import loaded_version
from ratings.services.corrections.submit import correction_lines
from ratings.services.fingerprints import VERSION_FIELD
from ratings.services.tables.grid import GridRow, grid_edits, grid_rows, pasted_rows, table_grid_save
from ratings.services.tables.save import TableRefused

BLANK_ROWS = 5  # room for a late entry without asking for more rows
MAX_ROWS = 400  # far above any real table (the WOSC has 107 players)


class TableGridViews(admin.ModelAdmin):
    """The crosstable page of the tables' admin (its permissions and object lookup decide who)."""

    def get_urls(self) -> list[URLPattern]:
        info = self.opts.app_label, self.opts.model_name
        return [
            path(
                "<path:object_id>/crosstable/",
                self.admin_site.admin_view(self.grid_view),
                name="{}_{}_grid".format(*info),
            ),
            *super().get_urls(),
        ]

    @admin.display(description=gettext_lazy("crosstable"))
    def grid_link(self, table: Table) -> str:
        return format_html('<a href="{}">{}</a>', grid_url(table), _("crosstable"))

    def grid_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        table = self.get_object(request, unquote(object_id))
        if table is None:
            raise Http404(_("No such table."))
        if not self.has_view_or_change_permission(request, table):
            raise PermissionDenied
        can_change = self.has_change_permission(request, table)
        widget = AutocompleteSelect(TableEntry._meta.get_field("player"), self.admin_site)
        widget.attrs["data-width"] = "20em"
        kwargs: dict[str, Any] = {"form_kwargs": {"player_widget": widget}, "prefix": "row"}
        if request.method == "POST":
            if not can_change:
                raise PermissionDenied
            rows, paste = GridRowFormSet(request.POST, **kwargs), GridPasteForm(request.POST)
            answer = self._save(request, table, rows, paste)
            if isinstance(answer, HttpResponse):
                return answer
            problems = answer
        else:
            saved = grid_rows(table)
            wanted = _int(request.GET.get("rows"), default=0)
            blank = max(BLANK_ROWS, min(wanted, MAX_ROWS) - len(saved))
            initial = [{"player": r.player_id, "cells": r.cells} for r in saved] + [{}] * blank
            rows, paste, problems = GridRowFormSet(initial=initial, **kwargs), GridPasteForm(), []
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "app_label": self.opts.app_label,
            "original": table,
            "title": _("Crosstable"),
            "subtitle": str(table),
            "rows": rows,
            "paste": paste,
            "problems": problems,
            "version_field": VERSION_FIELD,
            "version": form_version(request, lambda: loaded_version(table=table)),
            "can_change": can_change,
            "is_correction": can_change and correction_wanted(request, table),
            "media": self.media + rows.media,
            "change_url": reverse("admin:ratings_table_change", args=[table.pk]),
            "preview_url": reverse("admin:ratings_table_preview", args=[table.pk]),
        }
        return TemplateResponse(request, "admin/ratings/table/grid.html", context)

    def _save(self, request: HttpRequest, table: Table, rows: Any, paste: GridPasteForm) -> HttpResponse | list[str]:
        """Save the posted crosstable, or show a correction's preview: the page to go to, else the problems to show
        (the rows stay as typed). A rating officer's change to a submitted or rated table is a correction, made
        as on the table's change form (``correction_response``): nothing is saved before its reason."""
        if not (rows.is_valid() and paste.is_valid()):
            return [_("Please correct the errors below.")]
        try:
            text = paste.cleaned_data["paste"]
            if text.strip():
                grid = pasted_rows(text, table=table)
            else:
                grid = [GridRow(_pk(f.cleaned_data.get("player")), f.cleaned_data.get("cells") or "") for f in rows]
            change = _grid_change(table, grid) if correction_wanted(request, table) else None
            if change is not None and correction_lines([change]):
                title = _("Correct %(table)s") % {"table": table}
                return correction_response(request, [change], title=title, made=lambda: _saved_response(request, table))
            saved = table_grid_save(table=table, rows=grid, strict_dates=not access.is_rating_officer(request.user))
        except TableRefused as exc:
            return exc.problems
        messages.success(
            request,
            _("The crosstable of %(table)s was saved: %(players)s, %(games)s.")
            % {
                "table": table,
                "players": players_text(table.entries.count()),
                "games": games_text(table.games.exclude(second=None).count()),
            },
        )
        if saved.rerate_requested:
            report_rerate(
                request,
                done=_("The table and every table after it were re-rated."),
                queued=_("The table will be re-rated, and every table after it."),
            )
        return _saved_response(request, table)


def _saved_response(request: HttpRequest, table: Table) -> HttpResponse:
    """Once saved: the rating preview if asked for, else the crosstable again."""
    target = "preview" if "_preview" in request.POST else "grid"
    return HttpResponseRedirect(reverse(f"admin:ratings_table_{target}", args=[table.pk]))


def _grid_change(table: Table, grid: list[GridRow]) -> TableChange:
    entries, games = grid_edits(table=table, rows=grid)
    return TableChange.in_place(table, entries, games)


def grid_url(table: Table) -> str:
    return reverse("admin:ratings_table_grid", args=[table.pk])


def _pk(player: Any) -> int | None:
    return player.pk if player is not None else None


def _int(text: str | None, *, default: int) -> int:
    try:
        return int(text or default)
    except ValueError:
        return default


def players_text(count: int) -> str:
    return ngettext("%(count)s player", "%(count)s players", count) % {"count": count}


def games_text(count: int) -> str:
    return ngettext("%(count)s game", "%(count)s games", count) % {"count": count}
