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

from ratings.models import GRADE_CHOICES, Category, ListEntry, Player, StoredList, Tournament
from ratings.selectors import DataVersion, entries_named, list_clubs, list_entries, tournament_years
from ratings.selectors.categories import category_choices, category_entries_q, category_q
from ratings.selectors.clubs import club_members_q
from ratings.selectors.search import MAX_QUERY, name_matches
from ratings.services.lists import ListKey

ACTIVE_CHOICES = [("active", _("Active (FESA list)")), ("all", _("All rated"))]
GRADES = [(str(g), label) for g, label in GRADE_CHOICES if g > 0]


def country_choices() -> list[tuple[str, str]]:
    return [(code, str(name)) for code, name in countries]


def year_choices() -> list[tuple[str, str]]:
    """The years with public tournaments (one query, when the form is built)."""
    return [(str(y), str(y)) for y in tournament_years()]


def date_input() -> forms.DateInput:
    """A native date picker; the value travels as ISO ``YYYY-MM-DD`` whatever the page's language."""
    return forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


class RatingListForm(forms.Form):
    """The rating list's form: which list (``active``, ``date``), then the filters of its entries, which the
    filter set adds."""

    active = forms.ChoiceField(label=_("Players"), choices=ACTIVE_CHOICES, required=False)
    date = forms.DateField(label=_("List as of"), required=False, widget=date_input())

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


class ListEntryFilter(django_filters.FilterSet):
    """The filters of a stored list's entries, in SQL. ``club`` and ``group`` are the entries' own: the club a
    player was in on the list's date, the age category he had then (an official list's: ``PublishedListFilter``).

    ``version``: the data version the request has read, whose club choices the shared cache keeps."""

    q = django_filters.CharFilter(
        label=_("Name"),
        method="filter_name",
        max_length=MAX_QUERY,
        widget=forms.TextInput(attrs={"type": "search", "placeholder": _("e.g. Åberg or aberg")}),
    )
    country = django_filters.ChoiceFilter(
        label=_("Country"),
        field_name="nationality",
        choices=country_choices,
        empty_label=_("All countries"),
    )
    grade_min = django_filters.ChoiceFilter(
        label=_("Grade from"),
        field_name="grade",
        lookup_expr="gte",
        choices=GRADES,
        empty_label=_("any"),
    )
    grade_max = django_filters.ChoiceFilter(
        label=_("Grade up to"),
        field_name="grade",
        lookup_expr="lte",
        choices=GRADES,
        empty_label=_("any"),
    )
    category = django_filters.ChoiceFilter(
        label=_("Category"),
        field_name="category",
        choices=Category.choices,
        empty_label=_("All categories"),
    )
    club = ClubFilter(
        label=_("Club"),
        method="filter_club",
        choices=(),  # the clubs of the data version: set per filter (__init__)
        empty_label=_("All clubs"),
    )
    group = django_filters.ChoiceFilter(
        label=_("Juniors, seniors, women"),
        method="filter_group",
        choices=category_choices,
        empty_label=_("Everyone"),
    )

    class Meta:
        model = ListEntry
        fields: list[str] = []

    def __init__(
        self,
        data: Any = None,
        queryset: QuerySet[ListEntry] | None = None,
        *,
        version: DataVersion | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(data, queryset=ListEntry.objects.none() if queryset is None else queryset, **kwargs)
        offer_clubs(self.filters, version)

    def filter_queryset(self, queryset: QuerySet[ListEntry]) -> QuerySet[ListEntry]:
        """The entries the filters keep. The form's other fields (which list, ``RatingListForm``) are not filters."""
        for name, value in self.form.cleaned_data.items():
            if name in self.filters:
                queryset = self.filters[name].filter(queryset, value)
        return queryset

    def _in_use(self) -> dict[str, Any]:
        """The filters of the (valid) form that are set, with their values."""
        data = self.form.cleaned_data
        return {name: data[name] for name in self.filters if data.get(name) not in (None, "")}

    def narrows(self) -> bool:
        """Whether a filter of the (valid) form keeps only some of the list's lines: then they are counted; else
        the list's counts are its stored list's own."""
        return bool(self._in_use())

    def named(self) -> list[tuple[str, str]]:
        """The filters in use, each as (label, value as the form shows it): what a printed page says it holds."""
        named = []
        for name, value in self._in_use().items():
            field = self.form.fields[name]
            shown = dict(getattr(field, "choices", ())).get(str(value), value)
            named.append((str(field.label), str(shown)))
        return named

    def filter_name(self, queryset: QuerySet[ListEntry], name: str, value: str) -> QuerySet[ListEntry]:
        return entries_named(queryset, value)

    def filter_club(self, queryset: QuerySet[ListEntry], name: str, value: int) -> QuerySet[ListEntry]:
        return queryset.filter(club_id=value)

    def filter_group(self, queryset: QuerySet[ListEntry], name: str, value: str) -> QuerySet[ListEntry]:
        return queryset.filter(category_entries_q(value))


class PublishedListFilter(ListEntryFilter):
    """An official list's filters. The club and the category were not published with the list: they are read as
    the clubs and the dates of birth are recorded now, on the list's date (``list_date``), as the list's page and
    files show them. (A computed list is made again for every data version: its entries' own are as recorded
    now.)"""

    def __init__(self, *args: Any, list_date: dt.date, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.list_date = list_date

    def filter_club(self, queryset: QuerySet[ListEntry], name: str, value: int) -> QuerySet[ListEntry]:
        return queryset.filter(player__in=Player.objects.filter(club_members_q(value, self.list_date)).values("pk"))

    def filter_group(self, queryset: QuerySet[ListEntry], name: str, value: str) -> QuerySet[ListEntry]:
        return queryset.filter(player__in=Player.objects.filter(category_q(value, self.list_date)).values("pk"))


class RatingListFilter(ListEntryFilter):
    """The rating list's filters: its form chooses the list (``active``, ``date``: ``list_key``), whose entries
    the view then hands to ``entries`` to be filtered."""

    class Meta(ListEntryFilter.Meta):
        form: type[forms.Form] = RatingListForm  # the API's list has a form of its own (ratings/api/filters.py)

    def list_key(self) -> ListKey:
        """The list a valid form asks for: of its date (today's if none), active players only unless ``all``."""
        data = self.form.cleaned_data
        return ListKey.of(data.get("date"), active=data.get("active") != "all")

    def entries(self, stored: StoredList) -> QuerySet[ListEntry]:
        """The entries of ``stored``, the list ``list_key`` named, that the filters keep."""
        self.queryset = list_entries(stored)
        return self.qs


class TournamentFilter(django_filters.FilterSet):
    # The years that have tournaments, to choose from; the API takes any year (ratings/api/filters.py).
    year: django_filters.Filter = django_filters.ChoiceFilter(
        label=_("Year"),
        field_name="end_date",
        lookup_expr="year",
        choices=year_choices,
        empty_label=_("All years"),
    )
    country = django_filters.ChoiceFilter(
        label=_("Country"),
        field_name="country",
        choices=country_choices,
        empty_label=_("All countries"),
    )

    class Meta:
        model = Tournament
        fields: list[str] = []
