"""Filters of the public lists (django-filter), over the querysets of ratings/selectors/.

A malformed value never reaches the database: the form rejects it and the view answers 400 with the form's
messages (ratings/web/views/).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import django_filters
from django import forms
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django_countries import countries
from django_filters.fields import ChoiceField

from ratings.models import GRADE_CHOICES, Category, Player, Tournament
from ratings.selectors import DataVersion, RatingList, list_clubs, list_filter, rating_list, tournament_years
from ratings.selectors.categories import category_choices, category_q
from ratings.selectors.clubs import club_members_q
from ratings.selectors.search import MAX_QUERY, name_matches
from ratings.web.widgets import QuickInput, QuickSelect, QuickTextInput

ACTIVE_CHOICES = [("active", _("Active (FESA list)")), ("all", _("All rated"))]
GRADES = [(str(g), label) for g, label in GRADE_CHOICES if g > 0]


def country_choices() -> list[tuple[str, str]]:
    return [(code, str(name)) for code, name in countries]


def year_choices() -> list[tuple[str, str]]:
    """The years with public tournaments (one query, when the form is built)."""
    return [(str(y), str(y)) for y in tournament_years()]


class DateInput(QuickInput, forms.DateInput):
    """A native date picker; the value travels as ISO ``YYYY-MM-DD`` whatever the page's language."""

    input_type = "date"

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        super().__init__(attrs=attrs, format="%Y-%m-%d")


class RatingListForm(forms.Form):
    def clean_date(self) -> dt.date | None:
        date: dt.date | None = self.cleaned_data.get("date")
        if date is not None and date > timezone.localdate():
            raise forms.ValidationError(_("The list of a future date is not known yet."))
        if date is not None and date.year < 1900:
            raise forms.ValidationError(_("Enter a date after 1900."))
        return date

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        low, high = data.get("grade_min"), data.get("grade_max")
        if low and high and int(low) > int(high):
            raise forms.ValidationError(_("The lowest grade is above the highest grade."))
        return data


def name_search(queryset: QuerySet[Player], value: str, prefix: str = "") -> QuerySet[Player]:
    """Players whose name holds every word of ``value`` or whose federation id it is (the search box's rule,
    ratings/selectors/search.py: accents, case and German spellings without umlauts ignored)."""
    return name_matches(queryset, value, prefix)


def club_choices_of(version: DataVersion | None) -> list[tuple[str, str]]:
    """The club filter's choices: read when the form is shown or a club is asked for, not for every request."""
    return [(str(pk), name) for pk, name in list_clubs(version)]


def offer_clubs(filters: dict[str, Any], version: DataVersion | None) -> None:
    """Give the ``club`` filter of a filter set's instance the clubs of ``version``. Its form field is made
    afresh: one made before (the schema's generator reads the class's own filters, which every instance copies)
    would keep the choices it was made with."""
    club = filters["club"]
    club.extra["choices"] = lambda: club_choices_of(version)
    club.__dict__.pop("_field", None)


class ClubField(ChoiceField):
    """A club's id among the clubs of the site: the id as a number, None when left empty."""

    default_error_messages = {"invalid_choice": _("No club has that number.")}

    def clean(self, value: Any) -> int | None:
        chosen = super().clean(value)
        return int(chosen) if chosen else None


class ClubFilter(django_filters.ChoiceFilter):
    field_class = ClubField


class RatingListFilter(django_filters.FilterSet):
    """The rating list's filters. ``date`` and ``active`` choose the list itself (the view reads them before
    it builds the queryset); the others narrow it down. ``club`` and ``group`` are read on the list's date: the
    club a player was in then, the age he had then (``filtered_rating_list``).

    ``version``: the data version the request has read, whose club choices the shared cache keeps."""

    q = django_filters.CharFilter(
        label=_("Name"),
        method="filter_name",
        max_length=MAX_QUERY,
        widget=QuickTextInput(attrs={"type": "search", "placeholder": _("e.g. Åberg or aberg")}),
    )
    country = django_filters.ChoiceFilter(
        label=_("Country"),
        field_name="nationality",
        choices=country_choices,
        empty_label=_("All countries"),
        widget=QuickSelect,
    )
    grade_min = django_filters.ChoiceFilter(
        label=_("Grade from"),
        field_name="list_grade",
        lookup_expr="gte",
        choices=GRADES,
        empty_label=_("any"),
        widget=QuickSelect,
    )
    grade_max = django_filters.ChoiceFilter(
        label=_("Grade up to"),
        field_name="list_grade",
        lookup_expr="lte",
        choices=GRADES,
        empty_label=_("any"),
        widget=QuickSelect,
    )
    category = django_filters.ChoiceFilter(
        label=_("Category"),
        field_name="list_category",
        choices=Category.choices,
        empty_label=_("All categories"),
        widget=QuickSelect,
    )
    club = ClubFilter(
        label=_("Club"),
        method="filter_nothing",
        choices=(),  # the clubs of the data version: set per filter (__init__)
        empty_label=_("All clubs"),
        widget=QuickSelect,
    )
    group = django_filters.ChoiceFilter(
        label=_("Juniors, seniors, women"),
        method="filter_nothing",
        choices=category_choices,
        empty_label=_("Everyone"),
        widget=QuickSelect,
    )
    active = django_filters.ChoiceFilter(
        label=_("Players"), choices=ACTIVE_CHOICES, method="filter_nothing", empty_label=None, widget=QuickSelect
    )
    date = django_filters.DateFilter(label=_("List as of"), method="filter_nothing", widget=DateInput())

    class Meta:
        model = Player
        fields: list[str] = []
        form: type[forms.Form] = RatingListForm  # the API's list has a form of its own (ratings/api/filters.py)

    def __init__(self, *args: Any, version: DataVersion | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        offer_clubs(self.filters, version)

    def filter_name(self, queryset: QuerySet[Player], name: str, value: str) -> QuerySet[Player]:
        return name_search(queryset, value)

    def filter_nothing(self, queryset: QuerySet[Any], name: str, value: Any) -> QuerySet[Any]:
        return queryset  # read by the view to choose the list, not a condition on it


def filtered_rating_list(cleaned: dict[str, Any], version: DataVersion | None = None) -> tuple[RatingList, bool]:
    """(the rating list a valid RatingListFilter's ``cleaned`` data asks for, narrowed by its filters; active
    only): the site's one rating list, with the ranks of the whole list (ratings/selectors/lists.py)."""
    active = cleaned.get("active") != "all"
    rows = rating_list(date=cleaned.get("date"), active=active, version=version)
    grade_min, grade_max = cleaned.get("grade_min"), cleaned.get("grade_max")
    filtered = list_filter(
        rows,
        q=cleaned.get("q") or "",
        country=cleaned.get("country") or "",
        grade_min=int(grade_min) if grade_min else None,
        grade_max=int(grade_max) if grade_max else None,
        category=cleaned.get("category") or "",
    )
    if cleaned.get("club") is not None:
        filtered = filtered.filter(club_members_q(cleaned["club"], filtered.date))
    if cleaned.get("group"):
        filtered = filtered.filter(category_q(cleaned["group"], filtered.date))
    return filtered, active


class TournamentFilter(django_filters.FilterSet):
    # The years that have tournaments, to choose from; the API takes any year (ratings/api/filters.py).
    year: django_filters.Filter = django_filters.ChoiceFilter(
        label=_("Year"),
        field_name="end_date",
        lookup_expr="year",
        choices=year_choices,
        empty_label=_("All years"),
        widget=QuickSelect,
    )
    country = django_filters.ChoiceFilter(
        label=_("Country"),
        field_name="country",
        choices=country_choices,
        empty_label=_("All countries"),
        widget=QuickSelect,
    )

    class Meta:
        model = Tournament
        fields: list[str] = []
