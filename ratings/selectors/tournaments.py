"""A tournament's page: each public table with its final standings and its crosstable ordered by place.

The standings are what the site holds: points from the games (byes and absences as the standings count them)
and the ratings. Neither the site nor the FESA result file holds a MacMahon score or a tie-break, so players
on equal points share their place (shown "3–4") and keep their seat order.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ratings.engine.performance import performance_rating
from ratings.models import AnnouncementStatus, RatingRow, Table, Tournament
from ratings.selectors.crosstable import CrossRow, Crosstable, tables_crosstables
from ratings.selectors.events import public_tables
from ratings.selectors.search import namesake_ids


@dataclass(frozen=True)
class Standing:
    """A player's line in a table's final standings."""

    place: int
    last_place: int  # the last place of the group on the same points: 3 and 4 for "3–4"
    row: CrossRow
    performance: int | None  # the table's performance rating, from the ratings its games used

    @property
    def place_label(self) -> str:
        return str(self.place) if self.place == self.last_place else f"{self.place}–{self.last_place}"


@dataclass(frozen=True)
class TableStandings:
    crosstable: Crosstable
    standings: list[Standing]
    of_day: int = 0  # the table's number among the tournament's tables of its date; 0 when it is the only one


@dataclass(frozen=True)
class TournamentPage:
    tournament: Tournament
    tables: list[TableStandings]
    namesakes: set[int]


def table_performance(row: RatingRow | None) -> int | None:
    """The performance rating over the table's rated games, by the engine's rule (docs/rules.md §5), from the
    opponent ratings the games used; None without a rated game."""
    if row is None or not row.detail:
        return None
    return performance_rating((float(g["effective_rating"]), float(g["score"])) for g in row.detail)


def standings(crosstable: Crosstable) -> list[Standing]:
    """The table's rows by points (highest first), then seat; equal points share a place."""
    ordered = sorted(crosstable.rows, key=lambda r: (-r.points, r.seat))
    out: list[Standing] = []
    for row in ordered:
        tied = [i for i, other in enumerate(ordered) if other.points == row.points]
        out.append(
            Standing(place=tied[0] + 1, last_place=tied[-1] + 1, row=row, performance=table_performance(row.row))
        )
    return out


def tournament_page(pk: int) -> TournamentPage:
    """The tournament ``pk`` with its public tables in date and sequence order, each with its standings, in a
    fixed number of queries whatever the number of tables and players (see ``tables_crosstables``), and the
    namesakes among its players (one more). A tournament without a public table has a page only once accepted
    in the calendar (its page before it is played); for any other, raises Tournament.DoesNotExist."""
    tables = list(public_tables().filter(tournament=pk).select_related("tournament").order_by("date", "sequence"))
    tournament = (
        tables[0].tournament if tables else Tournament.objects.get(pk=pk, announcement=AnnouncementStatus.ACCEPTED)
    )
    crosstables = tables_crosstables(tables, with_detail=True, with_promotions=False)  # the table's page shows them
    per_day = Counter(t.date for t in tables)
    numbers = {t.pk: n for day in per_day for n, t in enumerate((t for t in tables if t.date == day), 1)}
    pages = [
        TableStandings(
            crosstable=crosstables[t.pk],
            standings=standings(crosstables[t.pk]),
            of_day=numbers[t.pk] if per_day[t.date] > 1 else 0,
        )
        for t in tables
    ]
    players = [row.player for page in pages for row in page.crosstable.rows]
    return TournamentPage(tournament=tournament, tables=pages, namesakes=namesake_ids(players))


def table_number_of_day(table: Table) -> int:
    """The table's number among its tournament's public tables of its date, in sequence order; 0 when it is the
    only one that day (two tables of one day are told apart by it)."""
    same_day = list(
        public_tables()
        .filter(tournament=table.tournament_id, date=table.date)
        .order_by("sequence", "pk")
        .values_list("pk", flat=True)
    )
    return same_day.index(table.pk) + 1 if len(same_day) > 1 and table.pk in same_day else 0
