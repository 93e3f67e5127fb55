"""Tournaments in the admin: a director creates his tournament, then its tables (ratings/admin/tables.py).

Directors see only the tournaments they direct and change one until any of its tables has been rated; the
director who creates a tournament becomes one of its directors. Rating officers see, change and assign
everything; grade officers read. The rules are in ratings/access.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypedDict

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.db.models import Count, QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy

from ratings import access
from ratings.access import TOURNAMENT_DIRECTORS
from ratings.admin.filters import VisibleCountryFilter
from ratings.admin.forms.tournaments import TournamentForm
from ratings.admin.read_only import ReadOnlyInline
from ratings.admin.rows import RowPermissionsMixin
from ratings.admin.season import REGISTRATION_FIELDS, SeasonAdminMixin, SeasonFilter
from ratings.admin.tables import TableAdmin, tournament_tables_url
from ratings.admin.upload import upload_url
from ratings.admin.widgets import DATE_FIELDS
from ratings.models import Table, Tournament
from ratings.services.season import tournament_register
from ratings.services.tournaments import tournament_save

if TYPE_CHECKING:
    from django_stubs_ext import FieldOpts, FieldsetSpec, StrOrPromise, WithAnnotations

__all__ = ["TableAdmin", "TournamentAdmin"]  # TableAdmin lives in tables.py; re-exported for convenience


class TableTotal(TypedDict):
    table_total: int  # the list's annotation (TournamentAdmin.get_queryset)


class TournamentTableInline(ReadOnlyInline):
    """The tournament's tables at a glance; each is entered on its own page (the link beside it)."""

    model = Table
    fields = ("name", "date", "sequence", "status", "first_rated_at", "last_rerated_at")
    readonly_fields = fields
    ordering = ("date", "sequence")
    show_change_link = True
    verbose_name_plural = gettext_lazy("tables")


def _take_saved(obj: Tournament, saved: Tournament) -> None:
    """Gives the admin's object what the service saved: the admin redirects and logs with the object it passed
    to ``save_model``, which a new registration (the service creates the tournament) would leave without an id."""
    for field in Tournament._meta.concrete_fields:
        setattr(obj, field.attname, getattr(saved, field.attname))
    obj._state.adding, obj._state.db = False, saved._state.db


@admin.register(Tournament)
class TournamentAdmin(SeasonAdminMixin, RowPermissionsMixin, admin.ModelAdmin):
    form = TournamentForm
    inlines = (TournamentTableInline,)
    # The place and the dates one column each: with a column for each of their parts the list was wider than a
    # laptop leaves it beside the admin's two sidebars, and scrolled sideways.
    list_display = ("name", "place", "dates", "registration", "table_links", "director_names")
    list_filter = (
        SeasonFilter,
        ("country", VisibleCountryFilter),
        ("end_date", admin.DateFieldListFilter),
        "tables__status",
    )
    search_fields = ("name", "city")
    date_hierarchy = "end_date"
    ordering = ("-end_date", "name")
    filter_horizontal = ("directors",)
    autocomplete_fields = ("host_club",)
    formfield_overrides = DATE_FIELDS
    readonly_fields = ("add_table_link", "review_link", "review_status")

    def get_fieldsets(self, request: HttpRequest, obj: Tournament | None = None) -> FieldsetSpec:
        main = ["name", "city", "country", "host_club", "start_date", "end_date", "time_control"]
        if obj is not None or access.is_rating_officer(request.user):
            main.append("directors")  # a director creating a tournament becomes its director: nothing to choose
        fieldsets: list[tuple[StrOrPromise | None, FieldOpts]] = [(None, {"fields": tuple(main)})]
        # Rating officers review; a tournament's own directors read the review (its page shows them the outcome and
        # what they sent, without the decision); others would meet a 403 behind a link and see the outcome only.
        reads_review = obj is not None and access.directs(request.user, obj)
        review = "review_link" if access.is_rating_officer(request.user) or reads_review else "review_status"
        reviewed = (review,) if obj is not None else ()  # a tournament being created has no review to show
        fieldsets.append((gettext_lazy("Registration with FESA"), {"fields": (*REGISTRATION_FIELDS, *reviewed)}))
        if obj is not None and access.tournaments_for_new_tables(request.user).filter(pk=obj.pk).exists():
            fieldsets.append((gettext_lazy("Tables"), {"fields": ("add_table_link",)}))  # links that would answer 403
        return fieldsets

    def get_inlines(self, request: HttpRequest, obj: Tournament | None = None) -> Any:
        """No tables on the page that creates a tournament: an empty list of them, with its column names, only
        puzzled a director (they are uploaded or entered once the tournament is saved)."""
        return self.inlines if obj is not None else ()

    def get_readonly_fields(self, request: HttpRequest, obj: Tournament | None = None) -> tuple[str, ...]:
        readonly: tuple[str, ...] = ("add_table_link", "review_link", "review_status")
        if not access.is_rating_officer(request.user):
            readonly += ("directors",)  # a director becomes one by creating the tournament
        return readonly

    def get_queryset(self, request: HttpRequest) -> QuerySet[Tournament]:
        qs = (
            super()
            .get_queryset(request)
            .annotate(table_total=Count("tables", distinct=True))
            .prefetch_related("directors")
        )
        return access.tournaments_visible(request.user, qs)

    row_can_view = staticmethod(access.can_view_tournament)
    row_can_change = staticmethod(access.can_change_tournament)
    row_can_delete = staticmethod(access.can_delete_tournament)

    def formfield_for_manytomany(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name == "directors":
            kwargs["queryset"] = get_user_model().objects.filter(groups__name=TOURNAMENT_DIRECTORS).order_by("username")
            kwargs.setdefault("help_text", gettext_lazy("Who may enter and submit this tournament's tables."))
        return super().formfield_for_manytomany(db_field, request, **kwargs)

    def save_model(self, request: HttpRequest, obj: Tournament, form: Any, change: bool) -> None:
        data = form.cleaned_data
        common = {
            "user": request.user,
            "name": data["name"],
            "city": data.get("city", ""),
            "country": data.get("country", ""),
            "start_date": data["start_date"],
            "end_date": data["end_date"],
            "directors": data.get("directors"),  # absent where a director may not choose
        }
        if data.get("register") or obj.announcement:
            saved = tournament_register(
                tournament=obj if obj.pk else None,
                main_time_minutes=data.get("main_time_minutes"),
                increment_seconds=data.get("increment_seconds"),
                byoyomi_seconds=data.get("byoyomi_seconds"),
                mode=data.get("mode", ""),
                contact=data.get("contact", ""),
                announcement_url=data.get("announcement_url", ""),
                planned_tables=data.get("planned_tables") or 1,
                **common,
            )
            _take_saved(obj, saved)
            form.instance = obj
            return
        form.instance = tournament_save(tournament=obj, time_control=data.get("time_control", ""), **common)

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        for formset in formsets:  # the directors were saved with the tournament (tournament_save)
            self.save_formset(request, form, formset, change=change)

    @admin.display(description=gettext_lazy("place"), ordering="city")
    def place(self, tournament: Tournament) -> str:
        return tournament.place or "–"

    @admin.display(description=gettext_lazy("dates"), ordering="end_date")
    def dates(self, tournament: Tournament) -> str:
        start, end = tournament.start_date.isoformat(), tournament.end_date.isoformat()
        if start == end:
            return start
        return format_html('<span class="nowrap">{}</span> – <span class="nowrap">{}</span>', start, end)

    @admin.display(description=gettext_lazy("tables"), ordering="table_total")
    def table_links(self, tournament: WithAnnotations[Tournament, TableTotal]) -> str:
        total = tournament.table_total
        return format_html('<a href="{}">{}</a>', tournament_tables_url(tournament), total)

    @admin.display(description=gettext_lazy("directors"))
    def director_names(self, tournament: Tournament) -> str:
        return ", ".join(sorted(user.get_username() for user in tournament.directors.all()))

    @admin.display(description=gettext_lazy("new table"))
    def add_table_link(self, tournament: Tournament) -> str:
        if tournament.pk is None:
            return ""
        query = f"?tournament={tournament.pk}"
        links = format_html(
            '<a class="addlink" href="{}">{}</a>',
            reverse("admin:ratings_table_add") + query,
            gettext_lazy("Enter a table by hand"),
        )
        return format_html(
            '{} &nbsp; <a class="addlink" href="{}">{}</a>',
            links,
            upload_url(tournament),
            gettext_lazy("Upload a turnering.txt"),
        )

    @admin.display(description=gettext_lazy("review"))
    def review_status(self, tournament: Tournament) -> str:
        """The review's outcome, for those who do not review (a link to the review would answer 403)."""
        if tournament.pk is None or not tournament.announcement:
            return "–"
        status = tournament.get_announcement_display()
        return f"{status}: {tournament.review_reason}" if tournament.review_reason else str(status)

    @admin.display(description=gettext_lazy("review"))
    def review_link(self, tournament: Tournament) -> str:
        if tournament.pk is None or not tournament.announcement:
            return "–"
        status = tournament.get_announcement_display()
        if tournament.review_reason:
            status = f"{status}: {tournament.review_reason}"
        url = reverse("admin:ratings_tournament_review", args=[tournament.pk])
        return format_html('{} &nbsp; <a href="{}">{}</a>', status, url, gettext_lazy("Review"))
