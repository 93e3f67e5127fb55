"""A director's ``turnering.txt`` into a table: read, match the players, preview the rating, then save.

One function, :func:`turnering_import`, serves the admin upload and ``manage.py import_turnering``:

* it reads the file (ratings/fesa_files/turnering.py: ISO-8859-1, or UTF-8 when the bytes are UTF-8),
  and refuses binary data or control characters with the line where they are;
* it matches every line to a player (ratings/selectors/fesa_match.py): a unique exact name is taken; a
  line whose name is shared by namesakes or only close to a player's (accents, case, swapped names)
  waits for the caller's choice; a line nobody matches is a new player when ``create_new`` is on;
* it refuses a date before any of its players' last rated table, a date in the future, a date outside the
  chosen tournament's dates (ratings/services/tables/dates.py) and a sequence already taken on the date
  (without a sequence the next free one is taken);
* it builds the tournament (when none is given), the table, its entries and games in one transaction and
  asks ratings/services/tables/submit.py for the rating preview. With ``commit=False`` that transaction is rolled
  back, so nothing is saved whatever happens; with ``commit=True`` it is kept only when there is no
  problem at all, and ``submit=True`` then submits the table (re-rated after commit).

Every problem is collected with its line number, so the director sees them all at once; a file the reader
rejects shows every problem the reader found (ratings/fesa_files/turnering.py).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django_countries import countries

from ratings import engine
from ratings.engine.prior_grades import is_prior_grade
from ratings.fesa_files.errors import FesaFileError, FesaFileErrors
from ratings.fesa_files.turnering import Turnering
from ratings.models import Player, Table, Tournament
from ratings.selectors.fesa_match import NameMatch, PlayerIndex
from ratings.selectors.states import states_before
from ratings.services.fesa.import_plan import (
    NEW,
    Choice,
    LinePlan,
    Problem,
    RatingEffect,
    TurneringPlan,
    TurneringRejected,
)
from ratings.services.fesa.state import fesa_newcomers_arrive, fesa_newcomers_import
from ratings.services.fesa.tables import MAX_UPLOAD_BYTES, NewPlayerFacts, read_upload, table_create
from ratings.services.tables.submit import TableInvalid, table_preview, table_submit


def turnering_import(
    *,
    data: bytes,
    file: str = "turnering.txt",
    tournament: Tournament | None,
    user: Any = None,
    choices: Mapping[int, Choice] | None = None,
    new_players: Mapping[int, NewPlayerFacts] | None = None,
    nye_spillere: bytes | None = None,
    nye_spillere_file: str = "nye-spillere",
    create_new: bool = False,
    sequence: int | None = None,
    table_name: str = "",
    commit: bool = False,
    submit: bool = False,
    today: dt.date | None = None,
) -> TurneringPlan:
    """Plan (``commit=False``) or do (``commit=True``) the import of a ``turnering.txt``; see the module doc.

    ``choices`` maps a line's player number to a player id or :data:`NEW`, overriding the automatic match;
    an id must be one of the line's candidates. ``new_players`` gives nationality and prior grade of new
    players by number (the file's two-letter free text is the default nationality). ``nye_spillere`` is the
    program's new-player file that comes with the table: its players are created first, as the program
    reads them (ratings/services/fesa/state.py), so the table's lines match them by name (the caller
    decides who may create players; ``create_new`` is about the other lines). Raises TurneringRejected when
    ``commit`` is on and there is any problem; nothing is saved then.
    """
    options: dict[str, Any] = {
        "data": data, "tournament": tournament, "user": user, "choices": choices or {},
        "new_players": new_players or {}, "create_new": create_new, "sequence": sequence,
        "table_name": table_name, "commit": commit, "submit": submit, "today": today,
    }  # fmt: skip
    if nye_spillere is None:
        return _import(TurneringPlan(file=file), fresh=(), **options)
    plan = TurneringPlan(file=file)
    with transaction.atomic():
        try:
            fresh = fesa_newcomers_import(new_players=nye_spillere, file=nye_spillere_file)
        except FesaFileError as exc:
            plan.problem(None, str(exc))
            return _finish(plan, commit)
        # A rejected commit raises out of this block, which undoes the new players with the rest.
        plan = _import(plan, fresh=tuple(p.pk for p in fresh), **options)
        if plan.table_id is None:
            transaction.set_rollback(True)  # a preview: the new players go with it
        plan.created_players += len(fresh)
    return plan


def _import(
    plan: TurneringPlan,
    *,
    data: bytes,
    tournament: Tournament | None,
    user: Any,
    choices: Mapping[int, Choice],
    new_players: Mapping[int, NewPlayerFacts],
    create_new: bool,
    sequence: int | None,
    table_name: str,
    commit: bool,
    submit: bool,
    today: dt.date | None,
    fresh: tuple[int, ...],
) -> TurneringPlan:
    """:func:`turnering_import` once the new players of ``nye-spillere`` (ids ``fresh``) exist."""
    try:
        turnering = read_upload(data, plan.file)
    except FesaFileError as exc:
        for error in exc.errors if isinstance(exc, FesaFileErrors) else [exc]:
            plan.problem(error.line, error.message)
        return _finish(plan, commit)
    plan.turnering = turnering
    _decide(plan, turnering, PlayerIndex(), choices, new_players, create_new, fresh)
    plan.sequence = _position(plan, turnering.date, sequence)
    _check_dates(plan, turnering.date, today or timezone.localdate())
    if plan.problems:
        return _finish(plan, commit)
    players: dict[int, int | NewPlayerFacts] = {
        line.number: line.choice if isinstance(line.choice, int) else line.new_player or NewPlayerFacts()
        for line in plan.lines
    }
    try:
        with transaction.atomic():
            try:
                table, ids, plan.created_players = table_create(
                    turnering=turnering,
                    tournament=tournament,
                    user=user,
                    name=table_name,
                    sequence=plan.sequence or 1,
                    players=players,
                )
                if fresh:
                    fesa_newcomers_arrive(table=table, players=[Player(pk=pid) for pid in fresh])
                result = table_preview(table)
            except TableInvalid as exc:  # TableRefused from table_create's table_save, too
                plan.problems.extend(Problem(None, message) for message in exc.problems)
            else:
                plan.effects = _effects(plan, result, ids)
            if commit and not plan.problems:
                if submit:
                    table_submit(table=table, user=user)
                plan.table_id = table.pk
            else:
                transaction.set_rollback(True)
    except IntegrityError:
        if not Table.objects.filter(date=turnering.date, sequence=plan.sequence).exists():
            raise
        # Another table took the same date and sequence between our check and our insert.
        plan.table_id = None
        plan.problem(
            None,
            _("another table was just saved on %(date)s with sequence %(sequence)s; try again")
            % {"date": turnering.date.isoformat(), "sequence": plan.sequence},
        )
    return _finish(plan, commit)


def _finish(plan: TurneringPlan, commit: bool) -> TurneringPlan:
    if commit and plan.problems:
        raise TurneringRejected(plan)
    return plan


def _decide(
    plan: TurneringPlan,
    turnering: Turnering,
    index: PlayerIndex,
    choices: Mapping[int, Choice],
    new_players: Mapping[int, NewPlayerFacts],
    create_new: bool,
    fresh: tuple[int, ...],
) -> None:
    """Match every line, apply the caller's choices, and record the problems of lines left undecided.
    ``fresh``: the players just created from ``nye-spillere``, new players although they have a name."""
    taken: dict[int, int] = {}  # player id -> the line that took him
    new_names: dict[tuple[str, str], int] = {}
    for p in turnering.players:
        match = index.match(p.last_name, p.first_name)
        results = "&" if p.simul_giver else " ".join(c.text() for c in p.cells)
        choice: Choice | None = choices.get(p.number)
        name = f"{p.last_name} {p.first_name}".strip()
        if choice == NEW and not create_new:
            plan.problem(p.line, _("%(name)s: new players may not be created here") % {"name": name})
            choice = None
        elif choice is not None and choice != NEW and choice not in {c.player_id for c in match.candidates}:
            plan.problem(p.line, _("%(name)s: the chosen player is not one this name may mean") % {"name": name})
            choice = None
        elif choice is None:
            if match.unique_exact is not None:
                choice = match.unique_exact.player_id
            elif not match.candidates and create_new:
                choice = NEW
        facts = None
        if choice == NEW:
            facts = _new_player_facts(plan, p.line, name, new_players.get(p.number), p.nationality)
            if not p.last_name.strip():
                plan.problem(p.line, _("a new player needs a family name"))
            if len(p.last_name) > 100 or len(p.first_name) > 100:
                plan.problem(p.line, _("%(name)s: a name may have at most 100 characters") % {"name": name})
            first = new_names.setdefault(p.name, p.line or 0)
            if first != (p.line or 0):
                plan.problem(p.line, _("%(name)s is already on line %(first)s") % {"name": name, "first": first})
        elif choice is not None:
            first_line = taken.setdefault(choice, p.line or 0)
            if first_line != (p.line or 0):
                plan.problem(
                    p.line, _("%(name)s is the same player as on line %(first)s") % {"name": name, "first": first_line}
                )
        elif not any(problem.line == p.line for problem in plan.problems):
            plan.problem(p.line, _undecided_message(name, match))
        if p.marked_new and choice not in (None, NEW) and choice not in fresh:
            plan.notes.append(
                _("line %(line)s: %(name)s is marked new (N) but a player has this name; he is taken as that player.")
                % {"line": p.line, "name": name}
            )
        plan.lines.append(
            LinePlan(
                number=p.number,
                line=p.line,
                family_name=p.last_name,
                given_name=p.first_name,
                free_text=p.free_text.strip(),
                results=results,
                points=f"{float(turnering.points(p.number)):g}",
                match=match,
                choice=choice,
                new_player=facts,
                marked_new=p.marked_new,
                from_new_players=choice in fresh,
            )
        )


def _undecided_message(name: str, match: NameMatch) -> str:
    if len(match.exact) > 1:
        return _("%(name)s: %(count)s players have this name; choose one") % {"name": name, "count": len(match.exact)}
    if match.close:
        close = "; ".join(c.label for c in match.close)
        return _("%(name)s is not a known player, but close to: %(close)s; choose one or “new player”") % {
            "name": name,
            "close": close,
        }
    return _("unknown player %(name)s: no player has this name, and new players may not be created here") % {
        "name": name
    }


def _new_player_facts(
    plan: TurneringPlan, line: int | None, name: str, given: NewPlayerFacts | None, from_file: str | None
) -> NewPlayerFacts:
    facts = given or NewPlayerFacts(nationality=from_file or "")
    nationality = facts.nationality.strip().upper()
    if nationality and not countries.alpha2(nationality):
        if given is None:
            plan.notes.append(
                _("line %(line)s: %(code)s is not a country code; %(name)s is created without a nationality.")
                % {"line": line, "code": nationality, "name": name}
            )
        else:
            plan.problem(line, _("%(name)s: %(code)s is not a country code") % {"name": name, "code": nationality})
        nationality = ""
    kind, level = facts.prior_kind, facts.prior_level
    if kind and not is_prior_grade(kind, level):
        plan.problem(line, _("%(name)s: no such prior grade") % {"name": name})
        kind, level = "", None
    return NewPlayerFacts(nationality=nationality, prior_kind=kind, prior_level=level if kind else None)


MAX_SEQUENCE = 999
"""The highest sequence of a table on its date (a few tables share a date; the column is a small integer)."""


def _position(plan: TurneringPlan, date: dt.date, sequence: int | None) -> int:
    """The table's sequence on its date: the one asked for if free, else the next free one."""
    taken = dict(Table.objects.filter(date=date).values_list("sequence", "id"))
    if sequence is not None:
        if not 1 <= sequence <= MAX_SEQUENCE:
            plan.problem(None, _("the sequence must be between 1 and %(max)s") % {"max": MAX_SEQUENCE})
        elif sequence in taken:
            plan.problem(
                None,
                _("%(date)s already has a table with sequence %(sequence)s; leave the sequence empty to take %(free)s")
                % {"date": date.isoformat(), "sequence": sequence, "free": max(taken) + 1},
            )
        return sequence
    following = max(taken, default=0) + 1
    if taken:
        plan.notes.append(
            _("%(date)s already has %(count)s table(s): this one comes after them, with sequence %(sequence)s.")
            % {"date": date.isoformat(), "count": len(taken), "sequence": following}
        )
    return following


def _check_dates(plan: TurneringPlan, date: dt.date, today: dt.date) -> None:
    """A table may not come before a table (or the opening state) its players were already rated in."""
    if date > today:
        plan.problem(None, _("the table's date %(date)s is in the future") % {"date": date.isoformat()})
    ids = [line.choice for line in plan.lines if isinstance(line.choice, int)]
    latest = states_before(date=dt.date.max, sequence=1, player_ids=ids)
    for line in plan.lines:
        if not isinstance(line.choice, int):
            continue
        last = latest[line.choice].last_played
        if last is not None and last > date:
            plan.problem(
                line.line,
                _("the table's date %(date)s is before %(name)s's last rated table (%(last)s)")
                % {"date": date.isoformat(), "name": line.name, "last": last.isoformat()},
            )


def _effects(plan: TurneringPlan, result: engine.TableResult, ids: Mapping[int, int]) -> list[RatingEffect]:
    number_of = {pid: n for n, pid in ids.items()}
    lines = {line.number: line for line in plan.lines}
    effects = []
    for o in result.outcomes:
        number = number_of[o.key]  # type: ignore[index]
        line = lines[number]
        effects.append(
            RatingEffect(
                number=number,
                name=line.name,
                method=o.method,
                rating_before=o.before.rating,
                rating_after=o.after.rating,
                change=o.change,
                games=len(o.games),
                score=o.score,
                new_player=line.choice == NEW or line.from_new_players,
                grade_before=engine.grade_label(o.before.grade),
                promoted_to=engine.grade_label(o.after.grade) if o.promotions else "",
            )
        )
    return sorted(effects, key=lambda e: e.number)


__all__ = [
    "MAX_UPLOAD_BYTES",
    "NEW",
    "LinePlan",
    "NewPlayerFacts",
    "Problem",
    "RatingEffect",
    "TurneringPlan",
    "TurneringRejected",
    "read_upload",
    "turnering_import",
]
