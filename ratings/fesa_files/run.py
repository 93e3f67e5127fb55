"""One run of the FESA program on files: a table and the state list in, the new list and the reports out.

:func:`rate_files` is pure (bytes in, bytes out, no file system), so the ``fesa_run`` command and the
site share it. The steps follow the program's ``run``: read ``turnering.txt``, the list and the new
players (who go in front of the list), match the table's lines to records by both names, rate the table
with the engine, mark the players' HOME of the table's list, sort the list by rating, write
``ratingliste.post``, ``all.txt`` on the table's date and the result table.

Where the rules and the program differ we follow the rules (docs/rules.md §9): a player with only byes takes
no part and keeps his state (the program would give a newcomer the rating 1 and date everyone in the
table), and a table on the same date as a player's last one is allowed (the program refuses it).
"""

from __future__ import annotations

from typing import NamedTuple

from ratings.engine import InvalidTable, RatingOffScale, TableDidNotSettle, rate_table
from ratings.engine.types import TableResult

from .alltxt import write_all_txt
from .errors import FesaFileError
from .ratingliste import (
    ListRecord,
    check_unique_names,
    played,
    read_nye_spillere,
    read_ratingliste,
    sort_like_program,
    table_origin,
    write_ratingliste,
)
from .result_table import write_result_table
from .turnering import Turnering, engine_table, read_turnering

TURNERING = "turnering.txt"
RATINGLISTE_PRE = "ratingliste.pre"
NYE_SPILLERE = "nye-spillere"
RATINGLISTE_POST = "ratingliste.post"
ALL_TXT = "all.txt"
RESULT_TXT = "result.txt"


class RunOutput(NamedTuple):
    """The files of a run, as bytes, and what they were made from."""

    ratingliste_post: bytes
    all_txt: bytes
    result_txt: bytes
    table: Turnering
    result: TableResult
    records: tuple[ListRecord, ...]  # the new list, in file order

    def files(self) -> dict[str, bytes]:
        return {RATINGLISTE_POST: self.ratingliste_post, ALL_TXT: self.all_txt, RESULT_TXT: self.result_txt}


def match_players(table: Turnering, records: dict[tuple[str, str], ListRecord]) -> dict[int, ListRecord]:
    """Each table line's record, by player number; a name in neither file is an error on its line."""
    matched: dict[int, ListRecord] = {}
    seen: dict[tuple[str, str], int] = {}
    for p in table.players:
        if p.name in seen:
            first = table.player(seen[p.name])
            raise FesaFileError(table.file, p.line, f"{p.last_name!r} {p.first_name!r} is already on line {first.line}")
        seen[p.name] = p.number
        record = records.get(p.name)
        if record is None:
            raise FesaFileError(
                table.file,
                p.line,
                f"unknown player {p.last_name!r} {p.first_name!r}: not in {RATINGLISTE_PRE} nor {NYE_SPILLERE}",
            )
        matched[p.number] = record
    return matched


def _check_dates(table: Turnering, matched: dict[int, ListRecord], playing: set[int]) -> None:
    for number in sorted(playing):
        record = matched[number]
        last = record.state.last_played
        if last is not None and table.date < last:
            p = table.player(number)
            raise FesaFileError(
                table.file,
                p.line,
                f"the table's date {table.date} is before {p.last_name} {p.first_name}'s last rated table on {last}",
            )


def rate_files(turnering: bytes, ratingliste: bytes, nye_spillere: bytes | None = None) -> RunOutput:
    """Rate a table against a list. Every problem is a FesaFileError naming the file (and line)."""
    table = read_turnering(turnering, TURNERING)
    listed = read_ratingliste(ratingliste, RATINGLISTE_PRE, keep_text=True)
    newcomers = read_nye_spillere(nye_spillere, NYE_SPILLERE) if nye_spillere is not None else ()
    # The program puts the new players in front of the list; the first record of a name is the one found.
    check_unique_names([*newcomers, *listed])
    by_name = {r.name: r for r in [*newcomers, *listed]}
    matched = match_players(table, by_name)

    prepared = engine_table(table, {n: r.state for n, r in matched.items()})
    playing = {p.number for p in table.players if table.has_game(p.number)}
    _check_dates(table, matched, playing)  # the engine checks it too; here the message can name a line
    try:
        result = rate_table(prepared.table)
    except InvalidTable as exc:
        raise FesaFileError(table.file, None, f"the table cannot be rated: {exc}") from exc
    except TableDidNotSettle as exc:
        raise FesaFileError(table.file, None, f"the table does not settle: {exc}") from exc
    except RatingOffScale as exc:  # the program stops on it too (docs/rules.md §3)
        p = table.player(exc.player)  # type: ignore[arg-type]
        raise FesaFileError(
            table.file,
            p.line,
            f"the table cannot be rated: {p.last_name} {p.first_name}'s rating would reach {exc.rating:g}, at or "
            f"above the end of the handicap scale (9999), where the rules give no grade to convert a handicap from",
        ) from exc

    origin = table_origin(matched.values())
    updated: dict[tuple[str, str], ListRecord] = {}
    for outcome in result.outcomes:
        record = matched[outcome.key]  # type: ignore[index]
        updated[record.name] = played(record, table.date, origin, outcome.after)
    post = sort_like_program(
        [updated.get(r.name, r) for r in newcomers],
        [updated.get(r.name, r) for r in listed],
    )
    return RunOutput(
        ratingliste_post=write_ratingliste(post, RATINGLISTE_POST),
        all_txt=write_all_txt(post, table.date, ALL_TXT),
        result_txt=write_result_table(table, matched, result, RESULT_TXT),
        table=table,
        result=result,
        records=tuple(post),
    )
