"""A table's page: the crosstable as FESA publishes it, and the promotions the table caused."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ratings.engine.grades import FIRST_DAN, public_grade
from ratings.engine.scores import (
    ABSENT,
    BYE,
    DRAW,
    FIRST_SCORES,
    FIRST_WON,
    HALF_BYE,
    NO_SHOW,
    SECOND_WON,
    STANDING_POINTS,
)
from ratings.models import (
    Game,
    OpeningState,
    Player,
    Promotion,
    PromotionStatus,
    RatingRow,
    Table,
    TableEntry,
    TableStatus,
)
from ratings.models.states import state_from_json
from ratings.selectors.lists import PUBLIC_TABLE_STATUSES, SHOWN_PROMOTION_STATUSES
from ratings.selectors.states import states_before


def table_for_page(pk: int) -> Table:
    """A submitted or rated table with its tournament; drafts are not public. Raises Table.DoesNotExist."""
    return Table.objects.select_related("tournament").get(pk=pk, status__in=PUBLIC_TABLE_STATUSES)


def held_dan_grades(player_ids: list[int]) -> dict[int, int]:
    """Each player's highest Dan grade held by approval or by his opening state (two queries)."""
    held: dict[int, int] = {}
    for pid, grade in Promotion.objects.filter(
        player_id__in=player_ids, status=PromotionStatus.APPROVED, grade__gte=FIRST_DAN
    ).values_list("player_id", "grade"):
        held[pid] = max(held.get(pid, 0), grade)
    for pid, state in OpeningState.objects.filter(player_id__in=player_ids).values_list("player_id", "state"):
        held[pid] = max(held.get(pid, 0), state_from_json(state).grade)
    return held


def shown_grade(computed: int, held: int) -> int:
    """The grade the public sees for a computed grade of the past: Kyu grades as computed, a Dan grade only as
    far as it is approved (docs/rules.md §8)."""
    # ``held`` (approved, or brought from the migrated list) is never taken away silently, even when a
    # correction left the history short of it: the grade officers decide that (ratings/services/grades/promotions.py).
    return public_grade(computed, held)


@dataclass(frozen=True)
class CrossCell:
    """A round cell as FESA prints it: opponent's number and sign, ``12+``, ``3-(+R)``; ``0+`` for a bye."""

    text: str
    outcome: str  # "win", "loss", "draw" or "" (no game)
    opponent: Player | None = None
    opponent_seat: int = 0
    handicap: str = ""
    handicap_received: bool = False
    played: bool = True
    replay_draw: bool = False


@dataclass
class CrossRow:
    seat: int
    player: Player
    grade: int
    rating: int | None  # rating before the table; for a performance-rated player his new rating
    starred: bool  # rated by performance (or, without a rated game, still on a result list)
    change: int | None  # None: performance-rated
    cells: list[CrossCell]
    points: float
    row: RatingRow | None


@dataclass
class TablePromotion:
    """What one table did to one player's grade, as FESA prints it ("Promoting X to 3 Kyu"): the grade he
    had before, the highest grade it gave him that took effect (Kyu) or was approved (Dan), and the highest
    Dan grade it found that still waits for approval."""

    player: Player
    table_id: int
    grade_before: int
    granted: int | None = None
    pending: int | None = None


@dataclass
class Crosstable:
    table: Table
    rounds: list[int]
    rows: list[CrossRow]
    promotions: list[TablePromotion]
    has_handicaps: bool


_POINTS = {"win": FIRST_SCORES[FIRST_WON], "draw": FIRST_SCORES[DRAW], "loss": FIRST_SCORES[SECOND_WON]}
_NO_GAME = {
    code: (sign, STANDING_POINTS[code])
    for code, sign in {BYE: "0+", HALF_BYE: "0=", ABSENT: "0-", NO_SHOW: "0#"}.items()
}
_SIGN = {"win": "+", "loss": "-", "draw": "="}


def table_crosstable(table: Table) -> Crosstable:
    """The table as FESA publishes it (docs/fesa-files.md, the result table), in a fixed number of queries.

    Rows in seat order; the grade is the public grade before the table; a player without a rated game
    (byes, absences only) takes no part: his rating before stands, with no change, or starred while he is
    still on a result list (as the FESA program prints him). A table not rated yet shows every player's
    rating before it and no change.
    """
    return tables_crosstables([table])[table.pk]


def tables_crosstables(
    tables: Sequence[Table], *, with_detail: bool = False, with_promotions: bool = True
) -> dict[int, Crosstable]:
    """The crosstables of several tables (a tournament's) by table id, in the same number of queries as one,
    unless a table has players without a rating row there (one more query for each such table).

    ``with_detail`` keeps each rating row's per-game explanation (``RatingRow.detail``) loaded; without
    ``with_promotions`` the promotions are not read (one query fewer) and each crosstable has none.
    """
    ids = [t.pk for t in tables]
    entries: dict[int, list[TableEntry]] = {pk: [] for pk in ids}
    for entry in TableEntry.objects.filter(table_id__in=ids).select_related("player").order_by("table_id", "seat"):
        entries[entry.table_id].append(entry)
    deferred = ("state_before", "state_after") if with_detail else ("state_before", "state_after", "detail")
    rows: dict[int, dict[int, RatingRow]] = {pk: {} for pk in ids}
    for row in RatingRow.objects.filter(table_id__in=ids).defer(*deferred):
        rows[row.table_id][row.player_id] = row
    games: dict[int, list[Game]] = {pk: [] for pk in ids}
    for game in Game.objects.filter(table_id__in=ids).order_by("table_id", "round", "id"):
        games[game.table_id].append(game)
    held = held_dan_grades(list({e.player_id for es in entries.values() for e in es}))
    promotions = table_promotions(ids) if with_promotions else {pk: [] for pk in ids}
    return {t.pk: _crosstable(t, entries[t.pk], rows[t.pk], games[t.pk], held, promotions[t.pk]) for t in tables}


def _crosstable(
    table: Table,
    entries: list[TableEntry],
    rows: dict[int, RatingRow],
    games: list[Game],
    held: dict[int, int],
    promotions: list[TablePromotion],
) -> Crosstable:
    seats = {e.player_id: e.seat for e in entries}
    players = {e.player_id: e.player for e in entries}
    missing = [pid for pid in seats if pid not in rows]
    before = states_before(date=table.date, sequence=table.sequence, player_ids=missing) if missing else {}
    cells: dict[int, dict[int, CrossCell]] = {pid: {} for pid in seats}
    points = dict.fromkeys(seats, 0.0)
    rounds: set[int] = set()
    has_handicaps = False
    for game in games:
        rounds.add(game.round)
        if game.second_id is None:
            text, score = _NO_GAME.get(game.result, ("0-", 0.0))
            cells.setdefault(game.first_id, {})[game.round] = CrossCell(text=text, outcome="")
            points[game.first_id] = points.get(game.first_id, 0.0) + score
            continue
        first_outcome = {"first": "win", "second": "loss"}.get(game.result, "draw")
        second_outcome = {"win": "loss", "loss": "win"}.get(first_outcome, "draw")
        has_handicaps = has_handicaps or bool(game.handicap)
        for me, other, outcome, giver in (
            (game.first_id, game.second_id, first_outcome, game.handicap_giver == "first"),
            (game.second_id, game.first_id, second_outcome, game.handicap_giver == "second"),
        ):
            text = f"{seats.get(other, 0)}{_SIGN[outcome]}"
            if game.handicap:
                text += f"({'-' if giver else '+'}{game.handicap})"
            cells.setdefault(me, {})[game.round] = CrossCell(
                text=text,
                outcome=outcome,
                opponent=players.get(other),
                opponent_seat=seats.get(other, 0),
                handicap=game.handicap,
                handicap_received=bool(game.handicap) and not giver,
                played=game.played,
                replay_draw=game.replay_draw,
            )
            points[me] = points.get(me, 0.0) + _POINTS[outcome]
    ordered_rounds = list(range(1, max(rounds) + 1)) if rounds else []
    cross_rows = []
    for entry in entries:
        pid = entry.player_id
        row = rows.get(pid)
        if row is not None:
            performance = row.method == RatingRow.Method.PERFORMANCE
            rating: int | None = row.rating_after if performance else row.rating_before
            change = None if performance else (row.change or 0)
            computed = row.grade_before
        else:
            # No rated game in a rated table: he took no part, his rating stands (+0, or starred while on a
            # result list). A table still waiting to be rated shows the ratings it will start from, no change.
            state = before[pid]
            performance = state.result_list is not None
            unchanged = None if performance or table.status != TableStatus.RATED else 0
            rating, change, computed = state.rating, unchanged, state.grade
        cross_rows.append(
            CrossRow(
                seat=entry.seat,
                player=entry.player,
                grade=shown_grade(computed, held.get(pid, 0)),
                rating=rating,
                starred=performance,
                change=change,
                cells=[cells[pid].get(r, CrossCell(text="", outcome="")) for r in ordered_rounds],
                points=points.get(pid, 0.0),
                row=row,
            )
        )
    return Crosstable(
        table=table,
        rounds=ordered_rounds,
        rows=cross_rows,
        promotions=sorted(promotions, key=lambda t: (seats.get(t.player.pk, 0), t.player.pk)),
        has_handicaps=has_handicaps,
    )


def table_promotions(table_ids: list[int]) -> dict[int, list[TablePromotion]]:
    """For each table, its promoted players in the order of their promotions' first grade, in one query.

    A table's promotions of a player are consecutive grades, so the grade he had before is one below the
    lowest; rejected, revoked and withdrawn promotions are left out.
    """
    lines: dict[tuple[int, int], TablePromotion] = {}
    wanted = {*SHOWN_PROMOTION_STATUSES, PromotionStatus.PENDING}
    # The statuses are sorted out here, not in SQL: a status condition would tempt SQLite (without
    # statistics) to scan the status index instead of reading the few rows of these tables.
    for p in (
        Promotion.objects.filter(table_id__in=table_ids).select_related("player").order_by("table_id", "grade", "pk")
    ):
        if p.status not in wanted or p.table_id is None:
            continue
        line = lines.setdefault(
            (p.table_id, p.player_id), TablePromotion(player=p.player, table_id=p.table_id, grade_before=p.grade - 1)
        )
        if p.status == PromotionStatus.PENDING:
            line.pending = max(line.pending or 0, p.grade)
        else:
            line.granted = max(line.granted or 0, p.grade)
    out: dict[int, list[TablePromotion]] = {pk: [] for pk in table_ids}
    for line in lines.values():
        out[line.table_id].append(line)
    return out
