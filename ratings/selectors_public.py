"""Reads for the public pages: the rating list (today or as of a date), a player's page, a table's crosstable,
tournaments and promotions.

Every function here answers with a fixed number of queries whatever the number of rows (the pages are tested
for it), and the rating list stays a lazy queryset so that filters, sorting and pagination run in the database.

The rating list (RULES.md §8, FESA-FILES.md all.txt): the players who played a rated table on or after the same
day two years before the list's date ("active"), professionals left out, highest rating first. Today's list
reads the players' derived columns; a list as of a past date reads each player's latest rating row on or
before that date, or the opening state he was migrated with if he has no such row.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.db.models import (
    Case,
    CharField,
    Count,
    DateField,
    Exists,
    F,
    Func,
    IntegerField,
    Max,
    Min,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
    Window,
)
from django.db.models.fields.json import KeyTextTransform, KeyTransform
from django.db.models.functions import Cast, Coalesce, Greatest, Least, RowNumber
from django.utils import timezone

from ratings.models import (
    FIRST_DAN,
    Category,
    Player,
    Promotion,
    PromotionStatus,
    RatingRow,
    Table,
    TableStatus,
    Tournament,
)

ACTIVE_YEARS = 2
ESTABLISHED_FROM = 18  # the game number from which a player is tested as established (RULES.md §7)
LAST_KYU = FIRST_DAN - 1
PUBLIC_TABLE_STATUSES = [TableStatus.SUBMITTED, TableStatus.RATED]
SHOWN_PROMOTION_STATUSES = [PromotionStatus.EFFECTIVE, PromotionStatus.APPROVED]
LIST_ORDER = ("-list_rating", "family_name", "given_name", "pk")


def active_cutoff(date: dt.date) -> dt.date:
    """The first day that still counts as "within two years before ``date``".

    As the FESA program compares it (ratings/fesa_files/alltxt.py): on or after the same day two years
    earlier; for 29 February that day does not exist and the first day that counts is 1 March.
    """
    try:
        return date.replace(year=date.year - ACTIVE_YEARS)
    except ValueError:
        return dt.date(date.year - ACTIVE_YEARS, 3, 1)


def public_players() -> QuerySet[Player]:
    """Players the public lists may show: not professionals (by flag or by a professional prior grade)."""
    return Player.objects.filter(is_professional=False).exclude(prior_grade_kind="pro")


def pending_dan(outer: str = "pk") -> Subquery:
    """The lowest Dan grade the player waits for approval of ("1 Kyu (1 Dan pending)"), or NULL."""
    return Subquery(
        Promotion.objects.filter(player=OuterRef(outer), status=PromotionStatus.PENDING, grade__gte=FIRST_DAN)
        .order_by("grade")
        .values("grade")[:1]
    )


def rating_list(*, date: dt.date | None = None, active: bool = True) -> QuerySet[Player]:
    """The rating list of ``date`` (None or today or later: today's), as Players annotated with the ``list_*``
    values of that date: ``list_rating``, ``list_games``, ``list_grade`` (the public grade), ``list_category``,
    ``list_last_played``, ``list_pending_grade`` (lowest Dan grade waiting for approval, or None).

    ``active`` keeps the FESA list's players only; otherwise every player with a rating on that date.
    Ordered by rating, highest first, then by name. Rank with :func:`with_rank` after filtering.
    """
    today = timezone.localdate()
    if date is None or date >= today:
        qs = _current_list()
        date = today
    else:
        qs = _list_as_of(date)
    if active:
        return qs.filter(list_last_played__gte=active_cutoff(date)).order_by(*LIST_ORDER)
    return qs.filter(list_games__gt=0).order_by(*LIST_ORDER)


def _current_list() -> QuerySet[Player]:
    return public_players().annotate(
        list_rating=F("rating"),
        list_games=F("games"),
        list_grade=F("grade"),
        list_category=F("category"),
        list_last_played=F("last_played"),
        list_pending_grade=pending_dan(),
    )


class _JSONArrayLength(Func):
    """Length of a JSON array (SQLite ``json_array_length``, PostgreSQL ``jsonb_array_length``)."""

    function = "JSON_ARRAY_LENGTH"
    output_field = IntegerField()

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        return super().as_sql(compiler, connection, function="JSONB_ARRAY_LENGTH", **extra)


def _list_as_of(date: dt.date) -> QuerySet[Player]:
    """Each player's values from his latest rating row on or before ``date``, else from his opening state
    (a migrated FESA list) if that is dated on or before ``date``.

    Grades as the public saw them that day: a Dan grade shows if it was approved by then (or came with the
    opening state); one found by then but not yet approved shows as pending.
    """
    rows = RatingRow.objects.filter(player=OuterRef("pk"), date__lte=date).order_by("-date", "-sequence")

    def latest(name: str) -> Subquery:
        return Subquery(rows.values(name)[:1])

    state = "opening_state__state"
    opening_last = Cast(KeyTextTransform("last_played", state), DateField())
    has_opening = Q(opening_state__isnull=False, asof_opening_last__lte=date)

    def opening(value: Any) -> Case:
        return Case(When(has_opening, then=value), default=None)

    end_of_day = timezone.make_aware(dt.datetime.combine(date + dt.timedelta(days=1), dt.time.min))
    approved_by_then = Promotion.objects.filter(
        player=OuterRef("pk"), status=PromotionStatus.APPROVED, grade__gte=FIRST_DAN, table__date__lte=date
    ).filter(Q(decided_at__lt=end_of_day) | Q(decided_at__isnull=True))
    waiting_then = Promotion.objects.filter(
        player=OuterRef("pk"), grade__gte=FIRST_DAN, table__date__lte=date, grade__gt=OuterRef("list_grade")
    ).filter(Q(status=PromotionStatus.PENDING) | Q(status=PromotionStatus.APPROVED, decided_at__gte=end_of_day))
    unrated_opening = has_opening & ~Q(opening_state__state__result_list=None)
    return (
        public_players()
        .alias(asof_opening_last=opening_last, asof_method=latest("method"))
        .annotate(
            list_rating=Coalesce(
                latest("rating_after"), opening(Cast(KeyTextTransform("rating", state), IntegerField()))
            ),
            list_games=Coalesce(
                latest("games_after"),
                opening(
                    Case(
                        When(
                            Q(opening_state__state__result_list=None),
                            then=Cast(KeyTextTransform("game_count", state), IntegerField()),
                        ),
                        default=_JSONArrayLength(KeyTransform("result_list", state)),
                    )
                ),
            ),
            list_last_played=Coalesce(latest("date"), opening(opening_last)),
            asof_computed_grade=Coalesce(
                latest("grade_after"), opening(Cast(KeyTextTransform("grade", state), IntegerField()))
            ),
            asof_held_grade=Coalesce(
                Subquery(approved_by_then.order_by("-grade").values("grade")[:1]),
                opening(Cast(KeyTextTransform("grade", state), IntegerField())),
                Value(0),
            ),
        )
        .annotate(
            list_grade=Greatest(Least(F("asof_computed_grade"), Value(LAST_KYU)), F("asof_held_grade")),
            list_category=Case(
                When(
                    Q(asof_method=RatingRow.Method.PERFORMANCE) | (Q(asof_method__isnull=True) & unrated_opening),
                    then=Value(Category.UNRATED),
                ),
                When(list_games__gte=ESTABLISHED_FROM, then=Value(Category.ESTABLISHED)),
                default=Value(Category.PROVISIONAL),
                output_field=CharField(),
            ),
        )
        .annotate(list_pending_grade=Subquery(waiting_then.order_by("grade").values("grade")[:1]))
    )


def with_rank(qs: QuerySet[Player]) -> QuerySet[Player]:
    """Number the (already filtered) list 1, 2, 3 ... by rating as FESA does: equal ratings get consecutive
    numbers, in name order. Filters added after this would change the numbering, so add them before."""
    return qs.annotate(
        rank=Window(RowNumber(), order_by=[F("list_rating").desc(), F("family_name"), F("given_name"), F("pk")])
    )


def list_dates(limit: int = 6) -> list[dt.date]:
    """The dates of the most recent official lists: FESA publishes a list after each rated table."""
    return list(
        Table.objects.filter(status=TableStatus.RATED)
        .order_by("-date")
        .values_list("date", flat=True)
        .distinct()[:limit]
    )


def list_countries() -> list[tuple[str, str]]:
    """(code, name) of the countries the federation's players come from, by name: the choices worth offering
    in the country filter (any country code stays a valid filter value)."""
    from django_countries import countries

    # All players, professionals too: read from the country index alone, without touching the rows.
    codes = set(Player.objects.values_list("nationality", flat=True).distinct().order_by()) - {""}
    return sorted(((code, str(countries.name(code))) for code in codes), key=lambda c: c[1])


def is_list_date(date: dt.date) -> bool:
    return Table.objects.filter(status=TableStatus.RATED, date=date).exists()


# --- Players ----------------------------------------------------------------------------------------------------


def player_for_page(federation_id: str) -> Player:
    """The player with this federation id, with ``list_pending_grade``; raises Player.DoesNotExist.

    Professionals have a page too (they play in tables); only the lists leave them out.
    """
    return Player.objects.annotate(list_pending_grade=pending_dan()).get(federation_id=federation_id.upper())


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


@dataclass
class GradeStep:
    """Promotions of one table with one decision, as one line: a newcomer may pass many grades at once."""

    table: Table | None
    status: str
    status_label: str
    low: int
    high: int
    routes: list[str]
    decided_at: dt.datetime | None


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
            last.decided_at = max(filter(None, [last.decided_at, p.decided_at]), default=None)
            continue
        steps.append(
            GradeStep(
                table=p.table,
                status=p.status,
                status_label=str(p.get_status_display()),
                low=p.grade,
                high=p.grade,
                routes=[str(p.get_route_display())],
                decided_at=p.decided_at,
            )
        )
    return steps


# --- Tables -----------------------------------------------------------------------------------------------------


def table_for_page(pk: int) -> Table:
    """A submitted or rated table with its tournament; drafts are not public. Raises Table.DoesNotExist."""
    return Table.objects.select_related("tournament").get(pk=pk, status__in=PUBLIC_TABLE_STATUSES)


def held_dan_grades(player_ids: list[int]) -> dict[int, int]:
    """Each player's highest Dan grade held by approval or by his opening state (two queries)."""
    from ratings.models import OpeningState
    from ratings.states import state_from_json

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
    far as it is approved (RULES.md §8)."""
    if computed <= LAST_KYU:
        return computed
    return max(LAST_KYU, min(computed, held))


@dataclass(frozen=True)
class CrossCell:
    """A round cell as FESA prints it: opponent's number and sign, ``12+``, ``3-(+R)``; ``0+`` for a bye."""

    text: str
    outcome: str  # "win", "loss", "draw" or "" (no game)
    opponent: Player | None = None
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


_POINTS = {"win": 1.0, "draw": 0.5, "loss": 0.0}
_NO_GAME = {"bye": ("0+", 1.0), "half_bye": ("0=", 0.5), "absent": ("0-", 0.0), "no_show": ("0#", 0.0)}
_SIGN = {"win": "+", "loss": "-", "draw": "="}


def table_crosstable(table: Table) -> Crosstable:
    """The table as FESA publishes it (FESA-FILES.md, the result table), in a fixed number of queries.

    Rows in seat order; the grade is the public grade before the table; a player without a rated game
    (byes, absences only) takes no part: his rating before stands, with no change, or starred while he is
    still on a result list (as the FESA program prints him).
    """
    from ratings.selectors import states_before

    entries = list(table.entries.select_related("player").order_by("seat"))
    seats = {e.player_id: e.seat for e in entries}
    players = {e.player_id: e.player for e in entries}
    rows = {r.player_id: r for r in table.rating_rows.defer("state_before", "state_after", "detail")}
    missing = [pid for pid in seats if pid not in rows]
    before = states_before(date=table.date, sequence=table.sequence, player_ids=missing) if missing else {}
    held = held_dan_grades(list(seats))
    cells: dict[int, dict[int, CrossCell]] = {pid: {} for pid in seats}
    points = dict.fromkeys(seats, 0.0)
    rounds: set[int] = set()
    has_handicaps = False
    for game in table.games.order_by("round", "id"):
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
        elif pid in before:
            state = before[pid]
            performance = state.result_list is not None
            rating, change, computed = state.rating, (None if performance else 0), state.grade
        else:  # not rated yet (submitted, waiting)
            performance, rating, change, computed = False, None, None, entry.player.grade
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
        promotions=sorted(
            table_promotions([table.pk])[table.pk], key=lambda t: (seats.get(t.player.pk, 0), t.player.pk)
        ),
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


# --- Tournaments and promotions ---------------------------------------------------------------------------------


def public_tables() -> QuerySet[Table]:
    return Table.objects.filter(status__in=PUBLIC_TABLE_STATUSES)


def tournaments_list() -> QuerySet[Tournament]:
    """Tournaments with at least one public table, newest first, each with ``public_tables`` (in date and
    sequence order, with ``player_count``) prefetched in one more query."""
    tables = public_tables().annotate(player_count=Count("entries")).order_by("date", "sequence")
    return (
        Tournament.objects.filter(Exists(public_tables().filter(tournament=OuterRef("pk"))))
        .prefetch_related(Prefetch("tables", queryset=tables, to_attr="public_tables"))
        .order_by("-end_date", "name", "pk")
    )


def tournament_years() -> list[int]:
    """The years from the latest tournament back to the first, newest first (read from the end-date index;
    a year without tournaments in between simply lists none)."""
    span = Tournament.objects.aggregate(first=Min("end_date"), last=Max("end_date"))
    if span["first"] is None:
        return []
    return list(range(span["last"].year, span["first"].year - 1, -1))


def tournament_countries() -> list[tuple[str, str]]:
    """(code, name) of the countries tournaments were held in, by name."""
    from django_countries import countries

    codes = set(Tournament.objects.values_list("country", flat=True).distinct().order_by()) - {""}
    return sorted(((code, str(countries.name(code))) for code in codes), key=lambda c: c[1])


def promotion_tables() -> QuerySet[Table]:
    """Rated tables that promoted someone (to a grade in effect or approved), newest first; read their lines
    with :func:`table_promotions` for one page of tables at a time."""
    granted = Promotion.objects.filter(table=OuterRef("pk"), status__in=SHOWN_PROMOTION_STATUSES)
    return (
        Table.objects.filter(status=TableStatus.RATED)
        .filter(Exists(granted))
        .select_related("tournament")
        .order_by("-date", "-sequence")
    )


def pending_promotions() -> QuerySet[Promotion]:
    """Dan promotions waiting for a grade officer's approval, one line per player: his lowest pending grade
    (the one to decide first), with ``highest_pending``; the longest waiting (first found) first."""
    pending = Promotion.objects.filter(status=PromotionStatus.PENDING, grade__gte=FIRST_DAN)
    lower = pending.filter(player=OuterRef("player"), grade__lt=OuterRef("grade"))
    highest = pending.filter(player=OuterRef("player")).order_by("-grade").values("grade")[:1]
    return (
        pending.exclude(Exists(lower))
        .annotate(highest_pending=Subquery(highest))
        .select_related("player", "table__tournament")
        .order_by("created_at", "pk")
    )
