"""The player form of the admin."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _

from ratings.engine.prior_grades import PRIOR_GRADE_LEVELS
from ratings.models import Player, in_latin_script
from ratings.selectors.name_forms import japanese_reading
from ratings.services.corrections.facts import IDENTITY_FIELDS, PRIOR_GRADE_FIELDS


class PlayerForm(forms.ModelForm):
    class Meta:
        model = Player
        # A person's own fields, as a correction records them, then his prior grade.
        fields = [*IDENTITY_FIELDS, *(f"prior_grade_{name}" for name in PRIOR_GRADE_FIELDS)]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._offer_japanese_reading()

    def _offer_japanese_reading(self) -> None:
        """A Japanese name without its Latin form: a reading beside the two fields, for the officer to confirm with
        the player and type in (never filled in by itself: a name's kanji have several readings)."""
        player = self.instance
        if not player.pk or player.latin_family_name or "latin_family_name" not in self.fields:
            return
        reading = japanese_reading(
            family_name=player.family_name, given_name=player.given_name, nationality=str(player.nationality)
        )
        if reading is None:
            return
        for field, suggested in zip(("latin_family_name", "latin_given_name"), reading, strict=True):
            if suggested and field in self.fields:
                self.fields[field].help_text = _(
                    "A reading of the Japanese name: %(reading)s. Check it with the player before you write it here."
                ) % {"reading": suggested}

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        self._clean_latin_name(data)
        kind, level = data.get("prior_grade_kind"), data.get("prior_grade_level")
        if kind and level is None:
            self.add_error("prior_grade_level", _("Give the level of the prior grade (3 for 3 Kyu, say)."))
        elif level is not None and not kind:
            self.add_error("prior_grade_kind", _("Say whether the level is Kyu, amateur Dan or professional Dan."))
        elif kind and level is not None:
            low, high = PRIOR_GRADE_LEVELS[kind]
            if not low <= level <= high:
                self.add_error(
                    "prior_grade_level",
                    _("A prior grade of this kind goes from %(low)s to %(high)s.") % {"low": low, "high": high},
                )
        if kind and not data.get("prior_grade_source"):
            self.add_error("prior_grade_source", _("Say where the prior grade comes from."))
        return data

    def _clean_latin_name(self, data: dict[str, Any]) -> None:
        """FESA's files hold Latin letters only: a name in another script needs the Latin form the player uses."""
        latin_family = data.get("latin_family_name")  # read first: add_error drops a field from ``data``
        for field in ("latin_family_name", "latin_given_name"):
            if not in_latin_script(data.get(field) or ""):
                self.add_error(field, _("Write this name in Latin letters only."))
        native = f"{data.get('family_name') or ''} {data.get('given_name') or ''}"
        if not latin_family and not in_latin_script(native):
            self.add_error(
                "latin_family_name",
                _(
                    "The name is not written in Latin letters: give the family name in Latin letters, as the "
                    "player writes it (FESA's files hold Latin letters only)."
                ),
            )
