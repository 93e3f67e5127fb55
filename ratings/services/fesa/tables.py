"""A table both ways between ``turnering.txt`` (ratings/fesa_files/turnering.py) and the database's games.

* :func:`table_games` turns a read ``turnering.txt`` into game rows: a game once per pair and round, the
  lower line number first; a round without a game (``0+``, ``0-``, ``0=``, ``0#``) as a row without
  opponent. A simultaneous-display giver (``[&]``) plays many games in one round, which a round of the
  database cannot hold (a player plays once per round): such a table's games are then numbered in the
  order the engine rates them (round by round, the giver's games in the table order of his opponents,
  as ratings/fesa_files/turnering.py's ``engine_table`` does), so the rating is the same.
* :func:`table_create` saves a read table: the tournament if needed, new players, then the table, its
  entries and games through ``table_save`` (in the caller's transaction; TableRefused for a table the
  rules refuse);
* the way back, a saved table as a :class:`Turnering` for its result table, is a read:
  ratings/selectors/fesa_records.py ``table_turnering``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django_countries import countries

from ratings.access import can_change_prior_grade
from ratings.fesa_files.encoding import decode_lenient
from ratings.fesa_files.errors import FesaFileError, raise_collected
from ratings.fesa_files.turnering import Turnering, file_lines, read_turnering_checked
from ratings.models import (
    GameResult,
    HandicapGiver,
    Player,
    PriorGradeSource,
    Table,
    Tournament,
)
from ratings.services.grades.proposals import prior_grade_propose
from ratings.services.tables.save import EntryFacts, GameEdit, table_save
from ratings.services.tables.submit import GameFacts
from ratings.services.tournaments import tournament_save

MAX_UPLOAD_BYTES = 1_000_000  # the largest real tables are a few kilobytes
MAX_NEW_PLAYERS = 1_000
"""The most players a ``nye-spillere`` sent with a table may hold: a table's own maximum
(ratings/fesa_files/turnering_values.py), since they come with one table. Keeps a preview and its
confirmation within the time a request has (bench/bench_upload.py)."""
_CONTROL_OK = set("\t\n\r\f")

_NO_GAME = {"+": GameResult.BYE, "-": GameResult.ABSENT, "=": GameResult.HALF_BYE, "#": GameResult.NO_SHOW}
_GAME = {"+": GameResult.FIRST_WON, "-": GameResult.SECOND_WON, "=": GameResult.DRAW}


@dataclass(frozen=True, slots=True)
class NewPlayerFacts:
    """What the director gives for a new player: nationality (two letters) and prior grade, if any."""

    nationality: str = ""
    prior_kind: str = ""  # "", "kyu", "dan" or "pro"
    prior_level: int | None = None


@dataclass(frozen=True, slots=True)
class TournamentHeader:
    """A table's first line as directors write it, ``[Name, City, Country, dates]``."""

    name: str
    city: str = ""
    country: str = ""  # two letters, "" when the line names no country


def tournament_header(text: str) -> TournamentHeader:
    """Read ``Name, City, Country`` with or without trailing dates (``2025-04-19/20``); the country by its
    English name or two letters. A line whose last part (dates aside) is no country is all name."""
    parts = [part.strip() for part in text.split(",")]
    while len(parts) > 1 and any(c.isdigit() for c in parts[-1]):
        parts.pop()  # the dates: the table's own date line is the one that counts
    country = (countries.by_name(parts[-1]) or countries.alpha2(parts[-1])) if len(parts) >= 3 else ""
    if not country:
        return TournamentHeader(name=text.strip())
    return TournamentHeader(name=", ".join(parts[:-2]), city=parts[-2][:100], country=country)


def read_upload(data: bytes, file: str) -> Turnering:
    """Read a ``turnering.txt``; binary data and control characters are refused with their line (FesaFileError,
    FesaFileErrors with every problem)."""
    table, problems = read_upload_checked(data, file)
    raise_collected(problems)
    assert table is not None
    return table


def read_upload_checked(data: bytes, file: str) -> tuple[Turnering | None, list[FesaFileError]]:
    """A ``turnering.txt`` as far as it can be read, and every problem of the file in line order: the
    reader's (ratings/fesa_files/turnering.py) and a control character on any line. An empty file, one too
    large for a table and binary data are refused at once (the table None)."""
    if not data.strip():
        return None, [FesaFileError(file, None, _("the file is empty"))]
    if len(data) > MAX_UPLOAD_BYTES:
        message = _("the file is too large for a table (%(size)s bytes)") % {"size": len(data)}
        return None, [FesaFileError(file, None, message)]
    if b"\x00" in data:
        message = _("this is not a text file (it holds NUL bytes): save it as ISO-8859-1 or UTF-8 text")
        return None, [FesaFileError(file, None, message)]
    table, problems = read_turnering_checked(data, file)
    # A name holding one is told by the reader already, naming the field and the character: once is enough.
    told = {(p.line, str(p.params["char"]).split(" ")[0]) for p in problems if p.params and "char" in p.params}
    for lineno, line in enumerate(file_lines(decode_lenient(data)), start=1):  # numbered as the reader does
        bad = next((c for c in line if (ord(c) < 32 and c not in _CONTROL_OK) or 0x7F <= ord(c) < 0xA0), None)
        code = f"U+{ord(bad):04X}" if bad is not None else ""
        if bad is not None and (lineno, code) not in told:
            message = _("control character %(code)s: this is not a text table") % {"code": code}
            problems.append(FesaFileError(file, lineno, message))
    problems.sort(key=lambda p: (p.line is None, p.line or 0))
    return table, problems


@dataclass(frozen=True, slots=True)
class GameRow:
    """A game of the file by player numbers; ``second`` is None for a round without a game."""

    round: int
    first: int
    second: int | None
    result: str
    handicap: str = ""
    handicap_giver: str = ""


def table_game_facts(turnering: Turnering, ids: Mapping[int, int]) -> list[GameFacts]:
    """The table's games as saved, its line numbers given as the players' ids (``ids``: number -> id)."""
    return [
        GameFacts(
            round=g.round,
            first_id=ids[g.first],
            second_id=ids.get(g.second or 0),
            result=g.result,
            handicap=g.handicap,
            handicap_giver=g.handicap_giver,
        )
        for g in table_games(turnering)
    ]


def table_games(turnering: Turnering) -> list[GameRow]:
    """The table's games, by round then line number (see the module docstring for simultaneous givers)."""
    count = len(turnering.players)
    spread = any(p.simul_giver for p in turnering.players)
    rows: list[tuple[int, GameRow]] = []
    for p in turnering.players:
        for r, cell in enumerate(p.cells, start=1):
            if not cell.is_game:
                rows.append((r * (count + 1), GameRow(r, p.number, None, _NO_GAME[cell.sign])))
                continue
            q = turnering.player(cell.opponent)
            if not q.simul_giver and q.number < p.number:
                continue  # taken from the opponent's line
            handicap = giver = ""
            if cell.handicap is not None:
                handicap = cell.handicap.code
                giver = HandicapGiver.SECOND if cell.handicap.received else HandicapGiver.FIRST
            key = r * (count + 1) + (p.number if q.simul_giver else 0)
            rows.append((key, GameRow(r, p.number, q.number, _GAME[cell.sign], handicap, giver)))
    if spread:
        numbers = {key: i for i, key in enumerate(sorted({key for key, _row in rows}), start=1)}
        rows = [(key, _renumbered(row, numbers[key])) for key, row in rows]
    rows.sort(key=lambda item: (item[0], item[1].first))
    return [row for _key, row in rows]


def _renumbered(row: GameRow, round_: int) -> GameRow:
    return GameRow(round_, row.first, row.second, row.result, row.handicap, row.handicap_giver)


def table_create(
    *,
    turnering: Turnering,
    tournament: Tournament | None,
    user: Any,
    name: str,
    sequence: int,
    players: Mapping[int, int | NewPlayerFacts],
) -> tuple[Table, dict[int, int], int]:
    """Save a read table in the caller's transaction: a tournament named, placed and dated after the file's
    header (:func:`tournament_header`, the table's date) when none is given (its director the uploading
    director), the new players, the table as a draft, its entries and games. ``players`` gives each line
    number a player id or the facts of a new player.

    Returns the table, the player id of every line number and the number of players created.
    """
    staff = user if getattr(user, "pk", None) else None
    if tournament is None:
        header = tournament_header(turnering.name)
        tournament = tournament_save(
            tournament=None,
            user=staff,
            name=header.name[:200] or _("Tournament of %(date)s") % {"date": turnering.date.isoformat()},
            city=header.city,
            country=header.country,
            start_date=turnering.date,
            end_date=turnering.date,
        )
    ids: dict[int, int] = {}
    created = 0
    for number, who in sorted(players.items()):
        if isinstance(who, int):
            ids[number] = who
            continue
        line = turnering.player(number)
        player = Player(
            family_name=line.last_name,
            given_name=line.first_name,
            nationality=who.nationality,
            residence=who.nationality,
        )
        note = _("given with the table %(name)s") % {"name": turnering.name[:150]}
        # A director's prior grade is a proposal for a rating officer; officers and commands set it directly.
        proposed = bool(who.prior_kind) and staff is not None and not can_change_prior_grade(staff)
        if who.prior_kind and not proposed:
            player.prior_grade_kind, player.prior_grade_level = who.prior_kind, who.prior_level
            player.prior_grade_source = PriorGradeSource.OTHER
            player.prior_grade_note = note
        player.save()
        if proposed:
            prior_grade_propose(
                player=player,
                kind=who.prior_kind,
                level=who.prior_level,
                source=PriorGradeSource.OTHER,
                note=note,
                user=staff,
            )
        created += 1
        ids[number] = player.pk
    games = [GameEdit(facts=facts) for facts in table_game_facts(turnering, ids)]
    saved = table_save(
        table=None,
        tournament=tournament,
        name=name[:100],
        date=turnering.date,
        sequence=sequence,
        entries=[EntryFacts(player_id=ids[n], seat=n) for n in sorted(ids)],
        games=games,
        strict_dates=True,  # an uploaded table comes after its players' rated tables, whoever uploads it
    )
    return saved.table, ids, created
