"""Tables in the admin: entries and games entered inline, a preview of the rating, submission for rating.

A table's entries and games are checked together with the table (ratings/admin/forms/ asks ``table_check``) and
saved by ``table_save`` in the one transaction of the admin's change form, which asks for a re-rate in that
same transaction when a submitted or rated table changed; deleting one goes through ``table_delete``. Who may
see, change, submit or delete what is decided in ratings/access.py; the services decide everything else.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, TypedDict

from django import forms
from django.contrib import admin
from django.contrib.admin.widgets import RelatedFieldWidgetWrapper
from django.core.exceptions import PermissionDenied
from django.db.models import Count, QuerySet
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ratings import access
from ratings.admin.corrections import TableCorrectionViews, form_version
from ratings.admin.filters import VisibleCountryFilter
from ratings.admin.forms.tables import (
    GameForm,
    GameFormSet,
    TableEdit,
    TableEntryForm,
    TableEntryFormSet,
    TableForm,
    TableRowsFormSet,
)
from ratings.admin.grid import TableGridViews, grid_url
from ratings.admin.read_only import ReadOnlyInline
from ratings.admin.rerate_notice import report_rerate
from ratings.admin.rows import RowPermissionsMixin
from ratings.admin.submission import TableRatingViews
from ratings.admin.table_replace import TableReplaceViews
from ratings.admin.upload import TableUploadViews
from ratings.admin.user_names import UserNamesAsText
from ratings.models import Game, Promotion, RatingRow, Table, TableEntry, TableStatus, Tournament
from ratings.services.corrections.facts import Change, TableChange
from ratings.services.corrections.fingerprints import loaded_version
from ratings.services.corrections.submit import correction_lines
from ratings.services.fingerprints import VERSION_FIELD
from ratings.services.tables.save import EntryFacts, GameEdit, RowChanges, table_save
from ratings.services.tables.submit import GameFacts, table_delete

if TYPE_CHECKING:
    from django_stubs_ext import FieldOpts, FieldsetSpec, StrOrPromise, WithAnnotations

# Django refuses a request of more than DATA_UPLOAD_MAX_NUMBER_FIELDS (1,000) fields, and the change form carries
# about eleven per game row and five per player row, blank rows included: from about 75 games on, a save would
# be refused and the edit lost. Past this budget the change page shows the table's fields only, and the players
# and games are entered on the crosstable page, which takes two fields per player (about 220 for the WOSC's 107
# players). Raising the limit instead would mean pages of 5,000 fields and 1,000 autocompletes for a 500-game
# table: slow to load, to post and to read, for no gain over the crosstable.
INLINE_FIELD_BUDGET = 900

STATUS_FIELDS = ("status", "submitted_at", "submitted_by", "first_rated_at", "last_rerated_at", "rating_error")


class PlayerTotal(TypedDict):
    player_total: int  # the list's annotation (TableAdmin.get_queryset)


def _table_edit(user: Any) -> TableEdit:
    """How ``user``'s edit of a table is checked and saved: the directors' date rule, the officers' sequence."""
    officer = access.is_rating_officer(user)
    return TableEdit(strict_dates=not officer, sequence_from_form=officer)


def _plain_related_widget(widget: RelatedFieldWidgetWrapper, *, keep_add: bool) -> None:
    """No edit, delete or view icons beside a related field (and no "+" unless ``keep_add``)."""
    widget.can_change_related = widget.can_delete_related = widget.can_view_related = False
    widget.can_add_related = widget.can_add_related and keep_add


class TableChildInline(admin.TabularInline):
    """Rows of a table: editable exactly when the table is (permissions.can_change_table)."""

    def _table_allows(self, request: HttpRequest, obj: Table | None) -> bool:
        return obj is None or access.can_change_table(request.user, obj)

    def has_add_permission(self, request: HttpRequest, obj: Table | None = None) -> bool:
        return super().has_add_permission(request, obj) and self._table_allows(request, obj)

    def has_change_permission(self, request: HttpRequest, obj: Table | None = None) -> bool:
        return super().has_change_permission(request, obj) and self._table_allows(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Table | None = None) -> bool:
        return super().has_delete_permission(request, obj) and self._table_allows(request, obj)


class TableEntryInline(TableChildInline):
    model = TableEntry
    form = TableEntryForm
    formset = TableEntryFormSet
    fields = ("seat", "player")
    autocomplete_fields = ("player",)
    ordering = ("seat",)
    verbose_name = gettext_lazy("player")
    verbose_name_plural = gettext_lazy("players (number = line in the crosstable)")

    def get_extra(self, request: HttpRequest, obj: Table | None = None, **kwargs: Any) -> int:
        return 8 if obj is None else 2

    def get_queryset(self, request: HttpRequest) -> QuerySet[TableEntry]:
        return super().get_queryset(request).select_related("player")

    def formfield_for_dbfield(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> forms.Field | None:
        formfield = super().formfield_for_dbfield(db_field, request, **kwargs)
        if (
            formfield is not None
            and db_field.name == "player"
            and isinstance(formfield.widget, RelatedFieldWidgetWrapper)
        ):
            # Keep "+": the quick way to add a new player, with his nationality and prior grade.
            _plain_related_widget(formfield.widget, keep_add=True)
            formfield.widget.widget.attrs["data-width"] = "20em"  # select2 sizes itself from it
        return formfield


class GameInline(TableChildInline):
    model = Game
    form = GameForm
    formset = GameFormSet
    fields = ("round", "first", "second", "result", "handicap", "handicap_giver", "played", "replay_draw")
    autocomplete_fields = ("first", "second")
    ordering = ("round", "id")
    verbose_name = gettext_lazy("game")
    verbose_name_plural = gettext_lazy(
        "games (leave the opponent empty for a bye, an absence or a no-show; a handicap needs who gave it)"
    )

    def get_extra(self, request: HttpRequest, obj: Table | None = None, **kwargs: Any) -> int:
        return 12 if obj is None else 4

    def get_queryset(self, request: HttpRequest) -> QuerySet[Game]:
        return super().get_queryset(request).select_related("first", "second")

    def formfield_for_dbfield(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> forms.Field | None:
        formfield = super().formfield_for_dbfield(db_field, request, **kwargs)
        if (
            formfield is not None
            and db_field.name in ("first", "second")
            and isinstance(formfield.widget, RelatedFieldWidgetWrapper)
        ):
            # New players are added once, in the players' list above; here the icons only crowd the row.
            _plain_related_widget(formfield.widget, keep_add=False)
            formfield.widget.widget.attrs["data-width"] = "13em"
        return formfield


class RatingRowInline(ReadOnlyInline):
    """What the last rating of the table gave each player; computed, never edited."""

    model = RatingRow
    fields = ("player", "method", "rating_before", "rating_after", "change", "rated_games", "score", "grade_after")
    readonly_fields = fields
    ordering = ("-rating_after",)
    verbose_name_plural = gettext_lazy("ratings (as last rated)")

    def get_queryset(self, request: HttpRequest) -> QuerySet[RatingRow]:
        return super().get_queryset(request).select_related("player")


@admin.display(description=gettext_lazy("table"), ordering="tournament__name")
def table_name(table: Table) -> str:
    """A table's name in a list beside its Date column: "tournament, name", without the date its str() ends in
    (select the tournament with the tables)."""
    return table.label


@admin.register(Table)
class TableAdmin(
    UserNamesAsText,
    TableUploadViews,
    TableReplaceViews,
    TableCorrectionViews,
    RowPermissionsMixin,
    TableGridViews,
    TableRatingViews,
):
    form = TableForm
    inlines = (TableEntryInline, GameInline, RatingRowInline)
    list_display = (
        table_name,
        "date",
        "sequence",
        "status_shown",
        "player_count",
        "first_rated_at",
        "last_rerated_at",
        "grid_link",
    )
    list_filter = ("status", ("date", admin.DateFieldListFilter), ("tournament__country", VisibleCountryFilter))
    list_select_related = ("tournament",)
    search_fields = ("tournament__name", "name", "tournament__city")
    date_hierarchy = "date"
    ordering = ("-date", "-sequence")
    autocomplete_fields = ("tournament",)
    readonly_fields = STATUS_FIELDS
    actions = ("submit_for_rating",)

    def get_fieldsets(self, request: HttpRequest, obj: Table | None = None) -> FieldsetSpec:
        fieldsets: list[tuple[StrOrPromise | None, FieldOpts]] = [
            (None, {"fields": ("tournament", "name", "date", "sequence")})
        ]
        if obj is not None and obj.status != TableStatus.DRAFT:
            fieldsets.append((gettext_lazy("Rating"), {"fields": tuple(self.user_names_shown(request, STATUS_FIELDS))}))
        return fieldsets

    # Who sees and changes what

    def get_queryset(self, request: HttpRequest) -> QuerySet[Table]:
        qs = super().get_queryset(request).annotate(player_total=Count("entries", distinct=True))
        return access.tables_visible(request.user, qs)

    row_can_view = staticmethod(access.can_view_table)
    row_can_change = staticmethod(access.can_change_table)
    row_can_delete = staticmethod(access.can_delete_table)

    def get_readonly_fields(self, request: HttpRequest, obj: Table | None = None) -> tuple[str, ...]:
        status = tuple(self.user_names_shown(request, STATUS_FIELDS))
        if access.is_rating_officer(request.user):
            return status
        return (*status, "sequence")  # tables of one day are ordered by the rating officers

    def get_inline_instances(self, request: HttpRequest, obj: Table | None = None) -> list[Any]:
        instances = super().get_inline_instances(request, obj)
        if obj is None or not obj.rating_rows.exists():
            instances = [i for i in instances if not isinstance(i, RatingRowInline)]
        if obj is not None and not inlines_fit(obj):
            instances = [i for i in instances if not isinstance(i, (TableEntryInline, GameInline))]
        return instances

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name == "tournament":
            kwargs["queryset"] = access.tournaments_for_new_tables(request.user)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def formfield_for_dbfield(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> forms.Field | None:
        formfield = super().formfield_for_dbfield(db_field, request, **kwargs)
        if (
            formfield is not None
            and db_field.name == "tournament"
            and isinstance(formfield.widget, RelatedFieldWidgetWrapper)
        ):
            _plain_related_widget(formfield.widget, keep_add=True)  # tournaments are changed on their own page
        return formfield

    def get_changeform_initial_data(self, request: HttpRequest) -> dict[str, Any]:
        initial = super().get_changeform_initial_data(request)
        tournament_id = initial.get("tournament")
        if isinstance(tournament_id, str) and tournament_id and "date" not in initial:
            tournament = access.tournaments_for_new_tables(request.user).filter(pk=tournament_id).first()
            if tournament is not None:
                return {**initial, "date": tournament.end_date}
        return initial

    @admin.display(description=gettext_lazy("status"), ordering="status")
    def status_shown(self, table: Table) -> str:
        if table.rating_error:
            return _("%(status)s (the last rating failed)") % {"status": table.get_status_display()}
        return str(table.get_status_display())

    @admin.display(description=gettext_lazy("players"), ordering="player_total")
    def player_count(self, table: WithAnnotations[Table, PlayerTotal]) -> int:
        return table.player_total

    # Saving: one transaction (the admin's change form), validated together in ratings/admin/forms/

    def get_formsets_with_inlines(self, request: HttpRequest, obj: Table | None = None) -> Iterator[tuple[Any, Any]]:
        # Called once for each change form the view builds: its players' and games' formsets share one
        # TableEdit, so that the games are checked with the players as entered in the same form.
        edit = _table_edit(request.user)
        for formset, inline in super().get_formsets_with_inlines(request, obj):
            if issubclass(formset, TableRowsFormSet):
                formset = formset.sharing(edit)
            yield formset, inline

    def save_model(self, request: HttpRequest, obj: Table, form: Any, change: bool) -> None:
        """Nothing yet: the table is saved with its entries and games by ``save_related``."""

    def correction_changes(self, request: HttpRequest, obj: Any, form: Any, formsets: list[Any]) -> list[Change]:
        """The table as the validated form and formsets give it, if that changes a fact of the saved one."""
        change = self._table_change(request, obj, formsets)
        return [change] if correction_lines([change]) else []

    def _table_change(self, request: HttpRequest, table: Table, formsets: list[Any]) -> TableChange:
        entries = next((f for f in formsets if isinstance(f, TableEntryFormSet)), None)
        games = next((f for f in formsets if isinstance(f, GameFormSet)), None)
        return TableChange(
            table=table,
            tournament=table.tournament,
            name=table.name,
            date=table.date,
            sequence=_table_edit(request.user).sequence(table),
            entries=entries.final_entries() if entries is not None else _saved_entries(table),
            games=games.edits() if games is not None else _saved_games(table),
        )

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        """A plain save: a correction was made before Django's save (``TableCorrectionViews``)."""
        table: Table = form.instance
        entries = next((f for f in formsets if isinstance(f, TableEntryFormSet)), None)
        games = next((f for f in formsets if isinstance(f, GameFormSet)), None)
        edit = _table_edit(request.user)
        saved = table_save(
            table=table,
            tournament=table.tournament,
            name=table.name,
            date=table.date,
            sequence=edit.sequence(table),
            entries=entries.final_entries() if entries is not None else None,
            games=games.edits() if games is not None else None,
            strict_dates=edit.strict_dates,
        )
        for formset in formsets:  # the rating rows' inline is read-only: it saved nothing
            _record(formset, {entries: saved.entries, games: saved.games}.get(formset, RowChanges()))
        if saved.rerate_requested:
            report_rerate(
                request,
                done=_("The table and every table after it were re-rated."),
                queued=_("The table will be re-rated, and every table after it."),
            )

    def delete_model(self, request: HttpRequest, obj: Table) -> None:
        table_delete(table=obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Table]) -> None:
        tables = list(queryset)
        if not all(access.can_delete_table(request.user, t) for t in tables):
            raise PermissionDenied
        for table in tables:
            table_delete(table=table)

    def get_deleted_objects(self, objs: Any, request: HttpRequest) -> tuple[Any, Any, Any, Any]:
        deleted, counts, perms_needed, protected = super().get_deleted_objects(objs, request)
        tables = list(objs)
        if not all(access.can_delete_table(request.user, t) for t in tables):
            perms_needed.add(str(Table._meta.verbose_name))
        # A rated table's promotions only protect it from a bare delete: table_delete removes them, and the
        # re-rate that follows withdraws or flags whatever they stood for.
        promotion_count = Promotion.objects.filter(table__in=tables).count()
        if promotion_count and len(protected) == promotion_count:
            protected = []
            counts[str(Promotion._meta.verbose_name_plural)] = promotion_count
        return deleted, counts, perms_needed, protected

    def render_change_form(
        self,
        request: HttpRequest,
        context: dict[str, Any],
        add: bool = False,
        change: bool = False,
        form_url: str = "",
        obj: Table | None = None,
    ) -> HttpResponse:
        if obj is not None:
            context["can_submit"] = self.has_change_permission(request, obj) and access.can_submit_table(
                request.user, obj
            )
            context["rated_edit"] = access.is_rated(obj) and self.has_change_permission(request, obj)
            context["grid_url"] = grid_url(obj)
            context["inlines_fit"] = inlines_fit(obj)
            context["version_field"] = VERSION_FIELD
            context["version"] = form_version(request, lambda: loaded_version(table=obj))
        return super().render_change_form(request, context, add, change, form_url, obj)


def inlines_fit(table: Table) -> bool:
    """Whether the change form with the players' and games' inlines stays within INLINE_FIELD_BUDGET."""
    fields = 11 * (table.games.count() + 4) + 5 * (table.entries.count() + 2) + 20
    return fields <= INLINE_FIELD_BUDGET


def _saved_entries(table: Table) -> list[EntryFacts]:
    return [EntryFacts(player_id=e.player_id, seat=e.seat) for e in TableEntry.objects.filter(table=table)]


def _saved_games(table: Table) -> list[GameEdit]:
    return [GameEdit(facts=GameFacts.of(g), id=g.pk) for g in Game.objects.filter(table=table)]


def _record(formset: Any, changes: RowChanges) -> None:
    """Tell the formset what was saved, as its own ``save`` would, for the admin's change message."""
    formset.new_objects, formset.changed_objects = changes.new, changes.changed
    formset.deleted_objects = changes.deleted


def tournament_tables_url(tournament: Tournament) -> str:
    """The table list filtered to one tournament."""
    return reverse("admin:ratings_table_changelist") + f"?tournament__id__exact={tournament.pk}"
