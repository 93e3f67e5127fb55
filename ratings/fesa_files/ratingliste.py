"""The FESA program's state list (``ratingliste.pre``/``.post``) and its new-player file (``nye-spillere``).

Shared FESA-FILES.md describes both. A list record becomes a :class:`ListRecord`: the names, every HOME
entry of the nationality list (kept and written back in order), and the engine's :class:`PlayerState`.

Writing back is exact: a record keeps the structure it was read from, and every slot whose value has not
changed is printed from that original form. So ``read`` then ``write`` gives the same bytes, and a slot
the program may write in more than one way (``:LAST-PLAYED NIL``, ``""`` or ``0``) keeps its spelling.
Changed slots, and records made from ``nye-spillere``, are printed the way the program prints them.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from ratings.engine.types import NO_GRADE, PlayerState, PriorGrade, grade_of, grade_parts

from .encoding import ENCODING, encode_text
from .errors import FesaFileError
from .lisp import NIL, Char, Form, Struct, Symbol, T, is_nil, print_form, read_list_items

_PLAYER_SLOTS = (
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


@dataclass(frozen=True, slots=True)
class Home:
    """One entry of a player's nationality list: which list (``E`` European, ``A`` American), the
    nationality and residence codes, and the date he last played on that list."""

    list: str
    nationality: str
    residens: str
    last: dt.date | None = None
    source: Struct | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class ListRecord:
    """A player of the list. ``line`` and ``file`` say where he was read (for messages); ``source`` is the
    structure he was read from, used to write unchanged slots back as they were."""

    last_name: str
    first_name: str
    homes: tuple[Home, ...]
    state: PlayerState
    line: int | None = field(default=None, compare=False)
    file: str | None = field(default=None, compare=False)
    source: Struct | None = field(default=None, compare=False, repr=False)

    @property
    def name(self) -> tuple[str, str]:
        """The key a table's lines are matched by: (family name, given name), exactly."""
        return self.last_name, self.first_name

    def home_nationality(self) -> str:
        """The nationality of the first HOME (what the program prints in a result table), or ``NIL``."""
        return self.homes[0].nationality if self.homes else "NIL"

    def list_nationality(self) -> str:
        """The nationality of the public list (all.txt): the American-list HOME's if there is one, else the
        European-list HOME's, else empty."""
        for code in ("A", "E"):
            for home in self.homes:
                if home.list == code:
                    return home.nationality
        return ""

    def played(self, date: dt.date, origin: str = "E") -> ListRecord:
        """The record after a table of list ``origin`` on ``date``: the HOME of that list gets ``date`` as
        its last date; a player without one gets a copy of his first HOME for that list, put in front
        (as the program does when a European player first plays an American table)."""
        homes = list(self.homes)
        for i, home in enumerate(homes):
            if home.list == origin:
                homes[i] = replace(home, last=date)
                break
        else:
            model = homes[0] if homes else Home(origin, "", "")
            homes.insert(0, Home(origin, model.nationality, model.residens, date))
        return replace(self, homes=tuple(homes))


def table_origin(records: Iterable[ListRecord]) -> str:
    """The list a table belongs to: ``A`` when more of its players have an American-list HOME than a
    European one, else ``E`` (the program's rule)."""
    eu = us = 0
    for record in records:
        codes = {h.list for h in record.homes}
        eu += "E" in codes
        us += "A" in codes
    return "A" if us > eu else "E"


class _Bad(Exception):
    """A slot does not hold what it should; turned into a FesaFileError with the record's line."""


# --- decoding single slots -------------------------------------------------------------------------


def _string(form: Form | None, what: str) -> str:
    if not isinstance(form, str):
        raise _Bad(f"{what} must be a string, not {_show(form)}")
    return form


def _integer(form: Form | None, what: str) -> int:
    if not isinstance(form, int) or isinstance(form, bool):
        raise _Bad(f"{what} must be an integer, not {_show(form)}")
    return form


def _date(form: Form | None, what: str) -> dt.date | None:
    """A date slot: ``"YYYY-MM-DD"``; ``NIL``, ``""`` and ``0`` mean never."""
    if form is None or is_nil(form) or form == "" or form == 0:
        return None
    if isinstance(form, str):
        try:
            return dt.date.fromisoformat(form)
        except ValueError:
            pass
    raise _Bad(f'{what} must be a date "YYYY-MM-DD" or NIL, not {_show(form)}')


def _show(form: Form | None) -> str:
    return "nothing" if form is None else print_form(form)


def _score(form: Form) -> float:
    if form == 1:
        return 1.0
    if form == 0:
        return 0.0
    if form == Fraction(1, 2):
        return 0.5
    raise _Bad(f"a game result must be 0, 1/2 or 1, not {_show(form)}")


def _games(form: Form | None) -> tuple[tuple[tuple[int, float], ...] | None, int]:
    """GAMES: a result list ``((rating result 1) …)`` or a game count; 0 and NIL are an empty list."""
    if form is None or is_nil(form) or form == 0:
        return (), 0
    if isinstance(form, int) and not isinstance(form, bool):
        if form < 0:
            raise _Bad(f"GAMES must not be negative, not {form}")
        return None, form
    if not isinstance(form, list):
        raise _Bad(f"GAMES must be a game count or a list of results, not {_show(form)}")
    pairs: list[tuple[int, float]] = []
    for item in form:
        if not isinstance(item, list) or len(item) != 3 or item[2] != 1:
            raise _Bad(f"a GAMES entry must be (rating result 1), not {_show(item)}")
        pairs.append((_integer(item[0], "a game's opponent rating"), _score(item[1])))
    return tuple(pairs), 0


def _lb_count(form: Form | None) -> tuple[int, bool]:
    if form is None or is_nil(form):
        return 0, False
    if isinstance(form, list) and len(form) == 3 and form[0] == _LB and form[2] in (T, NIL):
        return _integer(form[1], "the LB run"), form[2] == T
    raise _Bad(f"LB-COUNT must be NIL or (:LB n T|NIL), not {_show(form)}")


def _mp_count(form: Form | None) -> int:
    if form is None or is_nil(form):
        return 0
    if isinstance(form, list) and len(form) == 2 and form[0] == _MP:
        return _integer(form[1], "the MP run")
    raise _Bad(f"MP-COUNT must be NIL or (:MP n), not {_show(form)}")


def _grade(level: int, name: str) -> int:
    if level == 0 and name == "":
        return NO_GRADE
    unit = name.capitalize()
    if unit in ("Kyu", "Dan"):
        try:
            return grade_of(level, unit)  # type: ignore[arg-type]
        except ValueError:
            pass
    raise _Bad(f"no such FESA grade: {level} {name!r}")


def _prior(level: int, name: str) -> PriorGrade | None:
    if level == 0 and name == "":
        return None
    kind = name.lower()
    if kind in ("kyu", "dan", "pro") and level > 0:
        return PriorGrade(kind, level)  # type: ignore[arg-type]
    raise _Bad(f"no such prior grade: {level} {name!r}")


def _home(form: Form) -> Home:
    if not isinstance(form, Struct) or form.name != "HOME":
        raise _Bad(f"NATIONALITY-LIST must hold #S(HOME …) entries, not {_show(form)}")
    unknown = [k for k, _ in form.fields if k not in _HOME_SLOTS]
    if unknown:
        raise _Bad(f"HOME has unknown slot :{unknown[0]}")
    code = form.get("LIST")
    if not isinstance(code, Char):
        raise _Bad(f"HOME :LIST must be a character like #\\E, not {_show(code)}")
    return Home(
        list=code.name,
        nationality=_string(form.get("NATIONALITY", ""), "HOME :NATIONALITY"),
        residens=_string(form.get("RESIDENS", ""), "HOME :RESIDENS"),
        last=_date(form.get("LAST"), "HOME :LAST"),
        source=form,
    )


def _homes(form: Form | None) -> tuple[Home, ...]:
    if form is None or is_nil(form):
        return ()
    if not isinstance(form, list):
        raise _Bad(f"NATIONALITY-LIST must be a list, not {_show(form)}")
    return tuple(_home(h) for h in form)


def _state(
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


def _player(form: Form) -> ListRecord:
    if not isinstance(form, Struct) or form.name != "PLAYER":
        raise _Bad(f"the list must hold #S(PLAYER …) records, not {_show(form)[:60]}")
    unknown = [k for k, _ in form.fields if k not in _PLAYER_SLOTS]
    if unknown:
        raise _Bad(f"PLAYER has unknown slot :{unknown[0]}")
    missing = [k for k in _PLAYER_SLOTS if not form.has(k)]
    if missing:
        raise _Bad(f"PLAYER lacks slot :{missing[0]}")
    g = form.get
    state = _state(
        rating=_integer(g("ELO-NUMBER"), "ELO-NUMBER"),
        games=g("GAMES"),
        grade=_grade(_integer(g("GRADE-LEVEL"), "GRADE-LEVEL"), _string(g("GRADE-NAME"), "GRADE-NAME")),
        prior=_prior(_integer(g("NSR-GRADE-LEVEL"), "NSR-GRADE-LEVEL"), _string(g("NSR-GRADE-NAME"), "NSR-GRADE-NAME")),
        last=_date(g("LAST-PLAYED"), "LAST-PLAYED"),
        lb=g("LB-COUNT"),
        mp=g("MP-COUNT"),
        bonus=_integer(g("BONUS-COUNT"), "BONUS-COUNT"),
    )
    return ListRecord(
        last_name=_string(g("LAST-NAME"), "LAST-NAME"),
        first_name=_string(g("FIRST-NAME"), "FIRST-NAME"),
        homes=_homes(g("NATIONALITY-LIST")),
        state=state,
        source=form,
    )


def _newcomer(form: Form) -> ListRecord:
    """``("Last" "First" (homes) nsr-level "nsr-name" elo games last-played [lb-count mp-count])``."""
    if not isinstance(form, list) or len(form) not in (8, 10):
        raise _Bad(
            'a new player must be ("Last" "First" (homes) nsr-level "nsr-name" elo games last-played '
            f"[lb-count mp-count]), not {_show(form)[:80]}"
        )
    last, first, homes, nsr_level, nsr_name, elo, games, last_played = form[:8]
    lb, mp = (form[8], form[9]) if len(form) == 10 else (NIL, NIL)
    state = _state(
        rating=_integer(elo, "the rating"),
        games=games,
        grade=NO_GRADE,
        prior=_prior(_integer(nsr_level, "the prior grade level"), _string(nsr_name, "the prior grade name")),
        last=_date(last_played, "the last date played"),
        lb=lb,
        mp=mp,
        bonus=0,
    )
    # The HOME entries were read from this file but the program prints whole structures of its own
    # (every slot, :LAST NIL when never played), so they keep no source.
    return ListRecord(
        last_name=_string(last, "the family name"),
        first_name=_string(first, "the given name"),
        homes=tuple(replace(h, source=None) for h in _homes(homes)),
        state=state,
    )


def _decode_file(data: bytes | str, file: str, decode: Callable[[Form], ListRecord]) -> tuple[ListRecord, ...]:
    text = data.decode(ENCODING) if isinstance(data, bytes) else data
    records = []
    for line, form in read_list_items(text, file):
        try:
            record = decode(form)
        except _Bad as exc:
            raise FesaFileError(file, line, str(exc)) from None
        records.append(replace(record, line=line, file=file))
    return tuple(records)


def read_ratingliste(data: bytes | str, file: str = "ratingliste.pre") -> tuple[ListRecord, ...]:
    """The records of a state list, in file order. Bytes are ISO-8859-1. Duplicate names are an error."""
    records = _decode_file(data, file, _player)
    check_unique_names(records)
    return records


def read_nye_spillere(data: bytes | str, file: str = "nye-spillere") -> tuple[ListRecord, ...]:
    """The new players of ``nye-spillere``, in file order, as list records with no FESA grade."""
    records = _decode_file(data, file, _newcomer)
    check_unique_names(records)
    return records


def check_unique_names(records: Iterable[ListRecord]) -> None:
    """Raise on the second record of any (family, given) name, naming both places."""
    seen: dict[tuple[str, str], ListRecord] = {}
    for record in records:
        first = seen.setdefault(record.name, record)
        if first is not record:
            where = f"line {first.line}" if first.file == record.file else f"{first.file}, line {first.line}"
            raise FesaFileError(
                record.file or "list",
                record.line,
                f"duplicate player {record.last_name!r} {record.first_name!r} (also on {where})",
            )


# --- encoding ----------------------------------------------------------------------------------------


def _score_form(score: float) -> Form:
    if score == 1.0:
        return 1
    if score == 0.0:
        return 0
    if score == 0.5:
        return Fraction(1, 2)
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
    out = []
    for key in slots:
        form = fresh[key]
        if source is not None and source.has(key):
            old = source.get(key)
            assert old is not None
            if same(key, old, form):
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
        if key == "LAST":
            return _safe(_date, old, key) == _safe(_date, new, key)
        return old == new

    return Struct("HOME", _keep_source(_HOME_SLOTS, fresh, home.source, same))


def _safe(decode: Callable[..., Any], form: Form, *args: Any) -> Any:
    try:
        return decode(form, *args)
    except _Bad:
        return _Bad  # never equal to a decoded value


_SLOT_DECODERS: dict[str, Callable[[Form], Any]] = {
    "GAMES": _games,
    "LAST-PLAYED": lambda f: _date(f, "LAST-PLAYED"),
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
        decoder = _SLOT_DECODERS.get(key)
        if decoder is None:
            return old == new and type(old) is type(new)
        return bool(_safe(decoder, old) == _safe(decoder, new))

    return Struct("PLAYER", _keep_source(_PLAYER_SLOTS, fresh, record.source, same))


def write_ratingliste(records: Iterable[ListRecord], file: str = "ratingliste.post") -> bytes:
    """The list file as the program writes it: ``(``, each record on its own line, a blank line, ``)``."""
    body = "".join(print_form(record_struct(r)) + "\n" for r in records)
    return encode_text("(" + body + "\n)\n", file)


def sort_like_program(newcomers: Sequence[ListRecord], listed: Sequence[ListRecord]) -> list[ListRecord]:
    """The order of ``ratingliste.post``: highest rating first; among equal ratings, new players first
    (in ``nye-spillere`` order), then the list's players in their previous order.

    The program adds the new players in front of the list and sorts it stably by rating; the golden
    cases show a newcomer tied with an old player ahead of him although the old player comes first in
    the table (synthetic-case-008, rating 1).
    """
    return sorted([*newcomers, *listed], key=lambda r: -r.state.rating)
