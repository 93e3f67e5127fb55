"""The add-player form's check for players already there under a like name (ratings/selectors/duplicates.py).

A new player whose name and nationality match existing players is not created silently: the form lists them
(name, country, id, last played, a link) and asks either to use one of them or to tick "create anyway".
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ratings.models import Player
from ratings.selectors.duplicates import duplicates_of

CREATE_ANYWAY = "create_anyway"


def last_played_words(player: Player) -> str:
    """When he last played, as the admin's lists of possible namesakes tell one from another."""
    return _("last played %(date)s") % {"date": player.last_played} if player.last_played else _("no rated table yet")


def candidates_html(players: list[Player]) -> str:
    """The players as a list of links to their admin pages, with what tells them apart."""
    rows = format_html_join(
        "",
        '<li><a href="{}" target="_blank">{}</a> ({}, #{}, {})</li>',
        (
            (
                reverse("admin:ratings_player_change", args=[p.pk]),
                str(p),
                p.nationality.code or "—",
                p.federation_id,
                last_played_words(p),
            )
            for p in players
        ),
    )
    return format_html('<ul class="duplicate-candidates">{}</ul>', rows)


def duplicate_checked(form_class: type[forms.ModelForm]) -> type[forms.ModelForm]:
    """``form_class`` with the "create anyway" check of a new player."""

    class DuplicateCheckedForm(form_class):  # type: ignore[valid-type,misc]
        create_anyway = forms.BooleanField(
            label=gettext_lazy("Create anyway: this is a different person"),
            required=False,
            help_text=gettext_lazy("Tick only after checking the players listed above, if any."),
        )

        def clean(self) -> dict[str, Any]:
            data: dict[str, Any] = super().clean()
            if data.get(CREATE_ANYWAY) or not data.get("family_name"):
                return data
            found = duplicates_of(data["family_name"], data.get("given_name", ""), str(data.get("nationality") or ""))
            if found:
                raise forms.ValidationError(
                    format_html(
                        "{}{}{}",
                        _("These players may be the same person:"),
                        candidates_html(found),
                        _(
                            "Use one of them instead (in a table, pick him by name), or tick "
                            "“Create anyway” if this is someone else."
                        ),
                    ),
                    code="duplicate",
                )
            return data

    return DuplicateCheckedForm
