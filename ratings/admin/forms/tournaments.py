"""The tournament form of the admin."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy

from ratings.models import Tournament, concrete_field
from ratings.services.season import registration_problems
from ratings.services.tournaments import tournament_check

# What a registration with FESA adds to a tournament (ratings/services/season/).
REGISTRATION = [
    "main_time_minutes",
    "increment_seconds",
    "byoyomi_seconds",
    "mode",
    "contact",
    "announcement_url",
    "planned_tables",
]


class TournamentForm(forms.ModelForm):
    class Meta:
        model = Tournament
        fields = [
            "name",
            "city",
            "country",
            "host_club",
            "start_date",
            "end_date",
            "time_control",
            "directors",
            *REGISTRATION,
        ]

    announcement_url = forms.URLField(
        label=capfirst(concrete_field(Tournament, "announcement_url").verbose_name),
        help_text=concrete_field(Tournament, "announcement_url").help_text,
        required=False,
        assume_scheme="https",
    )
    register = forms.BooleanField(
        label=gettext_lazy("Register with FESA"),
        required=False,
        help_text=gettext_lazy("Before it is played: a rating officer reviews it, then it shows in the calendar."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if "planned_tables" in self.fields:  # a tournament entered with its results plans nothing
            self.fields["planned_tables"].required = False
        if (
            self.instance.announcement and "register" in self.fields
        ):  # registered once, it stays in the season: changes go back to review
            self.fields["register"].initial = True
            self.fields["register"].disabled = True

    def clean_planned_tables(self) -> int:
        return self.cleaned_data.get("planned_tables") or 1

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        start, end = data.get("start_date"), data.get("end_date")
        if start and end:
            try:
                tournament_check(tournament=self.instance, start_date=start, end_date=end)
            except ValidationError as exc:
                self.add_error(None, exc)
        if start and data.get("register"):
            problems = registration_problems(
                registered_at=self.instance.registered_at,
                start_date=start,
                city=data.get("city", ""),
                country=data.get("country", ""),
                contact=data.get("contact", ""),
                main_time_minutes=data.get("main_time_minutes"),
                increment_seconds=data.get("increment_seconds"),
                byoyomi_seconds=data.get("byoyomi_seconds"),
            )
            for field, message in problems.items():
                self.add_error(field if field in self.fields else None, message)
        return data
