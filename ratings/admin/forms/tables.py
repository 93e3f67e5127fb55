"""Forms of the directors' admin: a table with its entries and games, players, tournaments.

These forms check what was typed; the table's rules belong to ``ratings.services.tables.save``, which the
games' formset asks (``table_check``) about the table *as it will be saved* (the rows of both inline
formsets, with the table's new date), so every problem is shown with its round and players before anything
is written; the admin then saves through ``table_save``, which checks the same again in its transaction.
The database constraints that say the same things (one game per player per round, no game against oneself,
a result that fits the pairing, a handicap with its giver) are kept out of the per-row model validation:
their generic messages would only repeat those problems without naming anyone, and a row-by-row check
against the saved rows would refuse legitimate edits such as two players swapping seats or opponents.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Self

from django import forms
from django.core.exceptions import ValidationError
from django.forms import formset_factory
from django.forms.models import BaseInlineFormSet
from django.utils.translation import gettext_lazy

from ratings.models import Game, HandicapCode, Player, Table, TableEntry
from ratings.services.tables.dates import table_date_problems
from ratings.services.tables.save import EntryFacts, GameEdit, TableRefused, entry_problems, table_check, table_seats
from ratings.services.tables.submit import GameFacts


@dataclass
class TableEdit:
    """What a table's change form and its two inline formsets share while they are validated.

    ``strict_dates``: the directors' date rule (``ratings.services.tables.save``). ``sequence_from_form``: the
    form shows the sequence (rating officers, who order a day's tables); for anyone else the service keeps
    the table's place, or puts a new or moved table last on its day.
    """

    strict_dates: bool
    sequence_from_form: bool = False
    entries: TableEntryFormSet | None = None

    def sequence(self, table: Table) -> int | None:
        """The sequence asked for: the rating officer's (None when left empty), nobody else's."""
        return table.sequence if self.sequence_from_form else None


class TableCheckedForm(forms.ModelForm):
    """A form of the table or of one of its rows, some of whose fields the table-level check validates instead of
    the model (see the module doc): each subclass names them in ``_get_validation_exclusions``."""

    if TYPE_CHECKING:
        # Django's ModelForm has this hook, private and so left out of django-stubs.
        def _get_validation_exclusions(self) -> set[str]: ...


class TableForm(TableCheckedForm):
    sequence = forms.IntegerField(
        label=gettext_lazy("Sequence"),
        required=False,
        min_value=1,
        help_text=gettext_lazy(
            "Order among the tables of the same date: tables of one day are rated in this order. "
            "Leave empty to keep the table's place, or to put a new or moved table after the others of its day."
        ),
    )

    class Meta:
        model = Table
        fields = ["tournament", "name", "date", "sequence"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk is None and "sequence" in self.fields:
            self.initial["sequence"] = None  # a new table takes the next free number unless told otherwise

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if data.get("date") is not None:
            for problem in table_date_problems(date=data["date"], tournament=data.get("tournament")):
                self.add_error("date", problem)
        return data

    def _get_validation_exclusions(self) -> set[str]:
        # A sequence taken on the date is refused by table_check, whose message names the date and the number.
        return super()._get_validation_exclusions() | {"sequence"}


class TableEntryForm(TableCheckedForm):
    seat = forms.IntegerField(
        label=gettext_lazy("Number"),
        required=False,
        help_text=gettext_lazy("The player's line in the crosstable; empty: the next number."),
        widget=forms.NumberInput(attrs={"class": "round-number"}),
    )

    class Meta:
        model = TableEntry
        fields = ["seat", "player"]

    def _get_validation_exclusions(self) -> set[str]:
        # Seats and players are checked across the whole formset (TableEntryFormSet.clean); see the module doc.
        return super()._get_validation_exclusions() | {"seat", "player"}


class GameForm(TableCheckedForm):
    # Free text behind a list: an unknown code reaches table_problems, whose message names the round and
    # the players, instead of an anonymous "not a valid choice".
    handicap = forms.CharField(
        label=gettext_lazy("handicap"),
        required=False,
        max_length=2,
        widget=forms.Select(choices=[("", "—"), *HandicapCode.choices]),
    )

    class Meta:
        model = Game
        fields = ["round", "first", "second", "result", "handicap", "handicap_giver", "played", "replay_draw"]
        widgets = {"round": forms.NumberInput(attrs={"class": "round-number"})}
        labels = {"replay_draw": gettext_lazy("Replay")}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if "result" in self.fields:
            self.fields["result"].required = False  # a missing result is reported with its round and players

    def _get_validation_exclusions(self) -> set[str]:
        # The table-level check owns these rules and names the players; see the module doc.
        return super()._get_validation_exclusions() | {
            "round",
            "first",
            "second",
            "result",
            "handicap",
            "handicap_giver",
        }

    def facts(self) -> GameFacts:
        data = self.cleaned_data
        second = data.get("second")
        return GameFacts(
            round=data["round"],
            first_id=data["first"].pk,
            second_id=second.pk if second is not None else None,
            result=data.get("result") or "",
            handicap=data.get("handicap") or "",
            handicap_giver=data.get("handicap_giver") or "",
            played=bool(data.get("played")),
            replay_draw=bool(data.get("replay_draw")),
        )


def _kept_forms(formset: BaseInlineFormSet, required: str) -> list[forms.BaseForm]:
    """The forms whose rows will exist after saving: filled in and not marked for deletion."""
    return [
        form
        for form in formset.forms
        if form.cleaned_data.get(required) is not None and not (formset.can_delete and form.cleaned_data.get("DELETE"))
    ]


class TableRowsFormSet(BaseInlineFormSet):
    """The players' or the games' rows of a table's change form.

    ``table_edit`` is what the two formsets of one change form share: the admin makes one for each form it
    builds and gives it to both through :meth:`sharing` (TableAdmin.get_formsets_with_inlines).
    """

    table_edit: ClassVar[TableEdit | None] = None

    @classmethod
    def sharing(cls, edit: TableEdit) -> type[Self]:
        """This formset for one change form, sharing ``edit`` with the other formset of that form."""
        return type(cls.__name__, (cls,), {"table_edit": edit})


class TableEntryFormSet(TableRowsFormSet):
    """The table's players and their numbers; blank numbers are filled after the highest one given."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.table_edit is not None:
            self.table_edit.entries = self  # the games' formset checks the table with these players

    def clean(self) -> None:
        super().clean()
        if any(self.errors):
            return
        names = {f.cleaned_data["player"].pk: str(f.cleaned_data["player"]) for f in _kept_forms(self, "player")}
        problems = entry_problems(entries=self.final_entries(), names=names)
        if problems:
            raise ValidationError(problems)

    def final_entries(self) -> list[EntryFacts]:
        """Every row kept, in form order, numbered; call once the rows are clean."""
        return table_seats(
            [
                EntryFacts(player_id=f.cleaned_data["player"].pk, seat=f.cleaned_data.get("seat"))
                for f in _kept_forms(self, "player")
            ]
        )


class GameFormSet(TableRowsFormSet):
    """The table's games; its ``clean`` has the whole table checked as it will be saved (see the module doc)."""

    def clean(self) -> None:
        super().clean()
        table = self.instance
        if any(self.errors) or table.date is None:
            return  # the rows' or the form's own errors are shown; checking the table now would only confuse
        edit = self.table_edit or TableEdit(strict_dates=True)
        entries = None  # without the players' inline, the saved entries stay
        if edit.entries is not None:
            if not edit.entries.is_valid():
                return
            entries = edit.entries.final_entries()
        try:
            table_check(
                table=table,
                tournament=table.tournament if table.tournament_id else None,
                date=table.date,
                sequence=edit.sequence(table),
                entries=entries,
                games=[game.facts for game in self.edits()],
                strict_dates=edit.strict_dates,
            )
        except TableRefused as exc:
            # The date's problems are shown on the table's date field (TableForm.clean).
            problems = [p for name, found in exc.by_field.items() if name != "date" for p in found]
            if problems:
                raise ValidationError(problems) from exc

    def edits(self) -> list[GameEdit]:
        """The games as they will be saved, each with the saved game it replaces; call once the rows are clean."""
        edits = []
        for form in _kept_forms(self, "first"):
            assert isinstance(form, GameForm)  # the games' inline builds its rows with it
            edits.append(GameEdit(facts=form.facts(), id=form.instance.pk))
        return edits


class GridRowForm(forms.Form):
    """A row of the crosstable page (ratings/admin/grid.py): the player numbered by the row, and all his rounds
    in one text (``12+ 7-(+2p) 0+``), so that even 107 players make about 220 fields, far below the
    1,000 fields a request may carry. The cells are read by ``ratings.services.tables.grid``."""

    player = forms.ModelChoiceField(queryset=Player.objects.all(), required=False, label=gettext_lazy("player"))
    cells = forms.CharField(
        required=False,
        label=gettext_lazy("rounds"),
        widget=forms.TextInput(attrs={"class": "grid-cells", "spellcheck": "false", "autocomplete": "off"}),
    )

    def __init__(self, *args: Any, player_widget: forms.Widget | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if player_widget is not None:  # a field of its own: the widget is copied and given the field's choices
            field = self.fields["player"]
            self.fields["player"] = forms.ModelChoiceField(
                queryset=Player.objects.all(), required=False, label=field.label, widget=player_widget
            )


GridRowFormSet = formset_factory(GridRowForm, extra=0, max_num=1000, absolute_max=1000)


class GridPasteForm(forms.Form):
    paste = forms.CharField(
        required=False,
        label=gettext_lazy("Or paste a crosstable in turnering.txt notation"),
        help_text=gettext_lazy(
            "One line per player: 1 [family name] [given name] [12+ 7-(+2p) 0+]. The name and date lines may be "
            "left out. When given, it replaces the rows above."
        ),
        widget=forms.Textarea(attrs={"rows": 6, "cols": 100, "class": "grid-paste", "spellcheck": "false"}),
    )
