"""Dates are typed as European federations write them: ISO or day first, never month first, in every language. They
are shown ISO in English, French and German, and in the other languages as Django's own formats show them, as are
numbers."""

from __future__ import annotations

import datetime as dt

import pytest
from django import forms
from django.conf import settings
from django.utils import formats, translation

from ratings.admin.widgets import DATE_HINT
from ratings.templatetags.ratings_public import signed


class DateForm(forms.Form):
    day = forms.DateField()


@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES])
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


# 1 February 2025 and 1234.5 as each language shows them.
SHOWN = {
    "en": ("2025-02-01", "1234.5"),
    "fr": ("2025-02-01", "1234,5"),
    "de": ("2025-02-01", "1234,5"),
    "nl": ("1 februari 2025", "1234,5"),
    "it": ("01 Febbraio 2025", "1234,5"),
    "es": ("1 de febrero de 2025", "1234,5"),
    "pl": ("1 lutego 2025", "1234,5"),
    "ja": ("2025年2月1日", "1234.5"),
}


@pytest.mark.parametrize("language", list(SHOWN))
def test_dates_and_numbers_are_shown_in_the_languages_formats(language: str) -> None:
    with translation.override(language):
        assert (formats.date_format(dt.date(2025, 2, 1)), formats.number_format(1234.5, 1)) == SHOWN[language]


def test_every_language_has_its_shown_formats() -> None:
    assert set(SHOWN) == {code for code, _name in settings.LANGUAGES}


def test_a_change_is_written_with_the_languages_decimal_separator() -> None:
    with translation.override("en"):
        assert (signed(0.52), signed(-13.54), signed(12)) == ("+0.52", "-13.54", "+12")
    with translation.override("pl"):
        assert (signed(0.52), signed(-13.54), signed(12)) == ("+0,52", "-13,54", "+12")


def test_public_pages_write_a_date_one_way() -> None:
    """The public pages write a date as ISO, whatever the language (a club's tournaments read "21-9-2024" in Dutch
    and "2024/09/21" in Japanese beside ISO dates everywhere else): no template names a localised format."""
    from pathlib import Path

    templates = Path(settings.BASE_DIR) / "templates"
    named = [
        f"{path.relative_to(templates)}"
        for folder in ("ratings", "jinja2")
        for path in sorted((templates / folder).rglob("*.html"))
        if "DATE_FORMAT" in path.read_text(encoding="utf-8")
    ]
    assert not named, named
