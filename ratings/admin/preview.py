"""What a table's rating would do, as lines for the admin's preview page.

``preview_lines`` turns the engine's ``TableResult`` (ratings.services.tables.table_preview) into rows a
director can read: seat, player, rating before and after, change (or the new rating marked ``*`` for a
player rated by performance), games, score, grades, and each game's detail. Formatting only: no rule here.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from django.utils.translation import gettext as _

from ratings import engine
from ratings.engine import grade_label
from ratings.engine.grades import is_dan
from ratings.models import PromotionRoute, Table, TableEntry


@dataclass(frozen=True)
class GameLine:
    round: int
    opponent: str
    score: float
    opponent_rating: int
    effective_rating: int
    handicap: str
    expected: float | None
    k: int | None
    change: float | None
    bonus: float | None
    upset: bool


@dataclass(frozen=True)
class PlayerLine:
    seat: int
    player_id: int
    name: str
    method: str
    rating_before: int
    rating_after: int
    change: int | None
    performance: bool
    games: int
    score: float
    grade_before: str
    grade_after: str
    game_lines: tuple[GameLine, ...]

    @property
    def change_label(self) -> str:
        """ "+12", "-5", "0", or the new rating with ``*`` for a player rated by performance."""
        if self.performance or self.change is None:
            return f"{self.rating_after}*"
        return f"{self.change:+d}" if self.change else "0"


@dataclass(frozen=True)
class PromotionLine:
    player_id: int
    name: str
    grade: int  # on the engine's scale (21 = 1 Dan)
    grade_label: str
    route: str
    round: int | None
    rating: float
    first_grade_label: str = ""  # several grades found on one game at once: the lowest ("20 Kyu" of 20–5 Kyu)


def _grouped(lines: list[PromotionLine]) -> list[PromotionLine]:
    """Grades found one after another on the same game (a newcomer's first test can find sixteen) as one line,
    Kyu and Dan grades apart (a Dan grade waits for approval), as the upload's preview says them in one cell."""
    out: list[PromotionLine] = []
    for line in lines:
        last = out[-1] if out else None
        same = last is not None and (last.player_id, last.route, last.round, last.rating) == (
            line.player_id,
            line.route,
            line.round,
            line.rating,
        )
        if last is not None and same and is_dan(last.grade) == is_dan(line.grade) and line.grade == last.grade + 1:
            out[-1] = replace(line, first_grade_label=last.first_grade_label or last.grade_label)
        else:
            out.append(line)
    return out


@dataclass(frozen=True)
class Preview:
    players: tuple[PlayerLine, ...]
    promotions: tuple[PromotionLine, ...]
    not_playing: tuple[str, ...]  # entered, but without a rated game: left out of the rating (docs/rules.md §6)


def preview_lines(table: Table, result: engine.TableResult) -> Preview:
    entries = list(TableEntry.objects.filter(table=table).select_related("player").order_by("seat"))
    seats = {e.player_id: e.seat for e in entries}
    names = {e.player_id: str(e.player) for e in entries}
    routes = dict(PromotionRoute.choices)
    players: list[PlayerLine] = []
    promotions: list[PromotionLine] = []
    for outcome in result.outcomes:
        pid = int(outcome.key)  # type: ignore[call-overload]
        players.append(
            PlayerLine(
                seat=seats.get(pid, 0),
                player_id=pid,
                name=names.get(pid, f"#{pid}"),
                method=outcome.method,
                rating_before=outcome.rating_before,
                rating_after=outcome.rating_after,
                change=outcome.change,
                performance=outcome.method == "performance",
                games=len(outcome.games),
                score=outcome.score,
                grade_before=grade_label(outcome.before.grade),
                grade_after=grade_label(outcome.after.grade),
                game_lines=tuple(_game_line(g, names) for g in outcome.games),
            )
        )
        promotions.extend(
            PromotionLine(
                player_id=pid,
                name=names.get(pid, f"#{pid}"),
                grade=p.grade,
                grade_label=grade_label(p.grade),
                route=str(routes.get(p.route, p.route)),
                round=p.round,
                rating=p.rating,
            )
            for p in outcome.promotions
        )
    players.sort(key=lambda line: line.seat)
    playing = {line.player_id for line in players}
    not_playing = tuple(names[e.player_id] for e in entries if e.player_id not in playing)
    return Preview(players=tuple(players), promotions=tuple(_grouped(promotions)), not_playing=not_playing)


def _game_line(g: engine.GameDetail, names: dict[int, str]) -> GameLine:
    handicap = ""
    if g.handicap:
        side = _("given") if g.handicap_given else _("received")
        handicap = f"{g.handicap} ({side})"
    return GameLine(
        round=g.round,
        opponent=names.get(int(g.opponent), f"#{g.opponent}"),  # type: ignore[call-overload]
        score=g.score,
        opponent_rating=g.opponent_rating,
        effective_rating=g.effective_rating,
        handicap=handicap,
        expected=g.expected,
        k=g.k,
        change=g.change,
        bonus=g.bonus,
        upset=g.upset,
    )
