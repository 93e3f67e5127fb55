"""The slots of the list's ``#S(PLAYER …)`` and ``#S(HOME …)`` structures, one at a time: from Lisp forms
to values and back, printed as the program prints them (ratings/fesa_files/ratingliste.py reads whole files).

A slot that cannot be read raises :class:`SlotError`, which the file reader turns into a FesaFileError
naming the record's line.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Sequence
from typing import Any

from ratings.engine.literals import is_grade_unit, is_prior_grade_kind
from ratings.engine.types import NO_GRADE, PlayerState, PriorGrade, grade_of, grade_parts

from .errors import FesaFileError, Phrase, gettext_noop
from .lisp import HALF, NIL, Char, Form, Struct, Symbol, T, is_nil, print_form, print_string
from .names import first_refused
from .records import Home, ListRecord

PLAYER_SLOTS = (
    "LAST-NAME",
    "FIRST-NAME",
    "NATIONALITY-LIST",
    "GRADE-LEVEL",
    "GRADE-NAME",
    "NSR-GRADE-LEVEL",
    "NSR-GRADE-NAME",
    "ELO-NUMBER",
    "GAMES",
    "LAST-PLAYED",
    "LB-COUNT",
    "MP-COUNT",
    "BONUS-COUNT",
)
_HOME_SLOTS = ("LIST", "NATIONALITY", "RESIDENS", "LAST")
_LB = Symbol("LB", keyword=True)
_MP = Symbol("MP", keyword=True)
_DATE = re.compile(r"(\d{4})-(\d{2})(?:-(\d{2}))?")
# What a message says a slot is, where the slot has no name of its own (a new player's fields, a GAMES entry's).
NOTHING = Phrase(gettext_noop("nothing"))
OPPONENT_RATING = Phrase(gettext_noop("a game's opponent rating"))
LB_RUN = Phrase(gettext_noop("the LB run"))
MP_RUN = Phrase(gettext_noop("the MP run"))


class SlotError(Exception):
    """A slot does not hold what it should; turned into a FesaFileError with the record's line. Like a
    FesaFileError it keeps its English template (marked with ``gettext_noop``) and values for the site's
    translation."""

    def __init__(self, message: str, params: dict[str, Any] | None = None) -> None:
        self.template = message
        self.params = params
        super().__init__(message if params is None else message % params)

    def at(self, file: str, line: int | None) -> FesaFileError:
        """The error of the record on ``line`` of ``file``."""
        return FesaFileError(file, line, self.template, self.params)


# --- decoding single slots -------------------------------------------------------------------------


def as_string(form: Form | None, what: str) -> str:
    if not isinstance(form, str):
        raise SlotError(gettext_noop("%(what)s must be a string, not %(form)s"), {"what": what, "form": show(form)})
    return form


def as_name(form: Form | None, what: str) -> str:
    """A name: a string without the characters no name may hold (ratings/fesa_files/names.py)."""
    text = as_string(form, what)
    refused = first_refused(text)
    if refused is not None:
        message = gettext_noop("%(what)s %(name)r holds %(kind)s (%(char)s)")
        raise SlotError(message, {"what": what, "name": text, "kind": refused[1], "char": refused[0]})
    return text


def as_integer(form: Form | None, what: str) -> int:
    if not isinstance(form, int) or isinstance(form, bool):
        raise SlotError(gettext_noop("%(what)s must be an integer, not %(form)s"), {"what": what, "form": show(form)})
    return form


def as_date(form: Form | None, what: str) -> dt.date | None:
    """A date slot: ``"YYYY-MM-DD"``; ``NIL``, ``""`` and ``0`` mean never. Old lists also hold months,
    ``"YYYY-MM"``, which the program reads as the month's end; so do we (the text is kept when written
    back unchanged)."""
    if form is None or is_nil(form) or form == "" or form == 0:
        return None
    if isinstance(form, str) and (m := _DATE.fullmatch(form)):
        year, month = int(m[1]), int(m[2])
        try:
            if m[3] is not None:
                return dt.date(year, month, int(m[3]))
            # Imported for an old list's month only: with the locale module it brings, it would weigh on the
            # start of every run of a table, which has a budget (bench/README.md).
            import calendar  # noqa: PLC0415

            return dt.date(year, month, calendar.monthrange(year, month)[1])
        except ValueError:  # calendar.IllegalMonthError is one
            pass
    message = gettext_noop('%(what)s must be a date "YYYY-MM-DD" or NIL, not %(form)s')
    raise SlotError(message, {"what": what, "form": show(form)})


def show(form: Form | None) -> str:
    return NOTHING if form is None else print_form(form)


def _score(form: Form) -> float:
    if form == 1:
        return 1.0
    if form == 0:
        return 0.0
    if form is HALF or form == HALF:
        return 0.5
    raise SlotError(gettext_noop("a game result must be 0, 1/2 or 1, not %(form)s"), {"form": show(form)})


def _games(form: Form | None) -> tuple[tuple[tuple[int, float], ...] | None, int]:
    """GAMES: a result list ``((rating result 1) …)`` or a game count; 0 and NIL are an empty list."""
    if form is None or is_nil(form) or form == 0:
        return (), 0
    if isinstance(form, int) and not isinstance(form, bool):
        if form < 0:
            raise SlotError(gettext_noop("GAMES must not be negative, not %(count)s"), {"count": form})
        return None, form
    if not isinstance(form, list):
        message = gettext_noop("GAMES must be a game count or a list of results, not %(form)s")
        raise SlotError(message, {"form": show(form)})
    pairs: list[tuple[int, float]] = []
    for item in form:
        if not isinstance(item, list) or len(item) != 3 or item[2] != 1:
            message = gettext_noop("a GAMES entry must be (rating result 1), not %(form)s")
            raise SlotError(message, {"form": show(item)})
        pairs.append((as_integer(item[0], OPPONENT_RATING), _score(item[1])))
    return tuple(pairs), 0


def _lb_count(form: Form | None) -> tuple[int, bool]:
    if form is None or is_nil(form):
        return 0, False
    if isinstance(form, list) and len(form) == 3 and form[0] == _LB and form[2] in (T, NIL):
        return as_integer(form[1], LB_RUN), form[2] == T
    raise SlotError(gettext_noop("LB-COUNT must be NIL or (:LB n T|NIL), not %(form)s"), {"form": show(form)})


def _mp_count(form: Form | None) -> int:
    if form is None or is_nil(form):
        return 0
    if isinstance(form, list) and len(form) == 2 and form[0] == _MP:
        return as_integer(form[1], MP_RUN)
    raise SlotError(gettext_noop("MP-COUNT must be NIL or (:MP n), not %(form)s"), {"form": show(form)})


def as_grade(level: int, name: str) -> int:
    if level == 0 and name == "":
        return NO_GRADE
    unit = name.capitalize()
    if is_grade_unit(unit):
        try:
            return grade_of(level, unit)
        except ValueError:
            pass
    raise SlotError(gettext_noop("no such FESA grade: %(level)s %(name)r"), {"level": level, "name": name})


def as_prior(level: int, name: str) -> PriorGrade | None:
    if level == 0 and name == "":
        return None
    kind = name.lower()
    if is_prior_grade_kind(kind) and level > 0:
        return PriorGrade(kind, level)
    raise SlotError(gettext_noop("no such prior grade: %(level)s %(name)r"), {"level": level, "name": name})


def _home(form: Form) -> Home:
    if not isinstance(form, Struct) or form.name != "HOME":
        message = gettext_noop("NATIONALITY-LIST must hold #S(HOME …) entries, not %(form)s")
        raise SlotError(message, {"form": show(form)})
    unknown = [k for k, _ in form.fields if k not in _HOME_SLOTS]
    if unknown:
        raise SlotError(gettext_noop("HOME has unknown slot :%(slot)s"), {"slot": unknown[0]})
    code = form.get("LIST")
    if not isinstance(code, Char):
        raise SlotError(gettext_noop("HOME :LIST must be a character like #\\E, not %(form)s"), {"form": show(code)})
    return Home(
        list=code.name,
        nationality=as_string(form.get("NATIONALITY", ""), "HOME :NATIONALITY"),
        residens=as_string(form.get("RESIDENS", ""), "HOME :RESIDENS"),
        last=as_date(form.get("LAST"), "HOME :LAST"),
        source=form,
    )


def as_homes(form: Form | None) -> tuple[Home, ...]:
    if form is None or is_nil(form):
        return ()
    if not isinstance(form, list):
        raise SlotError(gettext_noop("NATIONALITY-LIST must be a list, not %(form)s"), {"form": show(form)})
    return tuple(_home(h) for h in form)


def as_state(
    *,
    rating: int,
    games: Form | None,
    grade: int,
    prior: PriorGrade | None,
    last: dt.date | None,
    lb: Form | None,
    mp: Form | None,
    bonus: int,
) -> PlayerState:
    result_list, count = _games(games)
    lb_run, lb_seen = _lb_count(lb)
    return PlayerState(
        rating=rating,
        result_list=result_list,
        game_count=count,
        bonus_count=bonus,
        grade=grade,
        prior_grade=prior,
        lb_run=lb_run,
        lb_mp_seen=lb_seen,
        mp_run=_mp_count(mp),
        last_played=last,
    )


def _score_form(score: float) -> Form:
    if score == 1.0:
        return 1
    if score == 0.0:
        return 0
    if score == 0.5:
        return HALF
    raise ValueError(f"a game result must be 0, 1/2 or 1, not {score}")


def _date_form(value: dt.date | None) -> Form:
    return NIL if value is None else value.isoformat()


def _state_slots(state: PlayerState) -> dict[str, Form]:
    grade = grade_parts(state.grade)
    prior = state.prior_grade
    games: Form
    if state.result_list is None:
        games = state.game_count
    elif state.result_list:
        games = [[rating, _score_form(score), 1] for rating, score in state.result_list]
    else:
        games = 0
    return {
        "GRADE-LEVEL": 0 if grade is None else grade[0],
        "GRADE-NAME": "" if grade is None else grade[1],
        "NSR-GRADE-LEVEL": 0 if prior is None else prior.level,
        "NSR-GRADE-NAME": "" if prior is None else prior.kind.capitalize(),
        "ELO-NUMBER": state.rating,
        "GAMES": games,
        "LAST-PLAYED": _date_form(state.last_played),
        "LB-COUNT": NIL if state.lb_run == 0 else [_LB, state.lb_run, T if state.lb_mp_seen else NIL],
        "MP-COUNT": NIL if state.mp_run == 0 else [_MP, state.mp_run],
        "BONUS-COUNT": state.bonus_count,
    }


def _keep_source(
    slots: Sequence[str],
    fresh: dict[str, Form],
    source: Struct | None,
    same: Callable[[str, Form, Form], bool],
) -> tuple[tuple[str, Form], ...]:
    """The slots in the program's order; an unchanged slot keeps the form it was read in."""
    read = dict(source.fields) if source is not None else {}
    out = []
    for key in slots:
        form = fresh[key]
        old = read.get(key)
        if old is not None and (old is form or same(key, old, form)):
            form = old
        out.append((key, form))
    return tuple(out)


def _home_struct(home: Home) -> Struct:
    fresh: dict[str, Form] = {
        "LIST": Char(home.list),
        "NATIONALITY": home.nationality,
        "RESIDENS": home.residens,
        "LAST": _date_form(home.last),
    }

    def same(key: str, old: Form, new: Form) -> bool:
        if old == new:
            return True
        if key == "LAST":
            return bool(_safe(as_date, old, key) == _safe(as_date, new, key))
        return old == new

    return Struct("HOME", _keep_source(_HOME_SLOTS, fresh, home.source, same))


def _safe(decode: Callable[..., Any], form: Form, *args: Any) -> Any:
    try:
        return decode(form, *args)
    except SlotError:
        return SlotError  # never equal to a decoded value


_SLOT_DECODERS: dict[str, Callable[[Form], Any]] = {
    "GAMES": _games,
    "LAST-PLAYED": lambda f: as_date(f, "LAST-PLAYED"),
    "LB-COUNT": _lb_count,
    "MP-COUNT": _mp_count,
}


def record_struct(record: ListRecord) -> Struct:
    """The ``#S(PLAYER …)`` structure of a record, slots in the program's order."""
    fresh: dict[str, Form] = {
        "LAST-NAME": record.last_name,
        "FIRST-NAME": record.first_name,
        "NATIONALITY-LIST": [_home_struct(h) for h in record.homes] if record.homes else NIL,
        **_state_slots(record.state),
    }

    def same(key: str, old: Form, new: Form) -> bool:
        if key == "NATIONALITY-LIST":
            return False  # rebuilt home by home above, each from its own source
        if old == new and type(old) is type(new):
            return True  # spelled alike: no need to decode (a long result list costs most)
        if type(old) is list and type(new) is list and len(old) != len(new):
            return False  # a result list with a game more (or a run of another shape) decodes differently
        decoder = _SLOT_DECODERS.get(key)
        return decoder is not None and bool(_safe(decoder, old) == _safe(decoder, new))

    return Struct("PLAYER", _keep_source(PLAYER_SLOTS, fresh, record.source, same))


# --- printing a record in one go --------------------------------------------------------------------------
#
# A run prints every player of its table and every new player; building each one's structure (record_struct)
# and walking it with the generic printer was a fifth of a run. record_line writes the same text directly
# (tests/fesa/test_record_line.py compares the two on every reference record and on generated changes).


def record_line(record: ListRecord, read: tuple[PlayerState, tuple[str, str, str]] | None = None) -> str:
    """``print_form(record_struct(record))``, written directly for a record without a source structure.

    ``read`` is for a record made from a line in the program's spelling (ratings/fesa_files/spelling.py):
    the state that line was read as and its GAMES, LAST-PLAYED and MP-COUNT texts. As :func:`record_struct`
    keeps an unchanged slot's form, each of these slots whose value the record still has keeps its text
    (``:GAMES NIL``, ``:LAST-PLAYED ""``, ``(:MP 0)``). The line's other slots need not be kept: the
    spelling has one text for each of their values (no ``(:LB 0 …)``), the one printed here.
    """
    if record.source is not None:
        return print_form(record_struct(record))
    state = record.state
    grade = grade_parts(state.grade)
    prior = state.prior_grade
    games = _games_text(state)
    played = "NIL" if state.last_played is None else f'"{state.last_played.isoformat()}"'
    lb = "NIL" if state.lb_run == 0 else f"(:LB {_integer(state.lb_run)} {'T' if state.lb_mp_seen else 'NIL'})"
    mp = "NIL" if state.mp_run == 0 else f"(:MP {_integer(state.mp_run)})"
    if read is not None:
        old, (old_games, old_played, old_mp) = read
        # Compared decoded, as record_struct compares a slot's old and new forms.
        if _same_games(state, old):
            games = old_games
        if state.last_played == old.last_played:
            played = old_played
        if state.mp_run == old.mp_run:
            mp = old_mp
    homes = "(" + " ".join([_home_line(h) for h in record.homes]) + ")" if record.homes else "NIL"
    return (
        f"#S(PLAYER :LAST-NAME {_quote(record.last_name)} :FIRST-NAME {_quote(record.first_name)}"
        f" :NATIONALITY-LIST {homes} :GRADE-LEVEL {0 if grade is None else _integer(grade[0])}"
        f" :GRADE-NAME {_quote('' if grade is None else grade[1])}"
        f" :NSR-GRADE-LEVEL {0 if prior is None else _integer(prior.level)}"
        f" :NSR-GRADE-NAME {_quote('' if prior is None else prior.kind.capitalize())}"
        f" :ELO-NUMBER {_integer(state.rating)} :GAMES {games} :LAST-PLAYED {played}"
        f" :LB-COUNT {lb} :MP-COUNT {mp} :BONUS-COUNT {_integer(state.bonus_count)})"
    )


def _quote(value: str) -> str:
    """``print_string(value)``, without its two replacements for a string with nothing to escape, as nearly
    every name is: a record's line quotes six strings or more."""
    return print_string(value) if '"' in value or "\\" in value else f'"{value}"'


def _integer(value: int) -> str:
    return str(value) if type(value) is int else print_form(value)  # print_form refuses a bool


def _games_text(state: PlayerState) -> str:
    results = state.result_list
    if results is None:
        return _integer(state.game_count)
    if not results:
        return "0"
    # A performance-rated player's whole result list, printed on every table he plays: the scores' texts
    # looked up, and the ratings (plain ints, unless a caller made them otherwise) printed in place.
    try:
        return (
            "("
            + " ".join(
                [
                    f"({rating if type(rating) is int else _integer(rating)} {_SCORE_TEXTS[score]} 1)"
                    for rating, score in results
                ]
            )
            + ")"
        )
    except KeyError:  # a score of no result: _score_form words the refusal, as record_struct's path does
        for _, score in results:
            _score_form(score)
        raise


_SCORE_TEXTS: dict[float, str] = {1.0: "1", 0.0: "0", 0.5: "1/2"}
"""The printed forms of ``_score_form``, as a table (1 and True hash as 1.0 does, 0 and False as 0.0, so they
print alike)."""


def _same_games(state: PlayerState, old: PlayerState) -> bool:
    """Whether :func:`_games` reads the GAMES form :func:`_state_slots` makes of ``state`` as it read
    ``old``'s (a result list of another length never)."""
    results, old_results = state.result_list, old.result_list
    if results is None:
        count = state.game_count
        return (old_results, old.game_count) == (((), 0) if count == 0 else (None, count) if count > 0 else None)
    if old_results is None or len(results) != len(old_results):
        return False
    return tuple([(rating, float(score)) for rating, score in results]) == old_results and old.game_count == 0


def _home_line(home: Home) -> str:
    """``print_form(_home_struct(home))``: an unchanged ``:LAST`` keeps its form, the other slots print as
    their forms would whenever those are unchanged."""
    fresh = _date_form(home.last)
    last = "NIL" if fresh is NIL else f'"{fresh}"'
    source = home.source
    if source is not None:
        if tuple([key for key, _ in source.fields]) != _HOME_SLOTS:
            return print_form(_home_struct(home))
        old = source.fields[3][1]
        if old != fresh and _safe(as_date, old, "LAST") == home.last:  # an equal form prints alike
            last = print_form(old)
    return (
        f"#S(HOME :LIST #\\{home.list} :NATIONALITY {_quote(home.nationality)}"
        f" :RESIDENS {_quote(home.residens)} :LAST {last})"
    )
