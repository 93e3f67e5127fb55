"""FESA's published result tables as historical tables: the history from before the opening balance.

A federation that migrates with the opening balance (ratings/services/fesa/state.py) has its players'
earlier tables only as the result tables FESA published on its season pages. Importing one
(:func:`published_table_import`) saves it as a table with status HISTORICAL: its players (matched as an
upload takes a player without asking: the one player whose names read the same in plain Latin letters,
``Zielinski`` for ``Zieliński``, ``Muller`` for ``Müller``, ratings/selectors/fesa_match.py; or created), its
games, and per player a :class:`~ratings.models.HistoricalRow` holding the published rating before and after,
change, grade and promotion, as printed. Nothing rates or replays it: the re-rate takes only submitted and
rated tables, the state of every player still comes from the opening balance and the rated tables, and a
player known only from historical tables is not on the program's list the site writes. So historical tables
must come before every table rated on the site.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.db.models import Max, Min
from django_countries import countries

from ratings.fesa_files.errors import FesaFileError
from ratings.fesa_files.published import PublishedRow, PublishedTable, read_published_table
from ratings.models import HistoricalRow, Table, TableStatus
from ratings.selectors.fesa_match import PlayerIndex
from ratings.services.fesa.tables import NewPlayerFacts, table_create


@dataclass(frozen=True, slots=True)
class HistoricalImportOutcome:
    table_id: int
    players_matched: int
    players_created: int


def _players(table: PublishedTable) -> dict[int, int | NewPlayerFacts]:
    """Each row's player: the one player whose names read the same in plain Latin letters (the upload's rule,
    ratings/selectors/fesa_match.py), or a new one with the row's nationality. Close names (swapped names, a
    letter apart) are not taken: with no director to ask, a close name is as often someone else."""
    index = PlayerIndex()
    players: dict[int, int | NewPlayerFacts] = {}
    for row in table.rows:
        found = index.match(row.last_name, row.first_name).same
        if len(found) > 1:
            raise FesaFileError(table.file, row.line, f"several players are named {row.last_name} {row.first_name}")
        code = row.nationality.upper()
        players[row.number] = found[0].player_id if found else NewPlayerFacts(code if countries.alpha2(code) else "")
    return players


def _row(table: Table, player_id: int, row: PublishedRow, promoted_to: int | None) -> HistoricalRow:
    games = [c for c in row.cells if c.is_game]
    return HistoricalRow(
        table=table,
        player_id=player_id,
        date=table.date,
        sequence=table.sequence,
        rating_before=None if row.performance else row.rating,
        rating_after=row.rating_after,
        change=row.change,
        performance=row.performance,
        rated_games=len(games),
        score=float(sum(c.score for c in games)),
        grade_before=row.grade,
        grade_after=promoted_to if promoted_to is not None else row.grade,
    )


def published_table_import(*, data: bytes, file: str = "result.txt") -> HistoricalImportOutcome:
    """Save a published result table as a historical table (see the module docstring); all or nothing.

    Raises FesaFileError for a table that does not read or whose games do not agree, a name several
    players have, or a date not before every table rated on the site.
    """
    published = read_published_table(data, file)
    turnering = published.turnering()
    with transaction.atomic():
        first_rated = Table.objects.exclude(status=TableStatus.HISTORICAL).aggregate(first=Min("date"))["first"]
        if first_rated is not None and published.date >= first_rated:
            raise FesaFileError(
                file,
                None,
                f"a historical table must come before the opening balance: a table is rated on {first_rated}",
            )
        players = _players(published)
        taken = Table.objects.filter(date=published.date).aggregate(last=Max("sequence"))["last"] or 0
        table, ids, created = table_create(
            turnering=turnering, tournament=None, user=None, name="", sequence=taken + 1, players=players
        )
        table.status = TableStatus.HISTORICAL
        table.save(update_fields=["status"])
        HistoricalRow.objects.bulk_create(
            _row(table, ids[row.number], row, published.promotions.get(row.number)) for row in published.rows
        )
    return HistoricalImportOutcome(table.pk, players_matched=len(published.rows) - created, players_created=created)
