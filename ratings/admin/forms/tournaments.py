"""The tournament form of the admin."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from ratings.models import Tournament
from ratings.services.tournaments import tournament_check


class TournamentForm(forms.ModelForm):
    class Meta:
        model = Tournament
        fields = ["name", "city", "country", "start_date", "end_date", "time_control", "directors"]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        start, end = data.get("start_date"), data.get("end_date")
        if start and end:
            try:
                tournament_check(tournament=self.instance, start_date=start, end_date=end)
            except ValidationError as exc:
                self.add_error(None, exc)
        return data
