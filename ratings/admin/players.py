"""Players in the admin: found by name for the tables' autocompletes, added by directors, corrected by officers.

Directors may add a player (with his nationality, also from the "+" beside a table's player field) but not
change one; a prior grade a director gives is stored as a proposal for a rating officer to confirm
(ratings/admin/prior_grade_proposals.py), and its state shows on the player. Prior grades are a rating
officer's to set, through ``player_set_prior_grade`` so that his tables are re-rated. The rating columns are
derived and read-only. The date of birth is shown to rating officers only, who alone export or erase a
player's personal data (ratings/admin/privacy.py, docs/privacy.md). Once a player has played, a rating
officer's change to his identity or prior grade is a correction (ratings/admin/player_corrections.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ratings import access
from ratings.admin.filters import LatinFormFilter, VisibleCountryFilter
from ratings.admin.forms.players import PlayerForm
from ratings.admin.merge import DuplicatesAdmin
from ratings.admin.player_corrections import PlayerCorrectionViews
from ratings.admin.prior_grade_proposals import proposal_state
from ratings.admin.privacy import erase_personal_data, export_personal_data
from ratings.admin.rerate_notice import report_rerate
from ratings.engine import grade_label
from ratings.models import Player
from ratings.selectors.name_forms import players_without_latin_form
from ratings.selectors.search import name_matches
from ratings.services.corrections.facts import IDENTITY_FIELDS
from ratings.services.grades.prior import player_set_prior_grade
from ratings.services.grades.proposals import prior_grade_propose

if TYPE_CHECKING:
    from django_stubs_ext import FieldOpts, FieldsetSpec, StrOrPromise

PRIOR_GRADE_FIELDS = (
    "prior_grade_kind",
    "prior_grade_level",
    "prior_grade_source",
    "prior_grade_note",
    "prior_grade_date",
)
DERIVED_FIELDS = ("federation_id", "rating", "games", "category", "grade", "fesa_grade", "peak_rating", "last_played")


@admin.register(Player)
class PlayerAdmin(DuplicatesAdmin, PlayerCorrectionViews):
    form = PlayerForm
    # The federation id beside the name and the country as its code: at 1366 px, beside the menu and the
    # filters, the whole row fits (the id came last and was cut off).
    list_display = (
        "family_name",
        "given_name",
        "federation_id",
        "country_code",
        "grade_shown",
        "rating",
        "games",
        "category",
        "last_played",
    )
    list_display_links = ("family_name", "given_name")
    list_filter = (("nationality", VisibleCountryFilter), "category", "is_professional", "grade", LatinFormFilter)
    # Searched by get_search_results as the public search does; the admin needs search_fields for autocompletes.
    search_fields = ("family_name", "given_name", "federation_id")
    search_help_text = gettext_lazy("Words of the name in any order, without accents if you like, or the id.")
    ordering = ("search_name", "id")
    list_per_page = 100
    actions = (export_personal_data, erase_personal_data)

    def changelist_view(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        """For rating officers, who complete names: how many players still lack the Latin form of a name in
        another script, with a link to them (the filter ``LatinFormFilter``)."""
        context = dict(extra_context or {})
        if access.is_rating_officer(request.user):
            context["latin_form_missing"] = players_without_latin_form(self.get_queryset(request)).count()
            context["latin_form_filter"] = f"?{LatinFormFilter.parameter_name}={LatinFormFilter.MISSING}"
        return super().changelist_view(request, extra_context=context)

    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet[Player], search_term: str
    ) -> tuple[QuerySet[Player], bool]:
        """Every word in the name, accents, case and German spellings ignored, or the federation id
        (ratings/selectors/search.py): ``lemaitre`` finds Lemaître, ``girard remi`` Girard Rémi."""
        return name_matches(queryset, search_term), False

    def autocomplete_queryset(self, queryset: QuerySet[Player]) -> QuerySet[Player]:
        """A player merged into another is never offered: his record is kept only for the undo
        (federation/admin.py asks)."""
        return queryset.filter(merged_into__isnull=True)

    def autocomplete_label(self, player: Player) -> str:
        """The name with what tells namesakes apart (federation/admin.py asks)."""
        last = player.last_played.isoformat() if player.last_played else None
        played = _("last played %(date)s") % {"date": last} if last else _("no rated table yet")
        return f"{player} ({player.nationality}, #{player.federation_id}, {played})"

    @admin.display(description=gettext_lazy("Country"), ordering="nationality")
    def country_code(self, player: Player) -> str:
        return format_html('<abbr title="{}">{}</abbr>', player.nationality.name, player.nationality.code or "–")

    @admin.display(description=gettext_lazy("FESA grade"), ordering="grade")
    def grade_shown(self, player: Player) -> str:
        return grade_label(player.grade)

    def get_fieldsets(self, request: HttpRequest, obj: Player | None = None) -> FieldsetSpec:
        fieldsets: list[tuple[StrOrPromise | None, FieldOpts]] = [
            (
                None,
                {
                    "fields": tuple(
                        name
                        for name in IDENTITY_FIELDS
                        # Private (docs/privacy.md): nobody but a rating officer sees it, or enters it.
                        if name != "date_of_birth" or access.can_handle_personal_data(request.user)
                    )
                },
            ),
            (
                gettext_lazy("Prior grade"),
                {
                    "fields": PRIOR_GRADE_FIELDS if obj is None else (*PRIOR_GRADE_FIELDS, "proposals"),
                    "description": gettext_lazy(
                        "A grade from elsewhere (a national federation, the NSR): it decides a new player's first "
                        "rating. Leave it empty if he has none. Correcting it later re-rates his tables."
                    ),
                },
            ),
        ]
        if obj is not None:
            fieldsets.append(
                (
                    gettext_lazy("Rating (computed from his tables)"),
                    {"fields": DERIVED_FIELDS, "classes": ("collapse",) if obj.games == 0 else ()},
                )
            )
        return fieldsets

    def has_personal_data_permission(self, request: HttpRequest) -> bool:
        return access.can_handle_personal_data(request.user)

    def get_readonly_fields(self, request: HttpRequest, obj: Player | None = None) -> tuple[str, ...]:
        readonly: tuple[str, ...] = (*DERIVED_FIELDS, "proposals")
        if obj is not None and not access.can_change_prior_grade(request.user):
            readonly += PRIOR_GRADE_FIELDS
        return readonly

    @admin.display(description=gettext_lazy("proposed prior grades"))
    def proposals(self, player: Player) -> str:
        return proposal_state(player)

    def save_model(self, request: HttpRequest, obj: Player, form: Any, change: bool) -> None:
        # A correction of a player who has played is made before this (ratings/admin/player_corrections.py).
        if not change and obj.prior_grade_kind and not access.can_change_prior_grade(request.user):
            self._save_with_proposal(request, obj)
            return
        prior_changed = change and any(name in form.changed_data for name in PRIOR_GRADE_FIELDS)
        if not prior_changed:
            super().save_model(request, obj, form, change)
            return
        data = form.cleaned_data
        # The service saves the player (his other corrections included) and asks for the re-rate.
        rerated = player_set_prior_grade(
            user=request.user,
            player=obj,
            kind=data.get("prior_grade_kind") or "",
            level=data.get("prior_grade_level"),
            source=data.get("prior_grade_source") or "",
            note=data.get("prior_grade_note") or "",
            date=data.get("prior_grade_date"),
        )
        if rerated:
            report_rerate(
                request,
                done=_("The prior grade changed: the tables of %(player)s were re-rated.") % {"player": obj},
                queued=_("The prior grade changed: the tables of %(player)s will be re-rated.") % {"player": obj},
            )

    def _save_with_proposal(self, request: HttpRequest, obj: Player) -> None:
        """A director's new player: saved without the prior grade, which waits as a proposal."""
        kind, level, source, note = (
            obj.prior_grade_kind,
            obj.prior_grade_level,
            obj.prior_grade_source,
            obj.prior_grade_note,
        )
        obj.prior_grade_kind, obj.prior_grade_level, obj.prior_grade_source = "", None, ""
        obj.prior_grade_note, obj.prior_grade_date = "", None
        obj.save()
        prior_grade_propose(player=obj, kind=kind, level=level, source=source, note=note, user=request.user)
        messages.info(
            request, _("The prior grade waits for a rating officer's confirmation; until then it does not count.")
        )
