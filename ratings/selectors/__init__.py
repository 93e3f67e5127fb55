"""Every read of the site, one module a topic. Services import the modules of this package; the package imports
no service, view, admin or task (import-linter's layers contract, pyproject.toml).

This package re-exports the reads of the public pages' main topics:

* ``lists``: the rating list (today or as of a date), ranked, for the page and every file of it
  (``list_files``; its values in SQL: ``list_values``), and the words the public pages share.
* ``versions``: the version of the public data (ETags, the keys of the shared cache).
* ``players``, ``crosstable``, ``events``: a player's page, a table's page, tournaments and promotions.

The other modules (``states``, ``search``, ``grades``, ``clubs``, ``duplicates``, ...) are imported by their own
names, each named after what it reads.

The public pages' functions answer with a fixed number of queries whatever the number of rows (the pages are tested
for it, tests/public/test_query_counts.py).
"""

from __future__ import annotations

from ratings.selectors.crosstable import (
    CrossCell,
    CrossRow,
    Crosstable,
    TablePromotion,
    held_dan_grades,
    shown_grade,
    table_crosstable,
    table_for_page,
    table_promotions,
)
from ratings.selectors.events import (
    pending_promotions,
    promotion_tables,
    public_tables,
    tournament_countries,
    tournament_years,
    tournaments_list,
)
from ratings.selectors.list_files import (
    EXPORT_FIELDS,
    FORMATS,
    all_txt,
    csv_lines,
    export_record,
    json_document,
    rating_list_file,
)
from ratings.selectors.list_values import ACTIVE_YEARS, active_cutoff, pending_dan, public_players
from ratings.selectors.lists import (
    LIST_ORDER,
    entries_named,
    is_list_date,
    list_clubs,
    list_countries,
    list_dates,
    list_entries,
)
from ratings.selectors.players import (
    GameLine,
    GradeStep,
    HistoryEntry,
    games_before_records,
    player_for_page,
    player_grade_history,
    player_historical_rows,
    player_history,
    player_table_entry,
    player_table_neighbours,
    player_tables,
)
from ratings.selectors.versions import DataVersion, data_version

__all__ = [
    "ACTIVE_YEARS",
    "EXPORT_FIELDS",
    "FORMATS",
    "LIST_ORDER",
    "CrossCell",
    "CrossRow",
    "Crosstable",
    "DataVersion",
    "GameLine",
    "GradeStep",
    "HistoryEntry",
    "TablePromotion",
    "active_cutoff",
    "all_txt",
    "csv_lines",
    "data_version",
    "entries_named",
    "export_record",
    "games_before_records",
    "held_dan_grades",
    "is_list_date",
    "json_document",
    "list_clubs",
    "list_countries",
    "list_dates",
    "list_entries",
    "pending_dan",
    "pending_promotions",
    "player_for_page",
    "player_grade_history",
    "player_historical_rows",
    "player_history",
    "player_table_entry",
    "player_table_neighbours",
    "player_tables",
    "promotion_tables",
    "public_players",
    "public_tables",
    "rating_list_file",
    "shown_grade",
    "table_crosstable",
    "table_for_page",
    "table_promotions",
    "tournament_countries",
    "tournament_years",
    "tournaments_list",
]
