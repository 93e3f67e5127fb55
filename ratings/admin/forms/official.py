"""The admin's form to publish an official list (ratings/services/official_lists.py checks and publishes)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


class PublishListForm(forms.Form):
    """The admin's form to publish an official list: its date, a title and a note for the public."""

    # A native date picker; the value travels as ISO whatever the page's language.
    date = forms.DateField(label=_("List date"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    title = forms.CharField(label=_("Title"), max_length=200, required=False)
    note = forms.CharField(label=_("Note"), required=False, widget=forms.Textarea(attrs={"rows": 3}))
