"""A director's ``turnering.txt`` into a table: read, match the players, preview the rating, then save.

One function, :func:`turnering_import`, serves the admin upload and the API's submit (both through
:func:`turnering_request_import`, with the :class:`TurneringRequest` each builds once) and ``manage.py
import_turnering``. It checks the whole upload, every stage of it, before anything is saved, and reports every
problem at once, each once, each with its file and line (or the field it is about):

* it reads the file (ratings/fesa_files/turnering.py: ISO-8859-1, or UTF-8 when the bytes are UTF-8),
  refusing binary data and control characters with the line where they are; a file the reader refuses is
  still checked as far as it could be read (its players matched, its date checked);
* it reads the program's ``nye-spillere`` that may come with the table and decides who its players are
  (ratings/services/fesa/newcomers.py): players of the site are recognised, never created twice,
  and their prior grades never changed by the file; new players' grades are set only by a rating officer's
  upload or the command line, a director's are proposals for a rating officer;
* it matches every line to a player (ratings/selectors/fesa_match.py), the players of ``nye-spillere``
  among them: the one player whose names read the same in plain Latin letters (accents, case, ``ue`` for
  ``ü``) is taken; a line whose name is shared by namesakes or only close to a player's (swapped names, a
  letter apart) waits for the caller's choice; a line nobody matches is a new
  player when ``create_new`` is on;
* it refuses a date in the future, outside the chosen tournament's dates (ratings/services/tables/dates.py)
  or before any of its players' last rated table (told once, naming every such player's line), and a
  sequence already taken on the date (without a sequence the next free one is taken);
* it rates the table in memory, as the engine will once it is submitted: a preview writes nothing.

With ``commit=True`` and no problem at all, it then creates, in one transaction, the new players, the
tournament (when none is given), the table, its entries and games (ratings/services/fesa/tables.py), and
``submit=True`` submits the table (re-rated after commit).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django_countries import countries

from ratings import engine
from ratings.access import may_set_prior_grades
from ratings.engine.prior_grades import is_prior_grade
from ratings.engine.types import prior_grade_read
from ratings.fesa_files.encoding import decode_lenient
from ratings.fesa_files.names import refused_character
from ratings.fesa_files.turnering import Turnering, engine_table, file_lines
from ratings.models import Table, Tournament
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
    TurneringRequest,
)
from ratings.services.fesa.messages import problem_text
from ratings.services.fesa.newcomers import (
    Newcomer,
    newcomers_arrive,
    newcomers_create,
    newcomers_notes,
    newcomers_plan,
)
from ratings.services.fesa.tables import (
    MAX_UPLOAD_BYTES,
    NewPlayerFacts,
    read_upload,
    read_upload_checked,
    table_create,
    table_game_facts,
)
from ratings.services.tables.dates import table_date_problems
from ratings.services.tables.save import table_date_lock
from ratings.services.tables.submit import TableInvalid, off_scale_message, table_submit
from ratings.services.tables.twins import twin_problems

MAX_NAMED = 10
"""The players a problem of many names lists by name (the others are counted)."""


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
    program's new-player file that comes with the table: the table's lines match its players by name (the
    caller decides who may create players; ``create_new`` is about the other lines). ``user`` None is the
    command line, which sets prior grades as a rating officer does. Raises TurneringRejected when ``commit``
    is on and there is any problem; nothing is saved then.
    """
    plan = TurneringPlan(file=file)
    may_set = may_set_prior_grades(user)
    hidden = refused_character(table_name)
    if hidden is not None:  # the rule of every name (models/common.py check_names): it shows in the page's title
        plan.problem(
            None,
            _(
                "A name may not hold %(char)s: no control, invisible format (such as right-to-left or zero-width) "
                "or line-separator character."
            )
            % {"char": hidden},
        )
    turnering, read_problems = read_upload_checked(data, file)
    for error in read_problems:
        plan.problem(error.line, problem_text(error), error.file)
    if nye_spillere is not None:
        plan.newcomers, nye_problems = newcomers_plan(
            data=nye_spillere, file=nye_spillere_file, may_set_prior_grades=may_set
        )
        for error in nye_problems:
            plan.problem(error.line, problem_text(error), error.file)
        plan.notes.extend(newcomers_notes(plan.newcomers))
    if turnering is None:
        return _finish(plan, commit)
    plan.turnering = turnering
    to_create = [n for n in plan.newcomers if n.player_id is None]
    index = PlayerIndex(
        extra=[(n.key, n.record.last_name, n.record.first_name, n.nationality, n.file_grade) for n in to_create]
    )
    fresh = {n.key for n in plan.newcomers}
    _decide(plan, turnering, index, choices or {}, new_players or {}, create_new, fresh)
    if not commit:
        return _place(plan, turnering, data, tournament, sequence, today, may_set)
    with transaction.atomic():  # the date's sequences held from choosing the next free one until saved
        table_date_lock(date=turnering.date)
        _place(plan, turnering, data, tournament, sequence, today, may_set)
        if not plan.problems:
            _save(plan, turnering, tournament=tournament, user=user, table_name=table_name, submit=submit)
        return _finish(plan, commit)


def turnering_request_import(request: TurneringRequest, *, commit: bool = False, submit: bool = False) -> TurneringPlan:
    """:func:`turnering_import` of a request an interface built once, for its preview and its save alike."""
    return turnering_import(
        data=request.data,
        file=request.file,
        tournament=request.tournament,
        user=request.user,
        choices=request.choices,
        new_players=request.new_players,
        nye_spillere=request.nye_spillere,
        nye_spillere_file=request.nye_spillere_file,
        create_new=request.create_new,
        sequence=request.sequence,
        table_name=request.table_name,
        commit=commit,
        submit=submit,
    )


def _place(
    plan: TurneringPlan,
    turnering: Turnering,
    data: bytes,
    tournament: Tournament | None,
    sequence: int | None,
    today: dt.date | None,
    may_set: bool,
) -> TurneringPlan:
    """The table's sequence on its date, its dates' problems, and (without any problem) its rating effect."""
    plan.sequence = _position(plan, turnering.date, sequence)
    if turnering.date != dt.date.min:  # a date that could not be read is a problem already
        _check_dates(plan, turnering, _date_line(data), tournament, today or timezone.localdate())
        _check_twins(plan, turnering)
    if not plan.problems:
        _rate(plan, turnering, may_set)
    return plan


def _check_twins(plan: TurneringPlan, turnering: Turnering) -> None:
    """The file uploaded already: its lines all name players of the site, and a table of its date holds the
    same games (ratings/services/tables/twins.py). A line still to choose or a new player (of the upload's
    choices or of nye-spillere, whose stand-in ids are negative) cannot be one."""
    ids = {line.number: line.choice for line in plan.lines if isinstance(line.choice, int) and line.choice > 0}
    if plan.problems or len(ids) < len(plan.lines):  # a file with problems may name an opponent it does not hold
        return
    for message in twin_problems(date=turnering.date, games=table_game_facts(turnering, ids)):
        plan.problem(None, message)


def _save(
    plan: TurneringPlan,
    turnering: Turnering,
    *,
    tournament: Tournament | None,
    user: Any,
    table_name: str,
    submit: bool,
) -> None:
    """Create everything the plan holds, in one transaction; a problem found now undoes all of it."""
    try:
        with transaction.atomic():
            try:
                note = _("nye-spillere of %(table)s") % {"table": turnering.name[:150]}
                created = newcomers_create(newcomers=plan.newcomers, user=user, note=note)
                players: dict[int, int | NewPlayerFacts] = {}
                for line in plan.lines:
                    if isinstance(line.choice, int):
                        players[line.number] = created.get(line.choice, line.choice)
                    else:
                        players[line.number] = line.new_player or NewPlayerFacts()
                table, _ids, count = table_create(
                    turnering=turnering,
                    tournament=tournament,
                    user=user,
                    name=table_name,
                    sequence=plan.sequence or 1,
                    players=players,
                )
                newcomers_arrive(newcomers=plan.newcomers, ids=created, table=table)
                if submit:
                    table_submit(table=table, user=user)
            except TableInvalid as exc:  # TableRefused from table_create's table_save, too
                for message in exc.problems:
                    plan.problem(None, message)
                transaction.set_rollback(True)
            else:
                plan.table_id = table.pk
                plan.created_players = count + sum(1 for n in plan.newcomers if n.player_id is None)
    except IntegrityError:
        if not Table.objects.filter(date=turnering.date, sequence=plan.sequence or 1).exists():
            raise
        # Another table took the same date and sequence between our check and our insert.
        plan.table_id = None
        plan.problem(
            None,
            _("another table was just saved on %(date)s with sequence %(sequence)s; try again")
            % {"date": turnering.date.isoformat(), "sequence": plan.sequence},
        )


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
    fresh: set[int],
) -> None:
    """Match every line, apply the caller's choices, and record the problems of lines left undecided.
    ``fresh``: the players of ``nye-spillere`` (stand-in ids for those not created yet), new players although
    they have a name. A line with a problem already (one the reader could not read) is left undecided."""
    taken: dict[int, int] = {}  # player id -> the line that took him
    new_names: dict[tuple[str, str], int] = {}
    troubled = {problem.line for problem in plan.problems if problem.file == plan.file}
    for p in turnering.players:
        if p.line in troubled and not p.last_name:
            plan.lines.append(
                LinePlan(p.number, p.line, "", "", "", "", "", NameMatch((), ()), None, marked_new=p.marked_new)
            )
            continue
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
            if match.taken is not None:
                choice = match.taken.player_id
            elif not match.candidates and create_new and p.line not in troubled:
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
    if len(match.same) > 1:
        return _("%(name)s: %(count)s players have this name; choose one") % {"name": name, "count": len(match.same)}
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
            ngettext(
                "%(date)s already has %(count)s table: this one comes after it, with sequence %(sequence)s.",
                "%(date)s already has %(count)s tables: this one comes after them, with sequence %(sequence)s.",
                len(taken),
            )
            % {"date": date.isoformat(), "count": len(taken), "sequence": following}
        )
    return following


def _date_line(data: bytes) -> int | None:
    """The line of the table's date, as the reader finds it: the second line holding ``[`` (comments aside)."""
    headers = 0
    for number, line in enumerate(file_lines(decode_lenient(data)), start=1):
        if line and not line.lstrip().startswith(";") and "[" in line:
            headers += 1
            if headers == 2:
                return number
    return None


def _check_dates(
    plan: TurneringPlan, turnering: Turnering, date_line: int | None, tournament: Tournament | None, today: dt.date
) -> None:
    """The date's problems, each told once on the date's line: in the future, outside the tournament's dates,
    before a table (or the opening state) its players were already rated in, anywhere in the history."""
    date = turnering.date
    for message in table_date_problems(date=date, tournament=tournament, today=today):
        plan.problem(date_line, message)
    ids = [line.choice for line in plan.lines if isinstance(line.choice, int) and line.choice > 0]
    latest = states_before(date=dt.date.max, sequence=1, player_ids=ids)
    late = []
    for line in plan.lines:
        if isinstance(line.choice, int) and line.choice > 0:
            last = latest[line.choice].last_played
            if last is not None and last > date:
                late.append((line, last))
    if not late:
        return
    named = "; ".join(
        _("%(name)s (line %(line)s, %(last)s)") % {"name": line.name, "line": line.line, "last": last.isoformat()}
        for line, last in late[:MAX_NAMED]
    )
    if len(late) > MAX_NAMED:
        named += " " + _("and %(count)s more") % {"count": len(late) - MAX_NAMED}
    plan.problem(
        date_line,
        _("the table's date %(date)s is before the last rated table of %(count)s of its players: %(players)s")
        % {"date": date.isoformat(), "count": len(late), "players": named},
    )


def _rate(plan: TurneringPlan, turnering: Turnering, may_set: bool) -> None:
    """The table rated in memory, from every player's state before it, as the engine will rate it once it is
    saved and submitted: the players of the site from their states, new players from the prior grade they
    will have (none when it is only proposed), those of ``nye-spillere`` from what the file gives."""
    known = [line.choice for line in plan.lines if isinstance(line.choice, int) and line.choice > 0]
    before = states_before(date=turnering.date, sequence=plan.sequence or 1, player_ids=known)
    newcomers = {n.key: n for n in plan.newcomers if n.player_id is None}
    states: dict[int, engine.PlayerState] = {}
    for line in plan.lines:
        if isinstance(line.choice, int) and line.choice in newcomers:
            states[line.number] = _newcomer_state(newcomers[line.choice])
        elif isinstance(line.choice, int):
            states[line.number] = before[line.choice]
        else:
            facts = line.new_player or NewPlayerFacts()
            prior = None
            if may_set and facts.prior_kind and facts.prior_level is not None:
                prior = prior_grade_read(facts.prior_kind, facts.prior_level)
            states[line.number] = engine.PlayerState(prior_grade=prior)
    prepared = engine_table(turnering, states)
    if not prepared.table.games:
        plan.problem(None, _("The table has no rated game."))
        return
    try:
        result = engine.rate_table(prepared.table)
    except engine.RatingOffScale as exc:  # the player and his line, as the rules and the files path say it
        player = turnering.player(exc.player)  # type: ignore[arg-type]
        name = f"{player.last_name} {player.first_name}".strip()
        plan.problem(player.line, off_scale_message(name=name, rating=exc.rating))
        return
    except engine.EngineError as exc:
        plan.problem(None, str(exc))
        return
    plan.effects = _effects(plan, result)


def _newcomer_state(newcomer: Newcomer) -> engine.PlayerState:
    """The state a player of ``nye-spillere`` starts from once created (ratings/selectors/states.py)."""
    state = newcomer.record.state
    if state.games == 0 and newcomer.grade != "set":
        return state._replace(prior_grade=None)  # his grade is a proposal: he has none until it is confirmed
    return state


def _effects(plan: TurneringPlan, result: engine.TableResult) -> list[RatingEffect]:
    lines = {line.number: line for line in plan.lines}
    effects = []
    for o in result.outcomes:
        line = lines[o.key]  # type: ignore[index]
        effects.append(
            RatingEffect(
                number=line.number,
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
    "Choice",
    "LinePlan",
    "NewPlayerFacts",
    "Problem",
    "RatingEffect",
    "TurneringPlan",
    "TurneringRejected",
    "TurneringRequest",
    "read_upload",
    "turnering_import",
    "turnering_request_import",
]
