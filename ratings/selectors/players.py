"""A player's page: his standing, his rated tables (each game explained on the table's own page), and his grade
history."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple, TypedDict

from django.db.models import (
    F,
    QuerySet,
)
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ratings.models import (
    HistoricalRow,
    OpeningState,
    Player,
    Promotion,
    PromotionStatus,
    RatingRow,
    Table,
)
from ratings.models.states import state_from_json
from ratings.selectors.list_values import pending_dan
from ratings.selectors.lists import SHOWN_PROMOTION_STATUSES

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations


class PendingGrade(TypedDict):
    list_pending_grade: int | None  # a Dan grade waiting for the officers' approval


def player_for_page(federation_id: str) -> WithAnnotations[Player, PendingGrade]:
    """The player with this federation id, with ``list_pending_grade`` and his opening state (if any) loaded;
    raises Player.DoesNotExist.

    Professionals have a page too (they play in tables); only the lists leave them out.
    """
    return (
        Player.objects.filter(merged_into__isnull=True)
        .select_related("opening_state")
        .annotate(list_pending_grade=pending_dan())
        .get(federation_id=federation_id.upper())
    )


def games_before_records(player: Player) -> int:
    """How many of the player's games were played before the site's first table: the game count of the state
    he was brought over with from the FESA list (0 without one). Reads ``player_for_page``'s opening state."""
    try:
        opening = player.opening_state
    except OpeningState.DoesNotExist:
        return 0
    return state_from_json(opening.state).games


@dataclass(frozen=True)
class GameLine:
    """One game of a rating row's explanation (RatingRow.detail), with the opponent resolved."""

    round: int
    opponent: Player | None
    score: float
    opponent_rating: int
    effective_rating: int
    handicap: str
    handicap_given: bool
    rating_before_game: float | None
    expected: float | None
    k: int | None
    change: float | None
    upset: bool
    bonus: float | None

    @property
    def total(self) -> float | None:
        """The game's whole effect on a normally rated player: change plus bonus."""
        if self.change is None:
            return None
        return self.change + (self.bonus or 0.0)


@dataclass
class HistoryEntry:
    """A player's rating row of one table, with its games explained."""

    row: RatingRow
    games: list[GameLine] = field(default_factory=list)

    @property
    def performance_rated(self) -> bool:
        return self.row.method == RatingRow.Method.PERFORMANCE

    @property
    def change_sum(self) -> float:
        """The games' changes (normal or upset gain) added up, before the bonus and before rounding."""
        return sum(g.change or 0.0 for g in self.games)

    @property
    def bonus_sum(self) -> float:
        return sum(g.bonus or 0.0 for g in self.games)

    @property
    def unrounded_change(self) -> float:
        """Every game's change and bonus together: the table's change before it is rounded once."""
        return self.change_sum + self.bonus_sum


def _history_rows(player: Player) -> QuerySet[RatingRow]:
    return (
        RatingRow.objects.filter(player=player)
        .select_related("table__tournament")
        .defer("state_before", "state_after")
        .order_by("date", "sequence")
    )


def _with_games(rows: list[RatingRow]) -> list[HistoryEntry]:
    """Attach each row's explained games; the opponents are read in one query for all rows."""
    opponent_ids = {d.get("opponent") for row in rows for d in row.detail}
    opponents = Player.objects.in_bulk([pk for pk in opponent_ids if isinstance(pk, int)])
    entries = []
    for row in rows:
        games = [
            GameLine(
                round=int(d["round"]),
                opponent=opponents.get(d.get("opponent")),
                score=float(d["score"]),
                opponent_rating=int(d["opponent_rating"]),
                effective_rating=int(d["effective_rating"]),
                handicap=d.get("handicap") or "",
                handicap_given=bool(d.get("handicap_given")),
                rating_before_game=d.get("rating_before_game"),
                expected=d.get("expected"),
                k=d.get("k"),
                change=d.get("change"),
                upset=bool(d.get("upset")),
                bonus=d.get("bonus"),
            )
            for d in row.detail
        ]
        entries.append(HistoryEntry(row=row, games=games))
    return entries


def player_history(player: Player) -> list[HistoryEntry]:
    """Every rating row of the player, oldest first, each with its games explained (two queries)."""
    return _with_games(list(_history_rows(player)))


def player_table_entry(player: Player, table_id: int) -> HistoryEntry | None:
    """The player's rating row of one table with its games explained, or None if he has none there."""
    rows = list(_history_rows(player).filter(table_id=table_id))
    return _with_games(rows)[0] if rows else None


def player_historical_rows(player: Player) -> list[HistoricalRow]:
    """The player's published results from before the opening balance (historical tables), oldest first:
    FESA's numbers as printed, never rated here (ratings/services/fesa/history.py)."""
    return list(
        HistoricalRow.objects.filter(player=player).select_related("table__tournament").order_by("date", "sequence")
    )


@dataclass
class GradeStep:
    """Promotions of one table with one decision, as one line: a newcomer may pass many grades at once.

    Public: the table gives the date the grade was earned, ``decided_at`` the date of the decision that
    stands (the approval or rejection, or the revocation of a revoked grade). Who decided and why are
    the staff's (the admin); nothing here carries them.
    """

    table: Table | None
    status: str
    status_label: str
    low: int
    high: int
    routes: list[str]
    decided_at: dt.datetime | None

    @property
    def in_force(self) -> bool:
        """Whether the grade holds (a Kyu grade, or a Dan grade approved): else its state is said beside it."""
        return self.status in SHOWN_PROMOTION_STATUSES


def player_grade_history(player: Player) -> list[GradeStep]:
    """The player's grade history, newest first, in one query: every promotion the history supports, with its
    decision, grouped by table and decision (withdrawn ones, which a correction took away before anyone
    decided, are left out)."""
    steps: list[GradeStep] = []
    for p in (
        Promotion.objects.filter(player=player)
        .exclude(status=PromotionStatus.WITHDRAWN)
        .select_related("table__tournament")
        .order_by(F("table__date").desc(nulls_last=True), F("table__sequence").desc(nulls_last=True), "grade")
    ):
        last = steps[-1] if steps else None
        if last is not None and last.table == p.table and last.status == p.status and p.grade == last.high + 1:
            last.high = p.grade
            if p.get_route_display() not in last.routes:
                last.routes.append(str(p.get_route_display()))
            last.decided_at = max(filter(None, [last.decided_at, _decision_time(p)]), default=None)
            continue
        steps.append(
            GradeStep(
                table=p.table,
                status=p.status,
                status_label=str(p.get_status_display()),
                low=p.grade,
                high=p.grade,
                routes=[str(p.get_route_display())],
                decided_at=_decision_time(p),
            )
        )
    return steps


def _decision_time(promotion: Promotion) -> dt.datetime | None:
    """When the decision that stands was taken: a revoked grade's revocation, else its approval or rejection."""
    if promotion.status == PromotionStatus.REVOKED:
        return promotion.reviewed_at
    return promotion.decided_at


class TableDate(NamedTuple):
    """A rated table of the player's, as a link to its explanation names it."""

    table_id: int
    date: dt.date


def player_table_neighbours(player: Player, table_id: int) -> tuple[TableDate | None, TableDate | None]:
    """The player's rated tables just before and just after this one, in the history's order (one query over
    his rows' dates, whatever their games); None at either end."""
    order = list(RatingRow.objects.filter(player=player).order_by("date", "sequence").values_list("table_id", "date"))
    at = next((i for i, (pk, _date) in enumerate(order) if pk == table_id), None)
    if at is None:
        return None, None
    earlier = TableDate(*order[at - 1]) if at > 0 else None
    later = TableDate(*order[at + 1]) if at + 1 < len(order) else None
    return earlier, later


@dataclass(frozen=True)
class TableLine:
    """One rated table on a player's page: his rating row, without the games' explanations (the table's own
    page, ratings:player_table, has them), and the grades the table earned him."""

    row: RatingRow
    grades: list[GradeStep]

    @property
    def performance_rated(self) -> bool:
        return self.row.method == RatingRow.Method.PERFORMANCE


def player_tables(player: Player, grade_steps: Iterable[GradeStep]) -> list[TableLine]:
    """Every rating row of the player, newest first, in one query whatever the games, each with the steps of
    ``grade_steps`` (``player_grade_history``) its table earned."""
    by_table: dict[int, list[GradeStep]] = {}
    for step in grade_steps:
        if step.table is not None:
            by_table.setdefault(step.table.pk, []).append(step)
    rows = _history_rows(player).defer("detail").reverse()
    return [TableLine(row=row, grades=by_table.get(row.table_id, [])) for row in rows]


def player_labels(player_ids: Iterable[int]) -> dict[int, str]:
    """Each player's name with his federation id, country, games and last table: what tells two players of one
    name apart on a merge screen."""
    return {p.pk: player_label(p) for p in Player.objects.filter(pk__in=set(player_ids))}


def player_label(player: Player) -> str:
    last = (
        _("last played %(date)s") % {"date": player.last_played.isoformat()}
        if player.last_played
        else _("no rated table yet")
    )
    games = ngettext("%(count)s game", "%(count)s games", player.games) % {"count": player.games}
    return f"{player} ({player.federation_id}, {player.nationality.code or '—'}, {games}, {last})"


def player_names(player_ids: Iterable[int], *, with_ids: bool = False) -> dict[int, str]:
    """Each player's name as the admin shows it; ``with_ids``: followed by his federation id, "Novák Tomáš
    (F123)", which tells namesakes apart in a stored text."""
    players = Player.objects.filter(pk__in=set(player_ids))
    return {p.pk: f"{p} ({p.federation_id})" if with_ids else str(p) for p in players}
