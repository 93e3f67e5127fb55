"""Forms of the directors' admin: a table with its entries and games validated as one, players, tournaments.

The table's rules are checked once, by ``ratings.services.tables.table_problems``, on the entries and games
*as they will be saved* (the rows of both inline formsets, with the table's new date), so every problem is
shown with its round and players before anything is written. The database constraints that say the same
things (one game per player per round, no game against oneself, a result that fits the pairing, a handicap
with its giver) are kept out of the per-row model validation: their generic messages would only repeat those
problems without naming anyone, and a row-by-row check against the saved rows would refuse legitimate edits
such as two players swapping seats or opponents. The formsets' ``save`` then writes such swaps in an order
the constraints accept.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.db.models import Max
from django.forms.models import BaseInlineFormSet
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ratings.engine.prior_grades import PRIOR_GRADE_LEVELS
from ratings.models import (
    Game,
    HandicapCode,
    Player,
    RatingRow,
    Table,
    TableEntry,
    TableStatus,
    Tournament,
)
from ratings.selectors.states import states_before
from ratings.services.tables import GameFacts, engine_games, table_problems

# Rows whose seat or round has to move out of the way while a swap is written (see ``_park``). The values
# are far above any real seat or round, fit a PostgreSQL smallint and satisfy the "1 or more" constraints.
PARKING_FROM = 32000


@dataclass
class TableEdit:
    """What a table's change form and its inline formsets share while one request validates them.

    ``strict_dates``: a table may not be dated before any of its players' last rated table anywhere in the
    history (directors), rather than only before the tables that precede it (rating officers, who insert
    late tables into the past on purpose and whose edits re-rate what follows).
    """

    strict_dates: bool
    entries: TableEntryFormSet | None = None


def next_free_sequence(date: dt.date, exclude_table: int | None = None) -> int:
    """The number after the highest sequence of the tables of ``date`` (1 for the first table of a day)."""
    highest = Table.objects.filter(date=date).exclude(pk=exclude_table).aggregate(m=Max("sequence"))["m"]
    return (highest or 0) + 1


class TournamentForm(forms.ModelForm):
    class Meta:
        model = Tournament
        fields = ["name", "city", "country", "start_date", "end_date", "time_control", "directors"]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        start, end = data.get("start_date"), data.get("end_date")
        if start and end and end < start:
            self.add_error("end_date", _("The tournament cannot end before it starts."))
        return data


class TableForm(forms.ModelForm):
    sequence = forms.IntegerField(
        label=gettext_lazy("Sequence"),
        required=False,
        min_value=1,
        help_text=gettext_lazy(
            "Order among the tables of the same date: tables of one day are rated in this order. "
            "Leave empty to take the next free number."
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
        data = super().clean()
        date = data.get("date")
        if date is None:
            return data
        if "sequence" not in self.fields:
            # The sequence is the rating officers' to set; anyone else's new or moved table comes last that day.
            if self.instance.pk is None or "date" in self.changed_data:
                self.instance.sequence = next_free_sequence(date, self.instance.pk)
            return data
        sequence = data.get("sequence")
        if sequence is None:
            data["sequence"] = next_free_sequence(date, self.instance.pk)
        elif Table.objects.filter(date=date, sequence=sequence).exclude(pk=self.instance.pk).exists():
            self.add_error(
                "sequence",
                _("Another table of %(date)s has the number %(sequence)s; leave it empty to take the next free one.")
                % {"date": date.isoformat(), "sequence": sequence},
            )
        return data


class PlayerForm(forms.ModelForm):
    class Meta:
        model = Player
        fields = [
            "family_name",
            "given_name",
            "nationality",
            "residence",
            "is_professional",
            "date_of_birth",
            "prior_grade_kind",
            "prior_grade_level",
            "prior_grade_source",
            "prior_grade_note",
            "prior_grade_date",
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        kind, level = data.get("prior_grade_kind"), data.get("prior_grade_level")
        if kind and level is None:
            self.add_error("prior_grade_level", _("Give the level of the prior grade (3 for 3 Kyu, say)."))
        elif level is not None and not kind:
            self.add_error("prior_grade_kind", _("Say whether the level is Kyu, amateur Dan or professional Dan."))
        elif kind:
            low, high = PRIOR_GRADE_LEVELS[kind]
            if not low <= level <= high:
                self.add_error(
                    "prior_grade_level",
                    _("A prior grade of this kind goes from %(low)s to %(high)s.") % {"low": low, "high": high},
                )
        if kind and not data.get("prior_grade_source"):
            self.add_error("prior_grade_source", _("Say where the prior grade comes from."))
        return data


class TableEntryForm(forms.ModelForm):
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


class GameForm(forms.ModelForm):
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


def _park(model: type[TableEntry] | type[Game], field: str, pks: list[int]) -> None:
    """Move rows to unused numbers (without a history record) so the final values can be written in any order."""
    for offset, pk in enumerate(pks):
        model.objects.filter(pk=pk).update(**{field: PARKING_FROM + offset})


class TableEntryFormSet(BaseInlineFormSet):
    """The table's players and their numbers; blank numbers are filled after the highest one given."""

    def __init__(self, *args: Any, table_edit: TableEdit | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.table_edit = table_edit
        if table_edit is not None:
            table_edit.entries = self

    def clean(self) -> None:
        super().clean()
        if any(self.errors):
            return
        kept = _kept_forms(self, "player")
        given = [f.cleaned_data["seat"] for f in kept if f.cleaned_data.get("seat") is not None]
        following = max(given, default=0) + 1
        for form in kept:
            if form.cleaned_data.get("seat") is None:
                form.cleaned_data["seat"] = form.instance.seat = following
                following += 1
        problems: list[str] = []
        by_player: dict[int, tuple[Player, int]] = {}
        by_seat: dict[int, Player] = {}
        for form in kept:
            player, seat = form.cleaned_data["player"], form.cleaned_data["seat"]
            if seat < 1:
                problems.append(_("%(player)s: numbers start at 1, not %(seat)s.") % {"player": player, "seat": seat})
            if player.pk in by_player:
                problems.append(
                    _("%(player)s is entered twice (numbers %(a)s and %(b)s).")
                    % {"player": player, "a": by_player[player.pk][1], "b": seat}
                )
            elif seat in by_seat:
                problems.append(
                    _("Number %(seat)s is given to both %(a)s and %(b)s.")
                    % {"seat": seat, "a": by_seat[seat], "b": player}
                )
            by_player.setdefault(player.pk, (player, seat))
            by_seat.setdefault(seat, player)
        if problems:
            raise ValidationError(problems)

    def final_entries(self) -> list[tuple[Player, int]]:
        """(player, number) of every row kept, in form order; call once the formset is valid."""
        return [(f.cleaned_data["player"], f.cleaned_data["seat"]) for f in _kept_forms(self, "player")]

    def save(self, commit: bool = True) -> list[TableEntry]:
        """Write the entries matched by player: a player keeps his row (and its history) when his number moves.

        Matching by player, not by form row, turns "the players of rows 1 and 2 swapped" into two number
        changes, which ``_park`` lets through the one-number-per-player constraint.
        """
        if not commit:
            return super().save(commit=False)
        table = self.instance
        wanted = self.final_entries()
        existing = {e.player_id: e for e in TableEntry.objects.filter(table=table).select_related("player")}
        wanted_ids = {player.pk for player, _seat in wanted}
        self.deleted_objects = [e for pid, e in existing.items() if pid not in wanted_ids]
        for entry in self.deleted_objects:
            entry.delete()
        moving = [existing[p.pk] for p, seat in wanted if p.pk in existing and existing[p.pk].seat != seat]
        _park(TableEntry, "seat", [e.pk for e in moving])
        self.new_objects, self.changed_objects = [], []
        for player, seat in wanted:
            entry = existing.get(player.pk)
            if entry is None:
                self.new_objects.append(TableEntry.objects.create(table=table, player=player, seat=seat))
            elif entry.seat != seat:
                entry.seat = seat
                entry.save(update_fields=["seat"])
                self.changed_objects.append((entry, ["seat"]))
        return self.new_objects + [e for e, _fields in self.changed_objects]


class GameFormSet(BaseInlineFormSet):
    """The table's games; its ``clean`` checks the whole table as it will be saved (see the module doc)."""

    def __init__(self, *args: Any, table_edit: TableEdit | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.table_edit = table_edit

    def clean(self) -> None:
        super().clean()
        if any(self.errors):
            return
        entries_formset = self.table_edit.entries if self.table_edit is not None else None
        if entries_formset is not None:
            if not entries_formset.is_valid():
                return  # its own errors are shown; checking games against broken entries would only confuse
            entries = entries_formset.final_entries()
        elif self.instance.pk is not None:
            entries = [(e.player, e.seat) for e in self.instance.entries.select_related("player")]
        else:
            entries = []
        game_forms = _kept_forms(self, "first")
        games = [form.facts() for form in game_forms]
        names = {player.pk: str(player) for player, _seat in entries}
        for form in game_forms:
            for key in ("first", "second"):
                if form.cleaned_data.get(key) is not None:
                    names.setdefault(form.cleaned_data[key].pk, str(form.cleaned_data[key]))
        strict = self.table_edit.strict_dates if self.table_edit is not None else False
        problems = table_edit_problems(
            table=self.instance, entry_player_ids=[p.pk for p, _s in entries], games=games, names=names, strict=strict
        )
        if problems:
            raise ValidationError(problems)

    def save(self, commit: bool = True) -> list[Game]:
        """Save as usual, after parking the rows that change or go, so that games may trade players or rounds.

        Without it, "A plays C instead of B, and B plays D instead of C" in one round would hit the
        one-game-per-player-per-round constraint half-way, whatever the order of the rows.
        """
        if commit:
            leaving = [
                form.instance.pk
                for form in self.initial_forms
                if form.instance.pk is not None and (form in self.deleted_forms or form.has_changed())
            ]
            _park(Game, "round", leaving)
        return super().save(commit)


def table_edit_problems(
    *, table: Table, entry_player_ids: list[int], games: list[GameFacts], names: dict[int, str], strict: bool
) -> list[str]:
    """Every reason the table, saved with these entries and games, could not be rated.

    A draft may be incomplete (no players or no rated game yet); a submitted or rated table may not, since
    saving it re-rates it. ``table`` carries the date and sequence the form is about to save.
    """
    date = table.date
    if date is None:
        last: dict[int, dt.date | None] = {}
        date = dt.date.max  # the form's own error about the date is shown; nothing to compare with
    else:
        sequence = table.sequence or next_free_sequence(date, table.pk)
        states = states_before(date=date, sequence=sequence, player_ids=entry_player_ids)
        last = {pid: state.last_played for pid, state in states.items()}
    if strict and entry_player_ids:
        lenient = dict(last)
        elsewhere = (
            RatingRow.objects.filter(player_id__in=entry_player_ids)
            .exclude(table_id=table.pk)
            .values("player_id")
            .annotate(last=Max("date"))
            .values_list("player_id", "last")
        )
        for pid, when in elsewhere:
            last[pid] = max(when, last.get(pid) or when)
        playing = {g.first_id for g in games} | {g.second_id for g in games if g.second_id is not None}
        if any(_after(last.get(pid), date) and not _after(lenient.get(pid), date) for pid in playing):
            hint = _(
                "Only a rating officer can enter a table dated before one of its players' last rated table, "
                "since it changes ratings published since: check the date, or ask a rating officer."
            )
        else:
            hint = None
    else:
        hint = None
    problems = table_problems(
        table_date=date, entry_player_ids=entry_player_ids, games=games, names=names, last_played=last
    )
    if hint and problems:
        problems.append(hint)
    if table.status != TableStatus.DRAFT:
        if not entry_player_ids:
            problems.append(_("The table has no players."))
        elif not engine_games(games):
            problems.append(_("The table has no rated game."))
    return problems


def _after(when: dt.date | None, date: dt.date) -> bool:
    return when is not None and when > date
