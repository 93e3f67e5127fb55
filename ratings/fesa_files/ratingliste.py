"""The FESA program's state list (``ratingliste.pre``/``.post``) and its new-player file (``nye-spillere``).

Shared docs/fesa-files.md describes both. A list record becomes a :class:`ListRecord`: the names, every HOME
entry of the nationality list (kept and written back in order), and the engine's :class:`PlayerState`.

Writing back is exact: a record keeps the structure it was read from, and every slot whose value has not
changed is printed from that original form. So ``read`` then ``write`` gives the same bytes, and a slot
the program may write in more than one way (``:LAST-PLAYED NIL``, ``""`` or ``0``) keeps its spelling.
Changed slots, and records made from ``nye-spillere``, are printed the way the program prints them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from ratings.engine.types import NO_GRADE

from .encoding import ENCODING, encode_text
from .errors import FesaFileError, Phrase, gettext_noop
from .lisp import NIL, Form, Struct, read_list_items
from .records import Home, ListRecord, table_origin
from .slots import (
    PLAYER_SLOTS,
    SlotError,
    as_date,
    as_grade,
    as_homes,
    as_integer,
    as_name,
    as_prior,
    as_state,
    as_string,
    record_line,
    record_struct,
    show,
)
from .spelling import played, read_spelled, with_source

__all__ = [
    "Home",
    "ListRecord",
    "check_unique_names",
    "played",
    "read_nye_spillere",
    "read_ratingliste",
    "record_struct",
    "sort_like_program",
    "table_origin",
    "with_source",
    "write_ratingliste",
]


# What a message calls a new player's fields, which have no slot names in nye-spillere.
_RATING = Phrase(gettext_noop("the rating"))
_PRIOR_LEVEL = Phrase(gettext_noop("the prior grade level"))
_PRIOR_NAME = Phrase(gettext_noop("the prior grade name"))
_LAST_PLAYED = Phrase(gettext_noop("the last date played"))
_FAMILY_NAME = Phrase(gettext_noop("the family name"))
_GIVEN_NAME = Phrase(gettext_noop("the given name"))


def _player(form: Form, line: int, file: str) -> ListRecord:
    if not isinstance(form, Struct) or form.name != "PLAYER":
        message = gettext_noop("the list must hold #S(PLAYER …) records, not %(form)s")
        raise SlotError(message, {"form": show(form)[:60]})
    slots = dict(form.fields)  # looked up thirteen times: a list's largest share of reading time otherwise
    unknown = [k for k in slots if k not in PLAYER_SLOTS]
    if unknown:
        raise SlotError(gettext_noop("PLAYER has unknown slot :%(slot)s"), {"slot": unknown[0]})
    missing = [k for k in PLAYER_SLOTS if k not in slots]
    if missing:
        raise SlotError(gettext_noop("PLAYER lacks slot :%(slot)s"), {"slot": missing[0]})
    g = slots.get
    state = as_state(
        rating=as_integer(g("ELO-NUMBER"), "ELO-NUMBER"),
        games=g("GAMES"),
        grade=as_grade(as_integer(g("GRADE-LEVEL"), "GRADE-LEVEL"), as_string(g("GRADE-NAME"), "GRADE-NAME")),
        prior=as_prior(
            as_integer(g("NSR-GRADE-LEVEL"), "NSR-GRADE-LEVEL"), as_string(g("NSR-GRADE-NAME"), "NSR-GRADE-NAME")
        ),
        last=as_date(g("LAST-PLAYED"), "LAST-PLAYED"),
        lb=g("LB-COUNT"),
        mp=g("MP-COUNT"),
        bonus=as_integer(g("BONUS-COUNT"), "BONUS-COUNT"),
    )
    return ListRecord(
        last_name=as_name(g("LAST-NAME"), "LAST-NAME"),
        first_name=as_name(g("FIRST-NAME"), "FIRST-NAME"),
        homes=as_homes(g("NATIONALITY-LIST")),
        state=state,
        line=line,
        file=file,
        source=form,
    )


def _newcomer(form: Form, line: int, file: str) -> ListRecord:
    """``("Last" "First" (homes) nsr-level "nsr-name" elo games last-played [lb-count mp-count])``."""
    if not isinstance(form, list) or len(form) not in (8, 10):
        message = gettext_noop(
            'a new player must be ("Last" "First" (homes) nsr-level "nsr-name" elo games last-played '
            "[lb-count mp-count]), not %(form)s"
        )
        raise SlotError(message, {"form": show(form)[:80]})
    last, first, homes, nsr_level, nsr_name, elo, games, last_played = form[:8]
    lb, mp = (form[8], form[9]) if len(form) == 10 else (NIL, NIL)
    state = as_state(
        rating=as_integer(elo, _RATING),
        games=games,
        grade=NO_GRADE,
        prior=as_prior(as_integer(nsr_level, _PRIOR_LEVEL), as_string(nsr_name, _PRIOR_NAME)),
        last=as_date(last_played, _LAST_PLAYED),
        lb=lb,
        mp=mp,
        bonus=0,
    )
    # The HOME entries were read from this file but the program prints whole structures of its own
    # (every slot, :LAST NIL when never played), so they keep no source.
    return ListRecord(
        last_name=as_name(last, _FAMILY_NAME),
        first_name=as_name(first, _GIVEN_NAME),
        homes=tuple(h._replace(source=None) for h in as_homes(homes)),
        state=state,
        line=line,
        file=file,
    )


def _decode_file(
    data: bytes | str, file: str, decode: Callable[[Form, int, str], ListRecord]
) -> tuple[ListRecord, ...]:
    text = data.decode(ENCODING) if isinstance(data, bytes) else data
    records = []
    for line, form in read_list_items(text, file):
        try:
            record = decode(form, line, file)
        except SlotError as exc:
            raise exc.at(file, line) from None
        records.append(record)
    return tuple(records)


def _read_run(text: str, before: int, file: str) -> tuple[ListRecord, ...] | None:
    """The records of a run of lines not in the program's spelling (``read_spelled``), read as a list of
    their own and numbered as in the file (``before`` lines precede the run); None if the run cannot be read
    alone, for the whole file to be read again and any message to be the general reader's."""
    try:
        records = _decode_file(text, file, _player)
    except FesaFileError:
        return None
    return tuple(r._replace(line=r.line + before) if r.line is not None else r for r in records)


def read_ratingliste(
    data: bytes | str, file: str = "ratingliste.pre", *, keep_text: bool = False
) -> tuple[ListRecord, ...]:
    """The records of a state list, in file order. Bytes are ISO-8859-1. Duplicate names are an error.

    With ``keep_text``, a list written in the program's spelling is read line by line and each record keeps
    its line instead of its structure (``text``, no ``source``: :func:`with_source` makes it when needed),
    so :func:`write_ratingliste` copies the unchanged ones; the records are equal either way. Lines in
    another spelling are read by the general reader a run at a time, as long as each run reads alone.
    """
    records = None
    if keep_text:
        text = data.decode(ENCODING) if isinstance(data, bytes) else data
        records = read_spelled(text, file, lambda run, before: _read_run(run, before, file))
    if records is None:
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
            params = {"family": record.last_name, "given": record.first_name, "line": first.line}
            if first.file == record.file:
                message = gettext_noop("duplicate player %(family)r %(given)r (also on line %(line)s)")
            else:
                message = gettext_noop("duplicate player %(family)r %(given)r (also in %(file)s, line %(line)s)")
                params["file"] = first.file or "list"
            raise FesaFileError(record.file or "list", record.line, message, params)


# --- encoding ----------------------------------------------------------------------------------------


def write_ratingliste(records: Iterable[ListRecord], file: str = "ratingliste.post") -> bytes:
    """The list file as the program writes it: ``(``, each record on its own line, a blank line, ``)``."""
    body = "".join((record_line(r) if r.text is None else r.text) + "\n" for r in records)
    return encode_text("(" + body + "\n)\n", file)


def sort_like_program(newcomers: Sequence[ListRecord], listed: Sequence[ListRecord]) -> list[ListRecord]:
    """The order of ``ratingliste.post``: highest rating first; among equal ratings, new players first
    (in ``nye-spillere`` order), then the list's players in their previous order.

    The program adds the new players in front of the list and sorts it stably by rating; the golden
    cases show a newcomer tied with an old player ahead of him although the old player comes first in
    the table (synthetic-case-008, rating 1).
    """
    return sorted([*newcomers, *listed], key=lambda r: -r.state.rating)
