"""The filters of the official lists' pages: a name, a country, and on the revised list "only changed rows".

Only the shape of the input is checked here; the rows are filtered by ratings/selectors/lists.py ``list_filter``.
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from ratings.web.filters import DateInput


class PublishListForm(forms.Form):
    """The admin's form to publish an official list: its date, a title and a note for the public."""

    date = forms.DateField(label=_("List date"), widget=DateInput())
    title = forms.CharField(label=_("Title"), max_length=200, required=False)
    note = forms.CharField(label=_("Note"), required=False, widget=forms.Textarea(attrs={"rows": 3}))
