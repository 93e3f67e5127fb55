"""The filters' fields written in Python for speed (ratings/web/widgets.py) are the markup Django's widgets write."""

from __future__ import annotations

import datetime as dt

import pytest
from django import forms

from ratings.web.filters import DateInput
from ratings.web.widgets import QuickSelect, QuickTextInput


@pytest.mark.parametrize("value", ["", "1", "grp-a", None])
def test_quick_select_writes_what_django_writes(value: str | None) -> None:
    choices = [("", "any"), ("1", "1 <Kyu>"), ("Group", [("grp-a", "A & B"), ("grp-b", "B")])]
    attrs = {"id": "id_g", "required": True, "data-x": '"q"'}
    django = forms.Select(choices=choices, attrs=attrs).render("g", value)
    quick = QuickSelect(choices=choices, attrs=attrs).render("g", value)
    assert quick == "\n".join(line for line in django.splitlines() if line.strip())


@pytest.mark.parametrize("value", ["b&r", None, ""])
def test_quick_inputs_write_what_django_writes(value: str | None) -> None:
    attrs = {"type": "search", "placeholder": 'e.g. "x"', "id": "id_q", "maxlength": 100}
    assert QuickTextInput(attrs=attrs).render("q", value) == forms.TextInput(attrs=attrs).render("q", value)

    class Native(forms.DateInput):
        input_type = "date"

    day = dt.date(2024, 1, 2)
    assert DateInput().render("date", day) == Native(format="%Y-%m-%d").render("date", day)
