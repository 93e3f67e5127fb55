"""Dates are typed as European federations write them: ISO or day first, never month first, in every language."""

from __future__ import annotations

import datetime as dt

import pytest
from django import forms
from django.utils import translation

from ratings.admin.widgets import DATE_HINT


class DateForm(forms.Form):
    day = forms.DateField()


@pytest.mark.parametrize("language", ["en", "fr", "de"])
@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("2025-02-01", dt.date(2025, 2, 1)),
        ("01.02.2025", dt.date(2025, 2, 1)),
        ("01/02/2025", dt.date(2025, 2, 1)),  # 1 February, not 2 January
        ("1.2.25", dt.date(2025, 2, 1)),
    ],
)
def test_date_input_reads_iso_and_day_first(language: str, typed: str, meant: dt.date) -> None:
    with translation.override(language):
        form = DateForm({"day": typed})
        assert form.is_valid(), form.errors
        assert form.cleaned_data["day"] == meant


@pytest.mark.parametrize("typed", ["02/13/2025", "Feb 1 2025", "2025/02/01"])
def test_date_input_refuses_month_first_and_other_forms(typed: str) -> None:
    with translation.override("en"):
        assert not DateForm({"day": typed}).is_valid()


@pytest.mark.django_db
def test_admin_date_fields_show_the_accepted_formats(admin_client) -> None:  # type: ignore[no-untyped-def]
    html = admin_client.get("/admin/ratings/tournament/add/").content.decode()
    assert f'placeholder="{DATE_HINT}"' in html
