"""The facts a correction changes, as plain JSON (stored in ``Correction.before`` and ``after``), and the change
said in people's words: old → new, with names, not ids.

A correction stores its own facts rather than pointing at django-simple-history versions: a table is spread
over three histories (table, entries, games) whose records would have to be matched by time to rebuild one
moment, while a snapshot of exactly what changed is one value, is what the summary is written from, and is
what an undo hands back to the same services that made the correction (``table_save``,
``player_set_prior_grade``). The audit histories still record every row's versions as before.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django_countries import countries

from ratings.engine.prior_grades import prior_grade_label
from ratings.models import (
    Game,
    GameResult,
    HandicapCode,
    Player,
    PriorGradeSource,
    Table,
    TableEntry,
    Tournament,
    concrete_field,
)
from ratings.selectors.players import player_names
from ratings.services.tables.save import EntryFacts, GameEdit, table_check
from ratings.services.tables.submit import GameFacts

IDENTITY_FIELDS = (
    "family_name",
    "given_name",
    "latin_family_name",
    "latin_given_name",
    "nationality",
    "residence",
    "is_professional",
    "date_of_birth",
)
PRIOR_GRADE_FIELDS = ("kind", "level", "source", "note", "date")
GAME_FIELDS = ("round", "first_id", "second_id", "result", "handicap", "handicap_giver", "played", "replay_draw")


@dataclass(frozen=True)
class TableChange:
    """A submitted or rated table as it is to become: its place, its entries and its games (``table_save``)."""

    table: Table
    tournament: Tournament
    name: str
    date: dt.date
    sequence: int | None
    entries: Sequence[EntryFacts]
    games: Sequence[GameEdit]

    @classmethod
    def in_place(cls, table: Table, entries: Sequence[EntryFacts], games: Sequence[GameEdit]) -> TableChange:
        """``table`` where it stands (tournament, name, date, sequence) with these entries and games."""
        return cls(table, table.tournament, table.name, table.date, table.sequence, entries, games)


@dataclass(frozen=True)
class PriorGradeChange:
    """A player's prior grade as it is to become (``player_set_prior_grade``); ``kind`` "" clears it."""

    player: Player
    kind: str
    level: int | None
    source: str
    note: str = ""
    date: dt.date | None = None


@dataclass(frozen=True)
class IdentityChange:
    """A player's identity fields (IDENTITY_FIELDS) as they are to become; those not given stay."""

    player: Player
    values: Mapping[str, Any] = field(default_factory=dict)


Change = TableChange | PriorGradeChange | IdentityChange


def _iso(value: dt.date | None) -> str | None:
    return value.isoformat() if value is not None else None


def table_snapshot(table: Table) -> dict[str, Any]:
    """The saved table's place, entries (seat order) and games (round order), as JSON."""
    return {
        "tournament_id": table.tournament_id,
        "name": table.name,
        "date": table.date.isoformat(),
        "sequence": table.sequence,
        "entries": [[e.player_id, e.seat] for e in TableEntry.objects.filter(table=table).order_by("seat")],
        "games": [
            {"id": g.pk, **{name: getattr(g, name) for name in GAME_FIELDS}}
            for g in Game.objects.filter(table=table).order_by("round", "id")
        ],
    }


def table_change_snapshot(change: TableChange, *, sequence: int) -> dict[str, Any]:
    """The facts ``change`` is to save, as JSON; ``sequence`` is the one it takes (``table_check``)."""
    seated = sorted((e.player_id, e.seat or 0) for e in change.entries)
    return {
        "tournament_id": change.tournament.pk,
        "name": change.name,
        "date": change.date.isoformat(),
        "sequence": sequence,
        "entries": [list(pair) for pair in sorted(seated, key=lambda pair: pair[1])],
        "games": [
            {"id": g.id, **{name: getattr(g.facts, name) for name in GAME_FIELDS}}
            for g in sorted(change.games, key=lambda g: g.facts.round)
        ],
    }


def prior_grade_snapshot(player: Player) -> dict[str, Any]:
    return {
        "kind": player.prior_grade_kind,
        "level": player.prior_grade_level,
        "source": player.prior_grade_source,
        "note": player.prior_grade_note,
        "date": _iso(player.prior_grade_date),
    }


def identity_snapshot(player: Player, values: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The identity fields of ``player``, or those ``values`` give over them, as JSON."""
    out: dict[str, Any] = {}
    for name in IDENTITY_FIELDS:
        value = (values or {}).get(name, getattr(player, name))
        out[name] = value.isoformat() if isinstance(value, dt.date) else str(value) if name in _COUNTRIES else value
    return out


_COUNTRIES = ("nationality", "residence")


def snapshot_change(kind: str, facts: Mapping[str, Any], *, target: Table | Player) -> Change:
    """The change that makes ``target`` what the snapshot ``facts`` of a correction of ``kind`` says."""
    if kind == "table":
        assert isinstance(target, Table)
        existing = set(Game.objects.filter(table=target).values_list("pk", flat=True))
        games = [
            GameEdit(
                facts=GameFacts(**{name: g[name] for name in GAME_FIELDS}), id=g["id"] if g["id"] in existing else None
            )
            for g in facts["games"]
        ]
        return TableChange(
            table=target,
            tournament=Tournament.objects.get(pk=facts["tournament_id"]),
            name=facts["name"],
            date=dt.date.fromisoformat(facts["date"]),
            sequence=_free_sequence(target, dt.date.fromisoformat(facts["date"]), facts["sequence"]),
            entries=[EntryFacts(player_id=pid, seat=seat) for pid, seat in facts["entries"]],
            games=games,
        )
    assert isinstance(target, Player)
    if kind == "prior_grade":
        date = dt.date.fromisoformat(facts["date"]) if facts["date"] else None
        return PriorGradeChange(
            player=target,
            kind=facts["kind"],
            level=facts["level"],
            source=facts["source"],
            note=facts["note"],
            date=date,
        )
    values = dict(facts)
    if values.get("date_of_birth"):
        values["date_of_birth"] = dt.date.fromisoformat(values["date_of_birth"])
    return IdentityChange(player=target, values=values)


def _free_sequence(table: Table, date: dt.date, sequence: int) -> int | None:
    """The old place of a table on its day, unless another table has taken it since (then the next free one)."""
    taken = Table.objects.filter(date=date, sequence=sequence).exclude(pk=table.pk).exists()
    return None if taken else sequence


# --- In people's words ----------------------------------------------------------------------------------------


def describe(kind: str, before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """Each fact that differs between the two snapshots, as a line "what: old → new", naming players."""
    if kind == "table":
        return _describe_table(before, after)
    if kind == "prior_grade":
        return _describe_prior(before, after)
    return [
        _identity_line(name, before.get(name), after.get(name))
        for name in IDENTITY_FIELDS
        if before.get(name) != after.get(name)
    ]


def _identity_line(name: str, old: Any, new: Any) -> str:
    """ "nationality: France → Germany"; a date of birth is private (docs/privacy.md) and the summary is
    shown publicly, so it only says that it changed."""
    label = str(concrete_field(Player, name).verbose_name)
    if name == "date_of_birth":
        return _("%(field)s corrected") % {"field": label}
    if name in _COUNTRIES:
        old, new = (countries.name(code) if code else "" for code in (old, new))
    elif name == "is_professional":
        old, new = (_("yes") if value else _("no") for value in (old, new))
    return f"{label}: {_shown(old)} → {_shown(new)}"


def planned_lines(change: Change) -> list[str]:
    """What ``change`` would change, in the summary's words, before it is made (a table change that breaks a
    rule of tables raises TableRefused)."""
    if isinstance(change, TableChange):
        after = table_change_snapshot(change, sequence=table_change_check(change))
        return describe("table", table_snapshot(Table.objects.get(pk=change.table.pk)), after)
    saved = Player.objects.get(pk=change.player.pk)  # ``change.player`` may hold a form's new values already
    if isinstance(change, PriorGradeChange):
        after = prior_grade_change_snapshot(change)
        return (
            describe("prior_grade", prior_grade_snapshot(saved), after) if after != prior_grade_snapshot(saved) else []
        )
    return describe("identity", identity_snapshot(saved), identity_snapshot(saved, change.values))


def prior_grade_change_snapshot(change: PriorGradeChange) -> dict[str, Any]:
    """The prior grade ``change`` would store, as ``prior_grade_snapshot`` gives it (clearing clears all)."""
    if not change.kind:
        return {"kind": "", "level": None, "source": "", "note": "", "date": None}
    return {
        "kind": change.kind,
        "level": change.level,
        "source": change.source,
        "note": change.note,
        "date": _iso(change.date),
    }


def _shown(value: Any) -> str:
    return "—" if value in (None, "") else str(value)


def _describe_prior(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    lines = [_("Prior grade: %(old)s → %(new)s") % {"old": _prior(before), "new": _prior(after)}]
    if (before.get("note") or "") != (after.get("note") or "") and after.get("kind"):
        lines.append(_("prior grade note corrected"))  # personal data (docs/privacy.md); the summary is public
    if before.get("date") != after.get("date") and after.get("kind"):
        lines.append(
            _("prior grade date: %(old)s → %(new)s")
            % {"old": _shown(before.get("date")), "new": _shown(after.get("date"))}
        )
    return lines


def _prior(facts: Mapping[str, Any]) -> str:
    if not facts.get("kind") or facts.get("level") is None:
        return _("none")
    source = dict(PriorGradeSource.choices).get(facts["source"], facts["source"])
    return f"{prior_grade_label(facts['kind'], facts['level'])} ({source})"


def _describe_table(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    ids = {pid for facts in (before, after) for pid, _seat in facts["entries"]}
    ids |= {g[k] for facts in (before, after) for g in facts["games"] for k in ("first_id", "second_id") if g[k]}
    names = player_names(ids)
    lines: list[str] = []
    for name in ("date", "sequence", "name"):
        if before[name] != after[name]:
            lines.append(f"{concrete_field(Table, name).verbose_name}: {_shown(before[name])} → {_shown(after[name])}")
    if before["tournament_id"] != after["tournament_id"]:
        tournaments = dict(
            Tournament.objects.filter(pk__in=[before["tournament_id"], after["tournament_id"]]).values_list(
                "pk", "name"
            )
        )
        lines.append(
            _("tournament: %(old)s → %(new)s")
            % {"old": tournaments.get(before["tournament_id"]), "new": tournaments.get(after["tournament_id"])}
        )
    lines += _describe_entries(before["entries"], after["entries"], names)
    lines += _describe_games(before["games"], after["games"], names)
    return lines


def _describe_entries(before: list[list[int]], after: list[list[int]], names: Mapping[int, str]) -> list[str]:
    old = {player: seat for player, seat in before}
    new = {player: seat for player, seat in after}
    lines = [
        _("%(player)s entered (number %(seat)s)") % {"player": names.get(p), "seat": new[p]}
        for p in new
        if p not in old
    ]
    lines += [
        _("%(player)s removed (was number %(seat)s)") % {"player": names.get(p), "seat": old[p]}
        for p in old
        if p not in new
    ]
    lines += [
        _("%(player)s: number %(old)s → %(new)s") % {"player": names.get(p), "old": old[p], "new": new[p]}
        for p in new
        if p in old and old[p] != new[p]
    ]
    return lines


def _game_text(game: Mapping[str, Any], names: Mapping[int, str]) -> str:
    """ "round 2, Abe – Berg (Berg won, handicap Lance given by Abe)": who won and who gave, by name."""
    first, second = names.get(game["first_id"], "?"), names.get(game["second_id"], "?")
    pair = first + (f" – {second}" if game["second_id"] else "")
    winner = {GameResult.FIRST_WON: first, GameResult.SECOND_WON: second}.get(game["result"])
    extras = [_("%(player)s won") % {"player": winner} if winner else str(_label(GameResult, game["result"]))]
    if game["handicap"]:
        giver = first if game["handicap_giver"] == "first" else second
        code = _label(HandicapCode, game["handicap"])
        extras.append(_("handicap %(code)s given by %(giver)s") % {"code": code, "giver": giver})
    if not game["played"]:
        extras.append(_("not played"))
    if game["replay_draw"]:
        extras.append(_("replay"))
    return _("round %(round)s, %(pair)s (%(extras)s)") % {
        "round": game["round"],
        "pair": pair,
        "extras": ", ".join(extras),
    }


def _label(choices: Any, value: str) -> str:
    return str(dict(choices.choices).get(value, value))


def _describe_games(before: list[dict[str, Any]], after: list[dict[str, Any]], names: Mapping[int, str]) -> list[str]:
    old = {g["id"]: g for g in before}
    kept = {g["id"] for g in after if g["id"] is not None}
    lines = [
        _("Game %(old)s → %(new)s") % {"old": _game_text(old[g["id"]], names), "new": _game_text(g, names)}
        for g in after
        if g["id"] in old and _facts(old[g["id"]]) != _facts(g)
    ]
    lines += [_("Game added: %(game)s") % {"game": _game_text(g, names)} for g in after if g["id"] not in old]
    lines += [_("Game removed: %(game)s") % {"game": _game_text(g, names)} for g in before if g["id"] not in kept]
    return lines


def _facts(game: Mapping[str, Any]) -> tuple[Any, ...]:
    return tuple(game[name] for name in GAME_FIELDS)


def table_change_check(change: TableChange) -> int:
    """Raise TableRefused if ``change`` breaks a rule of tables (a rating officer's: no date rule of the
    directors'); else return the sequence the table takes."""
    return table_check(
        table=change.table,
        tournament=change.tournament,
        date=change.date,
        sequence=change.sequence,
        entries=change.entries,
        games=[g.facts for g in change.games],
        strict_dates=False,
    )
