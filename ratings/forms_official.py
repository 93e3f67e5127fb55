"""The filters of the official lists' pages: a name, a country, and on the revised list "only changed rows".

Only the shape of the input is checked here; the rows are filtered by ratings/selectors/lists.py ``list_filter``.
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from ratings.filters import DateInput, country_choices
from ratings.selectors.search import MAX_QUERY


def _country_choices() -> list[tuple[str, str]]:
    return [("", ""), *country_choices()]


class OfficialListForm(forms.Form):
    q = forms.CharField(
        label=_("Name"),
        required=False,
        max_length=MAX_QUERY,
        widget=forms.TextInput(attrs={"type": "search", "placeholder": _("e.g. Åberg or aberg")}),
    )
    country = forms.ChoiceField(label=_("Country"), required=False, choices=_country_choices)


class RevisedListForm(OfficialListForm):
    changed = forms.BooleanField(label=_("Only changed rows"), required=False)


class PublishListForm(forms.Form):
    """The admin's form to publish an official list: its date, a title and a note for the public."""

    date = forms.DateField(label=_("List date"), widget=DateInput())
    title = forms.CharField(label=_("Title"), max_length=200, required=False)
    note = forms.CharField(label=_("Note"), required=False, widget=forms.Textarea(attrs={"rows": 3}))
