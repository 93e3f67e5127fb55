"""Forms of the public pages: the rating calculator (who starts, a player or a rating and a game count, and the
planned games), the choice of a top list, and the official lists' filters.

Only the shape of the input is checked here; the rating itself is the engine's (ratings/selectors/calculator.py).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from ratings.engine.categories import PROVISIONAL_FROM
from ratings.engine.constants import HANDICAP_CODES
from ratings.models import GRADE_CHOICES, HandicapCode, Player
from ratings.selectors.calculator import PlannedGame
from ratings.web.filters import PublishedListFilter

GAME_ROWS = 10
GRADES = [(str(grade), label) for grade, label in GRADE_CHOICES if grade]
RESULTS = [("1", _("win")), ("0.5", _("draw")), ("0", _("loss"))]
SIDES = [("received", _("I receive it")), ("given", _("I give it"))]
HANDICAPS = [("", _("none")), *[(code, HandicapCode(code).label) for code in HANDICAP_CODES]]


def _federation_id(value: str | None) -> str:
    """A player's federation id or name as typed, spaces trimmed and upper case (an id is upper case; a name is
    looked up case-free)."""
    return " ".join((value or "").split()).upper()


class StartForm(forms.Form):
    """Where the player starts: his own current state, or a rating with a game count."""

    player = forms.CharField(label=_("Player (name or federation id)"), required=False, max_length=100)
    rating = forms.IntegerField(label=_("or a rating"), required=False, min_value=1, max_value=3500)
    games = forms.IntegerField(label=_("and a game count"), required=False, min_value=0, max_value=10000)

    def clean_player(self) -> str:
        return _federation_id(self.cleaned_data.get("player"))

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if data.get("player") or self.errors:
            return data
        rating, games = data.get("rating"), data.get("games")
        if games is None or (games > 0 and rating is None):
            raise forms.ValidationError(
                _("Pick a player, or give a rating and a game count (a game count of 0 for a newcomer).")
            )
        if 0 < games < PROVISIONAL_FROM:
            raise forms.ValidationError(
                _("With fewer than %(n)s games a player is rated by the results so far: pick from the players."),
                params={"n": PROVISIONAL_FROM},
            )
        return data


class PlannedGameForm(forms.Form):
    """One planned game; a row with neither an opponent nor a rating is left out."""

    opponent = forms.CharField(label=_("Opponent (name or federation id)"), required=False, max_length=100)
    opponent_rating = forms.IntegerField(label=_("or a rating"), required=False, min_value=1, max_value=3500)
    result = forms.ChoiceField(label=_("Result"), choices=RESULTS, initial="1")
    handicap = forms.ChoiceField(label=_("Handicap"), choices=HANDICAPS, required=False)
    side = forms.ChoiceField(label=_("Handicap side"), choices=SIDES, required=False, initial="received")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The plan's inputs stand in a table under column headers: each says which game it belongs to, for
        # a screen reader and for axe's "every form field has a label".
        number = int(self.prefix.rsplit("-", 1)[-1]) + 1 if self.prefix and self.prefix[-1].isdigit() else 0
        for field in self.fields.values():
            field.widget.attrs["aria-label"] = _("%(field)s, game %(n)s") % {"field": field.label, "n": number}

    def has_changed(self) -> bool:
        """A row counts once it names an opponent; the result and handicap alone leave it empty."""
        return any(self.data.get(self.add_prefix(name), "").strip() for name in ("opponent", "opponent_rating"))

    def clean_opponent(self) -> str:
        return _federation_id(self.cleaned_data.get("opponent"))

    def planned(self, players: dict[str, Player]) -> PlannedGame | None:
        """The game, its opponent looked up in ``players`` (by federation id); None for an empty row."""
        data = self.cleaned_data
        if not data.get("opponent") and data.get("opponent_rating") is None:
            return None
        opponent = players.get(data["opponent"]) if data.get("opponent") else None
        return PlannedGame(
            score=float(data["result"]),
            opponent=opponent,
            opponent_rating=None if opponent is not None else data.get("opponent_rating"),
            handicap=data.get("handicap") or "",
            handicap_given=data.get("side") == "given",
        )


PlannedGameFormSet = forms.formset_factory(PlannedGameForm, extra=GAME_ROWS, max_num=GAME_ROWS, absolute_max=GAME_ROWS)


class TopListForm(forms.Form):
    """Which top list: of one country, of one grade, or overall."""

    country = forms.ChoiceField(label=_("Country"), required=False)
    grade = forms.ChoiceField(label=_("Grade"), required=False, choices=[("", _("All grades")), *GRADES])

    def __init__(self, *args: Any, countries: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        country = self.fields["country"]
        assert isinstance(country, forms.ChoiceField)
        country.choices = [("", _("All countries")), *countries]


class OfficialListFilter(PublishedListFilter):
    """An official list's filters, the rating list's own: the name, the country, and ``club`` and ``group``, the
    players in the club and in the category on the list's date (``list_date``)."""

    grade_min = grade_max = category = None  # type: ignore[assignment]  # none: not filters of an official list


class RevisedListForm(forms.Form):
    """Beside the filters of the list: whether to show the changed rows only, which the view reads."""

    changed = forms.BooleanField(label=_("Only changed rows"), required=False)


class RevisedListFilter(OfficialListFilter):
    """The filters of an official list beside today's list of its date: the list's own, and the changed rows only
    (a field of its form: ``changed`` is no condition on either list's entries)."""

    class Meta(OfficialListFilter.Meta):
        form = RevisedListForm


class SubscribeForm(forms.Form):
    """An address to tell about a player, in a language, for one or both events."""

    email = forms.EmailField(label=_("Your e-mail address"), max_length=254)
    language = forms.ChoiceField(label=_("Language of the messages"), choices=settings.LANGUAGES)
    on_tables = forms.BooleanField(
        label=_("A table the player played is rated or corrected"), required=False, initial=True
    )
    on_grades = forms.BooleanField(label=_("The player is awarded a grade"), required=False, initial=True)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["email"].widget.attrs.update(autocomplete="email", spellcheck="false")
        self.fields["language"].widget.attrs["autocomplete"] = "off"

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not (data.get("on_tables") or data.get("on_grades")):
            raise forms.ValidationError(_("Choose at least one kind of message."))
        return data


class ReportForm(forms.Form):
    """ "Something wrong?": which table and game (the choices the page offers), what is wrong, and an address to
    confirm it from and be told the outcome."""

    table = forms.TypedChoiceField(label=_("Table"), required=False, coerce=int, empty_value=None)
    game = forms.TypedChoiceField(label=_("Game"), required=False, coerce=int, empty_value=None)
    what = forms.CharField(
        label=_("What is wrong"),
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text=_("A result, a name, a date, a handicap…: what it says and what it should say."),
    )
    email = forms.EmailField(label=_("Your e-mail address"), max_length=254)
    language = forms.ChoiceField(label=_("Language of the messages"), choices=settings.LANGUAGES)

    def __init__(self, *args: Any, tables: list[tuple[int, str]], games: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        table_field, game_field = self.fields["table"], self.fields["game"]
        assert isinstance(table_field, forms.ChoiceField) and isinstance(game_field, forms.ChoiceField)
        table_field.choices = [("", "—"), *tables]
        game_field.choices = [("", "—"), *games]
        if not tables:
            del self.fields["table"]
        if not games:
            del self.fields["game"]
        self.fields["email"].widget.attrs.update(autocomplete="email", spellcheck="false")
