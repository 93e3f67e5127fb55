"""Every read of the site. Services import the modules of this package; the package imports no service, view,
admin or task (tests/test_layers.py).

* ``states``: players' engine states at a point of the history.
* ``lists``: the rating list (today or as of a date) and the words the public pages share.
* ``players``, ``crosstable``, ``events``: a player's page, a table's page, tournaments and promotions.

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
from ratings.selectors.lists import (
    ACTIVE_YEARS,
    ESTABLISHED_FROM,
    LIST_ORDER,
    active_cutoff,
    attach_pending_grades,
    is_list_date,
    list_countries,
    list_dates,
    list_positions,
    pending_dan,
    public_players,
    rating_list,
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
)

__all__ = [
    "ACTIVE_YEARS",
    "ESTABLISHED_FROM",
    "LIST_ORDER",
    "CrossCell",
    "CrossRow",
    "Crosstable",
    "GameLine",
    "GradeStep",
    "HistoryEntry",
    "TablePromotion",
    "active_cutoff",
    "attach_pending_grades",
    "games_before_records",
    "held_dan_grades",
    "is_list_date",
    "list_countries",
    "list_dates",
    "list_positions",
    "pending_dan",
    "pending_promotions",
    "player_for_page",
    "player_grade_history",
    "player_historical_rows",
    "player_history",
    "player_table_entry",
    "promotion_tables",
    "public_players",
    "public_tables",
    "rating_list",
    "shown_grade",
    "table_crosstable",
    "table_for_page",
    "table_promotions",
    "tournament_countries",
    "tournament_years",
    "tournaments_list",
]
